"""The recompute of a game played against deals: the one place where its rating rows are written.

Private to `ratings.services` (a test checks that nothing else imports it), which calls it inside the
transaction of the edit that asked for it. Attempts are rated one by one in play order (session date,
then the order they were entered) with `ratings.methods.deals`. A recompute from a session keeps
every earlier row and resumes from the stored states:

    clear   the rows from the session on (everything for a full rebuild, which starts from the seeds)
    resume  the state just before the session of every player, deal and level that plays from it on:
            their stored state, or for those whose state already includes later play (stale), their
            last row before it
    rate    stream the attempts from the session on through the method
    write   the rows as they come, then the state of every player, deal and level touched

Adding tonight's session therefore reads the states of tonight's players, deals and levels only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date

from django.db import connection
from django.db.models import Max, Q

from league.models import Attempt, DealSeed

from ..bulk import BATCH, analyze_after_load, insert_rows
from ..methods import deals
from ..models import AttemptRating, DealRating, LevelRating, RatingTable, Standing


@dataclass
class PlayerState:
    rating: float
    played: int  # rated attempts
    last_date: date  # their last attempt, rated or not: the standings hide players inactive since
    delta: float  # the change at their last rated attempt


@dataclass
class DealState:
    level_id: int
    base: float
    seeded: float | None
    played: int = 0
    wins: int = 0
    first_date: date | None = None
    last_date: date | None = None


@dataclass
class LevelState:
    level: deals.Level
    attempts: int = 0
    wins: int = 0
    last_date: date | None = None


class _Run:
    """One deal game's table being recomputed: its parameters and the states of what it rates."""

    def __init__(self, table: RatingTable):
        params = table.method_params()
        self.table = table
        self.start = params["start_rating"]
        self.k = params["k"]
        self.boost = params["level_boost"]
        self.first_only = params["first_attempt_only"]
        self.players: dict[int, PlayerState] = {}
        self.deals: dict[int, DealState] = {}
        self.levels: dict[int, LevelState] = {}
        self.seen: set[tuple[int, int]] = set()  # (player, deal) rated already, for first_attempt_only


ROW_COLUMNS = (
    "table_id",
    "attempt_id",
    "player_id",
    "deal_id",
    "level_id",
    "session_date",
    "position",
    "won",
    "player_before",
    "player_after",
    "deal_before",
    "deal_after",
    "deal_base_after",
    "level_offset_after",
    "expected",
    "k",
    "delta",
)
DEAL_FIELDS = ("level_id", "base", "seeded", "played", "wins", "first_date", "last_date")
LEVEL_FIELDS = ("offset", "deals", "base_sum", "attempts", "wins", "last_date")
STREAM_FIELDS = ("pk", "session__date", "position", "player_id", "deal_id", "deal__level_id", "won", "rated")


def recompute(table: RatingTable, since: date | None = None) -> int:
    """Rebuild the deal game's `table` from its session of `since` onward (everything when None).
    Returns the number of rows written. Recomputes of one table run one at a time (its row is locked
    until the caller's transaction ends)."""
    list(RatingTable.objects.select_for_update().filter(pk=table.pk).values("pk"))
    run = _Run(table)
    attempts = Attempt.objects.filter(session__game_id=table.game_id)
    if since is None:
        for related in (table.attempt_ratings, table.deal_ratings, table.level_ratings, table.standings):
            related.all().delete()
        _seed(run)
    else:
        attempts = attempts.filter(session__date__gte=since)
        _resume(run, since, attempts)
    stream = attempts.order_by("session__date", "position").values_list(*STREAM_FIELDS)
    written = _write_rows(_rate(run, stream.iterator(chunk_size=BATCH)))
    _write_states(run)
    analyze_after_load(written, AttemptRating, DealRating, LevelRating)  # the pages read them next
    return written


def _seed(run: _Run) -> None:
    """The seeded deals, rated from their prior records level by level, known before any attempt."""
    records: dict[int, dict[int, tuple[int, int]]] = {}
    seeds = DealSeed.objects.filter(deal__level__game_id=run.table.game_id)
    for deal_id, level_id, plays, wins in seeds.values_list("deal_id", "deal__level_id", "plays", "wins"):
        records.setdefault(level_id, {})[deal_id] = (plays, wins)
    for level_id, level_records in records.items():
        level = run.levels.setdefault(level_id, LevelState(deals.Level()))
        for deal_id, rating in deals.seed_level(level_records, run.start).items():
            run.deals[deal_id] = DealState(level_id, rating, rating)
            level.level.add(rating)


def _resume(run: _Run, since: date, attempts) -> None:
    """Load the state just before `since` of everything that plays from it on or whose stored state
    lies at or after it, and clear what will be rewritten."""
    table = run.table
    players_from, deals_from = attempts.values("player_id"), attempts.values("deal_id")
    standings = table.standings.filter(Q(player_id__in=players_from) | Q(matchday_date__gte=since))
    deal_rows = table.deal_ratings.filter(Q(deal_id__in=deals_from) | Q(last_date__gte=since))
    level_rows = table.level_ratings.filter(Q(level_id__in=attempts.values("deal__level_id")) | Q(last_date__gte=since))
    before = table.attempt_ratings.before_date(since)
    _resume_players(run, since, standings, before)
    _resume_deals(run, since, deal_rows, before)
    _resume_levels(run, since, level_rows, before)

    if run.first_only:
        earlier = Attempt.objects.filter(
            session__game_id=table.game_id,
            session__date__lt=since,
            rated=True,
            player_id__in=players_from,
            deal_id__in=deals_from,
        )
        run.seen.update(earlier.order_by().values_list("player_id", "deal_id").distinct())

    table.attempt_ratings.filter(session_date__gte=since).delete()
    deal_rows.delete()
    level_rows.delete()
    standings.delete()


def _resume_players(run: _Run, since: date, standings, before) -> None:
    """The players' states before `since`: their standing, or their last row before it."""
    table = run.table
    # States are read as plain tuples: a recompute from the middle of a long history reads many.
    stale_players = set()
    for player, rating, played, last, delta in standings.values_list(
        "player_id", "rating", "played", "matchday_date", "delta"
    ):
        if last < since:
            run.players[player] = PlayerState(rating, played, last, delta)
        else:
            stale_players.add(player)
    if stale_players:
        last_played = dict(
            Attempt.objects.filter(session__game_id=table.game_id, session__date__lt=since, player_id__in=stale_players)
            .values("player_id")
            .annotate(last=Max("session__date"))
            .values_list("player_id", "last")
        )
        latest = before.filter(player_id__in=stale_players).latest_per("player_id")
        for player, rating, rows, delta in latest.values_list("player_id", "player_after", "rows", "delta"):
            run.players[player] = PlayerState(rating, rows, last_played[player], delta)


def _resume_deals(run: _Run, since: date, deal_rows, before) -> None:
    """The deals' states before `since`: their stored state, or their last row before it (or their seed)."""
    table = run.table
    stored_deals = {row[0]: row[1:] for row in deal_rows.values_list("deal_id", *DEAL_FIELDS)}
    stale_deals = False
    for pk, (level, base, seeded, played, wins, first, last) in stored_deals.items():
        if last is None or last < since:
            run.deals[pk] = DealState(level, base, seeded, played, wins, first, last)
        else:
            stale_deals = True
            if seeded is not None:  # as seeded, unless it has rows before `since` (below)
                run.deals[pk] = DealState(level, seeded, seeded)
    if stale_deals:
        stale = table.deal_ratings.filter(last_date__gte=since).values("deal_id")
        latest = before.filter(deal_id__in=stale).latest_per("deal_id")
        for pk, base, rows, wins, day in latest.values_list(
            "deal_id", "deal_base_after", "rows", "wins", "session_date"
        ):
            level, _, seeded, _, _, first, _ = stored_deals[pk]  # played before `since`: known before it too
            run.deals[pk] = DealState(level, base, seeded, rows, wins, first, day)


def _resume_levels(run: _Run, since: date, level_rows, before) -> None:
    """The levels' states before `since`, with the exact sum of their deals' bases (deals resumed first)."""
    table = run.table
    stale_levels = set()
    for pk, offset, known, partials, attempts_, wins, last in level_rows.values_list("level_id", *LEVEL_FIELDS):
        if last is not None and last >= since:
            stale_levels.add(pk)
            run.levels[pk] = LevelState(deals.Level())
        else:
            run.levels[pk] = LevelState(deals.Level(offset, known, deals.ExactSum(partials)), attempts_, wins, last)
    if stale_levels:
        latest = before.filter(level_id__in=stale_levels).latest_per("level_id")
        for pk, offset, rows, wins, day in latest.values_list(
            "level_id", "level_offset_after", "rows", "wins", "session_date"
        ):
            run.levels[pk] = LevelState(deals.Level(offset), rows, wins, day)
        # The exact sum of each stale level's deals' bases before `since`, from every deal of it.
        for deal_id, level_id, base, last in table.deal_ratings.filter(level_id__in=stale_levels).values_list(
            "deal_id", "level_id", "base", "last_date"
        ):
            if last is not None and last >= since:
                if deal_id not in run.deals:
                    continue  # first played from `since` on: not known before it
                base = run.deals[deal_id].base
            run.levels[level_id].level.add(base)


def _rate(run: _Run, stream: Iterable[tuple]) -> Iterator[tuple]:
    """Rate each attempt of the stream in play order, yielding the rows to write."""
    start, k, boost, first_only = run.start, run.k, run.boost, run.first_only
    players, known, levels, seen = run.players, run.deals, run.levels, run.seen
    adapt_date = connection.ops.adapt_datefield_value
    stored_day, last_day = None, None
    for attempt_id, day, position, player, deal, level_id, won, rated in stream:
        current = players.get(player)
        if rated and first_only:
            rated = (player, deal) not in seen
            seen.add((player, deal))
        if not rated:
            if current is not None:
                current.last_date = day
            continue
        if day != last_day:
            stored_day, last_day = adapt_date(day), day
        level = levels.get(level_id)
        if level is None:
            level = levels[level_id] = LevelState(deals.Level())
        state = known.get(deal)
        if state is None:  # played for the first time: the level's mean rating
            base = level.level.new_base(start)
            state = known[deal] = DealState(level_id, base, None, first_date=day)
            level.level.add(base)
        change = deals.play(current.rating if current else start, state.base, level.level, won, k, boost)
        state.base = change.base_after
        state.played += 1
        state.wins += won
        state.last_date = day
        level.attempts += 1
        level.wins += won
        level.last_date = day
        players[player] = PlayerState(change.player_after, current.played + 1 if current else 1, day, change.delta)
        yield (
            run.table.pk,
            attempt_id,
            player,
            deal,
            level_id,
            stored_day,
            position,
            won,
            change.player_before,
            change.player_after,
            change.deal_before,
            change.deal_after,
            change.base_after,
            change.offset_after,
            change.expected,
            k,
            change.delta,
        )


def _write_rows(rows: Iterable[tuple]) -> int:
    batch, written = [], 0
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH:
            insert_rows(AttemptRating, ROW_COLUMNS, batch)
            written += len(batch)
            batch.clear()
    insert_rows(AttemptRating, ROW_COLUMNS, batch)
    return written + len(batch)


def _write_states(run: _Run) -> None:
    """The state of every player, deal and level the run loaded or rated (what it cleared)."""
    table_id = run.table.pk
    adapt_date = connection.ops.adapt_datefield_value
    partials = LevelRating._meta.get_field("base_sum")
    insert_rows(
        Standing,
        ("table_id", "player_id", "rating", "played", "matchday_date", "matchday_number", "delta"),
        [(table_id, pk, p.rating, p.played, adapt_date(p.last_date), 0, p.delta) for pk, p in run.players.items()],
    )
    insert_rows(
        DealRating,
        ("table_id", "deal_id", "level_id", "base", "seeded", "played", "wins", "first_date", "last_date"),
        [
            (
                table_id,
                pk,
                d.level_id,
                d.base,
                d.seeded,
                d.played,
                d.wins,
                adapt_date(d.first_date),
                adapt_date(d.last_date),
            )
            for pk, d in run.deals.items()
        ],
    )
    insert_rows(
        LevelRating,
        ("table_id", "level_id", "offset", "deals", "base_sum", "average", "attempts", "wins", "last_date"),
        [
            (
                table_id,
                pk,
                lv.level.offset,
                lv.level.known,
                partials.get_db_prep_save(lv.level.total.partials, connection),
                lv.level.mean,
                lv.attempts,
                lv.wins,
                adapt_date(lv.last_date),
            )
            for pk, lv in run.levels.items()
            if lv.level.known
        ],
    )
