"""One table of tonight, under one rating table's method: each player's chance to win, the method's
expected score, and the change each finishing place would bring.

The chance to win. Two players alone: the method's own win probability (`Method.win_probability`:
Elo's 1 / (1 + 10^(-d/400)), TrueSkill's as its documentation computes it, Glicko-2's with both
deviations). More players, or sides: each side's expected score under the method (the `expected` its
matchday computation reports, as the matchday pages show it) over the table's total, so that the
chances add up to one; for the pairwise methods, TrueSkill, openskill and Elo-MMR that is the sum of
the pairwise chances over n(n-1)/2, which is how openskill's `predict_win` answers for more than two.

The change for each place is the method's own computation of a matchday that never happened: the
player (or their side) finishes in that place and everyone else keeps their order of rating, the
strongest ahead, tied ratings in the order typed; no ties, nobody left early, the rounds given and a
full game (no winner's score).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ratings.methods import Facts, Method, MethodError, Seat


@dataclass(frozen=True)
class Sitter:
    """A player sitting down tonight: who (`key`, opaque here), their rating and carried state in the
    table, and their side's label when they play with partners (blank: alone)."""

    key: Any
    rating: float
    state: Mapping[str, float] | None = None
    side: str = ""


@dataclass
class PlayerOdds:
    key: Any
    rating: float
    chance: float
    expected: float
    changes: list[float]  # the change if their side finishes 1st, 2nd, ... of the table's sides


@dataclass
class TableOdds:
    players: list[PlayerOdds] = field(default_factory=list)
    places: int = 0  # the table's sides: the places anyone can finish in
    problem: str = ""  # why the method cannot rate this table (then `players` is empty)


def _sides(sitters: Sequence[Sitter]) -> list[list[int]]:
    """Each side's positions, in the order of its first player; a player alone is a side of one."""
    sides: dict[str, list[int]] = {}
    for i, sitter in enumerate(sitters):
        sides.setdefault(sitter.side or f"\0{i}", []).append(i)
    return list(sides.values())


def _order(sitters: Sequence[Sitter], sides: list[list[int]]) -> list[int]:
    """The sides by rating, strongest first (a side's rating is its players' mean); ties keep their order."""
    mean = [sum(sitters[i].rating for i in side) / len(side) for side in sides]
    return sorted(range(len(sides)), key=lambda s: -mean[s])


def _seats(sitters: Sequence[Sitter], sides: list[list[int]], placing_of: Sequence[int]) -> list[Seat]:
    seats = [Seat(s.rating, 1, s.state, side=s.side) for s in sitters]
    for s, side in enumerate(sides):
        for i in side:
            seats[i].placing = placing_of[s]
    return seats


def _placings(order: list[int], side: int, place: int) -> list[int]:
    """Each side's placing when `side` finishes `place` and the others keep `order`."""
    others = [s for s in order if s != side]
    ranking = [*others[: place - 1], side, *others[place - 1 :]]
    placing_of = [0] * len(order)
    for p, s in enumerate(ranking, start=1):
        placing_of[s] = p
    return placing_of


def table_odds(method: Method, params: Mapping[str, Any], sitters: Sequence[Sitter], rounds: int = 1) -> TableOdds:
    """The odds of one table under `method` with `params`; a table the method cannot rate (a
    two-player method at a table of four, sides for a method that rates players alone) comes back
    with its `problem` said in the method's words."""
    sides = _sides(sitters)
    order = _order(sitters, sides)
    facts = Facts(rounds=rounds)
    try:
        expected_run = method.compute(_seats(sitters, sides, _placings(order, order[0], 1)), facts, params)
        changes: list[list[float]] = [[] for _ in sitters]
        for s, side in enumerate(sides):
            for place in range(1, len(sides) + 1):
                outcomes = method.compute(_seats(sitters, sides, _placings(order, s, place)), facts, params)
                for i in side:
                    changes[i].append(outcomes[i].delta)
    except MethodError as error:
        return TableOdds(places=len(sides), problem=str(error))
    chances = _chances(method, params, sitters, sides, [expected_run[side[0]].expected for side in sides])
    players = [
        PlayerOdds(sitter.key, sitter.rating, chances[s], expected_run[i].expected, changes[i])
        for s, side in enumerate(sides)
        for i, sitter in ((i, sitters[i]) for i in side)
    ]
    return TableOdds(players=players, places=len(sides))


def _chances(
    method: Method, params: Mapping[str, Any], sitters: Sequence[Sitter], sides: list[list[int]], expected: list[float]
) -> list[float]:
    """Each side's chance to win (see the module's docstring)."""
    if len(sitters) == 2 and len(sides) == 2:
        a, b = (Seat(s.rating, 1, s.state) for s in sitters)
        first = method.win_probability(a, b, params)
        return [first, method.win_probability(b, a, params)]
    total = sum(expected)
    if total <= 0:  # every side expected to score nothing: no favourite
        return [1 / len(sides)] * len(sides)
    return [e / total for e in expected]
