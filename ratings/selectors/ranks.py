"""Every rank a page shows today comes from here: a player's place on their table's board as the
standings page shows it by default, counting the same players (the inactive ones left out; in a
matchday table the provisional ones unranked, after the others). A card's "#3 of 12", the players
directory, the leaders and a game's standings all read it, so no two pages disagree; as they stood
at the end of a day, `as_at.ranked_at` ranks the players `shown_since_at` keeps, the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from league.models import Matchday, club_setting

from ..deals import selectors as deal_selectors
from ..models import RatingTable
from .boards import Board, active_since, board
from .standings import ranked


def latest_matchday() -> date | None:
    """The day of the club's latest matchday (one index lookup), from which inactivity is counted."""
    return Matchday.objects.order_by("-date").values_list("date", flat=True).first()


def shown_since(table: RatingTable, today: date, latest: date | None, show_all: bool = False) -> date | None:
    """The first day a player must have played on to be on the table's standings: the club's
    inactivity window before its `latest` matchday (one for every matchday table, as the standings
    page reads it), or a deal game's own window before its latest session. None: everyone."""
    if show_all:
        return None
    if table.against_deals:
        return deal_selectors.active_since(table, deal_selectors.latest_session(table))
    return active_since(latest, today, club_setting("inactive_days"), show_all)


def shown_since_at(table: RatingTable, day: date) -> date | None:
    """`shown_since` as the standings stood at the end of `day`: counted from the latest matchday
    (or a deal game's latest session) on or before it."""
    if table.against_deals:
        return deal_selectors.active_since(table, deal_selectors.latest_session(table, day))
    latest = Matchday.objects.filter(date__lte=day).order_by("-date").values_list("date", flat=True).first()
    return active_since(latest, day, club_setting("inactive_days"), show_all=False)


def standings_board(table: RatingTable, today: date, latest: date | None, show_all: bool = False) -> Board:
    """The table's board as its standings show it (`latest`: `latest_matchday()`): a deal game's
    players all ranked (their provisional mark beside the rank), a matchday table's provisional
    players unranked after the rest."""
    below = club_setting("provisional_matchdays")
    since = shown_since(table, today, latest, show_all)
    if table.against_deals:
        whole = board(table, below, since)
        return Board(ranked(sorted(whole.rows, key=lambda row: -row.rating)), whole.hidden)
    return board(table, below, since)


@dataclass(frozen=True)
class StandingRanks:
    """Player id -> rank (None: shown unranked, as provisional) of the players on a table's
    standings, and how many are ranked there (the "of" of "#3 of 12")."""

    ranks: dict[int, int | None]
    of: int

    def rank(self, player_id: int) -> int | None:
        return self.ranks.get(player_id)


def ranking(table: RatingTable, today: date, latest: date | None) -> StandingRanks:
    """The ranks of the table's standings (one query; two for a deal game's)."""
    rows = standings_board(table, today, latest).rows
    return StandingRanks({row.player_id: row.rank for row in rows}, sum(row.rank is not None for row in rows))
