"""Glicko-2 (Glickman), as lichess and many two-player sites rate: rating, deviation and volatility.

Every player carries a rating r, a rating deviation RD (how unsure the rating is) and a volatility
sigma (how erratic the player is). A matchday is one rating period in which each player has played
every other player at the table, winning against those placed behind, drawing with those on the same
place and losing to those ahead; only that matchday's players are updated. The steps are those of
Glickman's "Example of the Glicko-2 system" (2013), on the Glicko-2 scale mu = (r - 1500) / 173.7178,
phi = RD / 173.7178:

    g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)
    E_j = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))
    v = 1 / sum g(phi_j)^2 E_j (1 - E_j)
    Delta = v sum g(phi_j) (s_j - E_j)
    sigma' from Delta, phi, v and tau (the Illinois algorithm of step 5, tolerance 0.000001)
    phi* = sqrt(phi^2 + sigma'^2),  phi' = 1 / sqrt(1 / phi*^2 + 1 / v)
    mu' = mu + phi'^2 sum g(phi_j) (s_j - E_j)

Glickman's example (1500, RD 200, volatility 0.06, tau 0.5; beats 1400/30, loses to 1550/100 and
1700/300) gives 1464.05, RD 151.52, volatility 0.05999 here. (The paper rounds its intermediate
steps and prints 1464.06.) The `glicko2` package on PyPI gives the same digits on that example but
uses mu^2 where step 5 has phi^2, so it is not used.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .base import Facts, Method, Outcome, Param, Seat, finish, pair_score, start_rating_param
from .sides import side_rating

SCALE = 173.7178  # Glickman's factor between the Glicko and Glicko-2 scales
CENTRE = 1500.0
TOLERANCE = 0.000001  # step 5's convergence tolerance, as in the paper
MAX_EXPONENT = 700.0  # exp() of more overflows; beyond it a result is certain to every digit
MIN_INFORMATION = 1e-12  # below this sum of g^2 E (1 - E), step 5 is skipped (see `update`)


def g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected_score(mu: float, other_mu: float, weight: float) -> float:
    """1 / (1 + exp(-weight (mu - other_mu))), with the exponent kept where exp() does not overflow."""
    return 1 / (1 + math.exp(min(max(-weight * (mu - other_mu), -MAX_EXPONENT), MAX_EXPONENT)))


def new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the volatility sigma' that solves f(x) = 0 with x = ln(sigma'^2) (Illinois algorithm)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0 and k < 10_000:  # f rises to +inf below a: a few steps in practice
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(200):  # converges in a handful of steps; the bound only guards odd inputs
        if abs(big_b - big_a) <= TOLERANCE:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rating_period(
    rating: float, rd: float, sigma: float, games: Sequence[tuple[float, float, float]], tau: float
) -> tuple[float, float, float, float]:
    """One player's rating period against `games` of (opponent rating, opponent RD, score):
    the new rating, RD and volatility, and the sum of the expected scores."""
    mu, phi = (rating - CENTRE) / SCALE, rd / SCALE
    information, surprise, expected_total = 0.0, 0.0, 0.0
    for other_rating, other_rd, score in games:
        weight = g(other_rd / SCALE)
        expected = expected_score(mu, (other_rating - CENTRE) / SCALE, weight)
        expected_total += expected
        information += weight * weight * expected * (1 - expected)
        surprise += weight * (score - expected)
    return (*update(mu, phi, sigma, information, surprise, tau), expected_total)


def update(mu: float, phi: float, sigma: float, information: float, surprise: float, tau: float) -> tuple:
    """Steps 5 to 8 from v = 1 / information and the sum of g(phi_j)(s_j - E_j): rating, RD, volatility."""
    if information < MIN_INFORMATION:
        # Every result was all but certain (opponents thousands of points away, or hardly known): v is
        # past 10^12, and step 5's f(x) would work with Delta^2 beyond what a float holds. The volatility
        # is kept; steps 6 to 8 are the paper's, so a surprise still moves the rating.
        sigma_new = sigma
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + information)
        return SCALE * (mu + phi_new * phi_new * surprise) + CENTRE, SCALE * phi_new, sigma
    v = 1 / information
    sigma_new = new_volatility(sigma, phi, v, v * surprise, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * surprise
    return SCALE * mu_new + CENTRE, SCALE * phi_new, sigma_new


DEVIATION = dict(minimum=1, maximum=10_000)
VOLATILITY = dict(minimum=0.0001, maximum=1)


class Glicko2(Method):
    slug = "glicko2"
    name = "Glicko-2"
    source = "Glickman's Glicko-2 system, as lichess and many two-player sites use it"
    summary = (
        "Each player has a rating, a rating deviation (how unsure it is) and a volatility (how erratic the "
        "player is). A matchday is one rating period of games between every two players at the table, won "
        "by the one placed higher (a tie is a draw); only the matchday's players are updated. Results "
        "against players whose rating is well known count for more. Players are provisional while their "
        "deviation is at or above a threshold (110, as lichess)."
    )
    formula = """\
mu = (R - 1500) / 173.7178, phi = RD / 173.7178, g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)
E_j = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))      s_j = 1, 0.5, 0 by placing
v = 1 / sum g(phi_j)^2 E_j (1 - E_j),  Delta = v sum g(phi_j) (s_j - E_j)
sigma' from Delta, phi, v and tau (Glickman's step 5)
phi' = 1 / sqrt(1 / (phi^2 + sigma'^2) + 1 / v)
R' = R + 173.7178 phi'^2 sum g(phi_j) (s_j - E_j),  RD' = 173.7178 phi'
provisional while RD >= the threshold
"""
    explanation = (
        "R′ = R + 173.7178 φ′^(2) Σ g(φj)(Score − Expected) over the other players j, where Expected = "
        "1 / (1 + e^(−g(φj)(μ − μj))) and φ′ shrinks with every game and grows with the volatility; "
        "there is no K."
    )
    side_explanation = (
        "In sides, each side plays as one composite player: its rating the mean of its players' ratings and its "
        "deviation the root mean square of theirs (weighted by the share of the game each played); each player "
        "takes the change of the side's rating with their own deviation and volatility, times their weight."
    )
    pieces = ("expected", "score")
    params = (
        start_rating_param(1500),
        Param("deviation", "Start deviation", 350.0, "A new player's rating deviation RD.", **DEVIATION),
        Param("volatility", "Start volatility", 0.06, "A new player's volatility sigma.", **VOLATILITY),
        Param("tau", "Tau", 0.5, "How far the volatility may move (Glickman: 0.3 to 1.2).", minimum=0.01, maximum=10),
        Param(
            "provisional_deviation",
            "Provisional from deviation",
            110.0,
            "Players whose deviation is at or above this are marked provisional (lichess: 110).",
            positive=True,
            maximum=10_000,
        ),
        Param("round", "Whole numbers", False, "Round ratings to whole numbers after every matchday.", bool),
    )
    player_inputs = (
        Param(
            "deviations",
            "Deviations",
            350.0,
            "Each player's rating deviation, in the order of the ratings (blank: the start deviation).",
            **DEVIATION,
        ),
        Param(
            "volatilities",
            "Volatilities",
            0.06,
            "Each player's volatility, in the order of the ratings (blank: the start volatility).",
            **VOLATILITY,
        ),
    )

    def start(self, params: Mapping[str, Any]) -> tuple[float, dict[str, float]]:
        return params["start_rating"], {"rd": params["deviation"], "vol": params["volatility"]}

    def state_for(self, rating: float, inputs: Mapping[str, float], params: Mapping[str, Any]) -> dict[str, float]:
        return {
            "rd": inputs.get("deviations", params["deviation"]),
            "vol": inputs.get("volatilities", params["volatility"]),
        }

    def is_provisional(self, state: Mapping[str, float] | None, params: Mapping[str, Any]) -> bool | None:
        return state is None or state["rd"] >= params["provisional_deviation"]

    def win_probability(self, a: Seat, b: Seat, params: Mapping[str, Any]) -> float:
        """Glicko's chance that `a` beats `b`, with both deviations: g(sqrt(phi_a^2 + phi_b^2))."""
        rd_a, rd_b = self._state(a, params)["rd"], self._state(b, params)["rd"]
        weight = g(math.hypot(rd_a, rd_b) / SCALE)
        return expected_score(a.rating / SCALE, b.rating / SCALE, weight)

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        """Every player's rating period against the others, as `rating_period` does it, with each
        player's mu and g(phi) worked out once rather than once per pair (500 players: 250,000 pairs)."""
        self.check_players(seats)
        states = [self._state(seat, params) for seat in seats]
        mus = [(seat.rating - CENTRE) / SCALE for seat in seats]
        weights = [g(state["rd"] / SCALE) for state in states]
        placings = [seat.placing for seat in seats]
        clamp = (max(mus) - min(mus)) >= MAX_EXPONENT  # weights are at most 1
        outcomes = []
        for i, (seat, state) in enumerate(zip(seats, states, strict=True)):
            mu, placing = mus[i], placings[i]
            information, surprise, expected_total, score_total = 0.0, 0.0, 0.0, 0.0
            for j, (other_mu, weight, other_placing) in enumerate(zip(mus, weights, placings, strict=True)):
                if j == i:
                    continue
                if clamp:
                    expected = expected_score(mu, other_mu, weight)
                else:
                    expected = 1 / (1 + math.exp(-weight * (mu - other_mu)))
                score = 1.0 if placing < other_placing else 0.5 if placing == other_placing else 0.0
                expected_total += expected
                score_total += score
                information += weight * weight * expected * (1 - expected)
                surprise += weight * (score - expected)
            rating, rd, vol = update(mu, state["rd"] / SCALE, state["vol"], information, surprise, params["tau"])
            after = finish(rating, 0, params["round"])
            outcomes.append(
                Outcome(
                    rating_before=seat.rating,
                    placing=seat.placing,
                    expected=expected_total,
                    score=score_total,
                    k=None,
                    delta=after - seat.rating,
                    rating_after=after,
                    state={"rd": rd, "vol": vol},
                    extras={"rd": rd, "volatility": vol, "provisional": rd >= params["provisional_deviation"]},
                )
            )
        return outcomes

    def rate_sides(
        self, seats: Sequence[Seat], groups: list[list[int]], facts: Facts, params: Mapping[str, Any]
    ) -> list[Outcome]:
        """Each side is one opponent of the others: its rating the weighted mean of its players', its
        deviation the root mean square of theirs. Each player has the rating period of their side's
        games at the side's rating with their own deviation and volatility, and takes its change (and
        the change of deviation and volatility) times their weight."""
        self.check_sides(seats, groups)
        states = [self._state(seat, params) for seat in seats]
        sides = []
        for group in groups:
            total = sum(seats[i].weight for i in group)
            rating = side_rating(seats, group)
            rd = math.sqrt(sum(seats[i].weight * states[i]["rd"] ** 2 for i in group) / total)
            sides.append((rating, rd, seats[group[0]].placing))
        outcomes: list[Outcome | None] = [None] * len(seats)
        for s, group in enumerate(groups):
            rating, _, placing = sides[s]
            games = [(r, rd, pair_score(placing, p)) for o, (r, rd, p) in enumerate(sides) if o != s]
            for i in group:
                seat, state, weight = seats[i], states[i], seats[i].weight
                new, rd, vol, expected = rating_period(rating, state["rd"], state["vol"], games, params["tau"])
                rd, vol = state["rd"] + weight * (rd - state["rd"]), state["vol"] + weight * (vol - state["vol"])
                after = finish(seat.rating, weight * (new - rating), params["round"])
                outcomes[i] = Outcome(
                    rating_before=seat.rating,
                    placing=seat.placing,
                    expected=expected,
                    score=sum(game[2] for game in games),
                    k=None,
                    delta=after - seat.rating,
                    rating_after=after,
                    state={"rd": rd, "vol": vol},
                    extras={
                        "rd": rd,
                        "volatility": vol,
                        "provisional": rd >= params["provisional_deviation"],
                        "side_rating": rating,
                        "weight": weight,
                    },
                )
        return outcomes

    def _state(self, seat: Seat, params: Mapping[str, Any]) -> dict[str, float]:
        if seat.state and "rd" in seat.state and "vol" in seat.state:
            return {"rd": float(seat.state["rd"]), "vol": float(seat.state["vol"])}
        return self.state_for(seat.rating, {}, params)
