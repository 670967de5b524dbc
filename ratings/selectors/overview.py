"""Reads for the overview pages: the home page's leaderboard and latest matchdays, and the players
directory. Like every read in `selectors`, each costs a fixed number of queries and none reads a
table's history: they read standings (one row per player per table) and the rows of a few matchdays.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from datetime import date

from django.core.paginator import Page
from django.db.models import F, Max, OuterRef, Q, QuerySet, Subquery, Sum

from league.models import FormerName, Matchday, Player, Result
from league.validation import name_key

from ..methods import METHODS
from ..models import RatingEntry, RatingTable, Standing
from . import ranks
from .boards import Board, board, with_players
from .grids import MatchdayPages
from .standings import StandingRow


@dataclass
class LeaderRow(StandingRow):
    movement: int | None = None  # places gained (+) or lost (−) at the table's latest matchday; None: new


def leaderboard(table: RatingTable, size: int, provisional_below: int = 0, since: date | None = None) -> Board:
    """The table's best `size` established players now (those last played before `since` left out),
    each with the places they moved among them at the table's latest matchday, then the provisional
    players rated as high as the last of them, unranked; and how many inactive players were left
    out. Three queries, none over the history: the table's standings, the rating rows of its latest
    matchday (whose players are the only ones whose rating changed) and the players shown."""
    whole = board(table, provisional_below, since, row_class=LeaderRow)
    rows = whole.rows
    settled = [row for row in rows if row.rank is not None]
    top = settled[:size]
    lowest = top[-1].rating if len(top) == size else float("-inf")
    settling = [row for row in rows if row.rank is None and row.rating >= lowest][: size - len(top) or None]
    moved = latest_moves(table)
    # Before the latest matchday, everyone else had the rating they have now; its newcomers had none.
    before = {
        row.player_id: moved[row.player_id][0] if row.player_id in moved else row.rating
        for row in settled
        if not (row.player_id in moved and moved[row.player_id][2])
    }
    ratings_before = sorted(before.values())
    for row in top:
        if row.player_id in before:
            above = len(ratings_before) - bisect_right(ratings_before, before[row.player_id])
            row.movement = (above + 1) - row.rank
    return Board(with_players([*top, *settling]), whole.hidden)


def latest_moves(table: RatingTable) -> dict[int, tuple[float, float, bool]]:
    """Player id -> (rating before, rating after, whether it was their first matchday in the table)
    for each player of the table's latest matchday. One query; the matchday is found off the
    matchdays' own (date, number) index, as rating rows are indexed by matchday first."""
    played_now = Standing.objects.filter(table=table, player=OuterRef("player_id")).values("played")
    rows = table.entries.filter(matchday_id=Subquery(MatchdayPages(table).newest())).values_list(
        "player_id", "rating_before", "rating_after", Subquery(played_now)
    )
    return {player_id: (before, after, played == 1) for player_id, before, after, played in rows}


@dataclass
class LatestResult:
    player: Player
    placing: str  # the club's notation, "4(3)"
    delta: float | None  # None: the matchday counts in no rating table (yet)
    rating_after: float | None
    won: bool = False  # finished first (with partners, or tied)


@dataclass
class LatestMatchday:
    matchday: Matchday
    table: RatingTable | None  # the table whose changes are shown: overall, or the game's own
    results: list[LatestResult]


def latest_matchdays(tables: list[RatingTable], at_least: int, at_most: int) -> list[LatestMatchday]:
    """The newest matchdays, newest first: the last `at_least`, and any others of the newest one's
    date, up to `at_most`; each player's placing and change in the overall table (in the game's
    own table for an unofficial game). Three queries."""
    recent = list(Matchday.objects.order_by("-date", "-number").select_related("game")[:at_most])
    shown = [m for i, m in enumerate(recent) if i < at_least or m.date == recent[0].date]
    return matchday_cards(shown, tables)


def matchday_cards(shown: list[Matchday], tables: list[RatingTable]) -> list[LatestMatchday]:
    """`shown` (with their games) as the home page's cards: each player's placing and change in the
    overall table (in the game's own table for an unofficial game). Two queries."""
    overall = next((t for t in tables if t.scope == RatingTable.Scope.OVERALL), None)
    own = {t.game_id: t for t in tables if t.scope == RatingTable.Scope.GAME}
    shown_in = {m.pk: overall if m.game.official else own.get(m.game_id) for m in shown}
    changes = {
        (matchday_id, player_id): (delta, after)
        for matchday_id, table_id, player_id, delta, after in RatingEntry.objects.filter(
            matchday_id__in=list(shown_in), table_id__in=[t.pk for t in shown_in.values() if t]
        ).values_list("matchday_id", "table_id", "player_id", "delta", "rating_after")
        if shown_in[matchday_id] and shown_in[matchday_id].pk == table_id
    }
    results: dict[int, list[LatestResult]] = {m.pk: [] for m in shown}
    for r in (
        Result.objects.filter(matchday_id__in=list(shown_in))
        .select_related("player")
        .order_by("placing", F("rated_placing").asc(nulls_first=True), "player__short_name")
    ):
        delta, after = changes.get((r.matchday_id, r.player_id), (None, None))
        results[r.matchday_id].append(LatestResult(r.player, r.display_placing, delta, after, r.placing == 1))
    return [LatestMatchday(m, shown_in[m.pk], results[m.pk]) for m in shown]


DIRECTORY_ORDER = {
    "name": ("name", "short_name"),
    "rating": (F("rating").desc(nulls_last=True), "name", "short_name"),
    "last-played": (F("last_played").desc(nulls_last=True), "name", "short_name"),
}


def player_directory(search: str, order: str) -> QuerySet:
    """Every player whose full, short or former name contains `search` (any case), in `order` (a key
    of `DIRECTORY_ORDER`), with their overall rating, matchdays (every game's), attempts at deals
    (solitaire's rows count attempts, not matchdays) and last matchday, from their standings: one
    row per player per table, never their history."""
    players = Player.objects.filter(stands_for__isnull=True)  # a game's stand-in is shown as the game
    if search:
        players = players.filter(pk__in=named(search))
    # The club's own tables: a fresh-start season's copies hold rows for the same matchdays again.
    kept = Q(standings__table__season__isnull=True)
    own = kept & Q(standings__table__scope=RatingTable.Scope.GAME)
    against_deals = Q(standings__table__method__in=[slug for slug, m in METHODS.items() if m.against_deals])
    return players.annotate(
        rating=Max("standings__rating", filter=kept & Q(standings__table__scope=RatingTable.Scope.OVERALL)),
        matchdays=Sum("standings__played", filter=own & ~against_deals),
        deal_attempts=Sum("standings__played", filter=own & against_deals),
        last_played=Max("standings__matchday_date"),
    ).order_by(*DIRECTORY_ORDER[order])


def named(search: str) -> set[int]:
    """The players whose full, short or former name holds `search`, compared by name key as names
    are everywhere (any case of any script; a database's own case-folding knows ASCII only)."""
    key = name_key(search)
    players = Player.objects.values_list("pk", "name", "short_name_key")
    found = {pk for pk, name, short in players if key in short or key in name_key(name)}
    found.update(FormerName.objects.filter(name_key__contains=key).values_list("player_id", flat=True))
    return found


@dataclass
class DirectoryRow:
    player: Player
    rating: float | None
    rank: int | None
    matchdays: int
    attempts: int  # at deals, in games played against them (solitaire)
    last_played: date | None


def directory_rows(page: Page, today: date) -> list[DirectoryRow]:
    """Rows for `page`, a page of `player_directory`, each with their rank on the overall table's
    standings (`ranks`: None where those show them unranked or leave them out). Three queries."""
    players = list(page.object_list)
    overall = RatingTable.objects.filter(scope=RatingTable.Scope.OVERALL).first()
    ranking = ranks.ranking(overall, today, ranks.latest_matchday()) if overall is not None else None
    return [
        DirectoryRow(p, p.rating, ranking and ranking.rank(p.pk), p.matchdays or 0, p.deal_attempts or 0, p.last_played)
        for p in players
    ]
