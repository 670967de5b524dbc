"""The one way to change a game played against deals: a function per operation.

Like `ratings.services` (which this completes, for solitaire and patience nights), each function
validates, writes, recomputes the game's table (`ratings.deals.engine`) from the earliest session it
touched and moves the league's revision on, in one transaction; refusals are `ValidationError`s
written for the club's secretary. The admin, the imports and the commands call only these.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

import league.history as history
from league.models import Attempt, Deal, DealLevel, DealSeed, DealSession, Game, Player, Revision
from league.validation import DEALS, LEVELS, name_key, seed_problem, variant_problem

from ..bulk import analyze_after_load, insert_rows
from ..models import AttemptRating
from ..services.catalogue import free_game_slug, game_table, save_game
from ..services.imports import players_named
from ..services.matchdays import hold_players
from . import engine as deal_engine
from . import selectors as deal_selectors


@dataclass
class AttemptInput:
    """One attempt as entered; `player` may be a new, unsaved player, created on saving."""

    player: Player
    variant: str
    level: int
    number: int
    won: bool
    rated: bool = True


def attempt_problems(game: Game | None, attempts: Sequence[AttemptInput]) -> list[str]:
    """Everything wrong with a session's attempts, each naming its row, or an empty list."""
    if game is not None and not game.against_deals:
        return [f"{game} is not played against deals: its results are matchdays."]
    if not attempts:
        return ["A session needs at least one attempt."]
    problems = []
    for row, attempt in enumerate(attempts, start=1):
        problem = (
            variant_problem(attempt.variant)
            or LEVELS.problem("level", attempt.level)
            or DEALS.problem("deal", attempt.number)
        )
        if problem:
            problems.append(f"Row {row}: {problem}.")
    return problems


def _deals_of(game: Game, wanted: Iterable[tuple[str, int, int]]) -> tuple[dict[tuple, int], int]:
    """The ids of the game's deals by (variant key, level, number), creating the variants, levels and
    deals that first appear here (variants are compared like names, by `name_key`). Returns them and
    how many deals were created."""
    wanted = {(name_key(v), level, number): (v, level, number) for v, level, number in wanted}
    levels = {(name_key(lv.variant), lv.level): lv for lv in DealLevel.objects.filter(game=game)}
    new_levels = {}
    for (key, level, _), (variant, _, _) in wanted.items():
        if (key, level) not in levels and (key, level) not in new_levels:
            new_levels[key, level] = DealLevel(game=game, variant=variant, level=level)
    for created in DealLevel.objects.bulk_create(new_levels.values()):
        levels[name_key(created.variant), created.level] = created
    by_level = {lv.pk: key for key, lv in levels.items()}
    if len(wanted) > BATCH_SIZE:  # a file's worth: read the game's deals rather than name them all
        stored = Deal.objects.filter(level__game=game)
    else:  # tonight's session: just its deals, level by level
        numbers: dict[int, set[int]] = {}
        for key, level, number in wanted:
            numbers.setdefault(levels[key, level].pk, set()).add(number)
        stored = Deal.objects.filter(_any(Q(level_id=lv, number__in=n) for lv, n in numbers.items()))
    found = {(*by_level[level], number): pk for pk, level, number in stored.values_list("pk", "level_id", "number")}
    new = [
        Deal(level=levels[key, level], number=number)
        for key, level, number in wanted
        if (key, level, number) not in found
    ]
    for deal in Deal.objects.bulk_create(new, batch_size=BATCH_SIZE):
        found[(*by_level[deal.level_id], deal.number)] = deal.pk
    return found, len(new)


def _any(conditions: Iterable[Q]) -> Q:
    combined = Q(pk__in=[])
    for condition in conditions:
        combined |= condition
    return combined


BATCH_SIZE = 2000


def recompute_deals(since_by_game: dict[int, date | None]) -> None:
    """Recompute each deal game's table from its date (None: from its seeds on), and move the
    revision on."""
    for game_id, since in since_by_game.items():
        deal_engine.recompute(game_table(Game(pk=game_id)), since)
    Revision.bump(*Game.objects.filter(pk__in=since_by_game).values_list("club", flat=True).distinct())


@transaction.atomic
@history.one_write()
def save_session(session: DealSession, attempts: Sequence[AttemptInput]) -> list[AttemptRating]:
    """Add or change a session and its attempts (which replace the stored ones, in the order given),
    then recompute the game from the session's earlier date on. Returns the session's rated attempts."""
    game = session.game if session.game_id else None
    problems = attempt_problems(game, attempts)
    if problems:
        raise ValidationError(problems)
    if game is not None and any(a.player.pk is not None and a.player.club_id != game.club_id for a in attempts):
        raise ValueError("A session's players must be of its game's club")  # a writer's bug, stopped before writing
    session.full_clean()
    old = DealSession.objects.filter(pk=session.pk).values_list("game_id", "date").first() if session.pk else None
    as_it_was = history.sessions([session.pk] if session.pk else [])
    session.save()
    hold_players(a.player for a in attempts)  # one merged away meanwhile: refused by name
    new_players: dict[str, Player] = {}  # one new player however many attempts name them
    players = []
    for attempt in attempts:
        given = attempt.player
        if given.pk is None:
            given = new_players.setdefault(name_key(given.short_name), given)
            if given.pk is None:
                given.club_id = session.game.club_id
                given.save()
                history.record(given.club_id, [history.saved("player", given, None)])
        players.append(given)
    deal_of, _ = _deals_of(session.game, {(a.variant, a.level, a.number) for a in attempts})
    session.attempts.all().delete()
    Attempt.objects.bulk_create(
        Attempt(
            session=session,
            position=position,
            player=who,
            deal_id=deal_of[name_key(a.variant), a.level, a.number],
            won=a.won,
            rated=a.rated,
        )
        for position, (a, who) in enumerate(zip(attempts, players, strict=True), start=1)
    )
    since = {session.game_id: session.date}
    if old is not None:
        since[old[0]] = min(old[1], since.get(old[0], old[1]))
    recompute_deals(since)
    history.record(session.game.club_id, history.session_changes(as_it_was, history.sessions([session.pk])))
    return deal_selectors.session_changes(session)


@transaction.atomic
def delete_sessions(sessions: Iterable[DealSession]) -> None:
    """Delete sessions with their attempts and recompute their games from the earliest of them."""
    since: dict[int, date] = {}
    for session in sessions:
        since[session.game_id] = min(session.date, since.get(session.game_id, session.date))
    as_they_were = history.sessions(s.pk for s in sessions)
    clubs = dict(DealSession.objects.filter(pk__in=as_they_were).values_list("pk", "game__club"))
    DealSession.objects.filter(pk__in=[s.pk for s in sessions]).delete()
    for club in set(clubs.values()):
        history.record(club, history.session_changes({k: v for k, v in as_they_were.items() if clubs[k] == club}, {}))
    if since:
        recompute_deals(since)


@dataclass
class ImportedAttempt:
    line: int  # where the secretary finds it in their file
    player: str
    variant: str
    level: int
    number: int
    won: bool
    rated: bool = True


@dataclass
class ImportedSession:
    date: date
    game: str
    attempts: list[ImportedAttempt] = field(default_factory=list)


@dataclass
class ImportedSeed:
    line: int
    game: str
    variant: str
    level: int
    number: int
    plays: int
    wins: int


@dataclass
class DealImportSummary:
    sessions: int = 0
    attempts: int = 0
    deals_seeded: int = 0
    deals_created: int = 0
    players_created: list[str] = field(default_factory=list)
    games_created: list[str] = field(default_factory=list)


def _first_lines(named: Iterable[tuple[str, int]]) -> dict[str, tuple[str, int]]:
    """Each game named in a file ((name, line) in file order) by name key, as it first appears."""
    first: dict[str, tuple[str, int]] = {}
    for name, line in named:
        first.setdefault(name_key(name), (name, line))
    return first


def matchday_games(named: Iterable[tuple[str, int]]) -> list[str]:
    """What is wrong with the games a file of attempts names ((name, line) in file order): one
    problem for each game of the club's played in matchdays, at the line it first appears."""
    of_matchdays = {name_key(g.name): g for g in Game.objects.filter(against_deals=False)}
    return [
        f"Line {line}: {of_matchdays[key]} is not played against deals: its results are matchdays."
        for key, (_, line) in _first_lines(named).items()
        if key in of_matchdays
    ]


def _deal_games(named: Iterable[tuple[str, int]], summary: DealImportSummary) -> dict[str, Game]:
    """The games named in a file ((name, line) in file order), by name key; unknown ones are created
    as games played against deals, spelled as they first appear; a game of matchdays is refused."""
    named = list(named)
    if problems := matchday_games(named):
        raise ValidationError(problems)
    games = {name_key(g.name): g for g in Game.objects.all()}
    for key, (name, _) in _first_lines(named).items():
        if key not in games:
            games[key] = Game(name=name, slug=free_game_slug(name), against_deals=True)
            save_game(games[key])
            summary.games_created.append(name)
    return games


def lines_of(imported: Sequence[ImportedSession]) -> list[tuple[str, int]]:
    """Each session's game with the line where it appears, in file order."""
    return sorted(((s.game, s.attempts[0].line) for s in imported), key=lambda pair: pair[1])


@transaction.atomic
@history.one_write()
def import_attempts(imported: Sequence[ImportedSession], *, replace: bool = False) -> DealImportSummary:
    """Add a file's sessions (one per date and game, checked by the parser) in bulk, creating unknown
    players, games (played against deals), variants, levels and deals, and recompute each game from
    its earliest session in the file. Sessions that exist are refused unless `replace`, which
    replaces their attempts."""
    summary = DealImportSummary()
    games = _deal_games(lines_of(imported), summary)
    by_key = {(games[name_key(s.game)].pk, s.date): s for s in imported}
    existing = {
        (s.game_id, s.date): s
        for s in DealSession.objects.filter(game__in={g for g, _ in by_key}, date__in={d for _, d in by_key})
        if (s.game_id, s.date) in by_key
    }
    if existing and not replace:
        keys = sorted(existing)
        lines = ", ".join(f"{by_key[k].date} {by_key[k].game} (line {by_key[k].attempts[0].line})" for k in keys[:5])
        more = f" and {len(keys) - 5} more" if len(keys) > 5 else ""
        raise ValidationError(f"These sessions already exist: {lines}{more}; use --replace to replace their attempts.")
    players, summary.players_created = players_named(a.player for s in imported for a in s.attempts)
    hold_players(players.values())  # a player merged away meanwhile: refused by name, not a database error
    as_they_were = history.sessions(s.pk for s in existing.values())
    Attempt.objects.filter(session__in=list(existing.values())).delete()
    sessions = [existing.get(key) or DealSession(game_id=key[0], date=key[1]) for key in by_key]
    DealSession.objects.bulk_create([s for s in sessions if s.pk is None])
    rows = []
    for game_id in {g for g, _ in by_key}:
        mine = [(s, by_key[s.game_id, s.date]) for s in sessions if s.game_id == game_id]
        wanted = {(a.variant, a.level, a.number) for _, given in mine for a in given.attempts}
        deal_of, created = _deals_of(games[name_key(mine[0][1].game)], wanted)
        summary.deals_created += created
        rows.extend(
            (
                s.pk,
                position,
                players[name_key(a.player)].pk,
                deal_of[name_key(a.variant), a.level, a.number],
                a.won,
                a.rated,
            )
            for s, given in mine
            for position, a in enumerate(given.attempts, start=1)
        )
    insert_rows(Attempt, ("session_id", "position", "player_id", "deal_id", "won", "rated"), rows)
    analyze_after_load(len(rows), Attempt, DealSession, Deal)
    since: dict[int, date] = {}
    for game_id, day in by_key:
        since[game_id] = min(day, since.get(game_id, day))
    recompute_deals(since)
    club = next(iter(games.values())).club_id  # a file's games are one club's
    history.record(club, history.session_changes(as_they_were, history.sessions(s.pk for s in sessions)))
    summary.sessions, summary.attempts = len(sessions), len(rows)
    return summary


@transaction.atomic
def seed_deals(seeds: Sequence[ImportedSeed]) -> DealImportSummary:
    """Set deals' prior records (plays and wins), creating the games, variants, levels and deals that
    first appear, and recompute each game from its seeds on: seeds set where its deals start."""
    for seed in seeds:
        problem = variant_problem(seed.variant) or seed_problem(seed.plays, seed.wins)
        if problem:
            raise ValidationError(f"Line {seed.line}: {problem}.")
    summary = DealImportSummary(deals_seeded=len(seeds))
    games = _deal_games([(s.game, s.line) for s in seeds], summary)
    touched = {}
    for game in {games[name_key(s.game)].pk: games[name_key(s.game)] for s in seeds}.values():
        mine = [s for s in seeds if games[name_key(s.game)].pk == game.pk]
        deal_of, created = _deals_of(game, {(s.variant, s.level, s.number) for s in mine})
        summary.deals_created += created
        records = {deal_of[name_key(s.variant), s.level, s.number]: s for s in mine}
        DealSeed.objects.filter(deal_id__in=records).delete()
        DealSeed.objects.bulk_create(
            [DealSeed(deal_id=pk, plays=s.plays, wins=s.wins) for pk, s in records.items()], batch_size=BATCH_SIZE
        )
        touched[game.pk] = None
    recompute_deals(touched)
    return summary
