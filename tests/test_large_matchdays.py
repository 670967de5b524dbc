"""A matchday has 2 to 500 players. Beyond that it is refused with the lines named, without first
building an object per line of a huge file; up to it, every check and formula is linear or n log n
(the speed itself is measured in docs/performance.md, not asserted here)."""

import math
import random

import pytest

from league.models import Matchday, Player, Result
from league.placings import is_ranking, matchday_problems
from league.results import Play, TypedResult
from league.validation import PLAYERS
from ratings.methods import METHODS
from ratings.methods.club import placing_scores
from ratings.models import RatingEntry, RatingTable
from tests.conftest import add_url, form_data
from tests.test_import import HEADER, counts, failure
from tests.test_method_tables import use
from web import importing
from web.importing import import_results


def matchday_file(players, *, number=1, placing=lambda i: i + 1):
    lines = [HEADER] + [f"{number},2025-11-03,Hearts,3,P{i},{placing(i)}," for i in range(players)]
    return ("\n".join(lines) + "\n").encode()


def test_the_bounds_are_two_to_five_hundred_players():
    assert (PLAYERS.lowest, PLAYERS.highest) == (2, 500)
    entries = [TypedResult(Play(1), f"P{i}", f"Row {i}") for i in range(501)]
    assert matchday_problems(entries) == ["A matchday has at most 500 players; this one has 501."]
    assert matchday_problems(entries[:500]) == []


def test_a_matchday_of_501_players_is_refused_naming_its_lines(db):
    errors = failure(matchday_file(501))
    assert errors == ["Matchday 1 (lines 2-502): A matchday has at most 500 players; this one has 501."]
    assert counts()["Player"] == 0


def test_a_huge_matchday_is_refused_without_reading_each_of_its_lines(db, monkeypatch):
    read = []
    parse_row = importing._parse_row
    monkeypatch.setattr(importing, "_parse_row", lambda line, *args: read.append(line) or parse_row(line, *args))
    rows = 200_000  # a million behaves the same, in about five times as long (docs/performance.md)
    data = matchday_file(rows) + b"2,2025-11-04,Hearts,1,A,1,\n2,2025-11-04,Hearts,1,B,2,\n"

    errors = failure(data)

    assert errors == [f"Matchday 1 (lines 2-{rows + 1}): A matchday has at most 500 players; this one has {rows:,}."]
    assert len(read) == PLAYERS.highest + 2  # the first 500 lines of matchday 1, and matchday 2
    assert counts()["Matchday"] == 0


def test_a_matchday_of_500_tied_players_is_a_ranking_and_is_scored_evenly():
    assert is_ranking([1] * 500)
    assert placing_scores([1] * 500) == pytest.approx([0.5] * 500)
    assert placing_scores([1] + [2] * 499) == pytest.approx([1.0] + [0.5 * 498 / 499] * 499)


def _placing_scores_as_before(placings):
    """The quadratic original: each tied player summed the scores of the places their tie spans."""
    n = len(placings)
    tied = {p: placings.count(p) for p in placings}
    return [sum(1 - (q - 1) / (n - 1) for q in range(p, p + tied[p])) / tied[p] for p in placings]


@pytest.mark.parametrize("seed", range(5))
def test_the_linear_tie_scores_are_the_quadratic_ones_to_the_last_bit(seed):
    generator = random.Random(seed)
    n = generator.randint(2, 300)
    finish = [generator.randint(1, max(1, n // 4)) for _ in range(n)]  # many ties
    placings = [1 + sum(1 for other in finish if other < mine) for mine in finish]
    assert placing_scores(placings) == _placing_scores_as_before(placings)


@pytest.mark.parametrize("method", [slug for slug, m in METHODS.items() if not m.two_players_only])
def test_a_matchday_of_500_players_is_imported_and_rated_by_every_method(db, method):
    import_results(matchday_file(2, number=1))  # the tables exist, then take the method
    use("hearts", method)
    import_results(matchday_file(PLAYERS.highest, number=2, placing=lambda i: 1 + (i // 3) * 3))

    assert Result.objects.filter(matchday__number=2).count() == 500
    table = RatingTable.objects.get(slug="hearts")
    entries = RatingEntry.objects.filter(table=table, matchday__number=2)
    assert entries.count() == 500
    assert all(math.isfinite(e.rating_after) for e in entries)
    tied_first = {e.rating_after for e in entries.filter(player__short_name__in=["P3", "P4", "P5"])}
    # Players tied on a place with the same rating end the same; the trueskill library rates tied
    # players slightly apart (see /methods/), within a fraction of a point.
    if method == "trueskill":
        assert max(tied_first) - min(tied_first) < 1
    else:
        assert len(tied_first) == 1


def test_the_admin_refuses_a_matchday_of_501_players(admin_client, hearts):
    Player.objects.bulk_create(Player(name=f"P{i}", short_name=f"P{i}", short_name_key=f"p{i}") for i in range(501))
    rows = [(f"P{i}", 1, None) for i in range(501)]
    response = admin_client.post(add_url(), form_data(1, "2025-11-03", 1, rows, game=hearts))
    assert response.status_code == 200
    assert "A matchday has at most 500 players; this one has 501." in response.content.decode()
    assert not Matchday.objects.exists()


def test_the_admin_takes_a_matchday_of_500_players(admin_client, hearts):
    Player.objects.bulk_create(Player(name=f"P{i}", short_name=f"P{i}", short_name_key=f"p{i}") for i in range(500))
    rows = [(f"P{i}", 1, None) for i in range(500)]
    response = admin_client.post(add_url(), form_data(1, "2025-11-03", 1, rows, game=hearts))
    assert response.status_code == 302
    assert Result.objects.count() == 500


def test_the_shared_player_select_writes_what_djangos_select_writes(admin_client, club, monkeypatch):
    """web.admin.widgets writes the player options once per form; the page must not change."""
    import re

    from django import forms

    from web.admin.widgets import SharedOptionsSelect

    def selects(url):
        html = admin_client.get(url).content.decode()
        found = re.findall(r'<select name="results-[0-9a-z_]+-player".*?</select>', html, flags=re.S)
        return [re.sub(r"\s+", " ", re.sub(r">\s+<", "><", select)) for select in found]

    for url in (f"/admin/league/matchday/{Matchday.objects.get(number=6).pk}/change/", add_url()):
        ours = selects(url)
        with monkeypatch.context() as patched:
            patched.setattr(SharedOptionsSelect, "render", forms.Select.render)
            djangos = selects(url)
        assert len(ours) >= 5 and ours == djangos
