"""The one way to change anything that ratings depend on: a function per operation.

Each function validates, writes, recomputes the rating tables it touched from the earliest matchday
it touched, and moves the league's revision on, all in one transaction: if anything fails, nothing
of the edit is kept. The admin, the import and the management commands call only these; the engine
(`ratings.engine`) is theirs alone. Refusals are Django `ValidationError`s whose messages are written
for the club's secretary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from itertools import groupby

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils.text import slugify

from league.models import Category, Game, Matchday, Player, Result, Revision
from league.validation import (
    MATCHDAY_NUMBERS,
    NAME_LENGTH,
    ROUNDS,
    SHORT_NAME_LENGTH,
    Entry,
    fitting_slug,
    matchday_problems,
    name_key,
    name_problem,
    stored_rated_placings,
)

from . import engine, methods
from .bulk import insert_rows
from .deals import engine as deal_engine
from .models import AttemptRating, DealRating, LevelRating, RatingEntry, RatingTable, Standing
from .selectors.standings import matchday_changes, table_order

RecomputeError = engine.RecomputeError


@dataclass
class ResultInput:
    """One player's result as entered; `player` may be a new, unsaved player, created on saving."""

    player: Player
    placing: int
    rated_placing: int | None = None
    left_early: bool = False
    note: str = ""
    won_by_16: int = 0
    won_by_24: int = 0
    won_by_4_and_last: int = 0
    bad_moves: int = 0

    RESULT_FIELDS = (
        "placing",
        "rated_placing",
        "left_early",
        "note",
        "won_by_16",
        "won_by_24",
        "won_by_4_and_last",
        "bad_moves",
    )

    @property
    def effective_placing(self) -> int:
        return self.rated_placing if self.rated_placing is not None else self.placing

    def seat(self) -> methods.Seat:
        """The result as the rating methods see it (the rating does not matter for their checks)."""
        counts = (self.won_by_16, self.won_by_24, self.won_by_4_and_last, self.bad_moves)
        return methods.Seat(0, self.effective_placing, None, self.left_early, *counts)


def unratable(game: Game, seats: Sequence[methods.Seat]) -> list[str]:
    """What the methods of the tables a matchday of `game` counts in cannot rate (e.g. Sedma: two
    players only), one line per table. Reads only."""
    if game.against_deals:
        return [f"{game} is played against deals: enter its attempts as a session, not a matchday."]
    problems = []
    for table in engine.tables_counting([game]):
        try:
            table.rating_method.check(seats)
        except methods.MethodError as error:
            problems.append(f"The {table.name} rating uses {table.rating_method.name}: {error}.")
    return problems


def _entries(results: Sequence[ResultInput]) -> list[Entry]:
    return [Entry("", r.player.short_name, r.placing, r.rated_placing, r.left_early) for r in results]


def _with_derived_rated_placings(results: Sequence[ResultInput]) -> list[ResultInput]:
    """The results with the rated placings the penalty rule derives: players who left early after
    everyone who stayed, the others in finishing order around any explicit penalty."""
    derived = stored_rated_placings(_entries(results))
    return [replace(r, rated_placing=rated) for r, rated in zip(results, derived, strict=True)]


def results_problems(game: Game | None, results: Sequence[ResultInput]) -> list[str]:
    """Everything wrong with a matchday's results, naming the players: the league's rules, then
    what the methods of the game's tables cannot rate. Reads only; forms show these as errors."""
    problems = matchday_problems(_entries(results))
    if problems or game is None:
        return problems
    return unratable(game, [r.seat() for r in _with_derived_rated_placings(results)])


def _checked(matchday: Matchday, results: Sequence[ResultInput]) -> list[ResultInput]:
    problems = results_problems(matchday.game, results)
    if problems:
        raise ValidationError(problems)
    return _with_derived_rated_placings(results)


def _result_problems(results: Sequence[ResultInput]) -> list[str]:
    """Each result's own values against the fields' rules (ranges, no NUL in a note), and each new
    player's name (the admin's forms check these too; this is for every other caller)."""
    problems = []
    for given in results:
        if given.player.pk is None:
            try:
                given.player.full_clean()
            except ValidationError as error:
                problems.extend(f"{given.player.short_name!r}: {m}" for m in error.messages)
                continue
        values = {name: getattr(given, name) for name in ResultInput.RESULT_FIELDS}
        try:
            Result(**values).clean_fields(exclude=["matchday", "player"])
        except ValidationError as error:
            problems.extend(f"{given.player.short_name}: {m}" for m in error.messages)
    return problems


@transaction.atomic
def save_matchday(matchday: Matchday, results: Sequence[ResultInput]) -> list[RatingEntry]:
    """Add or change a matchday and its results (the results replace the stored ones, player by
    player), then recompute every table it counts in, or counted in before the edit, from its
    earlier position on. Returns the matchday's rating changes, table by table."""
    problems = _result_problems(results)
    if problems:
        raise ValidationError(problems)
    results = _checked(matchday, results)
    matchday.full_clean()
    old = Matchday.objects.select_related("game").filter(pk=matchday.pk).first() if matchday.pk else None
    matchday.save()
    for result in results:
        if result.player.pk is None:
            result.player.save()
    stored = {r.player_id: r for r in matchday.results.all()}
    wanted = {r.player.pk: r for r in results}
    Result.objects.filter(pk__in=[r.pk for pid, r in stored.items() if pid not in wanted]).delete()
    for player_id, given in wanted.items():
        result = stored.get(player_id) or Result(matchday=matchday, player_id=player_id)
        values = {name: getattr(given, name) for name in ResultInput.RESULT_FIELDS}
        if result.pk is None or any(getattr(result, k) != v for k, v in values.items()):
            for name, value in values.items():
                setattr(result, name, value)
            result.save()
    positions, games = [matchday.position], [matchday.game]
    if old is not None:
        positions.append(old.position)
        games.append(old.game)
    _recompute_from(min(positions), games)
    return matchday_changes(matchday)


@dataclass
class MatchdayPreview:
    """What saving a matchday would do: each table's changes, player by player in the order given,
    and how many later matchdays saving it would recompute (for a back-dated matchday)."""

    results: list[ResultInput]  # with the rated placings the penalty rule derives
    changes: list[tuple[RatingTable, list[methods.Outcome]]]
    later_matchdays: int


def preview_matchday(matchday: Matchday, results: Sequence[ResultInput]) -> MatchdayPreview:
    """The changes a new matchday would bring, from the ratings at its place in play order. Reads
    only; refuses what `save_matchday` would refuse."""
    results = _checked(matchday, results)
    tables = sorted(engine.tables_counting([matchday.game]), key=table_order)
    counted = [game for game in Game.objects.all() if any(table.counts(game) for table in tables)]
    players = [r.player.pk for r in results]
    changes = engine.rate_alone(
        tables,
        matchday.position,
        players,
        [r.seat() for r in results],
        methods.Facts(matchday.rounds, matchday.winner_score),
    )
    later = Matchday.objects.filter(game__in=counted).from_position(*matchday.position).exclude(pk=matchday.pk)
    return MatchdayPreview(results, changes, later.count())


@transaction.atomic
def delete_matchdays(matchdays: Iterable[Matchday]) -> list[RatingTable]:
    """Delete matchdays with their results and recompute their tables from the earliest of them."""
    matchdays = list(matchdays)
    if not matchdays:
        return []
    position = min(m.position for m in matchdays)
    games = {m.game_id: m.game for m in matchdays}.values()
    Matchday.objects.filter(pk__in=[m.pk for m in matchdays]).delete()
    return _recompute_from(position, games)


@transaction.atomic
def save_game(game: Game) -> list[RatingTable]:
    """Add or change a game. A change of its official flag or category moves its matchdays between
    the overall and category tables, which are recomputed from its first matchday."""
    game.full_clean()
    old = Game.objects.filter(pk=game.pk).first() if game.pk else None
    game.save()
    if old is not None and old.against_deals != game.against_deals:
        _switch_kind(game)
    if old is None or (old.official, old.category_id) == (game.official, game.category_id):
        engine.sync_tables()
        Revision.bump()
        return []
    first = game.matchdays.in_play_order().first()
    if first is None:
        engine.sync_tables()
        Revision.bump()
        return []
    return _recompute_from(first.position, [game, old])


@transaction.atomic
def delete_games(games: Iterable[Game]) -> None:
    """Delete games nobody has played (a played game's matchdays protect it) and their tables."""
    Game.objects.filter(pk__in=[g.pk for g in games]).delete()
    engine.sync_tables()
    Revision.bump()


@transaction.atomic
def save_category(category: Category) -> None:
    category.full_clean()
    category.save()
    engine.sync_tables()
    Revision.bump()


@transaction.atomic
def delete_categories(categories: Iterable[Category]) -> None:
    Category.objects.filter(pk__in=[c.pk for c in categories]).delete()
    engine.sync_tables()
    Revision.bump()


def method_problems(table: RatingTable, method: methods.Method) -> list[str]:
    """What `method` could not rate among the table's matchdays (e.g. Sedma: four players), one line
    per matchday. Reads only; the admin shows them on the method field before anything is saved."""
    deal_game = table.scope == RatingTable.Scope.GAME and table.game.against_deals
    if deal_game and not method.against_deals:
        return [f"{table.game} is played against deals, which only {methods.deals.PlayerVsDeal.name} rates."]
    if method.against_deals and not deal_game:
        return [f"it rates games played against deals, and {table.name} is a table of matchdays."]
    results = (
        Result.objects.filter(matchday__in=table.matchdays())
        .select_related("matchday", "player")
        .order_by("matchday__date", "matchday__number", "pk")
    )
    problems = []
    for matchday, group in groupby(results, key=lambda r: r.matchday):
        seats = [ResultInput(r.player, r.placing, r.rated_placing, r.left_early).seat() for r in group]
        try:
            method.check(seats)
        except methods.MethodError as error:
            problems.append(f"{matchday} ({matchday.date}): {error}")
    return problems


@transaction.atomic
def save_rating_table(table: RatingTable) -> int | None:
    """Save a table's texts, method and parameters; a new method or new parameters recompute the
    whole table. Returns the rows written, or None when nothing needed recomputing."""
    problems = method_problems(table, table.rating_method)
    if problems:
        name = table.rating_method.name
        raise ValidationError({"method": [f"{name} cannot rate this table: {p}" for p in problems[:5]]})
    old = RatingTable.objects.filter(pk=table.pk).first()
    table.save()
    if old is not None and (old.method, _rating_params(old)) == (table.method, _rating_params(table)):
        Revision.bump()
        return None
    rows = deal_engine.recompute(table) if table.against_deals else engine.recompute([table])
    Revision.bump()
    return rows


@dataclass
class ImportedResult:
    line: int  # where the secretary finds it in their file
    player: str
    placing: int
    rated_placing: int | None = None  # explicit, for a penalty other than leaving early
    left_early: bool = False


@dataclass
class ImportedMatchday:
    number: int
    date: date
    game: str
    rounds: int
    results: list[ImportedResult] = field(default_factory=list)


@dataclass
class ImportSummary:
    matchdays: int
    results: int
    players_created: list[str]
    games_created: list[str]


# The import's results as plain rows, with the model's defaults for what a file does not give.
IMPORTED_RESULT_COLUMNS = (
    "matchday_id",
    "player_id",
    "placing",
    "rated_placing",
    "note",
    "left_early",
    "won_by_16",
    "won_by_24",
    "won_by_4_and_last",
    "bad_moves",
)


@transaction.atomic
def import_matchdays(imported: Sequence[ImportedMatchday], *, replace: bool = False) -> ImportSummary:
    """Add a file's matchdays (checked one by one by the parser) in bulk, creating unknown players
    and games (as official games), and recompute from the earliest matchday touched. Existing
    matchdays are refused unless `replace`, which replaces their results."""
    problems = _imported_problems(imported)
    if problems:
        raise ValidationError(problems)
    numbers = [m.number for m in imported]
    existing = {m.number: m for m in Matchday.objects.filter(number__in=numbers).select_related("game")}
    if existing and not replace:
        shown = ", ".join(str(n) for n in sorted(existing))
        raise ValidationError(
            f"Matchday {shown} already exists; use --replace to replace its results."
            if len(existing) == 1
            else f"Matchdays {shown} already exist; use --replace to replace their results."
        )
    # Names are matched by their key: "GL", "gl" and "ＧＬ" in a file are the stored player GL (or one
    # new player, spelt as in the first line that names them).
    players = {p.short_name_key: p for p in Player.objects.all()}
    new_players = {}
    for matchday in imported:
        for row in matchday.results:
            key = name_key(row.player)
            if key not in players and key not in new_players:
                new_players[key] = Player(name=row.player, short_name=row.player, short_name_key=key)
    players.update({p.short_name_key: p for p in Player.objects.bulk_create(new_players.values())})
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

    # Replaced matchdays are rated again from where they stood before as well as from where they
    # stand now.
    touched_positions = [old.position for old in existing.values()]
    touched_games = {old.game_id: old.game for old in existing.values()}
    Result.objects.filter(matchday__in=list(existing.values())).delete()
    matchdays = []
    for given in imported:
        matchday = existing.get(given.number) or Matchday(number=given.number)
        matchday.date, matchday.game, matchday.rounds = given.date, games[name_key(given.game)], given.rounds
        matchdays.append(matchday)
        touched_positions.append(matchday.position)
        touched_games[matchday.game.pk] = matchday.game
    Matchday.objects.bulk_update([m for m in matchdays if m.pk], ["date", "game", "rounds"])
    Matchday.objects.bulk_create([m for m in matchdays if not m.pk])
    # A league's history arrives in one file: results are written as plain rows, not model instances,
    # with the rated placings the penalty rule derives (checked by the parser, line by line).
    rows = [
        (matchday.pk, players[name_key(row.player)].pk, row.placing, rated, "", row.left_early, 0, 0, 0, 0)
        for matchday, given in zip(matchdays, imported, strict=True)
        for row, rated in zip(
            given.results,
            stored_rated_placings(
                [Entry("", r.player, r.placing, r.rated_placing, r.left_early) for r in given.results]
            ),
            strict=True,
        )
    ]
    insert_rows(Result, IMPORTED_RESULT_COLUMNS, rows)
    if connection.vendor == "postgresql" and len(rows) > 10_000:
        # The planner has no statistics for rows added in this transaction; without them it may
        # choose a nested loop that rescans the matchdays for every result of the recompute below.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE league_matchday, league_result")
    try:
        _recompute_from(min(touched_positions), touched_games.values())
    except RecomputeError as error:  # e.g. a two-player method given a four-player matchday
        raise ValidationError(f"The results cannot be rated: {error}") from None
    players_created = [p.short_name for p in new_players.values()]
    return ImportSummary(len(imported), len(rows), players_created, games_created)


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
            problem = name_problem_once(row.player, "player", SHORT_NAME_LENGTH)
            if problem:
                problems.append(f"Line {row.line}: {problem}.")
        entries = [Entry(f"Line {r.line}", r.player, r.placing, r.rated_placing) for r in matchday.results]
        problems.extend(f"{where}: {p}" for p in matchday_problems(entries))
        if len(problems) >= 20:
            break
    return problems[:20]


def free_game_slug(name: str) -> str:
    """A slug for a new game that no game has, and that fits its column however long the name."""
    longest = Game._meta.get_field("slug").max_length
    base = slugify(name) or "game"
    n = 1
    while Game.objects.filter(slug=fitting_slug(base, n, longest)).exists():
        n += 1
    return fitting_slug(base, n, longest)


def _rating_params(table: RatingTable) -> dict:
    """The table's parameters that change its ratings (not those that only change what pages show)."""
    hidden = table.rating_method.display_only
    return {name: value for name, value in table.method_params().items() if name not in hidden}


@transaction.atomic
def rebuild_all() -> int:
    """Rebuild every rating table from the whole history; the rows written."""
    engine.sync_tables()
    tables = list(RatingTable.objects.all())
    written = engine.recompute(tables)  # the tables of matchdays
    for table in tables:
        if table.against_deals:
            written += deal_engine.recompute(table)
    Revision.bump()
    return written


def differences() -> list[str]:
    """How the stored tables differ from a fresh computation of the whole history, one line per
    difference; empty when they agree. Writes nothing (the fresh computation is rolled back)."""

    def keyed(queryset, fields: tuple[str, ...], key: int) -> dict:
        return {row[:key]: row[key:] for row in queryset.values_list(*fields)}

    def snapshot():
        return {
            "row": keyed(
                RatingEntry.objects,
                ("table__slug", "matchday__number", "player__short_name", "rating_before", "rating_after", "delta"),
                3,
            ),
            "standing": keyed(
                Standing.objects,
                ("table__slug", "player__short_name", "rating", "played", "matchday_number", "matchday_date"),
                2,
            ),
            "attempt": keyed(
                AttemptRating.objects,
                ("table__slug", "session_date", "position", "player_after", "deal_after", "level_offset_after"),
                3,
            ),
            "deal": keyed(DealRating.objects, ("table__slug", "deal_id", "base", "played", "wins", "first_date"), 2),
            "level": keyed(
                LevelRating.objects, ("table__slug", "level_id", "offset", "deals", "average", "attempts", "wins"), 2
            ),
        }

    with transaction.atomic():
        stored = snapshot()
        engine.sync_tables()
        tables = list(RatingTable.objects.all())
        engine.recompute(tables)
        for table in tables:
            if table.against_deals:
                deal_engine.recompute(table)
        fresh = snapshot()
        transaction.set_rollback(True)
    lines = []
    for kind in stored:
        old, new = stored[kind], fresh[kind]
        for key in sorted(old.keys() | new.keys(), key=str):
            if old.get(key) != new.get(key):
                where = " ".join(str(part) for part in key)
                lines.append(f"{kind} {where}: stored {old.get(key)}, fresh {new.get(key)}")
    return lines


def _recompute_from(position: engine.Position, games: Iterable[Game]) -> list[RatingTable]:
    """Recompute, from `position` on, every table that a matchday of any of `games` counts in, and
    move the revision on. Pass the games as they were before an edit as well as after it (an edit
    can move a matchday to another game, or make a game unofficial), so that tables it left are
    corrected too."""
    engine.sync_tables()
    tables = engine.tables_counting(games)
    engine.recompute(tables, since=position)
    Revision.bump()
    return tables


def _switch_kind(game: Game) -> None:
    """A game newly played against deals (or no longer) gets its table's method for that; it has
    nothing to rate yet (`Game.clean` refuses a switch once played)."""
    table = game_table(game)
    table.method = methods.deals.SLUG if game.against_deals else "club"
    table.parameters = {}
    table.save()
    if game.against_deals:
        deal_engine.recompute(table)
    else:
        engine.recompute([table])


def game_table(game: Game) -> RatingTable:
    """The game's own rating table (created if the game has none yet)."""
    table = RatingTable.objects.filter(game=game).first()
    if table is None:
        engine.sync_tables()
        table = RatingTable.objects.get(game=game)
    return table
