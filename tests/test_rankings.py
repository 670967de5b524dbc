"""The placing checks shared by the admin and the import, without a database."""

from league.validation import Entry, competition_ranking, matchday_problems


def entries(*placings, rated=None):
    rated = rated or {}
    return [Entry(f"Row {i}", f"P{i}", p, rated.get(i)) for i, p in enumerate(placings, start=1)]


def test_a_standard_competition_ranking_passes():
    assert matchday_problems(entries(1, 2, 2, 4)) == []
    assert matchday_problems(entries(3, 1, 2)) == []
    assert matchday_problems(entries(1, 1)) == []


def test_a_tie_followed_by_the_next_place_is_rejected_with_the_ranking_it_meant():
    [problem] = matchday_problems(entries(1, 2, 2, 3))
    assert "1, 2, 2, 3 are not a ranking" in problem
    assert "Did you mean 1, 2, 2, 4?" in problem


def test_competition_ranking_keeps_the_players_order():
    assert competition_ranking([3, 1, 1, 2]) == [4, 1, 1, 3]


def test_a_placing_outside_the_field_names_the_row():
    problems = matchday_problems(entries(1, 2, 5))
    assert problems == ["Row 3: placing 5 for P3 is outside 1..3 (3 players took part)."]


def test_a_player_twice_names_both_rows():
    twice = [Entry("Row 1", "GL", 1), Entry("Row 2", "I", 2), Entry("Row 3", "gl", 3)]
    assert matchday_problems(twice) == ["Row 3: gl is entered twice (also in Row 1)."]


def test_one_player_is_not_a_matchday():
    assert matchday_problems(entries(1)) == ["A matchday needs at least two players; this one has 1."]


def test_rated_placings_must_rank_the_players_too():
    # The club's matchday 5: two tied 3rd, one of them rated 4th: fine.
    assert matchday_problems(entries(2, 3, 1, 3, rated={2: 4})) == []
    # Penalising the 2nd of four to 4th while someone else is 4th leaves 1, 4, 3, 4: not a ranking.
    [problem] = matchday_problems(entries(1, 2, 3, 4, rated={2: 4}))
    assert "rated placings 1, 3, 4, 4 are not a ranking" in problem
    assert "Did you mean 1, 3, 3, 3?" not in problem


def test_a_rated_placing_outside_the_field_names_the_row():
    assert matchday_problems(entries(1, 2, rated={2: 3})) == [
        "Row 2: rated placing 3 for P2 is outside 1..2 (2 players took part)."
    ]
