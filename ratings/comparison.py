"""Every method on the same results, in memory: standings side by side and how well each predicted.

Pure Python (no Django, nothing written): the comparison page hands in a table's history, read in
a fixed number of queries by `selectors.table_history`.

Prediction: before each matchday, every pair of players who did not finish level is a prediction by
the ratings they brought: the higher rated should finish ahead. A pair rated exactly alike (two new
players) counts as half right, a coin toss. The finishing order is the real placing, not a penalty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from .methods import Facts, Method, MethodError, Outcome, Seat


@dataclass(frozen=True)
class Played:
    """One player's result at one matchday, as read from the database."""

    player_id: int
    placing: int
    rated_placing: int  # the placing after any penalty, which the methods rate
    left_early: bool = False
    won_by_16: int = 0
    won_by_24: int = 0
    won_by_4_and_last: int = 0
    bad_moves: int = 0


@dataclass(frozen=True)
class MatchdayRecord:
    matchday_id: int
    number: int
    facts: Facts
    results: tuple[Played, ...]


@dataclass
class Run:
    """One method over a whole history."""

    method: Method
    params: dict[str, Any]
    error: str | None = None
    final: dict[int, Outcome] = field(default_factory=dict)  # player id -> their last outcome
    hits: list[tuple[float, int]] = field(default_factory=list)  # per matchday: (right, pairs)

    @property
    def share(self) -> float | None:
        pairs = sum(p for _, p in self.hits)
        return sum(h for h, _ in self.hits) / pairs if pairs else None

    def ranking(self) -> dict[int, int]:
        """Player id -> rank (1 = best; ties share a rank)."""
        ratings = sorted((o.rating_after for o in self.final.values()), reverse=True)
        return {pid: 1 + ratings.index(o.rating_after) for pid, o in self.final.items()}


def predicted(ratings: Sequence[float], placings: Sequence[int]) -> tuple[float, int]:
    """How many of the pairs that finished apart the ratings ordered rightly (halves for equal
    ratings), and how many such pairs there were."""
    right, pairs = 0.0, 0
    for (r1, p1), (r2, p2) in combinations(zip(ratings, placings, strict=True), 2):
        if p1 == p2:
            continue
        pairs += 1
        if r1 == r2:
            right += 0.5
        elif (r1 > r2) == (p1 < p2):
            right += 1
    return right, pairs


def run(method: Method, params: Mapping[str, Any], history: Sequence[MatchdayRecord]) -> Run:
    result = Run(method, dict(params))
    start = method.start(params)
    current: dict[int, tuple[float, Any]] = {}
    for matchday in history:
        seats = []
        for p in matchday.results:
            rating, state = current.get(p.player_id, start)
            counts = (p.won_by_16, p.won_by_24, p.won_by_4_and_last, p.bad_moves)
            seats.append(Seat(rating, p.rated_placing, state, p.left_early, *counts))
        result.hits.append(predicted([s.rating for s in seats], [p.placing for p in matchday.results]))
        try:
            outcomes = method.compute(seats, matchday.facts, params)
        except MethodError as error:
            return Run(method, dict(params), error=f"Matchday {matchday.number}: {error}")
        for played, outcome in zip(matchday.results, outcomes, strict=True):
            current[played.player_id] = (outcome.rating_after, outcome.state)
            result.final[played.player_id] = outcome
    return result


def compare(configs: Sequence[tuple[Method, Mapping[str, Any]]], history: Sequence[MatchdayRecord]) -> list[Run]:
    return [run(method, params, history) for method, params in configs]
