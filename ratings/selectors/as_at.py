"""Standings as they stood at the end of a day, read from the stored rating rows, and the moves
between two days.

A player's standing at a day is their last rating row on or before it: the engine carries nothing
else from one matchday to the next (ratings/engine.py resumes from those rows too), so it equals a
rating of only the matchdays up to that day. Each read is one query per table, never a scan of the
history: everyone's standing is one step per player down the (table, player, date, number) index
to their last row; the standings with inactive players hidden read instead the rows of the days of
activity from the (table, date, number) index, which holds what a ranking needs. Seasons read their
tables through these too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Exists, F, Max, OuterRef, QuerySet, Subquery, Window
from django.db.models.functions import RowNumber

from league.models import Attempt, DealSession, Matchday, Player, club_setting, unranked

from ..models import AttemptRating, RatingEntry, RatingTable, Standing
from . import ranks
from .overview import DirectoryRow, named
from .standings import StandingRow, judges_from_state, provisional, settling, table_order


@dataclass
class Rated:
    """A player's standing in one table at a day, shaped like `Standing` (`provisional` reads it)."""

    player_id: int
    rating: float
    state: dict | None
    matchday_date: date  # their last matchday (or session) on or before the day
    delta: float  # the change at that matchday
    played: int | None  # matchdays up to the day (a deal game's rows: counted by `count_played`)
    rank: int | None = 0  # None: provisional, listed after the ranked players


def last_rows(table: RatingTable, day: date) -> QuerySet:
    """Each player's last row in `table` on or before `day`, best first (ties by short name, as the
    current standings), in `Rated`'s order (a deal game's: player, rating, last day, change): the inner query finds
    each player's last row by a step down the history index from their standing, the outer reads
    those rows by their ids. A game played against deals keeps a row per rated attempt; its
    standings carry no state or count, and a player's last day is that of their last attempt, rated or
    not (ratings/deals/engine.py)."""
    deals = table.against_deals
    rows, rating, day_field, order = (
        (AttemptRating.objects, "player_after", "session_date", "position")
        if deals
        else (RatingEntry.objects, "rating_after", "matchday_date", "matchday_number")
    )
    last = rows.filter(table_id=OuterRef("table_id"), player_id=OuterRef("player_id"), **{f"{day_field}__lte": day})
    ids = Standing.objects.filter(table=table).values(
        last=Subquery(last.order_by(f"-{day_field}", f"-{order}").values("pk")[:1])
    )
    found = rows.filter(pk__in=ids).order_by(f"-{rating}", "player__short_name")
    if not deals:
        return found.values_list("player_id", "rating_after", "state", "matchday_date", "delta", "played")
    attempts = Attempt.objects.filter(
        player=OuterRef("player_id"), session__game_id=table.game_id, session__date__lte=day
    )
    last_day = attempts.order_by().values("player").annotate(last=Max("session__date")).values("last")
    return found.values_list("player_id", rating, Subquery(last_day), "delta")


def ratings_at(table: RatingTable, day: date) -> list[Rated]:
    """Every player rated in `table` by the end of `day`, best first (equal ratings by short name),
    unranked. One query."""
    rows = last_rows(table, day)
    if table.against_deals:  # no state; the matchdays counted by `count_played`
        return [Rated(player, rating, None, on, delta, None) for player, rating, on, delta in rows]
    return [Rated(*row) for row in rows]


@dataclass
class Ranking:
    rows: list[Rated]  # best first, ranked
    hidden: bool = False  # whether players were left out as inactive


def ranked_at(
    table: RatingTable, day: date, active_since: date | None = None, provisional_below: int | None = None
) -> Ranking:
    """The table's ranking at the end of `day`, best first; with `active_since`, players whose last
    matchday is older are left out and not ranked, as the standings hide them. Equal ratings share
    a rank (1, 2, 2, 4). With `provisional_below`, the players provisional that day come after the
    ranked ones, unranked, as today's boards list them (`boards.split`); guests are left out. Two
    queries (three for a matchday table's active players)."""
    if active_since is not None and not table.against_deals:
        rows, hidden = active_ratings_at(table, active_since, day), anyone_inactive(table, active_since, day)
    else:
        everyone = ratings_at(table, day)
        rows = everyone if active_since is None else [row for row in everyone if row.matchday_date >= active_since]
        hidden = len(rows) < len(everyone)
    guests = set(Player.objects.filter(unranked()).values_list("pk", flat=True))  # rated, not ranked
    rows = [row for row in rows if row.player_id not in guests]
    settling = []
    if provisional_below is not None and not table.against_deals:
        provisional = provisional_players(table, rows, provisional_below)
        settling = [row for row in rows if row.player_id in provisional]
        rows = [row for row in rows if row.player_id not in provisional]
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and rows[i - 1].rating == row.rating else i + 1
    for row in settling:
        row.rank = None
    return Ranking([*rows, *settling], hidden)


def window_rows(table: RatingTable, since: date, day: date) -> QuerySet:
    """Each player's last row in the days of activity, from `since` to `day` (their row with the
    highest running count), best first (ties by short name), as (player, rating, last day, change,
    matchdays) and the state where the method judges provisional from it. Read from the
    (table, date, number) index alone, which holds all a ranking reads but the state (read from the
    rows only where the method judges provisional from it): reading the window costs less than a step
    per player (docs/performance.md)."""
    rows = RatingEntry.objects.filter(table=table, matchday_date__gte=since, matchday_date__lte=day)
    last = rows.annotate(newest=Window(RowNumber(), partition_by=F("player_id"), order_by=F("played").desc()))
    state = ["state"] if judges_from_state(table.rating_method) else []
    return (
        last.filter(newest=1)
        .order_by("-rating_after", "player__short_name")
        .values_list("player_id", "rating_after", "matchday_date", "delta", "played", *state)
    )


def active_ratings_at(table: RatingTable, since: date, day: date) -> list[Rated]:
    """The players of a matchday table who played between `since` and `day`, at the end of `day`,
    best first (equal ratings by short name), unranked. One query."""
    return [
        Rated(player, rating, state[0] if state else None, on, delta, played)
        for player, rating, on, delta, played, *state in window_rows(table, since, day)
    ]


def anyone_inactive(table: RatingTable, since: date, day: date) -> bool:
    """Whether a player of the matchday table had played by `day` but not since `since`: one query, a
    step down the history index for each player not in the window."""
    window = RatingEntry.objects.filter(table=table, matchday_date__gte=since, matchday_date__lte=day)
    earlier = RatingEntry.objects.filter(table=OuterRef("table"), player=OuterRef("player"), matchday_date__lt=since)
    away = Standing.objects.filter(table=table).exclude(player_id__in=window.values("player_id"))
    return away.filter(Exists(earlier)).exists()


def provisional_players(table: RatingTable, rows: list[Rated], below: int) -> set[int]:
    """The players of `rows` (a day's last rows) provisional at the end of that day: by the method's
    own say from their state then, or else with fewer than `below` matchdays by then."""
    method, params = table.rating_method, table.method_params()
    return {row.player_id for row in rows if settling(method, params, row.state, row.played, below)}


def count_played(table: RatingTable, day: date, rows: list[Rated]) -> None:
    """Set `played` (rated attempts up to `day`) on `rows` of a deal game, the few a page shows: one
    query counting their part of the history index. A matchday's row carries its own count."""
    if not rows or not table.against_deals:
        return
    attempts = AttemptRating.objects.filter(
        table=table, session_date__lte=day, player_id__in=[r.player_id for r in rows]
    )
    counts = dict(attempts.values("player_id").annotate(n=Count("*")).values_list("player_id", "n"))
    for row in rows:
        row.played = counts.get(row.player_id, 0)


def standing_rows_at(table: RatingTable, day: date, rows: list[Rated], provisional_below: int = 0) -> list[StandingRow]:
    """`rows` (a page of `ranked_at`) as the standings show them, each player's matchdays and
    provisional mark those of `day`. One query for the players (and one counting a deal game's attempts)."""
    count_played(table, day, rows)
    players = Player.objects.in_bulk([row.player_id for row in rows])
    return [
        StandingRow(
            row.rank,
            players[row.player_id],
            row.rating,
            row.played,
            row.matchday_date,
            row.delta,
            provisional(table, row, provisional_below),
        )
        for row in rows
    ]


@dataclass
class ComparedRow(StandingRow):
    """A standing with its move since an earlier day: `change` of rating and `movement` in places
    (up is positive); both None for a player not in the earlier day's standings."""

    change: float | None = None
    movement: int | None = None


def compared(rows: list[StandingRow], earlier: list[Rated]) -> list[ComparedRow]:
    """`rows` (a later day's standings) with each player's change since `earlier` (the earlier day's
    `ranked_at`)."""
    before = {row.player_id: row for row in earlier}
    out = []
    for row in rows:
        then = before.get(row.player.pk)
        out.append(
            ComparedRow(
                **vars(row),
                change=None if then is None else row.rating - then.rating,
                movement=None if then is None or None in (then.rank, row.rank) else then.rank - row.rank,
            )
        )
    return out


def first_day() -> date | None:
    """The day of the league's first matchday or solitaire session (two index lookups)."""
    days = [
        Matchday.objects.order_by("date").values_list("date", flat=True).first(),
        DealSession.objects.order_by("date").values_list("date", flat=True).first(),
    ]
    return min((d for d in days if d is not None), default=None)


def player_standings_at(player: Player, tables: list[RatingTable], day: date, provisional_below: int = 0) -> list[dict]:
    """The player's rating, rank, field size and provisional mark at the end of `day` in every table
    they had played in by then, overall first: the shape of `players.player_standings`, whose
    `standing` is here a `Rated`; the rank and field are that day's standings' (`standing_ranks_at`).
    Two queries per table (three for a deal game's, counting attempts)."""
    rows = []
    for table in tables:
        mine = next((row for row in ratings_at(table, day) if row.player_id == player.pk), None)
        if mine is None:
            continue
        ranking = standing_ranks_at(table, day, provisional_below)
        count_played(table, day, [mine])
        rows.append(
            {
                "table": table,
                "rank": ranking.get(player.pk),
                "of": sum(rank is not None for rank in ranking.values()),
                "standing": mine,
                "provisional": provisional(table, mine, provisional_below),
                "inactive": player.pk not in ranking,
            }
        )
    return sorted(rows, key=lambda row: table_order(row["table"]))


def standing_ranks_at(table: RatingTable, day: date, provisional_below: int) -> dict[int, int | None]:
    """Player id -> rank on `day`'s standings of the table (None: unranked, provisional), of the
    players those standings show (`ranks.shown_since_at`)."""
    since = ranks.shown_since_at(table, day)
    return {row.player_id: row.rank for row in ranked_at(table, day, since, provisional_below).rows}


def directory_at(search: str, order: str, day: date) -> list[DirectoryRow]:
    """The players directory at the end of `day`: everyone who had played by then whose full, short
    or former name contains `search` (any case), in `order` (a key of `overview.DIRECTORY_ORDER`),
    with their overall rating and rank, matchdays (every game's), attempts at deals and last day. Reads
    every rating row up to the day once (a directory is not a page the club reads often as at a day)."""
    tables = list(RatingTable.objects.filter(scope=RatingTable.Scope.GAME).select_related("game"))
    played: dict[int, list] = {}  # player id -> [matchdays, attempts at deals, last day]
    for kind, rows, column in (
        (False, RatingEntry.objects, "matchday_date"),
        (True, AttemptRating.objects, "session_date"),
    ):
        ids = [t.pk for t in tables if t.against_deals == kind]
        if not ids:
            continue
        found = rows.filter(table_id__in=ids, **{f"{column}__lte": day}).values("player_id")
        for player, count, last in found.annotate(n=Count("*"), last=Max(column)).values_list("player_id", "n", "last"):
            counts = played.setdefault(player, [0, 0, None])
            counts[kind] += count  # attempts at deals counted apart, as today's directory does
            counts[2] = last if counts[2] is None else max(counts[2], last)
    # An unrated attempt is play too, as today's standings count it: the last day reads every attempt.
    games = [t.game_id for t in tables if t.against_deals]
    attempts = Attempt.objects.filter(session__game_id__in=games, session__date__lte=day).values("player_id")
    for player, last in attempts.annotate(last=Max("session__date")).values_list("player_id", "last"):
        counts = played.setdefault(player, [0, 0, None])
        counts[2] = last if counts[2] is None else max(counts[2], last)
    overall = RatingTable.objects.filter(scope=RatingTable.Scope.OVERALL).first()
    rated = {row.player_id: row for row in ratings_at(overall, day)} if overall else {}
    places = standing_ranks_at(overall, day, club_setting("provisional_matchdays")) if overall else {}
    players = Player.objects.filter(pk__in=list(played), stands_for__isnull=True)
    if search:
        players = players.filter(pk__in=named(search))
    rows = []
    for p in players:
        mine = rated.get(p.pk)
        rows.append(DirectoryRow(p, mine and mine.rating, places.get(p.pk), *played[p.pk]))
    by_name = sorted(rows, key=lambda r: (r.player.name, r.player.short_name))
    if order == "rating":  # stable sorts: the name breaks ties
        return sorted(by_name, key=lambda r: (r.rating is None, -(r.rating or 0)))
    if order == "last-played":
        return sorted(by_name, key=lambda r: (r.last_played is None, -(r.last_played or date.min).toordinal()))
    return by_name
