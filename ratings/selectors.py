"""Reads shaped for pages. Each function costs a fixed number of queries, whatever the history's size."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby

from django.db.models import Count, OuterRef, Subquery

from league.formatting import explain_change
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
    notes: dict[int, str] = field(default_factory=dict)  # player id -> one-line explanation


@dataclass
class Grid:
    players: list[Player]
    rows: list[GridRow]


def rating_grid(table: RatingTable, players: list[Player]) -> Grid:
    """Each matchday of `table` with every player's rating after it.

    Ratings are carried forward from the player's last matchday, and players who have not yet
    played show the start rating, as on the club's page. Only players with at least one matchday in
    the table get a column. Each rating a player earned at that matchday comes with its explanation.
    """
    matchdays = list(table.matchdays().select_related("game"))
    entries = table.entries.values_list(
        "matchday_id",
        "player_id",
        "rating_after",
        "delta",
        "expected",
        "k",
        "result__placing",
        "result__rated_placing",
    )
    played: dict[int, dict[int, tuple]] = {}
    for matchday_id, player_id, *rest in entries:
        played.setdefault(matchday_id, {})[player_id] = rest
    columns = [p for p in players if any(p.pk in day for day in played.values())]
    current = {p.pk: table.start_rating for p in columns}
    rows = []
    for matchday in matchdays:
        day = played.get(matchday.pk, {})
        notes = {}
        for player_id, (after, delta, expected, k, placing, rated) in day.items():
            current[player_id] = after
            rated_placing = rated if rated is not None else placing
            notes[player_id] = explain_change(delta, rated_placing, len(day), expected, k, placing)
        rows.append(GridRow(matchday, dict(current), notes))
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
    provisional: bool = False


def ranked(standings: list[Standing]) -> list[Standing]:
    """Number the standings best first; players with equal ratings share a rank (1, 2, 2, 4)."""
    standings = sorted(standings, key=lambda s: (-s.rating, s.player.short_name))
    for i, standing in enumerate(standings):
        tied = i and standings[i - 1].rating == standing.rating
        standing.rank = standings[i - 1].rank if tied else i + 1
    return standings


def standings(tables: list[RatingTable], provisional_below: int = 0) -> dict[int, list[Standing]]:
    """The current ranking of each table: table id -> standings, best first.

    Players with fewer than `provisional_below` matchdays in a table are marked provisional there.
    """
    latest = (
        RatingEntry.objects.filter(table__in=tables).latest_per_player().select_related("player", "matchday")
    )
    by_table: dict[int, list[Standing]] = {t.pk: [] for t in tables}
    for e in latest:
        by_table[e.table_id].append(
            Standing(0, e.player, e.rating_after, e.played, e.matchday, e.delta, e.played < provisional_below)
        )
    return {table_id: ranked(rows) for table_id, rows in by_table.items()}


def current_ratings() -> dict[int, list[tuple[RatingTable, float]]]:
    """Player id -> (table, current rating) for every table the player has played in, the overall
    table first. Feeds the rating tooltip on every player name."""
    latest = RatingEntry.objects.latest_per_player().select_related("table", "table__game")
    ratings: dict[int, list[tuple[RatingTable, float]]] = {}
    for entry in latest:
        ratings.setdefault(entry.player_id, []).append((entry.table, entry.rating_after))
    for rows in ratings.values():
        rows.sort(key=lambda row: table_order(row[0]))
    return ratings


def entries_with_field_size():
    """Rating entries with `players`, the number of players at their matchday, and what a page
    needs to explain them, in one query."""
    field_size = (
        Result.objects.filter(matchday=OuterRef("matchday"))
        .values("matchday")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return RatingEntry.objects.annotate(players=Subquery(field_size)).select_related(
        "matchday__game", "table", "result", "player"
    )


def player_history(player: Player) -> list[tuple[RatingTable, list[RatingEntry]]]:
    """Every rating entry of `player`, grouped by table (overall first), in play order."""
    entries = entries_with_field_size().filter(player=player).in_play_order()
    by_table: dict[int, tuple[RatingTable, list[RatingEntry]]] = {}
    for entry in entries:
        by_table.setdefault(entry.table_id, (entry.table, []))[1].append(entry)
    return sorted(by_table.values(), key=lambda pair: table_order(pair[0]))


def matchday_entries(matchday: Matchday) -> list[tuple[RatingTable, list[RatingEntry]]]:
    """The rating entries of one matchday, grouped by table, best change first."""
    entries = entries_with_field_size().filter(matchday=matchday).order_by("-delta", "player__short_name")
    by_table: dict[int, tuple[RatingTable, list[RatingEntry]]] = {}
    for entry in entries:
        by_table.setdefault(entry.table_id, (entry.table, []))[1].append(entry)
    return sorted(by_table.values(), key=lambda pair: table_order(pair[0]))


def table_order(table: RatingTable) -> tuple:
    """Overall first, then games, then unofficial categories, each by name (as on the home page)."""
    rank = {RatingTable.Scope.OVERALL: 0, RatingTable.Scope.GAME: 1, RatingTable.Scope.CATEGORY: 2}
    return (rank[table.scope], table.name)


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
