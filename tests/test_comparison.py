"""Every method on the same results, in memory: predictions scored pair by pair, nothing written."""

import pytest
from django.urls import reverse

from ratings.comparison import MatchdayRecord, Played, compare, predicted
from ratings.methods import METHODS, Facts
from ratings.models import RatingEntry
from tests.conftest import section, table_rows


def test_a_pair_is_predicted_right_when_the_higher_rated_finished_ahead():
    assert predicted([1600, 1500], [1, 2]) == (1, 1)
    assert predicted([1600, 1500], [2, 1]) == (0, 1)


def test_equal_ratings_count_half_and_tied_finishers_are_no_prediction():
    assert predicted([1500, 1500, 1400], [1, 2, 3]) == (2.5, 3)
    assert predicted([1600, 1500, 1400], [1, 1, 3]) == (2, 2)


def history(*matchdays):
    return [
        MatchdayRecord(i, i, Facts(), tuple(Played(pid, p, p) for pid, p in placings.items()))
        for i, placings in enumerate(matchdays, start=1)
    ]


def test_every_method_is_scored_on_the_matchdays_it_had_not_yet_seen():
    games = history({1: 1, 2: 2}, {1: 1, 2: 2}, {1: 2, 2: 1})
    runs = compare([(m, m.defaults()) for m in METHODS.values()], games)
    for run in runs:
        assert run.error is None
        # Matchday 1: both new, a coin toss; 2: player 1 is ahead and wins again; 3: the upset.
        assert run.hits == [(0.5, 1), (1, 1), (0, 1)], run.method.slug
        assert run.share == pytest.approx(0.5)


def test_a_method_that_cannot_rate_the_results_is_reported_not_raised():
    runs = compare([(METHODS["sedma"], METHODS["sedma"].defaults())], history({1: 1, 2: 2, 3: 3}))
    assert "two-player games only" in runs[0].error
    assert runs[0].share is None


def test_the_comparison_page_shows_every_method_side_by_side(client, club, make_matchday, django_assert_num_queries):
    entries = list(RatingEntry.objects.values_list("pk", "rating_after"))
    with django_assert_num_queries(4):  # tables, the history, the navigation's games and pages
        html = client.get(reverse("ratings:compare"), {"table": "hearts"}).content.decode()
    prediction = table_rows(section(html, "prediction-heading"))
    assert prediction[0] == ["Matchday", "Pairs", *(slug for slug, m in METHODS.items() if not m.against_deals)]
    # Matchday 1: everyone new at the same rating, so every method that can rate it says 50%.
    assert prediction[1] == ["1", "6", "50%", "50%", "50%", "50%", "50%", "n/a", "50%"]
    assert prediction[5][1] == "5"  # matchday 5: R and J finished level; that pair predicts nothing
    standings = table_rows(section(html, "standings-heading"))
    # The club formula's column is the club's published standings.
    assert [(row[0], row[1]) for row in standings[1:]] == [
        ("J", "1. 1534"),
        ("I", "2. 1521"),
        ("K", "3. 1494"),
        ("R", "4. 1492"),
        ("GL", "5. 1461"),
    ]
    assert "prov." in standings[1][-1]
    assert list(RatingEntry.objects.values_list("pk", "rating_after")) == entries  # nothing written

    for number in range(7, 12):  # more matchdays and players cost no extra query
        make_matchday(number, f"2025-11-{number + 13}", {"I": 1, "R": 2, f"N{number}": 3}, rounds=2)
    with django_assert_num_queries(4):
        assert client.get(reverse("ratings:compare"), {"table": "hearts"}).status_code == 200


def test_an_unknown_table_is_not_found(client, club):
    assert client.get(reverse("ratings:compare"), {"table": "poker"}).status_code == 404
