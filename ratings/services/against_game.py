"""Plays against the game: a co-operative game's players win or lose together against it, and a
solo play of any game is one player against it. The game then has a rating of its own, kept by a
stand-in (a Player whose `stands_for` is the game) that the methods rate as they rate anyone: the
players are one side, the game the other, and they exchange points (docs/methods.md). Pages never
list a stand-in among the players; they show it as the game's rating.
"""

from __future__ import annotations

from collections.abc import Sequence

import league.history as history
from league.models import Game, Player
from league.results import Play, TypedResult
from league.validation import short_name_from

PLAYERS_SIDE, GAME_SIDE = "Players", "Game"


def stand_in(game: Game) -> Player:
    """The game's stand-in, made the first time the game is played against (in the history)."""
    found = Player.objects.filter(stands_for=game).first()
    if found is not None:
        return found
    taken = set(Player.objects.filter(club_id=game.club_id).values_list("short_name_key", flat=True))
    player = Player(club_id=game.club_id, name=game.name[:100], stands_for=game)
    player.short_name = short_name_from(game.name, taken)
    player.save()
    history.record(game.club_id, [history.saved("player", player, None)])
    return player


def against_the_game(
    members: Sequence[tuple[str, float | None]], won: bool, game_player: Player, line: str
) -> list[TypedResult]:
    """The results of a play against the game: the members (name, points) first, as one side when
    several, then the game's stand-in. Points go into a result's note: the game has none, and a
    score sheet needs everyone's."""
    together = len(members) > 1
    results = [
        TypedResult(
            Play(1 if won else 2, side=PLAYERS_SIDE if together else ""),
            name,
            line,
            note="" if points is None else f"{points:g} points",
        )
        for name, points in members
    ]
    game_side = GAME_SIDE if together else ""
    results.append(TypedResult(Play(2 if won else 1, side=game_side), game_player.short_name, line))
    return results
