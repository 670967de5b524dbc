"""Reads of league data shaped for pages (rating reads are in ratings.selectors)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from league.models import Game, Player, Result
from league.paging import paginate


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


def head_to_head(player: Player, page_number=None, per_page: int = 25):
    """How `player` finished against every other player, per game, by real placing (penalties
    aside), most met first: one page of records and the page. Three queries: the results of the
    matchdays they played as plain tuples, then the games, then the page's opponents."""
    rows = (
        Result.objects.filter(matchday__results__player=player)
        .order_by("matchday_id")
        .values_list("matchday_id", "matchday__game_id", "player_id", "placing")
    )
    by_matchday: dict[int, list[tuple]] = defaultdict(list)
    for matchday_id, game_id, player_id, placing in rows:
        by_matchday[matchday_id].append((game_id, player_id, placing))
    counts: dict[tuple[int, int], list[int]] = {}  # (opponent, game) -> [ahead, behind, tied]
    for day in by_matchday.values():
        mine = next(placing for _, player_id, placing in day if player_id == player.pk)
        for game_id, other, placing in day:
            if other == player.pk:
                continue
            record = counts.setdefault((other, game_id), [0, 0, 0])
            record[0 if mine < placing else 1 if mine > placing else 2] += 1
    games = Game.objects.in_bulk({game for _, game in counts})
    ordered = sorted(counts.items(), key=lambda item: (games[item[0][1]].name, -sum(item[1]), item[0][0]))
    page = paginate(ordered, page_number, per_page)
    players = Player.objects.in_bulk([other for (other, _), _ in page.object_list])
    records = [HeadToHead(players[other], games[game], *record) for (other, game), record in page.object_list]
    return records, page
