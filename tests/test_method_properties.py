"""Properties every rating method must have, checked on generated matchdays (hypothesis).

Where a property does not apply to a method, the test says why instead of testing it.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.methods import METHODS, Facts, Seat

ELO = [slug for slug in METHODS if slug != "openskill"]  # openskill moves a Bayesian mu and sigma


def ranking(ties: list[bool]) -> list[int]:
    """A standard competition ranking from "ties the one before" flags: [F, T, F] -> 1, 1, 3."""
    placings = []
    for i, tied in enumerate(ties):
        placings.append(placings[-1] if tied and i else i + 1)
    return placings


def field_size(slug):
    return st.just(2) if METHODS[slug].two_players_only else st.integers(2, 8)


@st.composite
def matchdays(draw, slug, equal=False):
    n = draw(field_size(slug))
    ties = st.just(False) if slug == "sedma" else st.booleans()  # Sedma has no draws
    placings = ranking(draw(st.lists(ties, min_size=n, max_size=n)))
    order = draw(st.permutations(range(n)))
    placings = [placings[i] for i in order]
    if equal:
        ratings = [draw(st.integers(800, 2400))] * n
    else:
        ratings = draw(st.lists(st.integers(800, 2400), min_size=n, max_size=n))
    rounds = draw(st.integers(1, 10))
    return ratings, placings, Facts(rounds=rounds)


def compute(slug, ratings, placings, facts, **overrides):
    method = METHODS[slug]
    params = method.clean_params({"round": False, **overrides} if method.param("round") else overrides)
    state = method.start(params)[1]
    seats = [Seat(r, p, state) for r, p in zip(ratings, placings, strict=True)]
    return method.compute(seats, facts, params)


@pytest.mark.parametrize("slug", ELO)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_with_everyone_rated_equal_the_changes_sum_to_zero(slug, data):
    ratings, placings, facts = data.draw(matchdays(slug, equal=True))
    changes = compute(slug, ratings, placings, facts)
    assert sum(c.delta for c in changes) == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("slug", list(METHODS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_better_placing_never_gives_a_smaller_change(slug, data):
    ratings, placings, facts = data.draw(matchdays(slug))
    worse = max(range(len(placings)), key=lambda i: placings[i])
    better = min(range(len(placings)), key=lambda i: placings[i])
    if placings[worse] == placings[better]:
        return  # everyone tied: nothing to swap
    swapped = list(placings)
    swapped[worse], swapped[better] = swapped[better], swapped[worse]
    before = compute(slug, ratings, placings, facts)[worse].delta
    after = compute(slug, ratings, swapped, facts)[worse].delta  # the same player, now placed better
    assert after >= before - 1e-9


@pytest.mark.parametrize("slug", ELO)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_no_change_exceeds_the_methods_bound(slug, data):
    ratings, placings, facts = data.draw(matchdays(slug))
    changes = compute(slug, ratings, placings, facts)
    n = len(ratings)
    for change in changes:
        # The club formula scores a matchday as one game (bound K); pairwise methods as n - 1 games.
        bound = change.k if slug == "club" else change.k * (n - 1)
        assert abs(change.delta) <= bound + 1e-9


@pytest.mark.parametrize("slug", list(METHODS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_tied_players_with_equal_ratings_get_equal_changes(slug, data):
    ratings, placings, facts = data.draw(matchdays(slug))
    pairs = [(i, j) for i in range(len(placings)) for j in range(i + 1, len(placings)) if placings[i] == placings[j]]
    if not pairs:
        return
    i, j = pairs[0]
    ratings = list(ratings)
    ratings[j] = ratings[i]
    changes = compute(slug, ratings, placings, facts)
    assert changes[i].delta == pytest.approx(changes[j].delta, abs=1e-9)


@pytest.mark.parametrize("slug", [slug for slug, m in METHODS.items() if m.param("round")])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_whole_number_carry_stays_within_half_a_point_of_the_unrounded_step(slug, data):
    ratings, placings, facts = data.draw(matchdays(slug))
    rounded = compute(slug, ratings, placings, facts, round=True)
    exact = compute(slug, ratings, placings, facts, round=False)
    for whole, unrounded in zip(rounded, exact, strict=True):
        assert float(whole.rating_after).is_integer()
        assert abs(whole.rating_after - unrounded.rating_after) <= 0.5 + 1e-6
