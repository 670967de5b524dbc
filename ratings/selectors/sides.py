"""Sides on the pages: who played with whom at a matchday, each side's rating in a table, and a
player's partners over their history.

RatingEntry keeps no side: a side's rating is worked out from its players' rows and results, as the
methods rate it (the weighted mean of the ratings before; TrueSkill and openskill rate the side as
the library's team, and the mean is shown as what the players brought).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from league.models import Game, Player, Result

from ..models import RatingEntry, RatingTable


def in_sides(results: Iterable) -> bool:
    """Whether a matchday's results (anything with `side` and `weight`) are played in sides or with
    partial play: the pages then show each player's side and weight."""
    return any(r.side or r.weight != 1 for r in results)


def partners_of(results: Sequence) -> dict[int, list[str]]:
    """Player id -> the short names of their partners at one matchday (`results` with their
    players); a player alone has none."""
    by_side: dict[str, list[Player]] = {}
    for result in results:
        if result.side:
            by_side.setdefault(result.side, []).append(result.player)
    return {
        result.player_id: sorted(p.short_name for p in by_side[result.side] if p.pk != result.player_id)
        for result in results
        if result.side
    }


def side_rating(members: Sequence[tuple[float, float]]) -> float | None:
    """A side's rating from its players' (rating before, weight): the mean weighted by partial play,
    as `ratings.methods.sides.side_rating` rates it; None for a side nobody played."""
    total = sum(weight for _, weight in members)
    return sum(rating * weight for rating, weight in members) / total if total else None


def with_sides(entries: list[RatingEntry], results: Sequence[Result]) -> list[RatingEntry]:
    """One table's rows at a matchday played in sides, each given its player's `side`, `weight`,
    `partners` and `side_rating`, grouped side by side in the order of the placings."""
    by_player = {result.player_id: result for result in results}
    partners = partners_of(results)
    members: dict[str, list[tuple[float, float]]] = {}
    for entry in entries:
        result = by_player[entry.player_id]
        entry.side, entry.weight = result.side, result.weight
        entry.partners = partners.get(entry.player_id, [])
        key = result.side or f"alone {entry.player_id}"
        members.setdefault(key, []).append((entry.rating_before, entry.weight))
    for entry in entries:
        entry.side_rating = side_rating(members[entry.side or f"alone {entry.player_id}"])
    return sorted(entries, key=lambda e: (e.placing, e.side == "", e.side, -e.delta))


def add_partners(player: Player, entries: Iterable[RatingEntry]) -> None:
    """Give each of a player's rows (with `side`, read with them) their `partners`' short names at
    that matchday: one query, made only when a row was played on a side."""
    entries = list(entries)
    sided = {e.matchday_id: e.side for e in entries if e.side}
    found: dict[int, list[str]] = {}
    if sided:
        rows = (
            Result.objects.filter(matchday_id__in=list(sided))
            .exclude(player=player)
            .exclude(side="")
            .order_by("player__short_name")
            .values_list("matchday_id", "side", "player__short_name")
        )
        for matchday_id, side, name in rows:
            if sided[matchday_id] == side:
                found.setdefault(matchday_id, []).append(name)
    for entry in entries:
        entry.partners = found.get(entry.matchday_id, [])


@dataclass
class Partnership:
    """How a player fared with one partner in one game: matchdays on the same side, how many their
    side won, and the player's rating change in the game's table at those matchdays."""

    partner: Player
    game: Game
    together: int
    won: int
    gained: float


def partnerships(player: Player, games: dict[int, Game]) -> list[Partnership]:
    """Everyone `player` played on a side with, per game: by game name, then most matchdays together.
    The counts and changes are summed by the database (one query); the partners are read in one
    more, when there are any. `games` are every game by id, which the page has read."""
    rows = list(_partners(player))
    if not rows:
        return []
    missing = {game_id for _, game_id, *_ in rows} - games.keys()
    if missing:  # a game without a table of its own yet
        games = {**games, **Game.objects.in_bulk(missing)}
    partners = Player.objects.in_bulk([other for other, *_ in rows])
    records = [
        Partnership(partners[other], games[game_id], together, won, gained)
        for other, game_id, together, won, gained in rows
    ]
    return sorted(records, key=lambda r: (r.game.name, -r.together, r.partner.short_name))


def _partners(player: Player) -> QuerySet:
    """(partner id, game id, matchdays together, won, the player's change in the game's table): the
    other results on the player's side, counted per partner and game. The player's own result is one
    join (`matchday__results`), named in one `filter()` so that the counts share it; their change is
    their row in the game's own table (none where the game has no table yet)."""
    mine = "matchday__results__"
    change = RatingEntry.objects.filter(
        table__scope=RatingTable.Scope.GAME,
        table__game=OuterRef("matchday__game"),
        matchday=OuterRef("matchday"),
        player=player,
    )
    return (
        Result.objects.filter(Q(**{f"{mine}player": player}), ~Q(side=""), side=F(f"{mine}side"))
        .exclude(player=player)
        .annotate(change=Coalesce(Subquery(change.values("delta")), 0.0))
        .values_list("player_id", "matchday__game_id")
        .annotate(together=Count("pk"), won=Count("pk", filter=Q(**{f"{mine}placing": 1})), gained=Sum("change"))
        .order_by()
    )
