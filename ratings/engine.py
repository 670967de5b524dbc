"""The recompute engine: the one place where rating rows are written.

Private to `ratings.services`, whose functions call it inside the transaction of the edit that asked
for it (a test checks that nothing else imports this module). A recompute from a position keeps every
earlier row, resumes each player from their state just before it, rates every later matchday in one
pass over the results, and writes the rows in batches:

    clear   the rows from the position on (all rows for a full rebuild)
    resume  each player's state before the position, from their standing or their history
    rate    stream the results in play order through each table's method (ratings.rating_pass)
    write   the rows as they come, then each affected player's standing
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import date

from django.db import connection
from django.db.models import Q
from django.utils.text import slugify

from league.models import Category, Game, Matchday, Result, Season
from league.validation import fitting_slug

from . import methods
from .bulk import BATCH, ENTRY_COLUMNS, STANDING_COLUMNS, indexes_set_aside, insert_rows
from .models import RatingEntry, RatingTable, Standing, before, from_position
from .rating_pass import RATED_FIELDS, Carry, TableRun, rate
from .rating_pass import RecomputeError as RecomputeError  # what the services' callers catch

Position = tuple[date, int]  # (date, number): the order in which matchdays are rated


def sync_tables(*clubs: int) -> None:
    """Make sure every rating table the clubs' games and seasons call for exists, and none that they
    no longer do; first, `wait_for_table_writes`. Every club at once: a whole site's rebuild pays
    each query once, not once a club."""
    wait_for_table_writes(*clubs)
    taken: dict[int, set[str]] = {club: set() for club in clubs}
    for club, slug in RatingTable.every.filter(club_id__in=clubs).values_list("club_id", "slug"):  # seasons' too
        taken[club].add(slug)
    for game in Game.objects.filter(club_id__in=clubs, rating_table__isnull=True):
        slug = _free_slug(game.slug, taken[game.club_id])
        RatingTable.objects.create(
            club_id=game.club_id,
            scope=RatingTable.Scope.GAME,
            game=game,
            name=game.name,
            slug=slug,
            # A game played against deals is rated attempt by attempt (ratings.deals.engine), not here.
            method=methods.deals.SLUG if game.against_deals else "club",
            description=f"Players rated against the deals of {game.name} they play."
            if game.against_deals
            else f"This rating only counts {game.name} games.",
        )
        taken[game.club_id].add(slug)
    unofficial = Category.objects.filter(club_id__in=clubs, games__official=False, games__against_deals=False)
    unofficial = unofficial.distinct()
    categories = RatingTable.objects.filter(club_id__in=clubs, scope=RatingTable.Scope.CATEGORY)
    categories.exclude(category__in=unofficial).delete()
    for category in unofficial.filter(rating_table__isnull=True):
        slug = _free_slug(category.slug, taken[category.club_id])
        RatingTable.objects.create(
            club_id=category.club_id,
            scope=RatingTable.Scope.CATEGORY,
            category=category,
            name=category.name,
            slug=slug,
            description=category.description or "This is not part of the official rating.",
        )
        taken[category.club_id].add(slug)
    sync_season_tables(taken)


def wait_for_table_writes(*clubs: int) -> None:
    """Lock the clubs' overall tables' rows (made if missing). Every write that picks tables to
    recompute calls this first (through `sync_tables`), so that a season written meanwhile either
    waits for it or is seen by it, never missed. The overall table is the first made, so the first
    a recompute locks too, and several clubs' in the order of their rows: the locks are always
    taken in one order."""
    overall = RatingTable.objects.select_for_update().filter(club_id__in=clubs, scope=RatingTable.Scope.OVERALL)
    have = set(overall.order_by("pk").values_list("club_id", flat=True))
    for club in sorted(set(clubs) - have):
        RatingTable.objects.select_for_update().get_or_create(
            club_id=club,
            scope=RatingTable.Scope.OVERALL,
            defaults={"name": "Overall", "slug": "overall"},
        )


def sync_season_tables(taken: dict[int, set[str]]) -> None:
    """A table per fresh-start season for each of the clubs' tables of matchdays (`taken`: each
    club's table slugs), each with its parent's method and parameters (a game played against deals
    keeps its all-time table only)."""
    parents: dict[int, list[RatingTable]] = {club: [] for club in taken}
    for table in RatingTable.objects.filter(club_id__in=taken):
        if not table.against_deals:
            parents[table.club_id].append(table)
    seasons = RatingTable.every.filter(club_id__in=taken, season__isnull=False)
    # A season turned carry-over, or a game switched to deals, leaves no table behind.
    kept = [p.pk for club in parents.values() for p in club]
    seasons.exclude(season__start=Season.Start.FRESH, parent__in=kept).delete()
    copied = ("name", "method", "start_rating", "k_per_round", "whole_numbers", "parameters")
    fresh = list(Season.objects.filter(club_id__in=taken, start=Season.Start.FRESH))
    have = {(t.season_id, t.parent_id): t for t in RatingTable.every.filter(season__in=fresh)}
    for season in fresh:
        for parent in parents[season.club_id]:
            fields = {name: getattr(parent, name) for name in copied}
            table = have.get((season.pk, parent.pk))
            if table is None:
                slug = _free_slug(f"{season.slug}-{parent.slug}", taken[season.club_id])
                taken[season.club_id].add(slug)
                RatingTable.every.create(
                    club_id=season.club_id, season=season, parent=parent, scope=parent.scope, slug=slug, **fields
                )
            elif any(getattr(table, name) != value for name, value in fields.items()):
                RatingTable.every.filter(pk=table.pk).update(**fields)


def _free_slug(wanted: str, taken: set[str]) -> str:
    """A table slug not in `taken` that fits its column (a game's slug may use all of its own)."""
    base, n = slugify(wanted) or "table", 1
    longest = RatingTable._meta.get_field("slug").max_length
    while fitting_slug(base, n, longest) in taken:
        n += 1
    return fitting_slug(base, n, longest)


def tables_counting(games: Iterable[Game]) -> list[RatingTable]:
    """Every rating table that a matchday of any of `games` counts in (their clubs' tables)."""
    games = list(games)
    clubs = {game.club_id for game in games}
    tables = RatingTable.every.filter(club_id__in=clubs).select_related("season", "parent")  # seasons' too
    return [table for table in tables if any(table.counts(game) for game in games)]


def tables_to_recompute(games: list[Game]) -> list[RatingTable]:
    """`tables_counting(games)` for a write about to recompute them: after `wait_for_table_writes`
    (where the database has row locks; SQLite lets one writer in at a time), and synced first when
    one is missing. The services that write games, categories and seasons keep the tables in step,
    but a game saved directly (a file's new game) has none yet; looking costs no query, syncing
    eight, which would be a fifth of adding a matchday."""
    clubs = {game.club_id for game in games}
    if connection.features.has_select_for_update:
        wait_for_table_writes(*clubs)
    tables = tables_counting(games)
    if any(_missing(game, tables) for game in games):
        sync_tables(*clubs)
        tables = tables_counting(games)
    return tables


def _missing(game: Game, tables: list[RatingTable]) -> bool:
    """Whether `tables` lack one of the game's all-time tables: its own, the overall (official) or its
    category's (unofficial)."""
    kinds = {t.scope for t in tables if t.parent_id is None and t.counts(game)}
    wanted = {RatingTable.Scope.GAME}
    if game.against_deals:
        pass  # rated in its own table only
    elif game.official:
        wanted.add(RatingTable.Scope.OVERALL)
    elif game.category_id:
        wanted.add(RatingTable.Scope.CATEGORY)
    return not wanted <= kinds


def recompute(tables: list[RatingTable], since: Position | None = None) -> int:
    """Rebuild `tables` from the matchday at `since` onward (everything when None), each with its
    method, in one pass over the results. Returns the number of rows written.

    Recomputes of one table run one at a time: the tables' rows are locked until the caller's
    transaction (which includes the edit that asked for the recompute) ends. On PostgreSQL that is a
    row lock; SQLite's immediate transactions already let one writer in at a time.
    """
    tables = [table for table in tables if not table.against_deals]  # ratings.deals.engine rates those
    if not tables:
        return 0
    if connection.features.has_select_for_update:  # SQLite has no row locks: the query would only read
        locked = RatingTable.every.select_for_update().filter(pk__in=[t.pk for t in tables])  # seasons' too
        list(locked.order_by("pk").values("pk"))
    runs = [TableRun.of(table) for table in tables]
    runs_of: dict[int, list[TableRun]] = {}  # a game counts only in its club's tables
    for run in runs:
        runs_of.setdefault(run.table.club_id, []).append(run)
    counting = {
        game.pk: [run for run in runs_of[game.club_id] if run.table.counts(game)]
        for game in Game.objects.filter(club__in=runs_of)
    }
    games = [game_id for game_id, counted in counting.items() if counted]
    matchdays = Matchday.objects.filter(game_id__in=games)
    results = Result.objects.filter(matchday__game_id__in=games)  # a join, not IN (subquery)
    if since is not None:
        matchdays = matchdays.filter(from_position(*since, prefix=""))
        results = results.filter(from_position(*since, prefix="matchday__"))
    # Each matchday's facts once, rather than with every result row.
    facts = {m[0]: m[1:] for m in matchdays.values_list("pk", "date", "number", "rounds", "winner_score", "game_id")}
    # Club by club (a club's tables never see another's matchdays): each club's rows are written in
    # one run, rather than every club's interleaved day by day across the rows' index.
    ordered = results.order_by("matchday__club", "matchday__date", "matchday__number", "pk").values_list(*RATED_FIELDS)
    stream = ordered.iterator(chunk_size=BATCH)
    from_nothing = not _rows_kept(runs, since)
    try:
        with _indexes_built_after(from_nothing):
            if from_nothing or since is None:  # nothing before `since` to resume from
                _clear_all(runs, from_nothing)
            else:
                _resume(runs, since, results, counting)
            written = _write_entries(runs, rate(stream, facts, counting), by_table=not from_nothing)
    finally:
        # On PostgreSQL a server-side cursor: closed now, while its transaction is sound, and not
        # after a method's refusal has rolled the caller's savepoint back (which aborts it).
        stream.close()
    _write_standings(runs)
    return written


def _rows_kept(runs: list[TableRun], since: Position | None) -> bool:
    """Whether any rating row outlives the recompute: another table's, or one from before `since`.
    Any club's: the indexes a recompute from nothing sets aside are the whole table's, so a club's
    first file on a site of many would otherwise rebuild them over every other club's rows."""
    kept = ~Q(table_id__in=[run.table.pk for run in runs])
    if since is not None:
        kept |= before(*since)
    return RatingEntry._base_manager.filter(kept).exists()


@contextmanager
def _indexes_built_after(from_nothing: bool) -> Iterator[None]:
    """When every rating row is written from nothing (a full rebuild, a league's first import), the
    rows' indexes are dropped before the old rows are deleted and built once after the new ones
    (SQLite sorts them once) rather than kept up entry by entry: SQLite cannot empty a table that
    has foreign keys at once, so it deletes row by row, from every index; and rows come in play
    order, so each one would land at a random place in the index of players' histories, which at
    100,000 matchdays no longer fits SQLite's page cache (docs/performance.md). Only on SQLite,
    whose schema changes are part of the transaction and whose readers keep their snapshot
    meanwhile; on PostgreSQL, dropping an index would lock every reader of rating rows out until
    the commit."""
    if connection.vendor != "sqlite" or not from_nothing:
        yield
        return
    with indexes_set_aside(RatingEntry):
        yield


def _clear_all(runs: list[TableRun], every_row: bool) -> None:
    """A rebuild from the start: the runs' rows and standings deleted, in one DELETE of every row
    when no row outlives the recompute (`every_row`), and of every standing when every table is
    rebuilt."""
    if every_row:
        RatingEntry._base_manager.all().delete()  # no other row is left: no scope to join
    if len(runs) == RatingTable._base_manager.count():  # every club's tables, whichever club is in scope
        Standing.objects.all().delete()
        if every_row:
            return
    for run in runs:
        if not every_row:
            run.table.entries.all().delete()
        run.table.standings.all().delete()


def _resume(runs: list[TableRun], since: Position, results, counting: dict[int, list[TableRun]]) -> None:
    """Each table's players' states just before `since`, and its rows from `since` on cleared.

    Only the players who play from `since` on, and those whose standing lies at or after it, are
    affected; a standing from before `since` is the state itself, so adding the latest matchday
    reads a few rows, and only players whose standing is stale are looked up in the history."""
    playing: dict[int, set[int]] = {run.table.pk: set() for run in runs}
    for game_id, player in results.order_by().values_list("matchday__game_id", "player_id").distinct():
        for run in counting[game_id]:
            playing[run.table.pk].add(player)
    # Every table's in one query each (a matchday added counts in two or three tables).
    stale: dict[int, set[int]] = {pk: set() for pk in playing}
    everyone = set().union(*playing.values())
    # The runs' own tables name the club: the scope's join through each row's table to its club would
    # only cost (a delete over a join is a DELETE of a subquery), so their rows are asked for by table.
    rows, standings = RatingEntry._base_manager, Standing._base_manager
    stored = standings.filter(table_id__in=playing).filter(Q(player_id__in=everyone) | from_position(*since))
    carries = {run.table.pk: run.carries for run in runs}
    for s in stored:
        if (s.matchday_date, s.matchday_number) >= since:
            stale[s.table_id].add(s.player_id)
        elif s.player_id in playing[s.table_id]:
            carried = (s.rating, s.state, s.played, s.matchday_date, s.matchday_number, s.delta)
            carries[s.table_id][s.player_id] = carried
    for run in runs:
        table = run.table
        if stale[table.pk]:
            run.carries.update(_carries_before(table, since, stale[table.pk]))
        run.affected = stale[table.pk] | playing[table.pk]
    # Through the matchdays' own (date, number) index and the rows' (matchday, table, ...) one.
    rows.filter(table_id__in=playing, matchday__in=Matchday.objects.from_position(*since)).delete()
    # A few players' standings in one statement; a back-dated edit's thousands table by table, within
    # the parameters a statement may bind.
    if sum(len(run.affected) for run in runs) <= BATCH:
        standings.filter(_any(Q(table_id=run.table.pk, player_id__in=run.affected) for run in runs)).delete()
    else:
        for run in runs:
            standings.filter(table_id=run.table.pk, player_id__in=run.affected).delete()


def _any(conditions: Iterable[Q]) -> Q:
    either = Q(pk__in=[])  # matches nothing
    for condition in conditions:
        either |= condition
    return either


def rate_alone(
    tables: list[RatingTable], position: Position, players: list[int | None], seats: list[methods.Seat], facts
) -> list[tuple[RatingTable, list[methods.Outcome]]]:
    """What a matchday at `position` would give in each of `tables`, from each player's state just
    before it (None: a new player), without writing anything: the entry page's preview."""
    known = {p for p in players if p is not None}
    rated = []
    for table in tables:
        run = TableRun.of(table)
        carries, stale = {}, set()
        for s in table.standings.filter(player_id__in=known):
            if (s.matchday_date, s.matchday_number) < position:
                carries[s.player_id] = (s.rating, s.state, s.played, s.matchday_date, s.matchday_number, 0)
            else:
                stale.add(s.player_id)
        if stale:
            carries.update(_carries_before(table, position, stale))
        start_rating, start_state = run.start
        placed = [
            replace(seat, rating=carries[p][0], state=carries[p][1])
            if p in carries
            else replace(seat, rating=start_rating, state=start_state)
            for p, seat in zip(players, seats, strict=True)
        ]
        rated.append((table, run.method.compute(placed, facts, run.params)))
    return rated


def _carries_before(table: RatingTable, position: Position, players: set[int]) -> dict[int, Carry]:
    """Where each of `players` stood in `table` just before `position`, from their last row."""
    entries = table.entries.before_position(*position).filter(player_id__in=players)
    return {
        e.player_id: (e.rating_after, e.state, e.played, e.matchday_date, e.matchday_number, e.delta)
        for e in entries.latest_per_player()
    }


def _write_entries(runs: list[TableRun], rated: Iterable[tuple[int, list[tuple]]], by_table: bool = True) -> int:
    """Write the rated rows (by table, as `rate` gives them) in batches, and returns their number.
    With `by_table`, each batch holds one table's rows, so that it lands in one part of the indexes
    that lead with the table; otherwise (indexes built after the rows) the rows keep play order, so
    that each lands at the end of the one index kept, which leads with the matchday."""
    buffers: dict[int, list[tuple]] = {run.table_id if by_table else 0: [] for run in runs}
    written = 0
    for table_id, rows in rated:
        buffer = buffers[table_id if by_table else 0]
        buffer += rows
        if len(buffer) >= BATCH:
            insert_rows(RatingEntry, ENTRY_COLUMNS, buffer)
            written += len(buffer)
            buffer.clear()
    rest = [row for buffer in buffers.values() for row in buffer]  # still table by table, in one call
    insert_rows(RatingEntry, ENTRY_COLUMNS, rest)
    return written + len(rest)


def _write_standings(runs: list[TableRun]) -> None:
    """Each affected player's standing: where they stand after their last matchday in the table."""
    stored_state = Standing._meta.get_field("state")
    adapt_date = connection.ops.adapt_datefield_value
    insert_rows(
        Standing,
        STANDING_COLUMNS,
        [
            (
                run.table.pk,
                player,
                rating,
                None if state is None else stored_state.get_db_prep_save(state, connection),
                played,
                adapt_date(day),
                number,
                delta,
            )
            for run in runs
            for player, (rating, state, played, day, number, delta) in run.carries.items()
            if run.affected is None or player in run.affected
        ],
    )
