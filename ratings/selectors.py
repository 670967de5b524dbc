"""Reads shaped for pages. Each function costs a fixed number of queries, whatever the history's size."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby

from django.db.models import OuterRef, Subquery

from league.models import Matchday, Player, Result

from .comparison import MatchdayRecord, Played
from .methods import Facts
from .models import RatingEntry, RatingTable


def players_in_join_order() -> list[Player]:
    """Players ordered by their first matchday (then by the order their results were entered),
    which is the column order of the club's tables. Players without results are left out."""
    first = Result.objects.filter(player=OuterRef("pk")).order_by("matchday__date", "matchday__number", "pk")
    return list(
        Player.objects.annotate(
            first_date=Subquery(first.values("matchday__date")[:1]),
            first_number=Subquery(first.values("matchday__number")[:1]),
            first_result=Subquery(first.values("pk")[:1]),
        )
        .filter(first_result__isnull=False)
        .order_by("first_date", "first_number", "first_result")
    )


@dataclass
class GridRow:
    matchday: Matchday
    cells: dict[int, object] = field(default_factory=dict)  # player id -> value shown


@dataclass
class Grid:
    players: list[Player]
    rows: list[GridRow]


def rating_grid(table: RatingTable, players: list[Player]) -> Grid:
    """Each matchday of `table` with every player's rating after it.

    Ratings are carried forward from the player's last matchday, and players who have not yet
    played show the start rating, as on the club's page. Only players with at least one matchday in
    the table get a column.
    """
    matchdays = list(table.matchdays().select_related("game"))
    entries = table.entries.values_list("matchday_id", "player_id", "rating_after")
    after: dict[int, dict[int, float]] = {}
    for matchday_id, player_id, rating in entries:
        after.setdefault(matchday_id, {})[player_id] = rating
    playing = {player_id for ratings in after.values() for player_id in ratings}
    columns = [p for p in players if p.pk in playing]
    current = {p.pk: table.start_rating for p in columns}
    rows = []
    for matchday in matchdays:
        current.update(after.get(matchday.pk, {}))
        rows.append(GridRow(matchday, dict(current)))
    return Grid(columns, rows)


def results_grid(matchdays, players: list[Player]) -> Grid:
    """Each matchday with every player's placing in the club's notation; absent players are left
    out of the row."""
    matchdays = list(matchdays.select_related("game"))
    results = Result.objects.filter(matchday__in=[m.pk for m in matchdays])
    placings: dict[int, dict[int, str]] = {}
    for result in results:
        placings.setdefault(result.matchday_id, {})[result.player_id] = result.display_placing
    playing = {player_id for row in placings.values() for player_id in row}
    columns = [p for p in players if p.pk in playing]
    return Grid(columns, [GridRow(m, placings.get(m.pk, {})) for m in matchdays])


@dataclass
class Standing:
    rank: int
    player: Player
    rating: float
    played: int
    last_played: Matchday
    last_change: float


def standings(tables: list[RatingTable]) -> dict[int, list[Standing]]:
    """The current ranking of each table: table id -> standings, best first; ties share a rank."""
    latest = (
        RatingEntry.objects.filter(table__in=tables).latest_per_player().select_related("player", "matchday")
    )
    by_table: dict[int, list[Standing]] = {t.pk: [] for t in tables}
    for entry in sorted(latest, key=lambda e: (-e.rating_after, e.player.short_name)):
        ranking = by_table[entry.table_id]
        tied = ranking and ranking[-1].rating == entry.rating_after
        rank = ranking[-1].rank if tied else len(ranking) + 1
        ranking.append(
            Standing(rank, entry.player, entry.rating_after, entry.played, entry.matchday, entry.delta)
        )
    return by_table


def current_ratings() -> dict[int, list[tuple[RatingTable, float]]]:
    """Player id -> (table, current rating) for every table the player has played in, the overall
    table first. Feeds the rating tooltip on every player name."""
    latest = RatingEntry.objects.latest_per_player().select_related("table", "table__game")
    ratings: dict[int, list[tuple[RatingTable, float]]] = {}
    for entry in latest:
        ratings.setdefault(entry.player_id, []).append((entry.table, entry.rating_after))
    order = {RatingTable.Scope.OVERALL: 0, RatingTable.Scope.GAME: 1, RatingTable.Scope.CATEGORY: 2}
    for rows in ratings.values():
        rows.sort(key=lambda row: (order[row[0].scope], row[0].name))
    return ratings


def table_history(table: RatingTable) -> tuple[list[MatchdayRecord], dict[int, Player]]:
    """The table's matchdays in play order with their results, for rating in memory (one query),
    and the players who took part by id."""
    results = (
        Result.objects.filter(matchday__in=table.matchdays())
        .select_related("matchday", "player")
        .order_by("matchday__date", "matchday__number", "pk")
    )
    history, players = [], {}
    for matchday, group in groupby(results, key=lambda r: r.matchday):
        played = []
        for r in group:
            players[r.player_id] = r.player
            counts = (r.won_by_16, r.won_by_24, r.won_by_4_and_last, r.bad_moves)
            played.append(Played(r.player_id, r.placing, r.effective_placing, r.left_early, *counts))
        facts = Facts(rounds=matchday.rounds, winner_score=matchday.winner_score)
        history.append(MatchdayRecord(matchday.pk, matchday.number, facts, tuple(played)))
    return history, players
