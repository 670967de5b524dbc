"""The engine rates each table with its own method, and resumes it from the edited matchday."""

import pytest
from django.core.exceptions import ValidationError

from league.models import Game, Matchday, Result
from ratings.methods import METHODS, Facts, Seat
from ratings.models import RatingEntry, RatingTable
from ratings.services.rating_tables import save_rating_table
from ratings.services.recompute import rebuild_all
from tests.conftest import results_of, save_results, store


def use(slug, method, **parameters):
    """Switch table `slug` to `method` with its default start rating and rounding, and rebuild it."""
    table = RatingTable.objects.get(slug=slug)
    defaults = METHODS[method].defaults()
    table.method = method
    table.parameters = parameters
    table.start_rating = METHODS[method].start(METHODS[method].clean_params(parameters))[0]
    table.whole_numbers = defaults["round"]
    save_rating_table(table)
    return table


def rows(table):
    """Every stored number of a table, by matchday and player."""
    return {
        (e.matchday.number, e.player.short_name): (
            e.rating_before,
            e.rating_after,
            e.expected,
            e.score,
            e.k,
            e.delta,
            e.opponents_mean,
            e.state,
        )
        for e in table.entries.select_related("matchday", "player")
    }


@pytest.fixture
def sedma_game(db, make_matchday):
    """Five two-player Sedma matchdays with performance counts."""
    game = Game.objects.create(name="Sedma", slug="sedma")
    games = [("I", "R"), ("R", "GL"), ("I", "GL"), ("GL", "I"), ("R", "I")]
    for number, (winner, loser) in enumerate(games, start=1):
        make_matchday(number, f"2025-12-0{number}", {winner: 1, loser: 2}, game=game)
    Result.objects.filter(matchday__number=2, player__short_name="R").update(won_by_16=2, bad_moves=1)
    Result.objects.filter(matchday__number=2, player__short_name="GL").update(won_by_24=1)
    Result.objects.filter(matchday__number=4, player__short_name="GL").update(bad_moves=20)
    rebuild_all()
    return game


def test_a_table_switched_to_pairwise_placing_stores_the_methods_numbers(club):
    table = use("hearts", "pairwise-placing")
    first = {e.player.short_name: e for e in table.entries.filter(matchday__number=1).select_related("player")}
    # Matchday 1: I 1st, K 2nd, R 3rd, GL 4th, all at 1500: I beat three expecting 1.5, K = 32.
    assert first["I"].score == 3 and first["I"].expected == 1.5
    assert first["I"].rating_after == 1548
    assert first["GL"].rating_after == 1452
    assert first["I"].opponents_mean is None and first["I"].k == 32
    # The overall table keeps the club formula and its published numbers.
    overall = RatingEntry.objects.get(table__slug="overall", matchday__number=1, player__short_name="I")
    assert overall.rating_after == 1535 and overall.opponents_mean == 1500


def test_the_engine_feeds_the_method_each_players_previous_rating(club):
    table = use("hearts", "rating-band")
    entries = list(table.entries.filter(matchday__number=2).select_related("player").order_by("pk"))
    seats = [Seat(e.rating_before, e.rated_placing or e.placing) for e in entries]
    expected = METHODS["rating-band"].compute(seats, Facts(rounds=3), METHODS["rating-band"].defaults())
    assert [e.rating_after for e in entries] == [o.rating_after for o in expected]
    previous = {e.player_id: e.rating_after for e in table.entries.filter(matchday__number=1)}
    assert all(e.rating_before == previous.get(e.player_id, 1500) for e in entries)


def test_table_size_uses_the_matchdays_winner_score(club):
    Matchday.objects.filter(number=1).update(winner_score=15)
    table = use("hearts", "table-size")
    ks = dict(table.entries.values_list("matchday__number", "k").distinct())
    assert ks[1] == 16  # four players (32), two steps lower for a game to 12
    assert ks[2] == 32
    assert table.entries.get(matchday__number=1, player__short_name="I").rating_before == 1000


def test_pairwise_winner_uses_the_left_early_flag(club):
    Result.objects.filter(matchday__number=5, player__short_name="R").update(left_early=True)
    table = use("hearts", "pairwise-winner")
    r = table.entries.get(matchday__number=5, player__short_name="R")
    assert r.score == 0  # lost to the three still playing


def test_openskill_carries_mu_and_sigma_and_shows_the_ordinal(club):
    table = use("hearts", "openskill")
    entry = table.entries.get(matchday__number=6, player__short_name="I")
    assert set(entry.state) == {"mu", "sigma"}
    assert entry.rating_after == pytest.approx(entry.state["mu"] - 3 * entry.state["sigma"])
    assert entry.k is None
    assert table.start_rating == 0


def test_sedma_rates_two_player_matchdays_with_the_stored_counts(sedma_game):
    table = use("sedma", "sedma")
    second = {e.player.short_name: e for e in table.entries.filter(matchday__number=2).select_related("player")}
    assert second["R"].score == 1  # 1 + 0.1 - 0.02, clamped
    assert second["GL"].score == pytest.approx(0.01)  # a round won by 24, at 10% in a loss
    assert all(float(e.rating_after).is_integer() for e in table.entries.all())
    assert table.entries.get(matchday__number=4, player__short_name="GL").score == pytest.approx(0.7)


def test_a_method_that_cannot_rate_a_tables_matchdays_is_refused(club):
    table = RatingTable.objects.get(slug="hearts")
    table.method = "sedma"
    with pytest.raises(ValidationError, match="two-player games only, not 4 players"):
        save_rating_table(table)
    assert RatingTable.objects.get(slug="hearts").method == "club"


@pytest.mark.parametrize("method", [m for m in METHODS if m != "sedma" and not METHODS[m].against_deals])
def test_recomputing_from_an_edited_matchday_equals_a_full_rebuild(club, method):
    table = use("hearts", method)
    matchday = Matchday.objects.get(number=4)
    kept = set(table.entries.filter(matchday__number__lt=4).values_list("pk", flat=True))
    save_results(matchday, {"J": 4, "GL": 1})
    incremental = rows(table)
    assert kept <= set(table.entries.values_list("pk", flat=True))  # earlier rows were not rewritten
    rebuild_all()
    assert rows(table) == incremental
    assert incremental[(4, "GL")][3] != incremental[(4, "J")][3]


def test_sedma_recomputed_from_an_edited_matchday_equals_a_full_rebuild(sedma_game):
    table = use("sedma", "sedma")
    before = rows(table)
    third = Matchday.objects.get(number=3)
    results = results_of(third)
    results["GL"] = results["GL"].changed(won_by_24=2)  # 0.02 in a loss
    store(third, list(results.values()))
    incremental = rows(table)
    assert incremental != before
    rebuild_all()
    assert rows(table) == incremental
