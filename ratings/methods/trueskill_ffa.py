"""TrueSkill, as the Django league site CoGs (leaderboard.space) rates multiplayer board games.

Each player has a skill mu and an uncertainty sigma (start 25 and 25/3). A matchday is a free-for-all
of one-player teams ranked by placing, tied players drawing, and the `trueskill` package's factor
graph updates mu and sigma. The rating shown is mu - 3 sigma, which starts at 0; while sigma is above a
threshold the player is provisional. The package sorts the players by placing and passes messages
along that order, so two tied players come out slightly apart (1, 2, 2, 4 among four new players:
mu 24.993094 and 25.006906 for the two 2nds).

The package gives up with a FloatingPointError when a performance difference lies more than about 37
standard deviations out, where its normal tails underflow: that happens inside the factor graph of
any matchday of 200 or more new players. There, and only there, the two functions the graph needs are
taken from the Mills ratio's continued fraction (below), which holds its precision that far out; the
package's own functions are used everywhere else, so its numbers are unchanged. (Far up the right
tail, a sure win, the package refuses w = 0 too, which is the right value to every digit a float holds.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import trueskill
import trueskill.backends

from .base import RATING_LIMIT, Facts, Method, MethodError, Outcome, Param, Seat, finish, pair_score
from .gaussian import normal_win, side_performance, side_win

Z = 3  # the rating shown is mu - Z sigma
TAIL = -37.0  # below this the package's normal tail underflows; the continued fraction takes over


def mills_ratio(t: float) -> float:
    """(1 - Phi(t)) / phi(t) for t >= 37, by Laplace's continued fraction 1/(t + 1/(t + 2/(t + ...))),
    which converges to every digit of a float within 40 terms that far out."""
    fraction = t
    for k in range(40, 0, -1):
        fraction = t + k / fraction
    return 1 / fraction


class Environment(trueskill.TrueSkill):
    """The package's TrueSkill, with tails that do not underflow (see the module's docstring)."""

    def v_win(self, diff: float, draw_margin: float) -> float:
        x = diff - draw_margin
        return 1 / mills_ratio(-x) if x < TAIL else super().v_win(diff, draw_margin)

    def w_win(self, diff: float, draw_margin: float) -> float:
        x = diff - draw_margin
        if x < TAIL:
            v = 1 / mills_ratio(-x)
            return v * (v + x)
        if x > -TAIL:  # a sure win: w is a few hundred digits below 1, and 0 to a float
            v = self.v_win(diff, draw_margin)
            return v * (v + x)
        return super().w_win(diff, draw_margin)

    def _far_draw(self, diff: float, draw_margin: float) -> tuple[float, float]:
        """v and w of a draw between performances far apart, with phi(a) factored out of the
        package's ratios: a = m - |d| and b = -m - |d| are both far down the left tail."""
        abs_diff = abs(diff)
        a, b = draw_margin - abs_diff, -draw_margin - abs_diff
        shrink = math.exp(-2 * draw_margin * abs_diff)  # phi(b) / phi(a)
        denom = mills_ratio(-a) - shrink * mills_ratio(-b)
        v = (shrink - 1) / denom
        return v * (-1 if diff < 0 else 1), v**2 + (a - b * shrink) / denom

    def v_draw(self, diff: float, draw_margin: float) -> float:
        if draw_margin - abs(diff) < TAIL:
            return self._far_draw(diff, draw_margin)[0]
        return super().v_draw(diff, draw_margin)

    def w_draw(self, diff: float, draw_margin: float) -> float:
        if draw_margin - abs(diff) < TAIL:
            return self._far_draw(diff, draw_margin)[1]
        return super().w_draw(diff, draw_margin)


def environment(params: Mapping[str, Any]) -> Environment:
    return Environment(
        mu=params["mu"],
        sigma=params["sigma"],
        beta=params["beta"],
        tau=params["tau"],
        draw_probability=params["draw_probability"],
        backend=None,  # the package's own pure-Python normal distribution
    )


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


SIGMAS = Param(
    "sigmas",
    "Sigmas",
    25 / 3,
    "Each player's uncertainty sigma, in the order of the ratings (blank: the start sigma).",
    minimum=0.01,
    maximum=10_000,
)


class TrueSkill(Method):
    slug = "trueskill"
    name = "TrueSkill"
    source = "Microsoft Research's TrueSkill (Herbrich, Minka and Graepel, 2006), as CoGs (leaderboard.space) uses it"
    summary = (
        "A Bayesian model of the whole ranking: each player has a skill mu and an uncertainty sigma; the "
        "matchday is a free-for-all in which tied players draw, and the trueskill package's factor graph "
        "updates both. The rating shown is the cautious mu - 3 sigma; players whose sigma is still high are "
        "marked provisional. The package rates tied players slightly apart (it passes messages along the "
        "finishing order), so two players tied on equal ratings do not come out exactly equal."
    )
    formula = """\
each player: skill mu and uncertainty sigma (start 25 and 25/3)
performance = skill + noise of spread beta; skills drift by tau between matchdays
the matchday's ranking (ties are draws, with the draw probability) updates mu and sigma
  (free-for-all factor graph, trueskill package)
rating shown = mu - 3 sigma; provisional while sigma > the threshold
E = sum over the other players j of Phi((mu - mu_j) / sqrt(2 beta^2 + sigma^2 + sigma_j^2))
"""
    explanation = (
        "The rating is mu − 3σ of the player's skill estimate; the matchday's ranking updates mu and σ "
        "(TrueSkill, ties as draws). Expected is the model's chance of finishing ahead of each other player, "
        "summed; there is no K."
    )
    side_explanation = (
        "In sides, each side is one of the library's teams: its performance is the sum of its players', each "
        "weighted by the share of the game they played, and the library's team rating updates every player's "
        "mu and σ."
    )
    pieces = ("expected", "score")
    params = (
        Param("mu", "Start mu", 25.0, "A new player's skill estimate.", minimum=-RATING_LIMIT, maximum=RATING_LIMIT),
        Param("sigma", "Start sigma", 25 / 3, "A new player's uncertainty.", minimum=0.01, maximum=10_000),
        Param("beta", "Beta", 25 / 6, "The spread of one performance around the skill.", minimum=0.01, maximum=10_000),
        Param("tau", "Tau", 25 / 300, "How far a skill may drift between matchdays.", minimum=0, maximum=10_000),
        Param(
            "draw_probability",
            "Draw probability",
            0.1,
            "The chance that two equal players tie; sets the draw margin.",
            minimum=0.001,
            maximum=0.99,
        ),
        Param(
            "provisional_sigma",
            "Provisional above sigma",
            4.0,
            "Players whose sigma is above this are marked provisional (about three four-player matchdays).",
            positive=True,
            maximum=10_000,
        ),
        Param("round", "Whole numbers", False, "Round the rating shown to a whole number.", bool),
    )
    player_inputs = (SIGMAS,)

    def start(self, params: Mapping[str, Any]) -> tuple[float, dict[str, float]]:
        mu, sigma = params["mu"], params["sigma"]
        return ordinal(mu, sigma), {"mu": mu, "sigma": sigma}

    def state_for(self, rating: float, inputs: Mapping[str, float], params: Mapping[str, Any]) -> dict[str, float]:
        """A rating given as mu - 3 sigma: mu is the rating plus 3 sigma (sigma as given, or the start's)."""
        sigma = inputs.get("sigmas", params["sigma"])
        return {"mu": rating + Z * sigma, "sigma": sigma}

    def is_provisional(self, state: Mapping[str, float] | None, params: Mapping[str, Any]) -> bool | None:
        return state is None or state["sigma"] > params["provisional_sigma"]

    def win_probability(self, a: Seat, b: Seat, params: Mapping[str, Any]) -> float:
        """As the package's documentation computes it ("Win probability"): its own normal cdf, the
        one the ratings are rated with, of the difference of mu over sqrt(2 beta^2 + both sigma^2)."""
        first, second = self._state(a, params), self._state(b, params)
        spread = math.sqrt(2 * params["beta"] ** 2 + first["sigma"] ** 2 + second["sigma"] ** 2)
        return trueskill.backends.cdf((first["mu"] - second["mu"]) / spread)

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check_players(seats)
        env = environment(params)
        before = [self._state(seat, params) for seat in seats]
        groups = [(env.create_rating(**state),) for state in before]
        try:
            rated = env.rate(groups, ranks=[seat.placing for seat in seats])
        except (FloatingPointError, ZeroDivisionError, OverflowError, ValueError) as error:
            raise MethodError(f"the trueskill package cannot rate this matchday ({error})", "ratings") from error
        outcomes = []
        for i, (seat, state, (new,)) in enumerate(zip(seats, before, rated, strict=True)):
            others = [j for j in range(len(seats)) if j != i]
            expected = sum(
                normal_win(state["mu"], state["sigma"], before[j]["mu"], before[j]["sigma"], params["beta"])
                for j in others
            )
            score = sum(pair_score(seat.placing, seats[j].placing) for j in others)
            outcomes.append(self._outcome(seat, state, new, expected, score, params))
        return outcomes

    def rate_sides(
        self, seats: Sequence[Seat], groups: list[list[int]], facts: Facts, params: Mapping[str, Any]
    ) -> list[Outcome]:
        """The package's team rating: each side is a team of its players, a weight below 1 is the
        package's own partial-play weight (the share of the game the player took part in)."""
        self.check_sides(seats, groups)
        env = environment(params)
        before = [self._state(seat, params) for seat in seats]
        teams = [tuple(env.create_rating(**before[i]) for i in group) for group in groups]
        weights = [tuple(seats[i].weight for i in group) for group in groups]
        placings = [seats[group[0]].placing for group in groups]
        try:
            rated = env.rate(teams, ranks=placings, weights=weights)
        except (FloatingPointError, ZeroDivisionError, OverflowError, ValueError) as error:
            raise MethodError(f"the trueskill package cannot rate this matchday ({error})", "ratings") from error
        performances = [
            side_performance([before[i] for i in group], weight, params["beta"])
            for group, weight in zip(groups, weights, strict=True)
        ]
        outcomes: list[Outcome | None] = [None] * len(seats)
        for s, (group, team) in enumerate(zip(groups, rated, strict=True)):
            others = [o for o in range(len(groups)) if o != s]
            expected = sum(side_win(performances[s], performances[o]) for o in others)
            score = sum(pair_score(placings[s], placings[o]) for o in others)
            for i, new in zip(group, team, strict=True):
                outcomes[i] = self._outcome(seats[i], before[i], new, expected, score, params)
        return outcomes

    def _outcome(self, seat: Seat, state: dict, new, expected: float, score: float, params) -> Outcome:
        rating_before = ordinal(state["mu"], state["sigma"])
        after = finish(ordinal(new.mu, new.sigma), 0, params["round"])
        return Outcome(
            rating_before=rating_before,
            placing=seat.placing,
            expected=expected,
            score=score,
            k=None,
            delta=after - rating_before,
            rating_after=after,
            state={"mu": new.mu, "sigma": new.sigma},
            extras={"mu": new.mu, "sigma": new.sigma, "provisional": new.sigma > params["provisional_sigma"]},
        )

    def _state(self, seat: Seat, params: Mapping[str, Any]) -> dict[str, float]:
        if seat.state and "mu" in seat.state and "sigma" in seat.state:
            return {"mu": float(seat.state["mu"]), "sigma": float(seat.state["sigma"])}
        return self.state_for(seat.rating, {}, params)
