"""Which method predicts our games best: every method on a window of a table's most recent matchdays,
in memory, scored by pair order, winner and log-loss; the page's totals, verdict and paged lists."""

import math
from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse

from ratings.comparison import (
    MatchdayRecord,
    StoredPlay,
    compare,
    favourite_won,
    log_loss,
    predicted,
    verdict,
)
from ratings.methods import METHODS, Facts, Seat
from ratings.models import RatingEntry, RatingTable
from ratings.selectors import standings
from tests.conftest import section, table_rows


@pytest.fixture(autouse=True)
def fresh_cache():
    """The page keeps its figures per revision of the league; each test starts without them."""
    cache.clear()
    yield
    cache.clear()


def test_a_pair_is_predicted_right_when_the_higher_rated_finished_ahead():
    assert predicted([1600, 1500], [1, 2]) == (1, 1)
    assert predicted([1600, 1500], [2, 1]) == (0, 1)


def test_equal_ratings_count_half_and_tied_finishers_are_no_prediction():
    assert predicted([1500, 1500, 1400], [1, 2, 3]) == (2.5, 3)
    assert predicted([1600, 1500, 1400], [1, 1, 3]) == (2, 2)


def test_the_favourite_won_shared_first_or_was_one_of_several_on_the_top_rating():
    assert favourite_won([1600, 1500, 1400], [1, 2, 3]) == 1
    assert favourite_won([1600, 1500, 1400], [2, 1, 3]) == 0
    assert favourite_won([1600, 1500, 1400], [1, 1, 3]) == 0.5  # shared 1st place
    assert favourite_won([1500, 1500, 1500, 1500], [1, 2, 3, 4]) == 0.25  # a random pick of four


def test_log_loss_uses_the_elo_probability_and_leaves_out_pairs_that_finished_level():
    club = METHODS["club"]
    seats = [Seat(1600, 1), Seat(1400, 2), Seat(1400, 2)]
    favourite = 1 / (1 + 10 ** (-200 / 400))
    assert log_loss(club, club.defaults(), seats, [1, 2, 2]) == pytest.approx(-2 * math.log(favourite))
    upset = log_loss(club, club.defaults(), [Seat(1600, 2), Seat(1400, 1)], [2, 1])
    assert upset == pytest.approx(-math.log(1 - favourite))
    # Equal ratings: a coin toss, ln 2 a pair.
    assert log_loss(club, club.defaults(), [Seat(1500, 1), Seat(1500, 2)], [1, 2]) == pytest.approx(math.log(2))


def test_a_bayesian_method_is_scored_by_its_own_probability():
    trueskill = METHODS["trueskill"]
    params = trueskill.defaults()
    sure, unsure = {"mu": 30.0, "sigma": 1.0}, {"mu": 30.0, "sigma": 8.0}
    other = {"mu": 25.0, "sigma": 1.0}
    p_sure = trueskill.win_probability(Seat(27, 1, sure), Seat(22, 2, other), params)
    p_unsure = trueskill.win_probability(Seat(6, 1, unsure), Seat(22, 2, other), params)
    assert 0.5 < p_unsure < p_sure < 1  # the same mu, but a surer skill makes a surer prediction
    assert log_loss(trueskill, params, [Seat(27, 1, sure), Seat(22, 2, other)], [1, 2]) == pytest.approx(
        -math.log(p_sure)
    )


def history(*matchdays, start=date(2025, 1, 1), step=1):
    return [
        MatchdayRecord(
            i,
            i,
            Facts(),
            tuple(StoredPlay(p, player_id=pid) for pid, p in placings.items()),
            start + timedelta(i * step),
        )
        for i, placings in enumerate(matchdays, start=1)
    ]


def test_every_method_is_scored_on_the_matchdays_it_had_not_yet_seen():
    games = history({1: 1, 2: 2}, {1: 1, 2: 2}, {1: 2, 2: 1})
    runs = compare([(m, m.defaults()) for m in METHODS.values()], games)
    for run in runs:
        assert run.error is None
        # Matchday 1: both new, a coin toss; 2: player 1 is ahead and wins again; 3: the upset.
        assert [(d.right, d.pairs) for d in run.days] == [(0.5, 1), (1, 1), (0, 1)], run.method.slug
        assert [d.favourite for d in run.days] == [0.5, 1, 0], run.method.slug
        assert run.all.pair_order == pytest.approx(0.5)
        assert run.days[0].loss == pytest.approx(math.log(2))
        assert run.days[2].loss > math.log(2) > run.days[1].loss


def test_the_last_year_counts_the_365_days_up_to_the_newest_matchday():
    games = history({1: 1, 2: 2}, {1: 1, 2: 2}, {1: 2, 2: 1}, {1: 2, 2: 1}, step=200)  # 200 days apart
    (run,) = compare([(METHODS["club"], METHODS["club"].defaults())], games)
    assert (run.all.matchdays, run.last_year.matchdays) == (4, 2)  # the newest and the one 200 days before
    assert run.last_year.pair_order == pytest.approx((run.days[2].right + run.days[3].right) / 2)


def test_the_verdict_names_the_lowest_log_loss_and_its_margin_over_the_runner_up():
    games = history(*[{1: 1, 2: 2, 3: 3}] * 6)  # the same order every time: the bolder method wins
    runs = compare([(m, m.defaults()) for m in (METHODS["club"], METHODS["pairwise-placing"])], games)
    found = verdict(runs)
    losses = sorted((r.all.log_loss, r.method.slug) for r in runs)
    assert found.best.method.slug == losses[0][1]
    assert found.margin == pytest.approx(losses[1][0] - losses[0][0])
    assert verdict([]) is None


def test_a_method_that_cannot_rate_the_results_is_reported_not_raised():
    runs = compare([(METHODS["sedma"], METHODS["sedma"].defaults())], history({1: 1, 2: 2, 3: 3}))
    assert "two-player games only" in runs[0].error
    assert runs[0].share is None
    assert verdict(runs) is None


def test_the_page_puts_the_totals_and_verdict_first(client, club, django_assert_num_queries):
    entries = list(RatingEntry.objects.values_list("pk", "rating_after"))
    # The revision, the tables, the history (count, window start, results), the navigation's games and pages.
    with django_assert_num_queries(7):
        html = client.get(reverse("ratings:compare"), {"table": "hearts"}).content.decode()
    assert (
        html.index('id="totals-heading"') < html.index('id="matchdays-heading"') < html.index('id="standings-heading"')
    )
    assert "<b>all 6</b> matchdays of Hearts" in html
    totals = table_rows(section(html, "totals-heading"))
    assert totals[1] == ["Pair order", "Winner", "Log-loss"] * 2
    assert [row[0] for row in totals[2:]] == [slug for slug, m in METHODS.items() if not m.against_deals]
    club_row = totals[2]
    assert club_row[1] == "40%" and club_row[3] == "0.726"
    assert totals[7][1:] == ["n/a"] * 6  # Sedma rates two-player games only
    assert "Club formula</b> (<code>club</code>) predicted best: the lowest mean log-loss, 0.726, 0.014 below" in html
    assert "32.14%" in html and "30.82%" in html and "61.7%" in html and "78.6%" in html
    standings = table_rows(section(html, "standings-heading"))
    # The club formula's column is the club's published standings.
    assert [(row[0], row[1]) for row in standings[1:]] == [
        ("J", "1. 1534"),
        ("I", "2. 1521"),
        ("K", "3. 1494"),
        ("R", "4. 1492"),
        ("GL", "5. 1461"),
    ]
    assert "prov." in standings[1][1 + list(METHODS).index("openskill")]  # still unsure after six matchdays
    assert list(RatingEntry.objects.values_list("pk", "rating_after")) == entries  # nothing written
    with django_assert_num_queries(4):  # asked again: the figures of this revision are kept
        client.get(reverse("ratings:compare"), {"table": "hearts", "standings-page": "1"})


def test_the_matchday_list_runs_newest_first_in_pages(client, club, make_matchday, django_assert_num_queries):
    for number in range(7, 37):
        make_matchday(number, f"2025-12-{number - 6:02d}", {"I": 1, "R": 2, f"N{number}": 3}, rounds=2)
    with django_assert_num_queries(7):  # more matchdays and players cost no extra query
        html = client.get(reverse("ratings:compare"), {"table": "hearts"}).content.decode()
    rows = table_rows(section(html, "matchdays-heading"))
    assert [row[0] for row in rows[1:]] == [str(n) for n in range(36, 11, -1)]
    assert rows[1][1] == "30 Dec 2025"
    assert 'href="?table=hearts&amp;matchdays-page=2#matchdays-heading" rel="next">Older →' in html
    older = client.get(reverse("ratings:compare"), {"table": "hearts", "matchdays-page": "2"}).content.decode()
    assert [row[0] for row in table_rows(section(older, "matchdays-heading"))[1:]] == [str(n) for n in range(11, 0, -1)]
    assert "← Newer" in older
    standings = table_rows(section(html, "standings-heading"))
    assert len(standings) == 1 + 25  # 35 players, 25 a page
    assert 'aria-label="Pages of the standings"' in html


def test_only_the_window_of_recent_matchdays_is_read_and_rated(client, club, settings):
    settings.LEAGUE_COMPARE_MATCHDAYS = 4
    table = RatingTable.objects.get(slug="hearts")
    history, players, total = standings.table_history(table, 4)
    assert ([m.number for m in history], total) == ([3, 4, 5, 6], 6)
    html = client.get(reverse("ratings:compare"), {"table": "hearts"}).content.decode()
    assert "the <b>4 most recent</b> of the 6 matchdays of Hearts" in html
    assert "from matchday 3 (8 November 2025) to matchday 6 (15 November 2025)" in html
    assert "these ratings are not the club's" in html
    totals = table_rows(section(html, "totals-heading"))
    assert totals[0][1] == "All 4 matchdays"


@pytest.mark.parametrize(
    "query",
    [{"table": "poker"}, {"table": "hearts", "matchdays-page": "9"}, {"table": "hearts", "standings-page": "9" * 5000}],
)
def test_an_unknown_table_or_page_is_not_found(client, club, query):
    assert client.get(reverse("ratings:compare"), query).status_code == 404


def test_a_generated_league_gets_the_measures_and_the_verdict_on_its_window(client, db, settings):
    import csv
    import io

    from tools.generate import generate
    from web.importing import import_results

    rows = [["matchday", "date", "game", "rounds", "player", "placing", "rated_placing"], *generate(45, 400, seed=3)]
    text = io.StringIO()
    csv.writer(text).writerows(rows)
    import_results(text.getvalue().encode())
    settings.LEAGUE_COMPARE_MATCHDAYS = 120
    html = client.get(reverse("ratings:compare"), {"table": "overall"}).content.decode()
    total = RatingTable.objects.get(slug="overall").matchdays().count()
    assert f"the <b>120 most recent</b> of the {total} matchdays of Overall" in html
    totals = table_rows(section(html, "totals-heading"))
    assert totals[0][1] == "All 120 matchdays"
    for row in totals[2:]:
        if row[0] != "sedma":
            assert row[1].endswith("%") and row[2].endswith("%") and float(row[3]) > 0
    assert "predicted best: the lowest mean log-loss" in html
    assert 'rel="next">Older →' in html  # 120 matchdays, 25 a page
