"""The player-against-deal maths, with the freecell seed's numbers and plain values (no database)."""

import random

import pytest

from ratings.methods import METHODS, MethodError, Seat, deals
from ratings.methods.base import Facts


def level_with(*bases):
    level = deals.Level()
    for base in bases:
        level.add(base)
    return level


def test_a_1500_player_who_wins_a_1000_deal_gains_0_43_and_the_deal_loses_it():
    change = deals.play(1500, 1000, level_with(1000), won=True, boost=0)
    assert change.expected == pytest.approx(0.9468, abs=5e-5)  # the seed's 94.68%
    assert round(change.player_after, 2) == 1500.43
    assert round(change.deal_after, 2) == 999.57
    assert change.delta == pytest.approx(8 * (1 - change.expected))


def test_a_1500_player_who_loses_a_1000_deal_drops_to_1492_43_and_the_deal_rises_to_1007_57():
    for boost in (0, 0.03):  # the boost moves the deal's level, never the deal's own change
        change = deals.play(1500, 1000, level_with(1000), won=False, boost=boost)
        assert round(change.player_after, 2) == 1492.43
        assert round(change.deal_after, 2) == 1007.57
        assert change.deal_after - change.deal_before == pytest.approx(-change.delta)


def test_the_level_boost_moves_every_other_deal_of_the_level_by_f_times_the_change():
    level = level_with(1000, 1200, 1700)
    others_before = [base + level.offset for base in (1200, 1700)]
    change = deals.play(1500, 1000, level, won=False, boost=0.03)
    d = change.deal_after - change.deal_before
    others_after = [base + level.offset for base in (1200, 1700)]  # their bases did not move
    assert [a - b for a, b in zip(others_after, others_before, strict=True)] == pytest.approx([0.03 * d] * 2)
    assert round(0.03 * d, 2) == 0.23  # the example: every other deal of the level gains 0.23
    assert change.offset_after == pytest.approx(0.03 * d)
    assert change.base_after == pytest.approx(1000 + 0.97 * d)


def test_a_deal_of_another_level_is_not_moved():
    played, other = level_with(1000, 1200), level_with(1300)
    deals.play(1500, 1000, played, won=False)
    assert other.offset == 0 and other.mean == 1300


def test_a_new_deal_starts_at_the_mean_rating_of_its_levels_known_deals_offset_included():
    level = level_with(1000, 1400)
    deals.play(1500, 1000, level, won=False, boost=0.03)  # offset now 0.23
    base = level.new_base()
    assert base + level.offset == pytest.approx(level.mean)
    assert level.mean == pytest.approx((1000 + 7.57 * 0.97 + 1400) / 2 + 0.03 * 7.57, abs=0.01)
    assert deals.Level().new_base() == 1500  # no known deal: the start rating
    assert deals.Level().new_base(start=1200) == 1200


def test_the_seeding_example_10_wins_in_100_plays_at_a_64_percent_level_is_rated_1837():
    # (10 + 5 x 0.64) / (100 + 5) = 13.2 / 105 = 12.6%
    assert round(deals.seed_rating(100, 10, 0.64)) == 1837


def test_the_seeds_other_example_follows_the_formula_1664_not_the_printed_1668():
    # (1 + 3.2) / 15 = 28%: 1500 + 400 log10(0.72 / 0.28) = 1664; the seed prints 1668 (docs/solitaire.md says so).
    assert round(deals.seed_rating(10, 1, 0.64)) == 1664


def test_the_seeded_win_rate_is_clamped_so_a_never_won_deal_gets_a_finite_rating():
    never = deals.seed_rating(1_000_000, 0, 0.0)
    always = deals.seed_rating(1_000_000, 1_000_000, 1.0)
    assert never == pytest.approx(1500 + 400 * 2.99957, abs=0.01)  # w = 0.001
    assert always == pytest.approx(1500 - 400 * 2.99957, abs=0.01)  # w = 0.999


def test_a_levels_seeds_are_pulled_toward_its_own_average_win_rate():
    # 320 wins in 500 plays: the level's average is 64%, as in the seed's example.
    ratings = deals.seed_level({"x": (100, 10), "y": (400, 310)})
    assert round(ratings["x"]) == 1837
    assert ratings["y"] == pytest.approx(deals.seed_rating(400, 310, 0.64))


def test_the_power_ranking_is_the_win_rate_times_the_average_deal_rating():
    # The seed's first row: 5x10 level 10, 92.57% x 1315.947 = 1218.128 (2777 wins in 3000 attempts).
    assert f"{2777 / 3000:.2%}" == "92.57%"
    assert round(deals.power_ranking(2777, 3000, 1315.947), 3) == 1218.128
    assert deals.power_ranking(0, 0, 1500) == 0


def test_the_exact_sum_does_not_depend_on_the_order_of_the_changes():
    rng = random.Random(7)
    values = [rng.uniform(400, 3000) for _ in range(200)]
    running = deals.ExactSum()
    for value in values:
        running.add(value)
    for _ in range(500):  # change deals one at a time, as attempts do
        i = rng.randrange(len(values))
        new = values[i] + rng.uniform(-8, 8)
        running.remove(values[i])
        running.add(new)
        values[i] = new
    rebuilt = deals.ExactSum(reversed(values))
    assert running.value == rebuilt.value == deals.ExactSum(sorted(values)).value


def test_as_a_method_an_attempt_is_two_seats_that_exchange_k_times_score_less_expected():
    method = METHODS["player-vs-deal"]
    player, deal = method.compute([Seat(1500, 1), Seat(1000, 2)], Facts(), method.defaults())
    assert round(player.rating_after, 2) == 1500.43 and round(deal.rating_after, 2) == 999.57
    assert player.k == 8 and player.delta == pytest.approx(-deal.delta)


def test_an_attempt_is_never_tied():
    method = METHODS["player-vs-deal"]
    with pytest.raises(MethodError, match="won or lost"):
        method.check([Seat(1500, 1), Seat(1000, 1)])


def test_the_methods_defaults_are_the_seeds():
    assert METHODS["player-vs-deal"].defaults() == {
        "start_rating": 1500,
        "k": 8,
        "level_boost": 0.03,
        "first_attempt_only": False,
        "inactive_days": 14,
    }


@pytest.mark.parametrize("raw", ["-0.1", "1.5"])
def test_a_level_boost_outside_0_to_1_is_refused(raw):
    with pytest.raises(ValueError, match=f"level_boost: must be 0 to 1, not {raw}"):
        METHODS["player-vs-deal"].clean_params({"level_boost": raw})
