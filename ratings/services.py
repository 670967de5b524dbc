"""The recompute engine: the one place where rating tables are written.

Called explicitly by the admin, the CSV import and `manage.py recompute_ratings`, never from signals,
so every write path is visible. Everything runs inside one transaction: if a recompute fails, the edit
that caused it is rolled back with it and the old tables stay as they were.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from itertools import groupby

from django.db import connection, transaction
from django.db.models import Q
from django.utils.text import slugify

from league.models import Category, Game, Matchday, Result, Revision

from . import methods
from .models import RatingEntry, RatingTable, Standing, from_position

Position = tuple[date, int]  # (date, number): the order in which matchdays are rated


class RecomputeError(Exception):
    """Stored results that cannot be rated (e.g. a matchday with one player)."""


def sync_tables() -> None:
    """Make sure every rating table the games call for exists, and none that they no longer do."""
    RatingTable.objects.get_or_create(
        scope=RatingTable.Scope.OVERALL,
        defaults={"name": "Overall", "slug": "overall"},
    )
    taken = set(RatingTable.objects.values_list("slug", flat=True))
    for game in Game.objects.filter(rating_table__isnull=True):
        slug = _free_slug(game.slug, taken)
        RatingTable.objects.create(
            scope=RatingTable.Scope.GAME,
            game=game,
            name=game.name,
            slug=slug,
            description=f"This rating only counts {game.name} games.",
        )
        taken.add(slug)
    unofficial = Category.objects.filter(games__official=False).distinct()
    RatingTable.objects.filter(scope=RatingTable.Scope.CATEGORY).exclude(category__in=unofficial).delete()
    for category in unofficial.filter(rating_table__isnull=True):
        slug = _free_slug(category.slug, taken)
        RatingTable.objects.create(
            scope=RatingTable.Scope.CATEGORY,
            category=category,
            name=category.name,
            slug=slug,
            description=category.description or "This is not part of the official rating.",
        )
        taken.add(slug)


def _free_slug(wanted: str, taken: set[str]) -> str:
    slug, n = slugify(wanted) or "table", 2
    while slug in taken:
        slug, n = f"{slugify(wanted)}-{n}", n + 1
    return slug


@dataclass
class PlayerState:
    """Where a player stands in a table after some matchday: what the next matchday starts from."""

    rating: float
    state: dict | None
    played: int
    date: date
    number: int
    delta: float


# The columns the engine writes, in order; rows are written with executemany, not model instances,
# because a full recompute writes one row per player per matchday per table.
ENTRY_COLUMNS = (
    "table_id",
    "matchday_id",
    "player_id",
    "result_id",
    "matchday_date",
    "matchday_number",
    "rating_before",
    "rating_after",
    "opponents_mean",
    "expected",
    "score",
    "k",
    "delta",
    "state",
)
STANDING_COLUMNS = (
    "table_id",
    "player_id",
    "rating",
    "state",
    "played",
    "matchday_date",
    "matchday_number",
    "delta",
)
BATCH = 5000  # rows read and written at a time

RESULT_COLUMNS = (
    "matchday_id",
    "pk",
    "player_id",
    "placing",
    "rated_placing",
    "left_early",
    "won_by_16",
    "won_by_24",
    "won_by_4_and_last",
    "bad_moves",
)


def states_before(table: RatingTable, position: Position, players=None) -> dict[int, PlayerState]:
    """Each player's state in `table` just before the matchday at `position` (only `players`, if
    given), from their last row before it."""
    entries = table.entries.before_position(*position)
    if players is not None:
        entries = entries.filter(player_id__in=players)
    return {
        e.player_id: PlayerState(e.rating_after, e.state, e.played, e.matchday_date, e.matchday_number, e.delta)
        for e in entries.latest_per_player()
    }


def _starting_states(table: RatingTable, since: Position, playing: set[int]) -> tuple[dict, set[int]]:
    """The states the recompute from `since` starts from, for the players who play from then on
    and those whose current standing it will change; and the set of the latter.

    A standing from before `since` is the state itself (so adding the latest matchday reads a few
    rows); only players whose standing lies at or after `since` are looked up in the history.
    """
    standings = table.standings.filter(Q(player_id__in=playing) | from_position(*since))
    states, stale = {}, set()
    for s in standings:
        if (s.matchday_date, s.matchday_number) < since:
            states[s.player_id] = PlayerState(s.rating, s.state, s.played, s.matchday_date, s.matchday_number, s.delta)
        else:
            stale.add(s.player_id)
    if stale:
        states.update(states_before(table, since, players=stale))
    return states, stale | playing


@dataclass
class _Run:
    """One table being recomputed: its method, and where each of its players stands."""

    table: RatingTable
    method: methods.Method
    params: dict
    start: tuple[float, dict | None]
    states: dict[int, PlayerState]
    affected: set[int] | None  # players whose standing is rewritten; None: everyone who plays


@transaction.atomic
def recompute(table: RatingTable, since: Position | None = None) -> int:
    """Rebuild `table` from the matchday at `since` onward (everything when None); see
    `recompute_tables`. Returns the number of rows written."""
    return recompute_tables([table], since)


@transaction.atomic
def recompute_tables(tables: list[RatingTable], since: Position | None = None) -> int:
    """Rebuild `tables` from the matchday at `since` onward (everything when None), each with its
    method, in one pass over the results. Returns the number of rows written.

    Earlier rows are kept: a new or edited matchday never rewrites the past; each player's rating and
    carried state resume from their last row before `since`. The players' standings are brought up
    to date. Results are streamed and rows written in batches, so memory holds one batch and each
    player's state, not the history.

    Recomputes of one table run one at a time: the tables' rows are locked until the transaction
    (which includes the edit that asked for the recompute) ends. On PostgreSQL that is a row lock;
    SQLite's immediate transactions already let one writer in at a time.
    """
    if not tables:
        return 0
    list(RatingTable.objects.select_for_update().filter(pk__in=[t.pk for t in tables]).order_by("pk").values("pk"))
    runs = []
    for table in tables:
        method, params = table.rating_method, table.method_params()
        runs.append(_Run(table, method, params, method.start(params), {}, None))
    counting = {game.pk: [run for run in runs if run.table.counts(game)] for game in Game.objects.all()}
    games = [game_id for game_id, counted in counting.items() if counted]
    matchdays = Matchday.objects.filter(game_id__in=games)
    results = Result.objects.filter(matchday__game_id__in=games)  # a join, not IN (subquery)
    if since is not None:
        matchdays = matchdays.filter(from_position(*since, prefix=""))
        results = results.filter(from_position(*since, prefix="matchday__"))

    if since is None:
        if len(runs) == RatingTable.objects.count():  # everything: one DELETE of the whole table
            RatingEntry.objects.all().delete()
            Standing.objects.all().delete()
        for run in runs:
            run.table.entries.all().delete()
            run.table.standings.all().delete()
    else:
        playing: dict[int, set[int]] = {run.table.pk: set() for run in runs}
        for game_id, player in results.order_by().values_list("matchday__game_id", "player_id").distinct():
            for run in counting[game_id]:
                playing[run.table.pk].add(player)
        for run in runs:
            run.states, run.affected = _starting_states(run.table, since, playing[run.table.pk])
            run.table.entries.from_position(*since).delete()
            run.table.standings.filter(player_id__in=run.affected).delete()

    # Each matchday's facts once, rather than with every result row.
    facts = {m[0]: m[1:] for m in matchdays.values_list("pk", "date", "number", "rounds", "winner_score", "game_id")}
    ops = connection.ops
    state_field = RatingEntry._meta.get_field("state")

    def stored(state):
        return None if state is None else state_field.get_db_prep_save(state, connection)

    # Rows are buffered per table so that each batch lands in one part of the table's indexes.
    buffers: dict[int, list[tuple]] = {run.table.pk: [] for run in runs}
    written = 0
    ordered = results.order_by("matchday__date", "matchday__number", "pk").values_list(*RESULT_COLUMNS)
    for matchday_id, group in groupby(ordered.iterator(chunk_size=BATCH), key=lambda row: row[0]):
        group = list(group)
        day, number, rounds, winner_score, game_id = facts[matchday_id]
        if len(group) < 2:
            raise RecomputeError(f"Matchday {number} ({day}) has {len(group)} player; it needs at least two.")
        stored_day = ops.adapt_datefield_value(day)
        for run in counting[game_id]:
            states, (start_rating, start_state) = run.states, run.start
            seats = []
            for _, _, player, placing, rated, left_early, w16, w24, w4, bad in group:
                current = states.get(player)
                seats.append(
                    methods.Seat(
                        current.rating if current else start_rating,
                        rated if rated is not None else placing,
                        current.state if current else start_state,
                        left_early,
                        w16,
                        w24,
                        w4,
                        bad,
                    )
                )
            try:
                changes = run.method.compute(seats, methods.Facts(rounds, winner_score), run.params)
            except methods.MethodError as error:
                raise RecomputeError(f"{run.table}: Matchday {number} ({day}): {error}") from error
            table_id = run.table.pk
            rows = buffers[table_id]
            for row, change in zip(group, changes, strict=True):
                player = row[2]
                current = states.get(player)
                played = current.played + 1 if current else 1
                states[player] = PlayerState(change.rating_after, change.state, played, day, number, change.delta)
                rows.append(
                    (
                        table_id,
                        matchday_id,
                        player,
                        row[1],
                        stored_day,
                        number,
                        change.rating_before,
                        change.rating_after,
                        change.opponents_mean,
                        change.expected,
                        change.score,
                        change.k,
                        change.delta,
                        stored(change.state),
                    )
                )
            if len(rows) >= BATCH:
                insert_rows(RatingEntry, ENTRY_COLUMNS, rows)
                written += len(rows)
                rows.clear()
    for rows in buffers.values():
        insert_rows(RatingEntry, ENTRY_COLUMNS, rows)
        written += len(rows)
    insert_rows(
        Standing,
        STANDING_COLUMNS,
        [
            (
                run.table.pk,
                player,
                s.rating,
                stored(s.state),
                s.played,
                ops.adapt_datefield_value(s.date),
                s.number,
                s.delta,
            )
            for run in runs
            for player, s in run.states.items()
            if run.affected is None or player in run.affected
        ],
    )
    Revision.bump()
    return written


def insert_rows(model, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Write plain rows into `model`'s table with executemany: for the many rows of a recompute or
    an import, where a model instance per row costs more than the database does."""
    if not rows:
        return
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({})".format(  # noqa: S608 - names from the model, values bound
        quote(model._meta.db_table), ", ".join(quote(c) for c in columns), ", ".join(["%s"] * len(columns))
    )
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            cursor.executemany(sql, rows[start : start + BATCH])


def seat(result: Result, rating: float, state: dict | None) -> methods.Seat:
    """A stored result as the rating methods see it."""
    return methods.Seat(
        rating,
        result.effective_placing,
        state,
        result.left_early,
        result.won_by_16,
        result.won_by_24,
        result.won_by_4_and_last,
        result.bad_moves,
    )


def method_problems(table: RatingTable, method: methods.Method) -> list[str]:
    """What `method` could not rate among the table's matchdays (e.g. Sedma: four players), one line
    per matchday. Reads only; used to refuse a method in the admin before anything is saved."""
    results = (
        Result.objects.filter(matchday__in=table.matchdays())
        .select_related("matchday")
        .order_by("matchday__date", "matchday__number", "pk")
    )
    problems = []
    for matchday, group in groupby(results, key=lambda r: r.matchday):
        try:
            method.check([seat(r, 0, None) for r in group])
        except methods.MethodError as error:
            problems.append(f"{matchday} ({matchday.date}): {error}")
    return problems


def differences() -> list[str]:
    """How the stored tables differ from a fresh computation of the whole history, one line per
    difference; empty when they agree. Writes nothing (the fresh computation is rolled back)."""

    def snapshot():
        entries = {
            (e[0], e[1], e[2]): e[3:]
            for e in RatingEntry.objects.values_list(
                "table__slug", "matchday__number", "player__short_name", "rating_before", "rating_after", "delta"
            )
        }
        standings = {
            (s[0], s[1]): s[2:]
            for s in Standing.objects.values_list(
                "table__slug", "player__short_name", "rating", "played", "matchday_number"
            )
        }
        return entries, standings

    with transaction.atomic():
        stored = snapshot()
        recompute_all()
        fresh = snapshot()
        transaction.set_rollback(True)
    lines = []
    for kind, old, new in (("row", stored[0], fresh[0]), ("standing", stored[1], fresh[1])):
        for key in sorted(old.keys() | new.keys(), key=str):
            if old.get(key) != new.get(key):
                where = " ".join(str(part) for part in key)
                lines.append(f"{kind} {where}: stored {old.get(key)}, fresh {new.get(key)}")
    return lines


@transaction.atomic
def recompute_all() -> int:
    sync_tables()
    return recompute_tables(list(RatingTable.objects.all()))


@transaction.atomic
def recompute_from(position: Position, games: Iterable[Game]) -> list[RatingTable]:
    """Recompute, from `position` on, every table that a matchday of any of `games` counts in.

    Pass the games as they were before an edit as well as after it (an edit can move a matchday
    to another game, or make a game unofficial), so that tables it left are corrected too.
    """
    sync_tables()
    games = list(games)
    tables = [t for t in RatingTable.objects.all() if any(t.counts(g) for g in games)]
    recompute_tables(tables, since=position)
    return tables


def recompute_for_matchday(matchday: Matchday, old: Matchday | None = None) -> list[RatingTable]:
    """Recompute after `matchday` was added or edited; `old` is its state before the edit."""
    positions = [matchday.position] + ([old.position] if old else [])
    games = [matchday.game] + ([old.game] if old else [])
    return recompute_from(min(positions), games)


def recompute_for_game(game: Game, old: Game) -> list[RatingTable]:
    """Recompute after a game's official flag or category changed."""
    first = game.matchdays.in_play_order().first()
    if first is None:
        sync_tables()
        return []
    return recompute_from(first.position, [game, old])
