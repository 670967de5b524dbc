"""Leaderboards as members read them: the established players ranked, the players whose rating is
still settling (provisional) listed after them without a rank, and players with no matchday since a
date left out; and the category tables that only repeat one game's table.

A player's provisional state is the method's own (a deviation still wide) or the site's rule of a
few matchdays (`standings.provisional`): it is read from each standing's state, so a board reads
the table's standings whole, in one query, and splits them here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from league.models import Player, unranked

from ..models import RatingTable
from .standings import Spans, StandingRow, ranked, settling


@dataclass
class Board:
    """A table's standings for a leaderboard: `rows` are the ranked players, best first, then the
    provisional ones (rank None), best first; `hidden` counts the inactive players left out."""

    rows: list[StandingRow]
    hidden: int = 0


def active_since(latest: date | None, today: date, inactive_days: int, show_all: bool) -> date | None:
    """The first day a player must have played on to be shown (None: everyone is shown): counted back
    from the latest matchday (`latest`, not after today), not from today, so that a club back from a
    long break, or the demo a year on, still sees the members of its last game nights."""
    if not inactive_days or show_all:
        return None
    return days_before(min(latest or today, today), inactive_days)


def days_before(day: date, days: int) -> date | None:
    """The day `days` before `day`; None (no start) before year 1, where a day typed as year 1
    before dates were checked would count back to."""
    return day - timedelta(days=days) if (day - date.min).days > days else None


def split(rows: list[StandingRow]) -> list[StandingRow]:
    """`rows` (best first) ranked among the established players, the provisional ones after them
    unranked: a player with two matchdays is never ranked above those whose rating has settled."""
    settled = ranked([row for row in rows if not row.provisional])
    settling = [row for row in rows if row.provisional]
    for row in settling:
        row.rank = None
    return [*settled, *settling]


_FIELDS = ("player_id", "rating", "played", "matchday_date", "delta", "state")


def board(
    table: RatingTable, provisional_below: int, since: date | None = None, row_class: type = StandingRow
) -> Board:
    """The table's board: every standing read once, as plain values, those last played before
    `since` left out, the rest split into ranked and provisional players. Rows carry their player's
    id: `with_players` reads the players of the rows a page shows (two thousand players' standings
    and players made into models cost a page ten times its budget)."""
    method, params = table.rating_method, table.method_params()
    rows, hidden = [], 0
    members = table.standings.ranked().exclude(unranked("player__"))  # guests and stand-ins: rated, not ranked
    for player_id, rating, played, last, delta, state in members.values_list(*_FIELDS):
        if since is not None and last < since:
            hidden += 1
            continue
        flag = settling(method, params, state, played, provisional_below)
        rows.append(row_class(0, None, rating, played, last, delta, flag, player_id))
    return Board(split(rows), hidden)


def with_players(rows: list[StandingRow]) -> list[StandingRow]:
    """`rows` (some of a board's) with their players, read in one query."""
    players = Player.objects.in_bulk({row.player_id for row in rows if row.player is None})
    for row in rows:
        if row.player is None:
            row.player = players[row.player_id]
    return rows


def twins(tables: list[RatingTable], spans: Spans) -> dict[int, RatingTable]:
    """Category table id -> the game table it repeats: a category of which only one game has been
    played, rated by the same method with the same parameters, holds that game's table again."""
    by_game = {t.game_id: t for t in tables if t.scope == RatingTable.Scope.GAME}
    found = {}
    for table in tables:
        games = spans.of(table).games
        if table.scope != RatingTable.Scope.CATEGORY or len(games) != 1 or games[0] not in by_game:
            continue
        own = by_game[games[0]]
        if (own.method, own.method_params()) == (table.method, table.method_params()):
            found[table.pk] = own
    return found
