"""Elo-MMR (Ebtekar and Liu, "Elo-MMR: A Rating System for Massive Multiplayer Competitions", WWW 2021)
in its memoryless Gaussian form, Elo-MMχ: the system "mmx" of the elo-mmr-py package.

Each player has a skill mu and an uncertainty sigma (start 1500 and 350). Before a matchday every
player's sigma grows by the drift sqrt(w) sigma_lim; each player's performance is then the point where
the chances of the ranking they achieved are greatest, given everyone's skill blurred by the
performance spread beta = sqrt(1 + 1/w) sigma_lim (a Newton search, as the library does it). The new
skill is the precision-weighted mean of the skill and the performance, and sigma shrinks to
1 / sqrt(1/sigma^2 + 1/beta^2). Nothing else is carried, so mu and sigma are the whole state and a
partial recompute resumes exactly.

The package takes no player's mu and sigma (only whole histories, or its own checkpoint files), so the
update is written out here, step for step as the package's Rust source computes it (the multi-skill
crate's EloMMR, Gaussian variant, at the commit the wheel's bill of materials names):
tests/test_methods_elo_mmr.py checks it against `rate_latest`. The package's normal distribution
(statrs 0.18's erfc) is off in the tenth digit, so the two agree to about 1e-8 of a rating point, not
to the last bit. Where a normal tail underflows (more than 37 standard deviations out: ratings
thousands of points apart, where the package's own ratios are 0/0), the continued fraction of
trueskill_ffa takes over.

The rating shown is the conservative mu - 3 (sigma - sigma_lim) that the authors' own implementation
displays (Elo-MMR's PlayerEvent::get_display_rating, there with sigma_lim = 80): it starts at 690 and
approaches mu as sigma settles towards sigma_lim. The package itself reports the rounded mu.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from math import erfc, exp
from typing import Any

from .base import Facts, Method, MethodError, Outcome, Param, Seat, finish, pair_score
from .gaussian import normal_win
from .trueskill_ffa import mills_ratio

Z = 3  # the rating shown is mu - Z (sigma - sigma_lim)
BOUNDS = (-6000.0, 9000.0)  # where the package seeks a performance
BUCKET = 1e-5  # players whose mu and sigma round alike at this width are one term, as in the package
TAIL = 37.0  # beyond this many standard deviations the normal tail underflows
NEWTON_STEPS = 500  # far beyond what the search needs; a guard, not a tolerance
SQRT2 = math.sqrt(2)
PDF_NORMALISER = 0.5 * (2 / math.sqrt(math.pi)) / SQRT2  # 1 / sqrt(2 pi), as the package writes it
I32 = 2**31 - 1


def normal_pdf(z: float) -> float:
    return PDF_NORMALISER * math.exp(-0.5 * z * z)


def normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / SQRT2)


def _hazard(z: float) -> float:
    """phi(z) / Phi(z), also far down the left tail."""
    return 1 / mills_ratio(-z) if z < -TAIL else normal_pdf(z) / normal_cdf(z)


def _term(mu: float, sig: float, x: float, order: int, split_ties: bool) -> tuple[float, float]:
    """One opponent's term of the derivative of the log-likelihood at performance x, and its slope;
    `order` is -1 if the opponent finished ahead, 0 level, 1 behind (the package's Rating::eval)."""
    z = (x - mu) / sig
    if abs(z) > TAIL:
        return _tail_term(z, sig, order, split_ties)
    # normal_pdf and normal_cdf written in place: this is the innermost loop of a matchday.
    pdf = PDF_NORMALISER * exp(-0.5 * z * z) / sig
    pdf_prime = -z * pdf / sig
    if order < 0:
        cdf_m1 = -0.5 * erfc(z / SQRT2)
        val = pdf / cdf_m1
        return val, pdf_prime / cdf_m1 - val * val
    if order > 0:
        cdf = 0.5 * erfc(-z / SQRT2)
        val = pdf / cdf
        return val, pdf_prime / cdf - val * val
    if split_ties:
        cdf, cdf_m1 = 0.5 * erfc(-z / SQRT2), -0.5 * erfc(z / SQRT2)
        val0, val1 = pdf / cdf, pdf / cdf_m1
        return 0.5 * (val0 + val1), 0.5 * (pdf_prime * (1 / cdf + 1 / cdf_m1) - val0 * val0 - val1 * val1)
    pdf_pp = -(pdf / sig + z * pdf_prime) / sig
    val = pdf_prime / pdf
    return val, pdf_pp / pdf - val * val


def _tail_term(z: float, sig: float, order: int, split_ties: bool) -> tuple[float, float]:
    """`_term` in closed form where the normal density underflows."""
    if order == 0 and not split_ties:
        return -z / sig, -1 / sig**2
    if order == 0:
        ahead, behind = _tail_term(z, sig, -1, False), _tail_term(z, sig, 1, False)
        return 0.5 * (ahead[0] + behind[0]), 0.5 * (ahead[1] + behind[1])
    h = _hazard(z) if order > 0 else -_hazard(-z)
    return h / sig, -h * (z + h) / sig**2


def _terms_at(terms: list, x: float, my_rank: int, split_ties: bool) -> tuple[float, float]:
    """The sum over the terms at x for a player of rank `my_rank` (the package's Term::evals)."""
    total, slope = 0.0, 0.0
    for mu, sig, ranks in terms:
        if len(ranks) == 1:
            order = (ranks[0] > my_rank) - (ranks[0] < my_rank)
            value, prime = _term(mu, sig, x, order, split_ties)
        else:
            start, end = bisect_left(ranks, my_rank), bisect_right(ranks, my_rank)
            value = prime = 0.0
            for count, order in ((start, -1), (end - start, 0), (len(ranks) - end, 1)):
                if count:
                    v, p = _term(mu, sig, x, order, split_ties)
                    value += count * v
                    prime += count * p
        total += value
        slope += prime
    return total, slope


def solve_newton(f) -> float:
    """The zero of the decreasing f (which returns its value and slope) within BOUNDS: Newton's steps
    kept inside a shrinking bracket, until a step no longer moves (the package's solve_newton)."""
    lo, hi = BOUNDS
    guess = 0.5 * (lo + hi)
    for _ in range(NEWTON_STEPS):
        value, slope = f(guess)
        extrapolate = guess - value / slope if slope else math.nan
        if not math.isfinite(extrapolate):
            break
        if extrapolate < guess:
            hi = guess
            guess = min(max(extrapolate, hi - 0.75 * (hi - lo)), hi)
        else:
            lo = guess
            guess = min(max(extrapolate, lo), lo + 0.75 * (hi - lo))
        if lo >= guess or guess >= hi:
            return guess
    raise MethodError("the players' skills lie too far apart for Elo-MMR to find a performance", "ratings")


def _bucket(value: float) -> int:
    """The package's (value / width).round() as i32: halves away from zero, saturating."""
    scaled = value / BUCKET
    whole = math.floor(abs(scaled) + 0.5)
    return int(max(-I32 - 1, min(I32, math.copysign(whole, scaled))))


def performance_terms(blurred: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list:
    """Every player's performance distribution (mu, sigma) with their rank, sorted as the package sorts
    them; players alike to BUCKET become one term with the mean of their mus and sigmas and all their
    ranks."""
    keyed = sorted(
        ((_bucket(mu), _bucket(sig), rank, mu, sig) for (mu, sig), rank in zip(blurred, ranks, strict=True)),
        key=lambda t: t[:3],
    )
    terms: list[list] = []
    for mu_key, sig_key, rank, mu, sig in keyed:
        if terms and (_bucket(terms[-1][0]), _bucket(terms[-1][1])) == (mu_key, sig_key):
            last = terms[-1]
            n = len(last[2])
            last[0] = (n * last[0] + mu) / (n + 1.0)
            last[1] = (n * last[1] + sig) / (n + 1.0)
            last[2].append(rank)
            continue
        terms.append([mu, sig, [rank]])
    return terms


def spreads(params: Mapping[str, Any]) -> tuple[float, float]:
    """The performance spread beta and the drift per matchday, from the weight w and sigma_lim."""
    weight, limit = params["weight"], params["sigma_limit"]
    beta = math.sqrt((1.0 + 1.0 / weight) * limit * limit)
    drift = math.sqrt(weight * limit * limit)
    return beta, drift


def update(states: Sequence[tuple[float, float]], ranks: Sequence[int], params: Mapping[str, Any]) -> list:
    """Each player's (mu, sigma, performance) after a matchday, from their (mu, sigma) and zero-based
    rank (tied players share the rank of their place). A matchday everyone tied leaves everyone as
    they were, as in the package (performance None)."""
    if len(set(ranks)) == 1:
        return [(mu, sig, None) for mu, sig in states]
    beta, drift = spreads(params)
    drifted = [(mu, math.hypot(sig, drift)) for mu, sig in states]
    terms = performance_terms([(mu, math.hypot(sig, beta)) for mu, sig in drifted], ranks)
    split = params["split_ties"]
    # The likelihood depends on the rank alone: players sharing a place share the performance.
    performances = {
        rank: solve_newton(lambda x, rank=rank: _terms_at(terms, x, rank, split)) for rank in sorted(set(ranks))
    }
    updated = []
    for (mu, sig), rank in zip(drifted, ranks, strict=True):
        performance = performances[rank]
        w_skill, w_perf = 1 / (sig * sig), 1 / (beta * beta)
        new_mu = (w_skill * mu + w_perf * performance) / (w_skill + w_perf)
        updated.append((new_mu, math.sqrt(1 / (w_skill + w_perf)), performance))
    return updated


def shown(mu: float, sigma: float, params: Mapping[str, Any]) -> float:
    return mu - Z * (sigma - params["sigma_limit"])


SIGMAS = Param(
    "sigmas",
    "Sigmas",
    350.0,
    "Each player's uncertainty sigma, in the order of the ratings (blank: the start sigma).",
    minimum=0.01,
    maximum=10_000,
)


class EloMMR(Method):
    slug = "elo-mmr"
    name = "Elo-MMR"
    source = (
        'Ebtekar and Liu, "Elo-MMR: A Rating System for Massive Multiplayer Competitions" (WWW 2021), '
        "in its memoryless Gaussian form (Elo-MMχ, the elo-mmr-py package's system mmx)"
    )
    summary = (
        "A Bayesian model of the whole ranking, made for many players at once: each player has a skill mu and "
        "an uncertainty sigma; the matchday's ranking gives each player a performance, and the skill moves "
        "towards it by how sure the model is of each. The rating shown is the cautious mu − 3 (sigma − 80), "
        "as the method's authors display it; players whose sigma is still high are marked provisional. It "
        "rates players alone: a table with matchdays played in sides or in part cannot use it."
    )
    formula = """\
each player: skill mu and uncertainty sigma (start 1500 and 350); w = 0.2, sigma_lim = 80
before the matchday: sigma <- sqrt(sigma^2 + w sigma_lim^2)      (drift)
performance spread beta = sqrt(1 + 1/w) sigma_lim; s_j = sqrt(sigma_j^2 + beta^2)
performance p: the zero of the sum over every player j (the player too) of d/dp of
  ln Phi((mu_j - p) / s_j) if j finished ahead, ln Phi((p - mu_j) / s_j) if behind,
  ln phi((p - mu_j) / s_j) if level  (Newton's steps between -6000 and 9000)
mu <- (mu / sigma^2 + p / beta^2) / (1 / sigma^2 + 1 / beta^2);  sigma <- 1 / sqrt(1 / sigma^2 + 1 / beta^2)
rating shown = mu - 3 (sigma - sigma_lim); provisional while sigma > the threshold
E = sum over the other players j of Phi((mu - mu_j) / sqrt(2 beta^2 + sigma^2 + sigma_j^2))
"""
    explanation = (
        "The rating is mu − 3 (σ − σ_lim) of the player's skill estimate; the matchday's ranking gives a "
        "performance, and mu moves towards it by how sure the model is of each (Elo-MMR, memoryless Gaussian "
        "form). Expected is the model's chance of finishing ahead of each other player, summed; there is no K."
    )
    pieces = ("expected", "score")
    params = (
        Param("mu", "Start mu", 1500.0, "A new player's skill estimate.", minimum=0, maximum=3000),
        Param("sigma", "Start sigma", 350.0, "A new player's uncertainty.", minimum=1, maximum=1000),
        Param(
            "weight",
            "Matchday weight",
            0.2,
            "How much one matchday counts (the package's weight_limit): the drift and the performance spread "
            "follow from it.",
            minimum=0.01,
            maximum=1,
        ),
        Param(
            "sigma_limit",
            "Limit sigma",
            80.0,
            "The uncertainty a regular player settles at (the package's sig_limit).",
            minimum=1,
            maximum=500,
        ),
        Param("split_ties", "Ties as half a win and half a loss", False, "The package's split_ties.", bool),
        Param(
            "provisional_sigma",
            "Provisional above sigma",
            115.0,
            "Players whose sigma is above this are marked provisional (at the defaults, their first two matchdays).",
            positive=True,
            maximum=10_000,
        ),
        Param("round", "Whole numbers", False, "Round the rating shown to a whole number.", bool),
    )
    player_inputs = (SIGMAS,)

    def start(self, params: Mapping[str, Any]) -> tuple[float, dict[str, float]]:
        mu, sigma = params["mu"], params["sigma"]
        return shown(mu, sigma, params), {"mu": mu, "sigma": sigma}

    def state_for(self, rating: float, inputs: Mapping[str, float], params: Mapping[str, Any]) -> dict[str, float]:
        """A rating given as the one shown: mu is the rating plus 3 (sigma - sigma_lim), sigma as given or
        the start's."""
        sigma = inputs.get("sigmas", params["sigma"])
        return {"mu": rating + Z * (sigma - params["sigma_limit"]), "sigma": sigma}

    def is_provisional(self, state: Mapping[str, float] | None, params: Mapping[str, Any]) -> bool | None:
        return state is None or state["sigma"] > params["provisional_sigma"]

    def win_probability(self, a: Seat, b: Seat, params: Mapping[str, Any]) -> float:
        beta, drift = spreads(params)
        first, second = self._state(a, params), self._state(b, params)
        sig_a, sig_b = math.hypot(first["sigma"], drift), math.hypot(second["sigma"], drift)
        return normal_win(first["mu"], sig_a, second["mu"], sig_b, beta)

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        self.check_players(seats)
        before = [self._state(seat, params) for seat in seats]
        after = update([(s["mu"], s["sigma"]) for s in before], [seat.placing - 1 for seat in seats], params)
        beta, drift = spreads(params)
        drifted = [(s["mu"], math.hypot(s["sigma"], drift)) for s in before]
        outcomes = []
        for i, (seat, state, (mu, sigma, performance)) in enumerate(zip(seats, before, after, strict=True)):
            others = [j for j in range(len(seats)) if j != i]
            expected = sum(normal_win(*drifted[i], *drifted[j], beta) for j in others)
            score = sum(pair_score(seat.placing, seats[j].placing) for j in others)
            rating_before = shown(state["mu"], state["sigma"], params)
            rating_after = finish(shown(mu, sigma, params), 0, params["round"])
            extras = {"mu": mu, "sigma": sigma, "provisional": sigma > params["provisional_sigma"]}
            if performance is not None:
                extras["performance"] = performance
            outcomes.append(
                Outcome(
                    rating_before=rating_before,
                    placing=seat.placing,
                    expected=expected,
                    score=score,
                    k=None,
                    delta=rating_after - rating_before,
                    rating_after=rating_after,
                    state={"mu": mu, "sigma": sigma},
                    extras=extras,
                )
            )
        return outcomes

    def _state(self, seat: Seat, params: Mapping[str, Any]) -> dict[str, float]:
        if seat.state and "mu" in seat.state and "sigma" in seat.state:
            return {"mu": float(seat.state["mu"]), "sigma": float(seat.state["sigma"])}
        return self.state_for(seat.rating, {}, params)
