"""A rating table's standings, the span of its matchdays, the players' current ratings, a matchday's
rating changes and a table's recent history for the comparison.

Long lists are paged by the pages themselves: a function here gives the query to page (newest
first where a list runs in time) and another builds the rows of one page's objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from itertools import groupby

from django.core.paginator import Page
from django.db.models import Count, Func, IntegerField, OuterRef, QuerySet, Subquery, Value

from league.models import Game, Matchday, Player, Result, unranked
from league.results import values as result_values

from ..comparison import MatchdayRecord, StoredPlay
from ..methods import Facts, Method
from ..models import RatingEntry, RatingTable, Standing, from_position


@dataclass(frozen=True)
class TableSpan:
    """How many matchdays a table has and the dates of its first and last."""

    matchdays: int = 0
    first: date | None = None
    last: date | None = None
    games: tuple[int, ...] = ()  # the ids of the games whose matchdays these are, when known

    def __add__(self, other: TableSpan) -> TableSpan:
        firsts = [d for d in (self.first, other.first) if d]
        lasts = [d for d in (self.last, other.last) if d]
        games = self.games + other.games
        return TableSpan(self.matchdays + other.matchdays, min(firsts, default=None), max(lasts, default=None), games)

    def needs_year(self, today: date) -> bool:
        """Dates show their year when the matchdays cross a new year, when any lies ahead, or when
        they are of another year than today's (a date a year old is not this year's)."""
        return bool(self.first) and (
            self.first.year != self.last.year or self.last > today or self.last.year != today.year
        )


@dataclass
class Spans:
    """The span of every rating table and of all matchdays together, from one grouped query."""

    by_table: dict[int, TableSpan]
    everything: TableSpan

    def of(self, table: RatingTable | None) -> TableSpan:
        return self.everything if table is None else self.by_table.get(table.pk, TableSpan())


def spans(tables: list[RatingTable], games: list[int] | None = None, *, counted: bool = True) -> Spans:
    """Each of `tables`' span from one query over the games (of `games` only when the page shows no
    others): per game, its first and last date and, if `counted`, its number of matchdays, each
    read off the index of matchdays by (game, date, number) without visiting the matchdays (the
    count steps through the game's part of the index: a page that needs no count should not ask)."""
    by_table = {t.pk: TableSpan() for t in tables}
    everything = TableSpan()
    if games is not None and not games:
        return Spans(by_table, everything)
    of_game = Matchday.objects.filter(game=OuterRef("pk"))
    found = Game.objects.annotate(
        n=count_of(of_game) if counted else Value(0),
        first=Subquery(of_game.order_by("date").values("date")[:1]),
        last=Subquery(of_game.order_by("-date").values("date")[:1]),
    ).order_by("pk")
    for game in found if games is None else found.filter(pk__in=games):
        span = TableSpan(game.n, game.first, game.last, (game.pk,) if game.first is not None else ())
        everything += span
        for table in tables:
            if table.counts(game):
                by_table[table.pk] += span
    return Spans(by_table, everything)


def count_of(rows: QuerySet) -> Subquery:
    """How many `rows` there are (a queryset referring to the outer query), as a subquery: a plain
    COUNT. Django's idiom for it, `values(...).annotate(Count(...))`, groups the rows, which SQLite
    does row by row: it doubled the cost of counting a game's matchdays (docs/performance.md)."""
    return Subquery(rows.order_by().annotate(n=Func("pk", function="COUNT", output_field=IntegerField())).values("n"))


def all_dates() -> TableSpan:
    """The dates of the first and last matchday of all (two index lookups; no count)."""
    days = Matchday.objects.order_by("date").values_list("date", flat=True)
    return TableSpan(0, days.first(), days.reverse().first())


@dataclass
class StandingRow:
    rank: int | None  # None: provisional, listed after the ranked players (selectors/boards.py)
    player: Player
    rating: float
    played: int
    last_played: date
    last_change: float
    provisional: bool = False
    player_id: int | None = None  # a board's row names its player by id until it is shown


def ranked(rows: list[StandingRow], first_rank: int = 1) -> list[StandingRow]:
    """Number rows already sorted best first; equal ratings share a rank (1, 2, 2, 4)."""
    for i, row in enumerate(rows):
        tied = i and rows[i - 1].rating == row.rating
        row.rank = rows[i - 1].rank if tied else first_rank + i
    return rows


def provisional(table: RatingTable, standing: Standing, provisional_below: int) -> bool:
    return settling(table.rating_method, table.method_params(), standing.state, standing.played, provisional_below)


def settling(method, params: dict, state: dict | None, played: int, provisional_below: int) -> bool:
    """Whether a player is provisional: by the method's own say from their state, or else with fewer
    than `provisional_below` matchdays. Boards pass the table's method and parameters read once."""
    flag = method.is_provisional(state, params)
    return played < provisional_below if flag is None else flag


def judges_from_state(method: Method) -> bool:
    """Whether the method has its own say on who is provisional, from the state (`settling`):
    where it has none, a past day's standings need not read any state."""
    return type(method).is_provisional is not Method.is_provisional


def ranked_standings(table: RatingTable, active_since: date | None = None) -> QuerySet:
    """The table's current ranking, best first, as standings pages show it. With `active_since`,
    players whose last matchday is older are left out (and not ranked)."""
    standings = table.standings.ranked().exclude(unranked("player__")).select_related("player")  # members only
    if active_since is not None:
        standings = standings.filter(matchday_date__gte=active_since)
    return standings


def standing_rows(table: RatingTable, page: Page, provisional_below: int = 0) -> list[StandingRow]:
    """Rows for `page`, a page of `ranked_standings`; ties share a rank, and ranks run on across
    pages."""
    rows = [
        StandingRow(0, s.player, s.rating, s.played, s.matchday_date, s.delta, provisional(table, s, provisional_below))
        for s in page.object_list
    ]
    first_rank = 1
    if rows and page.number > 1:
        first_rank = 1 + page.paginator.object_list.filter(rating__gt=rows[0].rating).count()
    return ranked(rows, first_rank)


def current_ratings(player_ids, tables: list[RatingTable] | None = None) -> dict[int, list[tuple[RatingTable, float]]]:
    """Player id -> (table, current rating) for every table each of the players has played in, the
    overall table first. Feeds the rating tooltip on player names. One query, the players'
    standings as plain values, and one more for the tables unless the page has read them."""
    tables = {t.pk: t for t in (RatingTable.objects.select_related("game") if tables is None else tables)}
    ratings: dict[int, list[tuple[RatingTable, float]]] = {}
    # The club's tables only: a fresh-start season's (with a season) is read on the season's page.
    standings = Standing.objects.filter(player_id__in=list(player_ids), table__season=None)
    by_table: dict[int, list[tuple[int, float]]] = {}
    for player_id, table_id, rating in standings.values_list("player_id", "table_id", "rating"):
        by_table.setdefault(table_id, []).append((player_id, rating))
    # A page's own tables may leave some out (the home page shows no deals table): read those too,
    # since a tooltip shows every rating the player has.
    missing = by_table.keys() - tables.keys()
    if missing:
        tables.update((t.pk, t) for t in RatingTable.objects.select_related("game").filter(pk__in=missing))
    # A fresh-start season's tables (not among the club's tables) are the season pages' to show.
    shown = (tables[pk] for pk in by_table if pk in tables)
    for table in sorted(shown, key=table_order):  # sorted once, not per player
        for player_id, rating in by_table[table.pk]:
            ratings.setdefault(player_id, []).append((table, rating))
    return ratings


def entries_with_field_size():
    """Rating entries with `players`, the number of players at their matchday, and what a page
    needs to explain them, in one query."""
    field_size = (
        Result.objects.filter(matchday=OuterRef("matchday")).values("matchday").annotate(n=Count("pk")).values("n")
    )
    return RatingEntry.objects.annotate(players=Subquery(field_size)).select_related(
        "matchday__game", "table", "player"
    )


def matchday_entries(
    matchday: Matchday, tables: dict[int, RatingTable] | None = None
) -> list[tuple[RatingTable, list[RatingEntry]]]:
    """The rating entries of one matchday, grouped by table, best change first; each with its
    player and `matchday`. One query: the tables come from `tables` (every table, by id) when the
    page has read them (the query's compilation, not its running, is most of a matchday page's read)."""
    entries = RatingEntry.objects.filter(matchday=matchday).order_by("-delta", "player__short_name")
    entries = entries.select_related("player") if tables is not None else entries.select_related("player", "table")
    by_table: dict[int, tuple[RatingTable, list[RatingEntry]]] = {}
    for entry in entries:
        if tables is not None and entry.table_id not in tables:
            continue  # a fresh-start season's table: the season pages' to show
        _ENTRY_MATCHDAY.set_cached_value(entry, matchday)
        table = entry.table if tables is None else tables[entry.table_id]
        by_table.setdefault(entry.table_id, (table, []))[1].append(entry)
    return sorted(by_table.values(), key=lambda pair: table_order(pair[0]))


_ENTRY_MATCHDAY = RatingEntry._meta.get_field("matchday")


def matchday_changes(matchday: Matchday) -> list[RatingEntry]:
    """Every rating change at one matchday, table by table (overall first), best change first."""
    entries = RatingEntry.objects.filter(matchday=matchday).select_related("table__season", "player")
    # A season's table (named for its season) after the club's table of the same name.
    return sorted(entries, key=lambda e: (*table_order(e.table), e.table.season_id is not None, -e.delta))


def table_order(table: RatingTable) -> tuple:
    """Overall first, then games, then unofficial categories, each by name (as on the home page)."""
    rank = {RatingTable.Scope.OVERALL: 0, RatingTable.Scope.GAME: 1, RatingTable.Scope.CATEGORY: 2}
    return (rank[table.scope], table.name)


def table_history(table: RatingTable, limit: int) -> tuple[list[MatchdayRecord], dict[int, Player], int]:
    """The table's `limit` most recent matchdays in play order with their results, for rating in
    memory; the players who took part, by id; and how many matchdays the table has in all.

    Three queries, each reading only the window off the matchdays' (date, number) index: the count,
    the window's first position, and the results from that position on."""
    matchdays = table.matchdays()
    total = matchdays.count()
    results = Result.objects.filter(table.counted("matchday__"))
    first = list(matchdays.order_by("-date", "-number").values_list("date", "number")[limit - 1 : limit])
    if first:  # more matchdays than the window: read from its first on
        results = results.filter(from_position(*first[0], prefix="matchday__"))
    results = results.select_related("matchday", "player").order_by("matchday__date", "matchday__number", "pk")
    history, players = [], {}
    for matchday, group in groupby(results, key=lambda r: r.matchday):
        played = []
        for r in group:
            players[r.player_id] = r.player
            played.append(StoredPlay(*result_values(r), player_id=r.player_id))
        facts = Facts(rounds=matchday.rounds, winner_score=matchday.winner_score)
        history.append(MatchdayRecord(matchday.pk, matchday.number, facts, tuple(played), matchday.date))
    return history, players, total
