"""OpenSkill's Plackett-Luce model: a Bayesian rating with an uncertainty per player.

Each player has a skill estimate mu and an uncertainty sigma (start 25 and 25/3). A matchday's ranking
updates both; sigma shrinks as a player plays. The rating shown is the *ordinal* mu - 3 sigma, a
cautious estimate that starts at 0 and rises as the site learns a player's skill, so a newcomer who
won once does not top the table. While sigma is above a threshold the player is marked provisional.

Expected and actual scores are reported pairwise, like the Elo methods: the expected score is the sum
of the model's probabilities of beating each other player, the actual score the sum of 1 for each
player finished ahead of, 0.5 for a tie. K does not exist in this model.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce

from .base import RATING_LIMIT, Facts, Method, MethodError, Outcome, Param, Seat, finish, pair_score
from .gaussian import normal_win, side_performance, side_win

Z = 3  # ordinal = mu - Z sigma
SIGMAS = Param(
    "sigmas",
    "Sigmas",
    25 / 3,
    "Each player's uncertainty sigma, in the order of the ratings (blank: the start sigma).",
    minimum=0.001,
    maximum=10_000,
)


def model(params: Mapping[str, Any]) -> PlackettLuce:
    mu, sigma = params["mu"], params["sigma"]
    # The library's defaults for beta and tau, scaled with mu and sigma as they are derived.
    return PlackettLuce(mu=mu, sigma=sigma, beta=sigma / 2, tau=mu / 300)


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


class OpenSkill(Method):
    slug = "openskill"
    name = "OpenSkill (Plackett-Luce)"
    source = "the openskill library, a modern Bayesian rating"
    summary = (
        "A Bayesian model of the whole ranking: each player has a skill mu and an uncertainty sigma, both "
        "updated from the matchday's order. The rating shown is the cautious ordinal mu - 3 sigma; "
        "players whose sigma is still high are marked provisional."
    )
    formula = """\
each player: skill mu and uncertainty sigma (start 25 and 25/3)
the matchday's ranking updates mu and sigma (Plackett-Luce, openskill library)
rating shown = ordinal = mu - 3 sigma
provisional while sigma > the threshold
E = sum over the other players of the model's chance of beating them
"""
    explanation = (
        "The rating is the ordinal mu − 3σ of the player's skill estimate; the matchday's ranking updates mu "
        "and σ (Plackett-Luce). Expected is the model's chance of beating each other player, summed; there is "
        "no K."
    )
    side_explanation = (
        "In sides, each side is one of the library's teams, rated by the library's team rating; a player who "
        "played part of the game takes that share of the change in mu and σ the library gives them."
    )
    pieces = ("expected", "score")
    params = (
        Param("mu", "Start mu", 25.0, "A new player's skill estimate.", positive=True, maximum=RATING_LIMIT),
        Param("sigma", "Start sigma", 25 / 3, "A new player's uncertainty.", minimum=0.001, maximum=10_000),
        Param(
            "provisional_sigma",
            "Provisional above sigma",
            7.0,
            "Players whose sigma is above this are marked provisional (about eight four-player matchdays).",
            positive=True,
            maximum=10_000,
        ),
        Param("round", "Whole numbers", False, "Round the ordinal to a whole number.", bool),
    )

    player_inputs = (SIGMAS,)

    def state_for(self, rating: float, inputs: Mapping[str, float], params: Mapping[str, Any]) -> dict[str, float]:
        """A rating given as an ordinal: mu is the ordinal plus 3 sigma (sigma as given, or the start's)."""
        sigma = inputs.get("sigmas", params["sigma"])
        return {"mu": rating + Z * sigma, "sigma": sigma}

    def win_probability(self, a: Seat, b: Seat, params: Mapping[str, Any]) -> float:
        first, second = self._state(a, params), self._state(b, params)
        beta = params["sigma"] / 2  # as `model` sets it, without building a model per pair
        return normal_win(first["mu"], first["sigma"], second["mu"], second["sigma"], beta)

    def is_provisional(self, state: Mapping[str, float] | None, params: Mapping[str, Any]) -> bool | None:
        return state is None or state["sigma"] > params["provisional_sigma"]

    def start(self, params: Mapping[str, Any]) -> tuple[float, dict[str, float]]:
        mu, sigma = params["mu"], params["sigma"]
        return ordinal(mu, sigma), {"mu": mu, "sigma": sigma}

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check_players(seats)
        pl = model(params)
        before = [pl.rating(**self._state(seat, params)) for seat in seats]
        teams, shift = self._rate(pl, [[rating] for rating in before], [float(s.placing) for s in seats])
        outcomes = []
        for i, (seat, rating, (moved,)) in enumerate(zip(seats, before, teams, strict=True)):
            others = [j for j in range(len(seats)) if j != i]
            # The library's predict_win for two players, without building a model call per pair.
            expected = sum(normal_win(rating.mu, rating.sigma, before[j].mu, before[j].sigma, pl.beta) for j in others)
            score = sum(pair_score(seat.placing, seats[j].placing) for j in others)
            outcomes.append(self._outcome(seat, rating, moved, shift, expected, score, params))
        return outcomes

    def rate_sides(
        self, seats: Sequence[Seat], groups: list[list[int]], facts: Facts, params: Mapping[str, Any]
    ) -> list[Outcome]:
        """The library's team rating, each side a team. A weight is partial play, as everywhere on the
        site: the player takes that share of the change the library gives them. The library's own
        `weights` argument is not used: it is a share of the team's contribution, normalised within the
        team, which moves a player who played half the game more than a partner who played all of it."""
        self.check_sides(seats, groups)
        pl = model(params)
        before = [pl.rating(**self._state(seat, params)) for seat in seats]
        placings = [seats[group[0]].placing for group in groups]
        teams, shift = self._rate(pl, [[before[i] for i in group] for group in groups], [float(p) for p in placings])
        states = [{"mu": r.mu, "sigma": r.sigma} for r in before]
        full = [1.0] * len(seats)
        performances = [side_performance([states[i] for i in g], full[: len(g)], pl.beta) for g in groups]
        outcomes: list[Outcome | None] = [None] * len(seats)
        for s, (group, team) in enumerate(zip(groups, teams, strict=True)):
            others = [o for o in range(len(groups)) if o != s]
            expected = sum(side_win(performances[s], performances[o]) for o in others)
            score = sum(pair_score(placings[s], placings[o]) for o in others)
            for i, moved in zip(group, team, strict=True):
                w, old = seats[i].weight, before[i]
                partial = pl.rating(
                    mu=old.mu + w * (moved.mu + shift - old.mu), sigma=old.sigma + w * (moved.sigma - old.sigma)
                )
                outcomes[i] = self._outcome(seats[i], old, partial, 0.0, expected, score, params)
        return outcomes

    def _outcome(self, seat: Seat, rating, moved, shift: float, expected: float, score: float, params) -> Outcome:
        pl_mu = moved.mu + shift
        rating_before = ordinal(rating.mu, rating.sigma)
        after = finish(ordinal(pl_mu, moved.sigma), 0, params["round"])
        return Outcome(
            rating_before=rating_before,
            placing=seat.placing,
            expected=expected,
            score=score,
            k=None,
            delta=after - rating_before,
            rating_after=after,
            state={"mu": pl_mu, "sigma": moved.sigma},
            extras={
                "mu": pl_mu,
                "sigma": moved.sigma,
                "ordinal": ordinal(pl_mu, moved.sigma),
                "provisional": moved.sigma > params["provisional_sigma"],
            },
        )

    @staticmethod
    def _rate(pl: PlackettLuce, teams: list[list], ranks: list[float]) -> tuple[list, float]:
        """The library's update, and the shift of every mu it was computed at.

        Plackett-Luce works with exp(mu / c), c = sqrt(sum of sigma^2 + beta^2); past about 700 c that
        overflows. The model depends only on differences of mu, so a matchday whose mus lie that far
        from 0 is rated about their midpoint and shifted back (ordinary ratings never are, and keep
        the library's numbers to the last bit); one whose mus lie that far apart cannot be rated."""
        everyone = [r for team in teams for r in team]
        mus = [r.mu for r in everyone]
        c = math.sqrt(sum(r.sigma**2 + pl.beta**2 for r in everyone))
        shift = (max(mus) + min(mus)) / 2 if max(abs(mu) for mu in mus) > 300 * c else 0.0
        if shift:
            teams = [[pl.rating(mu=r.mu - shift, sigma=r.sigma) for r in team] for team in teams]
        try:
            return pl.rate(teams, ranks=ranks), shift
        except (ZeroDivisionError, OverflowError, ValueError) as error:
            raise MethodError(
                "the players' skills lie too far apart for the Plackett-Luce model to compute", "ratings"
            ) from error

    def _state(self, seat: Seat, params: Mapping[str, Any]) -> dict[str, float]:
        if seat.state and "mu" in seat.state and "sigma" in seat.state:
            return {"mu": float(seat.state["mu"]), "sigma": float(seat.state["sigma"])}
        # A rating without state: mu from the ordinal at the start sigma.
        return self.state_for(seat.rating, {}, params)
