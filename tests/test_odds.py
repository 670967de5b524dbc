"""Tonight's odds, the maths (ratings/odds, no database): each method's chance to win, the change each
finishing place would bring, and balanced tables."""

import itertools
import math
import random

import pytest
from openskill.models import PlackettLuce

from ratings.methods import METHODS, Facts, Seat
from ratings.odds import Sitter, balanced_tables, greedy_tables, table_odds, table_sizes
from ratings.odds.balance import exact_tables, spread, ways

CLUB = METHODS["club"]


def test_trueskill_gives_the_documented_chance_after_one_win_at_the_defaults():
    method = METHODS["trueskill"]
    params = method.defaults()
    rating, state = method.start(params)
    won, lost = method.compute([Seat(rating, 1, state), Seat(rating, 2, state)], Facts(), params)
    odds = table_odds(
        method, params, [Sitter("A", won.rating_after, won.state), Sitter("B", lost.rating_after, lost.state)]
    )
    assert odds.players[0].chance == 0.7732314666870078
    assert odds.players[1].chance == pytest.approx(1 - 0.7732314666870078, abs=1e-15)


@pytest.mark.parametrize("slug", ["club", "pairwise-placing", "pairwise-winner", "rating-band", "table-size", "sedma"])
def test_the_elo_family_gives_two_players_elos_chance(slug):
    method = METHODS[slug]
    odds = table_odds(method, method.defaults(), [Sitter("GL", 1461), Sitter("J", 1534)])
    assert odds.players[0].chance == 1 / (1 + 10 ** ((1534 - 1461) / 400))
    assert odds.players[1].chance == 1 / (1 + 10 ** ((1461 - 1534) / 400))


def test_more_than_two_share_the_methods_expected_scores_as_openskills_predict_win_does():
    method = METHODS["openskill"]
    params = method.defaults()
    states = [{"mu": mu, "sigma": sigma} for mu, sigma in [(30, 5), (25, 8.3), (22, 3), (27, 6)]]
    sitters = [Sitter(i, s["mu"] - 3 * s["sigma"], s) for i, s in enumerate(states)]
    odds = table_odds(method, params, sitters)
    model = PlackettLuce()
    library = model.predict_win([[model.rating(**s)] for s in states])
    assert [p.chance for p in odds.players] == pytest.approx(library, rel=1e-12)
    assert sum(p.chance for p in odds.players) == pytest.approx(1)


def test_at_a_table_of_four_the_club_formula_shares_its_own_expected_scores():
    sitters = [Sitter(k, r) for k, r in zip("GL J I K".split(), [1461, 1534, 1521, 1494], strict=True)]
    odds = table_odds(CLUB, CLUB.defaults(), sitters, rounds=3)
    expected = []
    for sitter in sitters:
        others = [s.rating for s in sitters if s is not sitter]
        expected.append(1 / (1 + 10 ** ((sum(others) / 3 - sitter.rating) / 400)))
    assert [p.expected for p in odds.players] == pytest.approx(expected)
    assert [p.chance for p in odds.players] == pytest.approx([e / sum(expected) for e in expected])
    assert max(odds.players, key=lambda p: p.chance).key == "J"


def test_each_place_is_rated_with_the_others_in_their_rating_order():
    sitters = [Sitter(k, r) for k, r in zip("GL J I K".split(), [1461, 1534, 1521, 1494], strict=True)]
    odds = table_odds(CLUB, CLUB.defaults(), sitters, rounds=3)
    assert odds.places == 4
    # GL 2nd: J (the strongest of the others) 1st, then I and K: the club formula's own matchday.
    matchday = CLUB.compute(
        [Seat(1461, 2), Seat(1534, 1), Seat(1521, 3), Seat(1494, 4)], Facts(rounds=3), CLUB.defaults()
    )
    gl = odds.players[0]
    assert gl.changes[1] == matchday[0].delta
    assert gl.changes == sorted(gl.changes, reverse=True) and gl.changes[0] > 0 > gl.changes[-1]
    for player in odds.players:
        assert len(player.changes) == 4


def test_partners_finish_together_and_share_their_sides_chance():
    sitters = [
        Sitter("GL", 1600, side="A"),
        Sitter("K", 1400, side="A"),
        Sitter("I", 1550, side="B"),
        Sitter("J", 1450, side="B"),
    ]
    odds = table_odds(CLUB, CLUB.defaults(), sitters)
    assert odds.places == 2
    assert [p.chance for p in odds.players] == pytest.approx([0.5] * 4)
    assert [p.changes for p in odds.players] == [[5, -5]] * 4  # the worked example of methods/sides.py


def test_a_table_the_method_cannot_rate_says_why():
    sedma = METHODS["sedma"]
    odds = table_odds(sedma, sedma.defaults(), [Sitter("GL", 1500), Sitter("J", 1500), Sitter("I", 1500)])
    assert not odds.players and "two-player games only" in odds.problem
    glicko = METHODS["glicko2"]
    sides = [Sitter("GL", 1500, side="A"), Sitter("K", 1500, side="A"), Sitter("I", 1500)]
    assert table_odds(glicko, glicko.defaults(), sides).players  # Glicko-2 rates sides
    band = METHODS["rating-band"]
    assert table_odds(band, band.defaults(), sides).places == 2


@pytest.mark.parametrize(
    "slug", [slug for slug, m in METHODS.items() if not m.against_deals and not m.two_players_only]
)
def test_every_method_gives_chances_that_add_up_to_one_and_favour_the_stronger(slug):
    method = METHODS[slug]
    params = method.defaults()
    start, _ = method.start(params)
    step = 200 if start > 100 else 5
    sitters = [Sitter(i, start + step * i) for i in range(4)]
    odds = table_odds(method, params, sitters)
    chances = [p.chance for p in odds.players]
    assert sum(chances) == pytest.approx(1)
    assert chances == sorted(chances)
    assert all(p.changes[0] > p.changes[-1] for p in odds.players)


# Balanced tables


@pytest.mark.parametrize(
    ("players", "size", "sizes"),
    [(12, 3, [3, 3, 3, 3]), (12, 4, [4, 4, 4]), (13, 4, [4, 3, 3, 3]), (14, 4, [4, 4, 3, 3]), (7, 2, [3, 2, 2]),
     (3, 2, [3]), (5, 4, [3, 2]), (2, 6, [2])],
)  # fmt: skip
def test_tables_are_sized_as_evenly_as_the_players_allow_and_never_hold_one(players, size, sizes):
    assert table_sizes(players, size) == sizes
    assert sum(sizes) == players


def test_twelve_players_in_threes_can_sit_15400_ways():
    assert ways([3, 3, 3, 3]) == 15_400
    assert ways([4, 3, 3, 3]) == math.factorial(13) // (24 * 6**3 * math.factorial(3))


def brute_force(ratings, sizes):
    """The smallest spread over every seating, each found by plain recursion (no cut)."""

    def seatings(left, sizes_left):
        if not left:
            yield []
            return
        first, rest = left[0], left[1:]
        for size in set(sizes_left):
            remaining = list(sizes_left)
            remaining.remove(size)
            for others in itertools.combinations(rest, size - 1):
                table = [first, *others]
                for more in seatings([i for i in rest if i not in others], remaining):
                    yield [table, *more]

    return min(spread(ratings, tables) for tables in seatings(list(range(len(ratings))), sizes))


def test_twelve_in_threes_never_do_worse_than_a_greedy_split_and_match_brute_force():
    rng = random.Random(26)
    for _ in range(30):
        ratings = [round(rng.gauss(1500, 120)) for _ in range(12)]
        proposal = balanced_tables(ratings, 3)
        greedy = spread(ratings, greedy_tables(ratings, [3] * 4))
        assert proposal.exact and proposal.ways == 15_400
        assert proposal.spread <= greedy
        assert sorted(i for t in proposal.tables for i in t) == list(range(12))
        assert proposal.spread == pytest.approx(spread(ratings, proposal.tables))
    for _ in range(3):  # the brute force takes a moment: a few of them
        ratings = [rng.uniform(1000, 2000) for _ in range(12)]
        assert balanced_tables(ratings, 3).spread == pytest.approx(brute_force(ratings, [3] * 4))


def test_the_heuristic_never_does_worse_than_the_greedy_split_it_starts_from():
    rng = random.Random(29)
    for players, size in [(12, 3), (13, 4), (16, 4), (30, 5), (48, 6)]:
        for _ in range(5):
            ratings = [rng.gauss(1500, 150) for _ in range(players)]
            sizes = table_sizes(players, size)
            proposal = balanced_tables(ratings, size, exact_limit=0)
            assert not proposal.exact
            assert proposal.spread <= spread(ratings, greedy_tables(ratings, sizes)) + 1e-9
            assert sorted(len(t) for t in proposal.tables) == sorted(sizes)
            if players == 12:
                assert proposal.spread >= spread(ratings, exact_tables(ratings, sizes)) - 1e-9


def test_uneven_tables_are_searched_exactly_when_few():
    ratings = [1700, 1650, 1600, 1500, 1450, 1400, 1300]
    proposal = balanced_tables(ratings, 3)
    assert [len(t) for t in sorted(proposal.tables, key=len)] == [2, 2, 3]
    assert proposal.exact and proposal.spread == pytest.approx(brute_force(ratings, [3, 2, 2]))
    assert proposal.means == sorted(proposal.means, reverse=True)
