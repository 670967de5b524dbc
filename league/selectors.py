"""Reads of league data shaped for pages (rating reads are in ratings.selectors)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
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


# (opponent id, game, [ahead, behind, tied])
HeadToHeadCount = tuple[int, Game, list[int]]


def head_to_head_counts(player: Player) -> list[HeadToHeadCount]:
    """How `player` finished against every other player, per game, by real placing (penalties
    aside): by game name, then most met first. Two queries: the results of the matchdays they
    played as plain tuples, then the games. Pages turn a page of these into records with
    `head_to_head_records`, so only the opponents shown are read."""
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
    return [(other, games[game], record) for (other, game), record in ordered]


def head_to_head_records(counts: Sequence[HeadToHeadCount]) -> list[HeadToHead]:
    """Records for some of `head_to_head_counts` (e.g. one page), with their opponents (one query)."""
    players = Player.objects.in_bulk([other for other, _, _ in counts])
    return [HeadToHead(players[other], game, *record) for other, game, record in counts]
