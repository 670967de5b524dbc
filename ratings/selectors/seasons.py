"""Seasons as members read them: each table's board of a season (its final standings once it is over,
its current ones while it runs), its movers and matchdays, and the honours board of finished seasons.

A carry-over season's board is the all-time table as it stood at the season's end (or today), among
the players who played a matchday within its days; a fresh-start season's is its own table
(ratings/engine.py rates only the season's matchdays in it). Either way a player's rating is their
last rating row on or before that day, as `as_at.ratings_at` reads it, and their change over the
season is that rating less the rating they brought to their first matchday in it (the start rating
for a newcomer, and for everyone in a fresh start).

Solitaire is left out of seasons: a game played against deals keeps its all-time table only (the
engine gives fresh-start seasons no table of it), and its ratings move attempt by attempt, not by
matchday. Every season's boards come from one query over the rating rows' (table, player, date,
number) index, a few steps per player and table, never a scan of the history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Value

from league.models import Matchday, Player, Season

from ..models import RatingEntry, RatingTable, Standing
from .nights import Mover, biggest
from .standings import count_of, table_order

PODIUM = ("1st", "2nd", "3rd")


def end_of(season: Season, today: date) -> date:
    """The last day a season's board counts: its last day, or today while it runs."""
    return min(season.last_day, today)


def finished(season: Season, today: date) -> bool:
    return season.last_day < today


def state(season: Season, today: date) -> str:
    if finished(season, today):
        return "finished"
    return "running" if season.first_day <= today else "to come"


def running(today: date) -> Season | None:
    """The season whose days hold `today` (seasons never overlap). One query."""
    return Season.objects.filter(first_day__lte=today, last_day__gte=today).first()


@dataclass
class SeasonRow:
    """A player's standing in one table of a season."""

    rank: int
    player: Player
    rating: float  # at the season's end (or today)
    played: int  # matchdays within the season's days
    change: float  # over the season: the rating less the one brought to its first matchday


@dataclass
class SeasonBoard:
    table: RatingTable  # the club's table it ranks (a fresh-start season's table's parent)
    source: RatingTable  # the table whose rows it reads: the season's own, or the club's
    rows: list[SeasonRow]  # best first; equal ratings share a rank
    also: RatingTable | None = None  # a category table whose board only repeated this one

    @property
    def title(self) -> str:
        return f"{self.table.name}{f' · {self.also.name}' if self.also else ''}"


def _season_rows(seasons: list[Season], today: date) -> list[tuple]:
    """(season id, table id, player id, matchdays, rating brought, rating) for every player of every
    season's tables (the club's for a carry-over, its own for a fresh start) who played within its
    days, up to `today`: each figure a step down the history index from the player's standing. One
    query: the fresh starts' standings reach their seasons through their tables, and each carry-over
    season reads the club's tables' standings, all in one union."""
    fresh = [s.pk for s in seasons if s.fresh]
    found = []
    if fresh:  # their own tables, each within its season's days
        own = Standing.objects.filter(table__season__in=fresh)
        days = OuterRef("table__season__first_day"), OuterRef("table__season__last_day")
        found.append(_played_within(own, F("table__season_id"), *days, today))
    for carried in (s for s in seasons if not s.fresh):
        club = Standing.objects.filter(table__club_id=carried.club_id, table__season=None)
        found.append(_played_within(club, Value(carried.pk), carried.first_day, carried.last_day, today))
    return list(found[0].union(*found[1:], all=True)) if len(found) > 1 else list(found[0])


def _played_within(standings: QuerySet, season, first_day, last_day, today: date) -> QuerySet:
    """`_season_rows` for `standings` within the days from `first_day` to `last_day` (values, or
    references to the standing's season) and up to `today`."""
    rows = RatingEntry.objects.filter(
        table=OuterRef("table"), player=OuterRef("player"), matchday_date__gte=first_day, matchday_date__lte=last_day
    ).filter(matchday_date__lte=today)
    in_order = rows.order_by("matchday_date", "matchday_number")
    return (
        standings.filter(Exists(rows))
        .order_by()
        .values_list(
            season,
            "table_id",
            "player_id",
            count_of(rows),
            Subquery(in_order.values("rating_before")[:1]),
            Subquery(in_order.reverse().values("rating_after")[:1]),
        )
    )


def boards(seasons: list[Season], today: date) -> dict[int, list[SeasonBoard]]:
    """Season id -> the boards of each table played in within its days (or up to today), overall
    first; a category's board that only repeats one game's is shown once, under both names. Three
    queries whatever the number of seasons: the tables, the rows and the players."""
    seasons = [s for s in seasons if s.first_day <= today]
    if not seasons:
        return {}
    found = _season_rows(seasons, today)
    fresh = [s.pk for s in seasons if s.fresh]
    tables = {
        t.pk: t
        for t in RatingTable.every.select_related("game", "category", "parent__game", "season").filter(
            Q(season__isnull=True) | Q(season__in=fresh)
        )
    }
    players = Player.objects.in_bulk({player for _, _, player, *_ in found})
    by_board: dict[tuple[int, int], list[SeasonRow]] = {}
    for season_id, table_id, player_id, played, brought, rating in found:
        if not players[player_id].ranked:
            continue  # rated, but not on a season's boards (nor its movers) until made a member
        row = SeasonRow(0, players[player_id], rating, played, rating - brought)
        by_board.setdefault((season_id, table_id), []).append(row)
    out: dict[int, list[SeasonBoard]] = {s.pk: [] for s in seasons}
    for (season_id, table_id), rows in by_board.items():
        source = tables[table_id]
        if source.against_deals:
            continue  # no matchday rows: never found, but said here too
        rows.sort(key=lambda r: (-r.rating, r.player.short_name))
        for i, row in enumerate(rows):
            row.rank = rows[i - 1].rank if i and rows[i - 1].rating == row.rating else i + 1
        out[season_id].append(SeasonBoard(source.parent or source, source, rows))
    return {season_id: _once(sorted(kept, key=lambda b: table_order(b.table))) for season_id, kept in out.items()}


def _once(found: list[SeasonBoard]) -> list[SeasonBoard]:
    """`found` less a category's board that repeats a game's row for row (its one game was played)."""

    def key(board: SeasonBoard) -> tuple:
        return tuple((r.player.pk, r.rating, r.played) for r in board.rows)

    by_rows = {key(b): b for b in found if b.table.scope == RatingTable.Scope.GAME}
    kept = []
    for board in found:
        twin = by_rows.get(key(board)) if board.table.scope == RatingTable.Scope.CATEGORY else None
        if twin is not None and twin.table.method == board.table.method:
            twin.also = board.table
        else:
            kept.append(board)
    return kept


def movers(board: SeasonBoard) -> list[Mover]:
    """The board's biggest rises, then its biggest falls, over the season (as a night's movers)."""
    return biggest([Mover(r.player, r.played, r.change) for r in board.rows], board.table.against_deals)


def matchdays(season: Season, today: date):
    """The season's matchdays up to today, newest first (with their games), for a page to slice."""
    within = Matchday.objects.filter(date__gte=season.first_day, date__lte=end_of(season, today))
    return within.select_related("game").order_by("-date", "-number")


@dataclass
class Honour:
    season: Season
    table: RatingTable
    what: str  # "1st", "2nd", "3rd", "Most matchdays" or "Biggest rise"
    players: list[SeasonRow]  # ties share an honour
    title: str  # the board's: a category table repeating its one game's is named for both


@dataclass
class SeasonHonours:
    season: Season
    tables: list[tuple[SeasonBoard, list[Honour]]] = field(default_factory=list)


def honours_of(board: SeasonBoard, season: Season) -> list[Honour]:
    """A finished season's honours in one table: 1st, 2nd and 3rd (equal ratings share a place, and
    a shared 2nd leaves no 3rd), the most matchdays played and the biggest rise (none when nobody rose)."""
    found = []
    for place, what in enumerate(PODIUM, start=1):
        holders = [r for r in board.rows if r.rank == place]
        if holders:
            found.append(Honour(season, board.table, what, holders, board.title))
    if board.rows:
        most = max(r.played for r in board.rows)
        found.append(
            Honour(season, board.table, "Most matchdays", [r for r in board.rows if r.played == most], board.title)
        )
        rise = max(r.change for r in board.rows)
        if rise > 0:
            found.append(
                Honour(season, board.table, "Biggest rise", [r for r in board.rows if r.change == rise], board.title)
            )
    return found


def honours(today: date) -> list[SeasonHonours]:
    """Every finished season's honours, newest season first, table by table (overall first). Four
    queries: the seasons and `boards`'."""
    seasons = [s for s in Season.objects.all() if finished(s, today)]
    found = boards(seasons, today)
    return [SeasonHonours(s, [(b, honours_of(b, s)) for b in found.get(s.pk, [])]) for s in seasons]


def player_honours(player: Player, today: date) -> list[Honour]:
    """The honours `player` holds (alone or shared), newest season first. One query when no season
    has finished, four otherwise."""
    return [
        honour
        for season in honours(today)
        for _, held in season.tables
        for honour in held
        if any(r.player.pk == player.pk for r in honour.players)
    ]
