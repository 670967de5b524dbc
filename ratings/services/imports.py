"""A file's matchdays imported in bulk: players and games created as they first appear, results
written as plain rows, and one recompute from the earliest matchday touched.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as replaced
from datetime import date

from django.core.exceptions import ValidationError
from django.db import connection, transaction

from league.models import FormerName, Game, Matchday, Player, Result
from league.placings import (
    BY_PLACINGS,
    matchday_problems,
    placed_by_points,
    same_side_labels,
    stored_rated_placings,
    winner_points,
)
from league.results import PLACING_FIELDS, RATED_AS_GIVEN, Entry, given_values, range_problems
from league.validation import (
    MATCHDAY_NUMBERS,
    NAME_LENGTH,
    ROUNDS,
    SHORT_NAME_LENGTH,
    WINNER_SCORES,
    name_key,
    name_problem,
)

from ..bulk import insert_rows
from .catalogue import free_game_slug
from .recompute import RecomputeError, recompute_from


@dataclass
class ImportedMatchday:
    number: int
    date: date
    game: str
    rounds: int
    results: list[Entry] = field(default_factory=list)  # each row says its line in the file


@dataclass
class ImportSummary:
    matchdays: int
    results: int
    players_created: list[str]
    games_created: list[str]


# The import's results as plain rows: the record's fields (the rated placing as the penalty rule
# derives it), and no note.
IMPORTED_RESULT_COLUMNS = ("matchday_id", "player_id", "note", *PLACING_FIELDS, *RATED_AS_GIVEN)


@transaction.atomic
def import_matchdays(imported: Sequence[ImportedMatchday], *, replace: bool = False) -> ImportSummary:
    """Add a file's matchdays (checked one by one by the parser) in bulk, creating unknown players
    and games (as official games), and recompute from the earliest matchday touched. Existing
    matchdays are refused unless `replace`, which replaces their results."""
    scorings = game_scorings()
    imported, problems = placed_by_scorings(imported, scorings)
    problems = problems or _imported_problems(imported)
    if problems:
        raise ValidationError(problems)
    existing = _existing(imported, replace)
    players, players_created = _players_by_key(imported)
    problems = _same_player_twice(imported, players)
    if problems:
        raise ValidationError(problems)
    games, games_created = _games_by_key(imported)

    # Replaced matchdays are rated again from where they stood before as well as from where they
    # stand now.
    touched_positions = [old.position for old in existing.values()]
    touched_games = {old.game_id: old.game for old in existing.values()}
    Result.objects.filter(matchday__in=list(existing.values())).delete()
    matchdays = []
    for given in imported:
        matchday = existing.get(given.number) or Matchday(number=given.number)
        matchday.date, matchday.game, matchday.rounds = given.date, games[name_key(given.game)], given.rounds
        points = winner_points(given.results, matchday.game.scoring)
        if points is not None and WINNER_SCORES.lowest <= points <= WINNER_SCORES.highest:
            matchday.winner_score = points  # the table-size method's winner's score, from the points
        matchdays.append(matchday)
        touched_positions.append(matchday.position)
        touched_games[matchday.game.pk] = matchday.game
    Matchday.objects.bulk_update([m for m in matchdays if m.pk], ["date", "game", "rounds", "winner_score"])
    Matchday.objects.bulk_create([m for m in matchdays if not m.pk])
    # A league's history arrives in one file: results are written as plain rows, not model instances,
    # with the rated placings the penalty rule derives (checked by the parser, line by line).
    rows = [
        (matchday.pk, players[name_key(row.player)].pk, "", row.placing, rated, *given_values(row))
        for matchday, given in zip(matchdays, imported, strict=True)
        for row, rated in zip(same_side_labels(given.results), stored_rated_placings(given.results), strict=True)
    ]
    insert_rows(Result, IMPORTED_RESULT_COLUMNS, rows)
    if connection.vendor == "postgresql" and len(rows) > 10_000:
        # The planner has no statistics for rows added in this transaction; without them it may
        # choose a nested loop that rescans the matchdays for every result of the recompute below.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE league_matchday, league_result")
    try:
        recompute_from(min(touched_positions), touched_games.values())
    except RecomputeError as error:  # e.g. a two-player method given a four-player matchday
        raise ValidationError(f"The results cannot be rated: {error}") from None
    return ImportSummary(len(imported), len(rows), players_created, games_created)


def _existing(imported: Sequence[ImportedMatchday], replace: bool) -> dict[int, Matchday]:
    """The file's matchdays that are stored already, by number; refused unless `replace`."""
    numbers = [m.number for m in imported]
    existing = {m.number: m for m in Matchday.objects.filter(number__in=numbers).select_related("game")}
    if existing and not replace:
        shown = ", ".join(str(n) for n in sorted(existing))
        raise ValidationError(
            f"Matchday {shown} already exists; use --replace to replace its results."
            if len(existing) == 1
            else f"Matchdays {shown} already exist; use --replace to replace their results."
        )
    return existing


def _players_by_key(imported: Sequence[ImportedMatchday]) -> tuple[dict[str, Player], list[str]]:
    """Every player by name key, those the file names first created; and the names created."""
    rows = [row for matchday in imported for row in matchday.results]
    first: dict[str, str] = {}
    for row in rows:
        first.setdefault(name_key(row.player), row.where())
    return players_named((row.player for row in rows), where=lambda key: first.get(key, ""))


def _same_player_twice(imported: Sequence[ImportedMatchday], players: dict[str, Player]) -> list[str]:
    """A player named twice in one matchday by two of their names (a current and a former one)."""
    problems = []
    for matchday in imported:
        seen: dict[int, Entry] = {}
        for row in matchday.results:
            first = seen.setdefault(players[name_key(row.player)].pk, row)
            if first is not row:
                problems.append(
                    f"{row.where()}{row.player} and {first.player} are one player "
                    f"({players[name_key(row.player)].short_name}), twice in matchday {matchday.number}."
                )
    return problems[:20]


def _games_by_key(imported: Sequence[ImportedMatchday]) -> tuple[dict[str, Game], list[str]]:
    """Every game by name key, those the file names first created as official games; and the names
    created. A game played against deals is refused: its attempts have an import of their own."""
    games = {g.name_key: g for g in Game.objects.all()}
    games_created = []
    for matchday in imported:
        name = matchday.game
        if name_key(name) in games and games[name_key(name)].against_deals:
            raise ValidationError(
                f"Matchday {matchday.number}: {name} is played against deals; import its attempts with "
                "import_attempts instead."
            )
        if name_key(name) not in games:
            games[name_key(name)] = Game.objects.create(name=name, slug=free_game_slug(name))
            games_created.append(name)
    return games, games_created


def game_scorings() -> dict[str, str]:
    """How each stored game is scored, by name key (a game the import creates is scored by placings)."""
    return dict(Game.objects.values_list("name_key", "scoring"))


def placed_by_scorings(
    imported: Sequence[ImportedMatchday], scorings: dict[str, str]
) -> tuple[list[ImportedMatchday], list[str]]:
    """The matchdays with the placings their points give, each by its game's scoring, and what is
    wrong with the points (league.placings.placed_by_points), each naming its matchday."""
    placed, problems = [], []
    for matchday in imported:
        rows, wrong = placed_by_points(matchday.results, scorings.get(name_key(matchday.game), BY_PLACINGS))
        placed.append(replaced(matchday, results=rows))
        problems.extend(p if p.startswith("Line ") else f"Matchday {matchday.number}: {p}" for p in wrong)
    return placed, problems


def _imported_problems(imported: Sequence[ImportedMatchday]) -> list[str]:
    """The file's values against the league's rules (the parser checks them line by line; this is for
    every other caller), the first few problems."""
    problems = []
    named: dict[tuple[str, str], str | None] = {}  # each name is checked once

    def name_problem_once(name: str, what: str, longest: int) -> str | None:
        if (what, name) not in named:
            named[what, name] = name_problem(name, what, longest)
        return named[what, name]

    for matchday in imported:
        where = f"Matchday {matchday.number}"
        found = [
            MATCHDAY_NUMBERS.problem("matchday", matchday.number),
            ROUNDS.problem("rounds", matchday.rounds),
            name_problem_once(matchday.game, "game", NAME_LENGTH),
        ]
        problems.extend(f"{where}: {p}." for p in found if p)
        for row in matchday.results:
            found = [name_problem_once(row.player, "player", SHORT_NAME_LENGTH), *range_problems(row)]
            problems.extend(f"{row.where()}{p}." for p in found if p)
        problems.extend(f"{where}: {p}" for p in matchday_problems(matchday.results))
        if len(problems) >= 20:
            break
    return problems[:20]


def players_named(names: Iterable[str], where=lambda key: "") -> tuple[dict[str, Player], list[str]]:
    """Every player by name key, those of `names` not yet stored created (spelt as first named); and
    the names created. "GL", "gl" and "ＧＬ" are one player; a name a player went by before (a former
    name) is theirs unless it is someone's current short name. A former name of several players is
    refused (`where(key)` names its line) rather than taken for a new player. For the imports, inside
    their transaction (which moves the revision on)."""
    players = {p.short_name_key: p for p in Player.objects.all()}
    formerly: dict[str, dict[int, Player]] = {}
    for former in FormerName.objects.select_related("player"):
        formerly.setdefault(former.name_key, {})[former.player_id] = former.player
    new_players: dict[str, Player] = {}
    problems = []
    for name in names:
        key = name_key(name)
        if key in players or key in new_players:
            continue
        went_by = list(formerly.get(key, {}).values())
        if len(went_by) == 1:
            players[key] = went_by[0]
        elif went_by:
            listed = ", ".join(sorted(p.short_name for p in went_by))
            problems.append(
                f"{where(key)}{name} is a former name of {len(went_by)} players ({listed}); write the "
                "current short name of the one who played."
            )
            players[key] = went_by[0]  # reported once
        else:
            new_players[key] = Player(name=name, short_name=name, short_name_key=key)
    if problems:
        raise ValidationError(problems)
    players.update({p.short_name_key: p for p in Player.objects.bulk_create(new_players.values())})
    return players, [p.short_name for p in new_players.values()]
