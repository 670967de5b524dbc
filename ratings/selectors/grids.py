"""The grids: a rating table's or the results' matchdays as columns and the players as rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import reduce
from operator import or_
from typing import NamedTuple

from django.core.paginator import Page
from django.db.models import OuterRef, Q, QuerySet, Subquery

from league.models import Game, Matchday, Player, Result

from ..models import RatingEntry, RatingTable
from .standings import TableSpan

NEWEST_FIRST = ("-date", "-number")


class MatchdayPages:
    """Matchdays newest first, as a grid pages them, for a paginator to slice: each slice is one
    query that brings the matchdays' games along. `table`'s matchdays are those of
    `RatingTable.counted`, or those of `games` (ids) when given; `game_id` keeps one game's.

    A table of several games reads its first pages by each game's newest matchdays off the (game,
    date, number) index, merged: filtered by the games' columns, the database may read every
    matchday of the games to sort them. Past `MERGED_ROWS` the filter is cheaper again: a merge sorts
    every game's rows up to the page (figures in docs/performance.md)."""

    MERGED_ROWS = 1000  # bounds the sorting a merge does per game

    def __init__(
        self,
        table: RatingTable | None = None,
        game_id: int | None = None,
        games: Sequence[int] = (),
        until: date | None = None,
        since: date | None = None,
    ):
        if table is not None and table.parent_id is not None:  # a season's table: its parent's, within its days
            season = table.season
            since, until = (
                max(since or season.first_day, season.first_day),
                min(until or season.last_day, season.last_day),
            )
            table = table.parent
        # The first and last days shown (a season, a page as at a day), through the (game, date, number) index.
        days = Matchday.objects.all()
        if since is not None:
            days = days.filter(date__gte=since)
        if until is not None:
            days = days.filter(date__lte=until)
        if game_id is not None:
            days = days.filter(game_id=game_id)
        self.days = days  # the games' matchdays, as far as the merge reads them
        self.matchdays = days if table is None else days.filter(table.counted())
        multiple = table is not None and table.scope != RatingTable.Scope.GAME
        self.games = list(games) if multiple and games else None

    def newest(self) -> QuerySet:
        """The id of the newest of these matchdays, for a subquery."""
        return self.matchdays.order_by(*NEWEST_FIRST).values("pk")[:1]

    def count(self) -> int:
        return self.matchdays.count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index):
        if not isinstance(index, slice):
            return self[index : index + 1][0]
        start, stop = index.start or 0, index.stop
        if stop is not None and stop <= start:
            return []
        matchdays = self.matchdays
        if self.games is not None and stop is not None and stop <= self.MERGED_ROWS:  # each game's first `stop`
            each = (self.days.filter(game_id=game).order_by(*NEWEST_FIRST).values("pk")[:stop] for game in self.games)
            matchdays = Matchday.objects.filter(reduce(or_, (Q(pk__in=ids) for ids in each)))
        return list(matchdays.select_related("game").order_by(*NEWEST_FIRST)[start:stop])


def in_join_order(players, table: RatingTable | None = None) -> list[Player]:
    """`players` (or their ids), ordered by their first matchday (in `table`, or anywhere), then by
    the order their results were entered: the column order of the club's tables. One query (two
    for "anywhere"), each player's first matchday in a table one lookup in the index of rating rows
    by (table, player, date, number). Every matchday counts in its game's table, so a player's
    first matchday anywhere is the first of their firsts in the games' tables."""
    ids = [getattr(p, "pk", p) for p in players]
    if not ids:
        return []
    if table is not None:
        tables = [table.pk]
    else:
        tables = list(RatingTable.objects.filter(scope=RatingTable.Scope.GAME).order_by().values_list("pk", flat=True))
    firsts = {}
    for n, table_id in enumerate(tables):
        rows = RatingEntry.objects.filter(table_id=table_id, player=OuterRef("pk"))
        first = rows.order_by("matchday_date", "matchday_number")  # a matchday's number is unique
        firsts.update({f"first_{n}_{name}": Subquery(first.values(name)[:1]) for name in _FIRST})

    def joined(player):
        starts = [
            (day, getattr(player, f"first_{n}_matchday_number"), getattr(player, f"first_{n}_id"))
            for n in range(len(tables))
            if (day := getattr(player, f"first_{n}_matchday_date")) is not None
        ]
        return min(starts, default=(date.max, 0, 0)), player.short_name

    return sorted(Player.objects.filter(pk__in=ids).annotate(**firsts).order_by(), key=joined)


_FIRST = ("matchday_date", "matchday_number", "id")


class CellNote(NamedTuple):
    """What explains a rating earned at a matchday: the change and the pieces it came from. A named
    tuple: a grid makes one per rating earned on its page, and a frozen dataclass sets every field
    through `object.__setattr__`."""

    delta: float
    rated_placing: int
    placing: int
    players: int
    expected: float
    k: float | None


@dataclass
class GridRow:
    matchday: Matchday
    cells: dict[int, object] = field(default_factory=dict)  # player id -> value shown
    notes: dict[int, CellNote] = field(default_factory=dict)  # player id -> why it changed (played)


@dataclass
class Grid:
    players: list[Player]
    rows: list[GridRow]


def grid_matchdays(
    table: RatingTable, span: TableSpan, until: date | None = None, since: date | None = None
) -> MatchdayPages:
    """The table's matchdays newest first (from `since`, up to `until`), as a grid pages them (with
    their games); `span` is the table's, from `spans`, which names the games played in it."""
    return MatchdayPages(table, games=span.games, until=until, since=since)


# Through the unique (matchday, table, player) index.
_GRID_COLUMNS = ("matchday_id", "player_id", "rating_before", "rating_after", "delta", "expected", "k", "placing")


def rating_grid(table: RatingTable, page: Page) -> Grid:
    """The rating of everyone who played in `page`'s matchdays (a page of `grid_matchdays`) after
    each of them, in play order, players in the order they joined the table.

    A player's rating is carried through the matchdays they missed, and shows the start rating
    before their first, as on the club's page: before a player's first matchday on the page, the
    rating they brought to it. Each rating earned at a matchday comes with its explanation. Two
    queries whatever the length of the history: the page's rating rows, and its players.
    """
    matchdays = list(page.object_list)[::-1]  # pages run newest first, each read in play order
    if not matchdays:
        return Grid([], [])
    played: dict[int, dict[int, tuple]] = {}
    rows = RatingEntry.objects.filter(table=table, matchday_id__in=[m.pk for m in matchdays])
    for matchday_id, player_id, *rest in rows.values_list(*_GRID_COLUMNS, "rated_placing"):
        played.setdefault(matchday_id, {})[player_id] = rest
    brought: dict[int, float] = {}  # each player's rating before their first matchday on the page
    for matchday in matchdays:
        for player_id, (rating_before, *_) in played.get(matchday.pk, {}).items():
            brought.setdefault(player_id, rating_before)
    ratings = dict(brought)
    rows = []
    for matchday in matchdays:
        day = played.get(matchday.pk, {})
        notes = {}
        for player_id, (_before, after, delta, expected, k, placing, rated) in day.items():
            rated_placing = rated if rated is not None else placing
            notes[player_id] = CellNote(delta, rated_placing, placing, len(day), expected, k)
            ratings[player_id] = after
        rows.append(GridRow(matchday, dict(ratings), notes))
    return Grid(in_join_order(brought, table), rows)


def results_matchdays(game: Game | None = None, until: date | None = None) -> MatchdayPages:
    """Every matchday (or `game`'s, up to `until`) newest first, as a results grid pages them."""
    return MatchdayPages(game_id=None if game is None else game.pk, until=until)


def results_grid(page: Page, table: RatingTable | None = None) -> Grid:
    """The placing in the club's notation of everyone who played at the matchdays of `page` (a
    page of `results_matchdays`), in play order; players in the order they joined (`table`, or
    the club), absent players have no cell. Points from a score sheet follow the placing ("1 · 26
    pts"), a player on a side its label ("1 (A)", a `SideCell` naming the partners for the tooltip:
    a cell naming them all made a grid of three players 1280 px wide), and one who played part of
    the game their weight ("2 ×0.5"). Two queries."""
    rows = [GridRow(m) for m in reversed(page.object_list)]
    by_matchday = {row.matchday.pk: row for row in rows}
    results = list(
        Result.objects.filter(matchday__in=list(by_matchday)).only(
            "matchday_id", "player_id", "placing", "rated_placing", "side", "weight", "score"
        )
    )
    sides: dict[tuple[int, str], list[int]] = {}
    for result in results:
        by_matchday[result.matchday_id].cells[result.player_id] = with_points(result.display_placing, result.score)
        if result.side:
            sides.setdefault((result.matchday_id, result.side), []).append(result.player_id)
    players = in_join_order({pk for row in rows for pk in row.cells}, table) if results else []
    if sides or any(r.weight != 1 for r in results):
        names = {p.pk: p.short_name for p in players}
        for result in results:
            side = sides.get((result.matchday_id, result.side), ())
            partners = sorted(names[pk] for pk in side if pk != result.player_id)
            by_matchday[result.matchday_id].cells[result.player_id] = placing_with_side(
                with_points(result.display_placing, result.score), result.side, partners, result.weight
            )
    return Grid(players, rows)


def with_points(placing: str, score: int | None) -> str:
    """A placing with the points that gave it, where the score sheet's points were entered ("1 · 26 pts")."""
    return placing if score is None else f"{placing} · {score:,} pts"


class SideCell(str):
    """A results cell of a player on a side: its short text ("1 (A)") and the partners, for its tooltip."""

    partners: str

    def __new__(cls, text: str, partners: str):
        cell = super().__new__(cls, text)
        cell.partners = partners
        return cell


def placing_with_side(placing: str, side: str, partners: Sequence[str], weight: float) -> str:
    """A results cell: the placing, the side's label and a weight below 1 ("1 (A) ×0.5"); with
    partners, a `SideCell` whose tooltip names them ("with K, L")."""
    text = f"{placing} ({side})" if side else placing
    text = f"{text} ×{weight:g}" if weight != 1 else text
    return SideCell(text, f"with {', '.join(partners)}") if partners else text
