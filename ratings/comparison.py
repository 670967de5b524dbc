"""Every method on the same results, in memory: which one predicts the club's games best?

Pure Python (no Django, nothing written): the comparison page hands in a window of a table's most
recent matchdays, read in a fixed number of queries by `selectors.standings.table_history`, and every method
rates it from scratch, each player starting at the method's start at the window's first matchday.

Before each matchday, each method's ratings make three predictions, scored afterwards:

- pair order: every pair of players who did not finish level is a prediction that the higher rated
  finishes ahead; a pair rated exactly alike (two new players) counts as half right, a coin toss;
- winner: the favourite (the highest rated) should win; a favourite who shared 1st place counts
  half, and when several players share the highest rating each counts for an equal part (a random
  pick among them);
- log-loss: for every pair that did not finish level, -ln of the probability the method gave to what
  happened (its own probability for the Bayesian methods, 1 / (1 + 10^(-d/400)) with d the rating
  difference for the Elo-style ones); lower is better, and a coin toss scores ln 2 = 0.693.

The finishing order is the real placing, not a penalty. Each is totalled over every rated matchday
and over the last year (the 365 days up to the newest matchday).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from itertools import combinations
from typing import Any

from league.results import Play

from .methods import Facts, Method, MethodError, Seat

COIN_TOSS_LOG_LOSS = math.log(2)
SURE = 1e-15  # probabilities are kept this far from 0 and 1, so that one certain miss is not infinite
YEAR = timedelta(days=365)

# Published points of reference, shown beside the club's own figures.
REFERENCES = (
    {
        "source": "TrueSkill paper (Herbrich, Minka and Graepel, NIPS 2006)",
        "data": "free-for-all games on Xbox Live",
        "measure": "prediction error (lower is better)",
        "figures": (("Elo", "32.14%"), ("TrueSkill", "30.82%")),
    },
    {
        "source": "Elo-MMR paper (Ebtekar and Liu, WWW 2021)",
        "data": "Codeforces contests",
        "measure": "pair inversion accuracy (higher is better; our pair order)",
        "figures": (("TrueSkill", "61.7%"), ("Elo-MMR", "78.6%")),
    },
)


@dataclass(frozen=True, kw_only=True)
class StoredPlay(Play):
    """One player's result at one matchday, as read from the database: methods rate its effective
    placing; the predictions are scored against its placing."""

    player_id: int


@dataclass(frozen=True)
class MatchdayRecord:
    matchday_id: int
    number: int
    facts: Facts
    results: tuple[StoredPlay, ...]
    date: date | None = None


@dataclass(frozen=True)
class DayScore:
    """One method's predictions at one matchday."""

    right: float  # pairs ordered rightly (halves for pairs rated alike)
    pairs: int  # pairs that finished apart
    favourite: float  # 1 if the favourite won, 0.5 if they shared 1st, 0 if not
    loss: float  # the sum of -ln p over the pairs

    @property
    def share(self) -> float | None:
        return self.right / self.pairs if self.pairs else None


@dataclass
class Tally:
    """The three measures totalled over some matchdays."""

    right: float = 0.0
    pairs: int = 0
    favourites: float = 0.0
    matchdays: int = 0
    loss: float = 0.0

    def add(self, day: DayScore) -> None:
        self.right += day.right
        self.pairs += day.pairs
        self.favourites += day.favourite
        self.matchdays += 1
        self.loss += day.loss

    @property
    def pair_order(self) -> float | None:
        return self.right / self.pairs if self.pairs else None

    @property
    def winner(self) -> float | None:
        return self.favourites / self.matchdays if self.matchdays else None

    @property
    def log_loss(self) -> float | None:
        return self.loss / self.pairs if self.pairs else None


@dataclass(frozen=True)
class Final:
    """Where a player ended under one method: the rating shown, and whether it is still provisional."""

    rating: float
    provisional: bool = False


@dataclass
class Run:
    """One method over the window."""

    method: Method
    params: dict[str, Any]
    error: str | None = None
    final: dict[int, Final] = field(default_factory=dict)  # player id -> where they ended
    days: list[DayScore] = field(default_factory=list)
    all: Tally = field(default_factory=Tally)
    last_year: Tally = field(default_factory=Tally)

    @property
    def share(self) -> float | None:
        return None if self.error else self.all.pair_order

    def ranking(self) -> dict[int, int]:
        """Player id -> rank (1 = best; ties share a rank)."""
        ordered = sorted(((f.rating, pid) for pid, f in self.final.items()), reverse=True)
        ranks, previous = {}, None
        for position, (rating, pid) in enumerate(ordered, start=1):
            if previous is None or rating != previous[0]:
                previous = (rating, position)
            ranks[pid] = previous[1]
        return ranks


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


def favourite_won(ratings: Sequence[float], placings: Sequence[int]) -> float:
    """1 if the highest rated won alone, 0.5 if they shared 1st place, 0 if not; with several
    players on the highest rating, the mean of theirs."""
    best = max(ratings)
    winners = sum(1 for p in placings if p == 1)
    favourites = [p for r, p in zip(ratings, placings, strict=True) if r == best]
    won = sum((1.0 if winners == 1 else 0.5) for p in favourites if p == 1)
    return won / len(favourites)


def log_loss(method: Method, params: Mapping[str, Any], seats: Sequence[Seat], placings: Sequence[int]) -> float:
    """The sum over the pairs that finished apart of -ln(the method's probability of that order)."""
    total = 0.0
    for (a, pa), (b, pb) in combinations(zip(seats, placings, strict=True), 2):
        if pa == pb:
            continue
        ahead, behind = (a, b) if pa < pb else (b, a)
        p = method.win_probability(ahead, behind, params)
        total -= math.log(min(max(p, SURE), 1 - SURE))
    return total


def run(
    method: Method, params: Mapping[str, Any], history: Sequence[MatchdayRecord], year_from: date | None = None
) -> Run:
    """`method` over `history`, every player starting afresh; matchdays after `year_from` also count
    in the last year's tally."""
    result = Run(method, dict(params))
    start = method.start(params)
    current: dict[int, tuple[float, Any]] = {}
    for matchday in history:
        seats = []
        for p in matchday.results:
            rating, state = current.get(p.player_id, start)
            seats.append(Seat.of(p, rating, state))
        try:
            outcomes = method.compute(seats, matchday.facts, params)
        except MethodError as error:
            return Run(method, dict(params), error=f"Matchday {matchday.number}: {error}")
        ratings = [s.rating for s in seats]
        placings = [p.placing for p in matchday.results]
        day = DayScore(
            *predicted(ratings, placings), favourite_won(ratings, placings), log_loss(method, params, seats, placings)
        )
        result.days.append(day)
        result.all.add(day)
        if year_from is not None and matchday.date is not None and matchday.date > year_from:
            result.last_year.add(day)
        for played, outcome in zip(matchday.results, outcomes, strict=True):
            current[played.player_id] = (outcome.rating_after, outcome.state)
            result.final[played.player_id] = Final(outcome.rating_after, bool(outcome.extras.get("provisional")))
    return result


def compare(configs: Sequence[tuple[Method, Mapping[str, Any]]], history: Sequence[MatchdayRecord]) -> list[Run]:
    """Every configured method over `history`; the last year runs up to its newest matchday."""
    dates = [m.date for m in history if m.date is not None]
    year_from = max(dates) - YEAR if dates else None
    return [run(method, params, history, year_from) for method, params in configs]


@dataclass(frozen=True)
class Verdict:
    best: Run
    runner_up: Run | None

    @property
    def margin(self) -> float | None:
        return None if self.runner_up is None else self.runner_up.all.log_loss - self.best.all.log_loss


def verdict(runs: Sequence[Run]) -> Verdict | None:
    """The method with the lowest log-loss over every rated matchday, and the runner-up."""
    scored = sorted(
        (r for r in runs if not r.error and r.all.log_loss is not None), key=lambda r: (r.all.log_loss, r.method.slug)
    )
    if not scored:
        return None
    return Verdict(scored[0], scored[1] if len(scored) > 1 else None)
