"""The placing checks and the penalty rule shared by the entry page, the admin and the import,
without a database."""

from league.placings import competition_ranking, matchday_problems, rated_placings, stored_rated_placings
from league.results import Entry


def entries(*placings, rated=None, left=()):
    rated = rated or {}
    return [Entry(p, rated.get(i), i in left, player=f"P{i}", row=f"Row {i}") for i, p in enumerate(placings, start=1)]


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
    twice = [Entry(1, player="GL", row="Row 1"), Entry(2, player="I", row="Row 2"), Entry(3, player="gl", row="Row 3")]
    assert matchday_problems(twice) == ["Row 3: gl is entered twice (also in Row 1)."]


def test_one_player_is_not_a_matchday():
    assert matchday_problems(entries(1)) == ["A matchday needs at least two players; this one has 1."]


def test_the_clubs_matchday_5_reads_as_published_whichever_way_the_penalty_is_entered():
    # I 2, R 3 rated 4th, GL 1, J 3: as a rated placing, or as R leaving early.
    assert matchday_problems(entries(2, 3, 1, 3, rated={2: 4})) == []
    assert stored_rated_placings(entries(2, 3, 1, 3, rated={2: 4})) == [None, 4, None, None]
    assert stored_rated_placings(entries(2, 3, 1, 3, left={2})) == [None, 4, None, None]


def test_players_who_left_early_share_the_place_after_everyone_who_stayed():
    # 1, 2, 2, 4 with the second of the tied players gone: the 4th moves up to 3rd.
    assert rated_placings(entries(1, 2, 2, 4, left={3})) == [1, 2, 4, 3]
    assert rated_placings(entries(1, 1, 3, 4, left={1, 2})) == [3, 3, 1, 2]


def test_a_penalised_player_takes_their_place_and_the_others_keep_their_order():
    # The 2nd of four penalised to 4th: the 3rd and 4th move up.
    assert matchday_problems(entries(1, 2, 3, 4, rated={2: 4})) == []
    assert stored_rated_placings(entries(1, 2, 3, 4, rated={2: 4})) == [None, 4, 2, 3]


def test_rated_placings_that_contradict_the_penalty_name_the_player_and_the_number():
    [problem] = matchday_problems(entries(1, 2, 3, 4, rated={2: 4, 4: 4}))
    assert problem.startswith("Row 4: The rated placings do not rank the players: P4 should be rated 3.")
    assert "P1 1, P3 2, P4 3, P2 4" in problem


def test_left_early_and_a_rated_placing_on_one_player_is_refused():
    [problem] = matchday_problems(entries(1, 2, 3, rated={3: 3}, left={3}))
    assert problem == (
        "Row 3: P3 left early, which already rates them after everyone who stayed; leave their rated placing (3) empty."
    )


def test_a_rated_placing_outside_the_field_names_the_row():
    assert matchday_problems(entries(1, 2, rated={2: 3})) == [
        "Row 2: rated placing 3 for P2 is outside 1..2 (2 players took part)."
    ]
