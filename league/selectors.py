"""Reads of league data shaped for pages (rating reads are in ratings.selectors)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from league.models import Game, Player, Result


@dataclass
class HeadToHead:
    opponent: Player
    game: Game
    ahead: int = 0
    behind: int = 0
    tied: int = 0

    @property
    def met(self) -> int:
        return self.ahead + self.behind + self.tied


def head_to_head(player: Player) -> list[HeadToHead]:
    """How `player` finished against every other player, per game, by real placing (penalties
    aside): one query over the results of the matchdays they played."""
    results = (
        Result.objects.filter(matchday__results__player=player)
        .select_related("player", "matchday__game")
        .order_by("matchday_id")
    )
    by_matchday: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_matchday[result.matchday_id].append(result)
    records: dict[tuple[int, int], HeadToHead] = {}
    for day in by_matchday.values():
        mine = next(r for r in day if r.player_id == player.pk)
        for other in day:
            if other.player_id == player.pk:
                continue
            game = other.matchday.game
            record = records.setdefault((other.player_id, game.pk), HeadToHead(other.player, game))
            if mine.placing < other.placing:
                record.ahead += 1
            elif mine.placing > other.placing:
                record.behind += 1
            else:
                record.tied += 1
    return sorted(records.values(), key=lambda r: (r.game.name, -r.met, r.opponent.short_name))
