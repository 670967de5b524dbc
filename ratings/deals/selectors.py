"""Reads of games played against deals, shaped for pages: a fixed number of queries each, whatever
the number of attempts. Lists that run long are returned as querysets for the pages to page."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from django.db.models import F, QuerySet

from league.models import Attempt, Deal, DealSession, Player

from ..methods.deals import power_ranking
from ..models import AttemptRating, DealRating, RatingTable
from ..selectors.boards import days_before
from ..selectors.players import HistoryPoint, Record, record_of


def session_changes(session: DealSession) -> list[AttemptRating]:
    """The rated attempts of a session in the order they were played."""
    return list(
        AttemptRating.objects.filter(attempt__session=session)
        .select_related("player", "deal__level")
        .order_by("position")
    )


def latest_session(table: RatingTable, until: date | None = None) -> DealSession | None:
    """The game's latest session (on or before `until`, when given)."""
    sessions = DealSession.objects.filter(game_id=table.game_id)
    return (sessions if until is None else sessions.filter(date__lte=until)).order_by("-date").first()


def active_since(table: RatingTable, latest: DealSession | None) -> date | None:
    """The standings hide players whose last attempt is older than this: the table's inactivity
    window before the game's latest session. None when nobody is hidden."""
    days = table.method_params()["inactive_days"]
    if not days or latest is None:
        return None
    return days_before(latest.date, days)


def _variant_order(variant: str) -> tuple:
    """ "4x10" after "4x9", as people sort them: by the numbers in the name."""
    return tuple((0, int(part)) if part.isdigit() else (1, part.casefold()) for part in re.findall(r"\d+|\D+", variant))


@dataclass
class LevelRow:
    variant: str
    level: int
    deals: int
    average: float
    attempts: int
    wins: int
    rank: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.attempts if self.attempts else None

    @property
    def power(self) -> float:
        return power_ranking(self.wins, self.attempts, self.average)


@dataclass
class LevelGrid:
    """Average deal ratings: one row per variant, one column per level."""

    levels: list[int]
    rows: list[tuple[str, dict[int, LevelRow]]] = field(default_factory=list)


def level_rows(table: RatingTable) -> list[LevelRow]:
    """Every variant and level with known deals, as plain values (one query)."""
    values = table.level_ratings.values_list("level__variant", "level__level", "deals", "average", "attempts", "wins")
    return [LevelRow(*row) for row in values]


def level_grid(rows: list[LevelRow]) -> LevelGrid:
    grid = LevelGrid(sorted({row.level for row in rows}))
    by_variant: dict[str, dict[int, LevelRow]] = {}
    for row in rows:
        by_variant.setdefault(row.variant, {})[row.level] = row
    grid.rows = sorted(by_variant.items(), key=lambda item: _variant_order(item[0]))
    return grid


def power_rankings(rows: list[LevelRow]) -> list[LevelRow]:
    """Variants and levels with rated attempts, best power ranking first (ranks shared by ties)."""
    ranked = sorted(
        (row for row in rows if row.attempts),
        key=lambda row: (-row.power, _variant_order(row.variant), row.level),
    )
    for i, row in enumerate(ranked):
        row.rank = ranked[i - 1].rank if i and ranked[i - 1].power == row.power else i + 1
    return ranked


def with_current_rating(queryset: QuerySet, prefix: str = "") -> QuerySet:
    """Deal ratings (or rows reaching them through `prefix`) annotated with `current`: the base plus
    the level's offset now."""
    return queryset.annotate(current=F(f"{prefix}base") + F(f"{prefix}level__rating__offset"))


def deal_rating(deal: Deal) -> DealRating | None:
    return with_current_rating(DealRating.objects.filter(deal=deal)).first()


def deal_attempts(deal: Deal) -> QuerySet:
    """Every attempt at a deal, newest first, with its rating row when it was rated."""
    return (
        Attempt.objects.filter(deal=deal)
        .select_related("session", "player", "rating")
        .order_by("-session__date", "-position")
    )


def deal_history(deal: Deal) -> list[tuple[date, float]]:
    """(date, rating after) of each rated attempt at the deal, in play order: its chart (one query)."""
    rows = AttemptRating.objects.filter(deal=deal).order_by("session_date", "position")
    return list(rows.values_list("session_date", "deal_after"))


def session_attempts(session: DealSession) -> QuerySet:
    """A session's attempts in play order, with their deals and rating rows."""
    return (
        Attempt.objects.filter(session=session)
        .select_related("session", "player", "deal__level__game", "rating")
        .order_by("position")
    )


def player_attempts(player: Player, table: RatingTable, until: date | None = None) -> QuerySet:
    """`player`'s attempts in the table's game (up to `until`), newest first, with what it takes to
    explain each."""
    attempts = Attempt.objects.filter(player=player, session__game_id=table.game_id)
    return (
        (attempts if until is None else attempts.filter(session__date__lte=until))
        .select_related("session", "player", "deal__level__game", "rating")
        .order_by("-session__date", "-position")
    )


def player_history(player: Player, table: RatingTable, until: date | None = None) -> list[tuple[date, float]]:
    """(date, rating) after each session the player was rated in (up to `until`): their chart (one query)."""
    rows = table.attempt_ratings.filter(player=player).order_by("session_date", "position")
    rows = rows if until is None else rows.filter(session_date__lte=until)
    last: dict[date, float] = {}
    for day, rating in rows.values_list("session_date", "player_after"):
        last[day] = rating
    return list(last.items())


def player_record(player: Player, table: RatingTable, today: date, until: date | None = None) -> Record | None:
    """`player`'s record at the deals of the table's game (up to `until`), as the matchday tables'
    cards show theirs: rated attempts, deals won, win %, peak, the last change and the recent ones
    (counted back from `today`). One query; None before their first rated attempt."""
    rows = table.attempt_ratings.filter(player=player).order_by("session_date", "position")
    rows = rows if until is None else rows.filter(session_date__lte=until)
    read = rows.values_list("session_date", "position", "player_after", "delta", "won")
    points = [
        HistoryPoint(day, position, after, delta, 1 if won else 2, 0) for day, position, after, delta, won in read
    ]
    return record_of(points, today, podiums=False)


@dataclass
class AttemptRow:
    """One attempt as the pages show it: its numbers when it was rated, else why it was not."""

    date: date
    position: int
    player: Player
    deal: Deal
    won: bool
    rated: AttemptRating | None
    not_rated: str = ""


def attempt_rows(attempts, first_attempt_only: bool) -> list[AttemptRow]:
    """Rows for attempts read with `session`, `deal__level` (or a deal page's own deal) and `rating`."""
    rows = []
    for attempt in attempts:
        rating = getattr(attempt, "rating", None) if attempt.rated else None
        reason = ""
        if rating is None:
            reason = "a replay: only first attempts are rated" if attempt.rated and first_attempt_only else "not rated"
        rows.append(
            AttemptRow(
                attempt.session.date, attempt.position, attempt.player, attempt.deal, attempt.won, rating, reason
            )
        )
    return rows
