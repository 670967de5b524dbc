"""A file's matchdays imported at once: players and games found (and created as they first appear),
each matchday through the one check, then the one writer (`matchdays.save_matchdays`), which writes
the results as plain rows and recomputes once from the earliest matchday touched.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

import league.history as history
from league.checked import Refused
from league.models import FormerName, Game, Matchday, Player, default_club
from league.results import TypedResult
from league.validation import NAME_LENGTH, SHORT_NAME_LENGTH, name_key, name_problem, short_name_from

from .catalogue import add_games, free_game_slug
from .checks import CheckedMatchday, GameTables, check_matchday
from .matchdays import look_alikes, save_matchdays
from .recompute import RecomputeError

MAX_PROBLEMS = 20  # problems listed; a file with more says how many more


@dataclass
class ImportedMatchday:
    """One matchday of a file: its facts as its lines give them, its results as typed (each naming
    its line), and where the file holds it, for the problems of the matchday as a whole ("Matchday 7
    (lines 2-5)"; the number alone when not given)."""

    number: int
    date: date
    game: str
    rounds: int
    results: list[TypedResult] = field(default_factory=list)
    where: str = ""
    source: str = ""  # the play it was imported from, for an app's file (Matchday.source)

    def named(self) -> str:
        return self.where or f"Matchday {self.number}"


@dataclass
class ImportSummary:
    matchdays: int
    results: int
    players_created: list[str]
    games_created: list[str]
    # The file's new matchdays that look like saved ones (the same date, game and players).
    look_alikes: list[str] = field(default_factory=list)
    new_players: list[tuple[str, str]] = field(default_factory=list)  # (short name, full name)
    numbers: list[int] = field(default_factory=list)  # the file's matchdays, in its order


@dataclass
class _CheckedFile:
    """A file's matchdays checked, with the players and games they name (new ones unsaved)."""

    checked: list[CheckedMatchday]
    players: dict[str, Player]
    games: dict[str, Game]
    problems: list[str]


@transaction.atomic
@history.one_write()  # its new games, players and matchdays: one entry of the history, undone as one
def import_matchdays(imported: Sequence[ImportedMatchday], *, replace: bool = False) -> ImportSummary:
    """Add a file's matchdays, creating unknown players and games (as official games), and
    recompute from the earliest matchday touched. Existing matchdays are refused unless `replace`,
    which replaces their results. ValidationError lists the file's problems (the first 20)."""
    existing, problems = _existing_or_problem(imported, replace)
    found = _checked(imported, existing)
    found.problems[:0] = problems  # every problem at once, the matchdays already stored first
    if found.problems:
        raise ValidationError(_listed(found))
    new_games = [game for game in found.games.values() if game.pk is None]
    for game in new_games:
        game.slug = free_game_slug(game.name, taken={other.slug for other in new_games if other.slug})
    one_round = _played_in_one_round(imported, new_games)
    add_games(one_round, new_game_method=True)
    add_games([game for game in new_games if game not in one_round])
    created = _new(found.players)
    new_players = [player.short_name for player in created]
    alike = _look_alikes(found)
    try:
        save_matchdays(found.checked, found.players)
    except RecomputeError as error:  # what the check cannot foresee (a method's own limits)
        raise ValidationError(f"The results cannot be rated: {error}") from None
    results = sum(len(one.results) for one in found.checked)
    named = [(player.short_name, player.name) for player in created]
    numbers = [one.matchday.number for one in found.checked]
    games = [game.name for game in new_games]
    return ImportSummary(len(found.checked), results, new_players, games, alike, named, numbers)


def _played_in_one_round(imported: Sequence[ImportedMatchday], games: list[Game]) -> list[Game]:
    """The new games every matchday of the file plays in one round (board games): their tables start
    on the method for one-round games; a game played in rounds (cards) on the club formula."""
    rounds: dict[str, set[int]] = {}
    for matchday in imported:
        rounds.setdefault(name_key(matchday.game), set()).add(matchday.rounds)
    return [game for game in games if rounds.get(name_key(game.name)) == {1}]


def _look_alikes(found: _CheckedFile) -> list[str]:
    """The file's new matchdays whose date, game and players are a saved matchday's, each named
    beside the one it looks like. Before the save: afterwards every one would look like itself."""
    new = [one for one in found.checked if one.matchday.pk is None]
    wanted = []
    for one in new:
        who = [found.players[name_key(r.player)].pk for r in one.results]
        wanted.append((one.matchday.date, one.matchday.game.pk, frozenset(who) if None not in who else frozenset()))
    alike = look_alikes(wanted)
    return [
        f"Matchday {new[i].matchday.number} looks like matchday {saved.number} (the same date, game and players)"
        for i, saved in sorted(alike.items())
    ]


def file_problems(imported: Sequence[ImportedMatchday], replace: bool = False) -> list[str]:
    """Every problem of a file's matchdays as the import would find them, with nothing written: for a
    file whose other lines could not be read, so that its problems are listed at once."""
    existing, problems = _existing_or_problem(imported, replace)
    return problems + _checked(imported, existing).problems


def _existing_or_problem(imported: Sequence[ImportedMatchday], replace: bool) -> tuple[dict[int, Matchday], list[str]]:
    """The stored matchdays the file replaces, or (without `replace`) the problem that they exist."""
    try:
        return _existing(imported, replace), []
    except ValidationError as error:
        return {}, error.messages


def _listed(found: _CheckedFile) -> list[str]:
    more = len(found.problems) - MAX_PROBLEMS
    return found.problems[:MAX_PROBLEMS] + ([f"... and {more} more problems."] if more > 0 else [])


def _checked(imported: Sequence[ImportedMatchday], existing: dict[int, Matchday]) -> _CheckedFile:
    """Each matchday through the one check, each player under the name they go by now."""
    rows = [row for matchday in imported for row in matchday.results]
    first: dict[str, str] = {}
    for row in rows:
        first.setdefault(name_key(row.player), row.line)
    try:
        games = _games_by_key(imported)
        players = players_by_name((row.player for row in rows), where=lambda key: first.get(key, ""))
    except ValidationError as error:
        return _CheckedFile([], {}, {}, error.messages)
    found = _CheckedFile([], players, games, [])
    tables, named, today = GameTables(), {}, timezone.localdate()
    club = default_club()  # once, not per new matchday
    shorts = {}  # each name once, under the short name of its player
    for name in dict.fromkeys(row.player for row in rows):
        # A name holding what no name may ("K" and a zero-width space) stays as typed for the check to
        # refuse, as the entry page does, though its key (the space left out) finds the player.
        shorts[name] = name if name_problem(name, "player", NAME_LENGTH) else players[name_key(name)].short_name
    for given in imported:
        game = games[name_key(given.game)]
        matchday = existing.get(given.number) or Matchday(number=given.number, club_id=club, source=given.source)
        matchday.date, matchday.game, matchday.rounds = given.date, game, given.rounds
        typed = [row if shorts[row.player] == row.player else _as_named(row, shorts) for row in given.results]
        try:
            found.checked.append(check_matchday(matchday, game, typed, tables=tables, named=named, today=today))
        except Refused as refused:
            found.problems += [str(p) if p.line else f"{given.named()}: {p.text}" for p in refused.problems]
    return found


def _as_named(row: TypedResult, shorts: dict[str, str]) -> TypedResult:
    """A row under the short name of the player it names (a former name is theirs; "gl" is GL)."""
    return TypedResult(row.play, shorts[row.player], row.line, row.note, row.tied)


HOW_TO_REPLACE = "tick Replace on the upload page, or give the command --replace"


def _existing(imported: Sequence[ImportedMatchday], replace: bool) -> dict[int, Matchday]:
    """The file's matchdays that are stored already, by number; refused unless `replace`."""
    numbers = [m.number for m in imported]
    existing = {m.number: m for m in Matchday.objects.filter(number__in=numbers).select_related("game")}
    if existing and not replace:
        shown = ", ".join(str(n) for n in sorted(existing))
        raise ValidationError(
            # one message for the admin's upload and the command, which ask for it each in its own way
            f"Matchday {shown} already exists; to replace its results, {HOW_TO_REPLACE}."
            if len(existing) == 1
            else f"Matchdays {shown} already exist; to replace their results, {HOW_TO_REPLACE}."
        )
    return existing


def _games_by_key(imported: Sequence[ImportedMatchday]) -> dict[str, Game]:
    """Every game by name key, those the file names first new (unsaved, official, scored by placings).
    A game played against deals is refused: its attempts have an import of their own."""
    games = {g.name_key: g for g in Game.objects.all()}
    for matchday in imported:
        name = matchday.game
        if name_key(name) in games and games[name_key(name)].against_deals:
            raise ValidationError(
                f"Matchday {matchday.number}: {name} is played against deals; import its attempts with "
                "import_attempts instead."
            )
        if name_key(name) not in games:
            games[name_key(name)] = Game(name=name)
    return games


def players_by_name(names: Iterable[str], where=lambda key: "") -> dict[str, Player]:
    """Every player by name key, those of `names` not yet stored new (unsaved, spelt as first named).
    "GL", "gl" and "ＧＬ" are one player; a name a player went by before (a former name) is theirs
    unless it is someone's current short name. A former name of several players is refused
    (`where(key)` names its line) rather than taken for a new player. Two queries."""
    everyone = list(Player.objects.all())
    players = {p.short_name_key: p for p in everyone}
    by_full: dict[str, list[Player]] = {}
    for player in everyone:
        by_full.setdefault(name_key(player.name), []).append(player)
    formerly: dict[str, dict[int, Player]] = {}
    for former in FormerName.objects.select_related("player"):
        formerly.setdefault(former.name_key, {})[former.player_id] = former.player
    names = list(dict.fromkeys(names))
    taken = set(players) | {name_key(name) for name in names}  # short names a long name's may not take
    problems = []
    for name in names:
        key = name_key(name)
        if key in players:
            continue
        if len(name) > SHORT_NAME_LENGTH:  # a full name: its player, or a new one with a short name made
            if problem := name_problem(name, "player", NAME_LENGTH):
                problems.append(f"{where(key)}: {problem}." if where(key) else f"{problem}.")
            else:
                _as_full_name(name, by_full.get(key, []), players, taken)
            continue
        went_by = list(formerly.get(key, {}).values())
        if len(went_by) > 1:
            listed = ", ".join(sorted(p.short_name for p in went_by))
            problems.append(
                f"{where(key)}: {name} is a former name of {len(went_by)} players ({listed}); write the "
                "current short name of the one who played."
                if where(key)
                else f"{name} is a former name of {len(went_by)} players ({listed}); write the current short "
                "name of the one who played."
            )
        players[key] = went_by[0] if went_by else Player(name=name, short_name=name, short_name_key=key)
    if problems:
        raise ValidationError(problems)
    return players


def _new(players: dict[str, Player]) -> list[Player]:
    """The unsaved players, once each (a new player named by a full name is under two keys)."""
    return list({id(p): p for p in players.values() if p.pk is None}.values())


def _as_full_name(name: str, found: list[Player], players: dict[str, Player], taken: set[str]) -> None:
    """A name too long for a short name is a full name: the one player whose full name it is, else a new
    player by it with a short name made from it (league.validation.short_name_from), found by both keys."""
    if len(found) == 1:
        players[name_key(name)] = found[0]
        return
    short = short_name_from(name, taken)
    taken.add(name_key(short))
    player = Player(name=name, short_name=short, short_name_key=name_key(short))
    players[name_key(name)] = players[name_key(short)] = player


def players_named(names: Iterable[str], where=lambda key: "") -> tuple[dict[str, Player], list[str]]:
    """`players_by_name`, the new players created: for an import of attempts, inside its transaction
    (which moves the revision on). Every player by name key, and the names created."""
    players = players_by_name(names, where)
    new = _new(players)
    Player.objects.bulk_create(new)
    for club in {player.club_id for player in new}:
        history.record(club, [history.saved("player", p, None) for p in new if p.club_id == club])
    return players, [player.short_name for player in new]
