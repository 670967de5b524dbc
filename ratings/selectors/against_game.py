"""Plays against the game (ratings.services.against_game): a game's own rating and record against
the club's players, and a player's record against each game."""

from __future__ import annotations

from dataclasses import dataclass

from league.models import Game, Player, Result

from ..models import Standing


@dataclass(frozen=True)
class GameRecord:
    """A game played against: its rating in its own table, how often it was played against and
    how often the players beat it."""

    game: Game
    rating: float | None
    plays: int
    beaten: int


@dataclass(frozen=True)
class RecordAgainst:
    """A player's record against one game: plays and wins."""

    game: Game
    plays: int
    won: int


def game_record(game: Game) -> GameRecord | None:
    """The game's record against the players, or None when nobody has played against it. Two queries."""
    stand_in = Player.objects.filter(stands_for=game).first()
    if stand_in is None:
        return None
    placings = list(Result.objects.filter(player=stand_in).values_list("placing", flat=True))
    rating = Standing.objects.filter(player=stand_in, table__game=game).values_list("rating", flat=True).first()
    return GameRecord(game, rating, len(placings), sum(placing > 1 for placing in placings))


def records_against(player: Player) -> list[RecordAgainst]:
    """The player's record against each game they played against, most played first. One query: the
    games' results at the player's matchdays, beside the player's own."""
    theirs = Result.objects.filter(matchday__results__player=player, player__stands_for__isnull=False)
    found: dict[int, list] = {}
    for game_id, game_placing, own_placing in theirs.values_list(
        "player__stands_for", "placing", "matchday__results__placing"
    ):
        counts = found.setdefault(game_id, [0, 0])
        counts[0] += 1
        counts[1] += own_placing < game_placing
    games = Game.objects.in_bulk(list(found))
    records = [RecordAgainst(games[pk], plays, won) for pk, (plays, won) in found.items()]
    return sorted(records, key=lambda r: (-r.plays, r.game.name))
