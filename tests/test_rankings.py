"""The placing checks and the penalty rule shared by the entry page, the admin and the import,
without a database."""

from league.placings import (
    competition_ranking,
    matchday_problems,
    rated_placings,
    stored_rated_placings,
    typed_rated_placings,
)
from league.results import Play, TypedResult


def entries(*placings, rated=None, left=()):
    rated = rated or {}
    return [TypedResult(Play(p, rated.get(i), i in left), f"P{i}", f"Row {i}") for i, p in enumerate(placings, start=1)]


def plays(*placings, rated=None, left=()):
    return [entry.play for entry in entries(*placings, rated=rated, left=left)]


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
    twice = [
        TypedResult(Play(1), "GL", "Row 1"),
        TypedResult(Play(2), "I", "Row 2"),
        TypedResult(Play(3), "gl", "Row 3"),
    ]
    assert matchday_problems(twice) == ["Row 3: gl is entered twice (also in Row 1)."]


def test_one_player_is_not_a_matchday():
    assert matchday_problems(entries(1)) == ["A matchday needs at least two players; this one has 1."]


def test_the_clubs_matchday_5_reads_as_published_whichever_way_the_penalty_is_entered():
    # I 2, R 3 rated 4th, GL 1, J 3: as a rated placing, or as R leaving early.
    assert matchday_problems(entries(2, 3, 1, 3, rated={2: 4})) == []
    assert stored_rated_placings(plays(2, 3, 1, 3, rated={2: 4})) == [None, 4, None, None]
    assert stored_rated_placings(plays(2, 3, 1, 3, left={2})) == [None, 4, None, None]


def test_players_who_left_early_share_the_place_after_everyone_who_stayed():
    # 1, 2, 2, 4 with the second of the tied players gone: the 4th moves up to 3rd.
    assert rated_placings(plays(1, 2, 2, 4, left={3})) == [1, 2, 4, 3]
    assert rated_placings(plays(1, 1, 3, 4, left={1, 2})) == [3, 3, 1, 2]


def test_a_penalised_player_takes_their_place_and_the_others_keep_their_order():
    # The 2nd of four penalised to 4th: the 3rd and 4th move up.
    assert matchday_problems(entries(1, 2, 3, 4, rated={2: 4})) == []
    assert stored_rated_placings(plays(1, 2, 3, 4, rated={2: 4})) == [None, 4, 2, 3]


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


def stored(*placings, rated=None, left=()) -> list[Play]:
    """The results as stored: each rated placing as the penalty rule gives it (None: the placing)."""
    given = plays(*placings, rated=rated, left=left)
    return [Play(p.placing, r, p.left_early) for p, r in zip(given, stored_rated_placings(given), strict=True)]


def test_stored_rated_placings_are_typed_back_as_a_secretary_types_them():
    """The admin's form and the export show a stored result's rated placing as it is typed: blank where
    the rule derives it (who left early, who moved up past a penalty), the penalty itself otherwise;
    typed back, the rule gives the stored ones again."""
    cases = [
        (stored(2, 3, 1, 3, left={2}), [None, None, None, None]),  # the club's matchday 5, R left early
        (stored(2, 3, 1, 3, rated={2: 4}), [None, 4, None, None]),  # ... or R penalised to 4th
        (stored(1, 2, 3, 4, rated={2: 4}), [None, 4, None, None]),  # the 3rd and 4th moved up past the 2nd
        (stored(1, 2, 2, 4, left={3}), [None, None, None, None]),
        (stored(1, 2, 3, 4, rated={4: 2}, left={1}), [None, None, None, 2]),
    ]
    for given, typed in cases:
        assert typed_rated_placings(given) == typed
        again = [Play(p.placing, t, p.left_early) for p, t in zip(given, typed, strict=True)]
        assert stored_rated_placings(again) == [p.rated_placing for p in given]
