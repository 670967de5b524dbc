"""The secretary's admin for matchdays: results entered inline, checked as a whole, ratings recomputed."""

from django.urls import reverse

from league.models import Game, Matchday, Result
from ratings.models import RatingEntry
from tests.conftest import add_url, change_url, form_data

AFTER_MATCHDAY_6 = {"I": 1521, "R": 1492, "GL": 1461, "K": 1494, "J": 1534}


def ratings_of(matchday_number):
    """{(table slug, player): (before, after)} for one matchday."""
    return {
        (e.table.slug, e.player.short_name): (e.rating_before, e.rating_after)
        for e in RatingEntry.objects.filter(matchday__number=matchday_number).select_related("table", "player")
    }


def post_invalid(admin_client, rows, *, rounds=3):
    """Post a new matchday 7 that the admin must refuse; return the page, checking nothing was saved."""
    before = Matchday.objects.count(), Result.objects.count(), RatingEntry.objects.count()
    response = admin_client.post(add_url(), form_data(7, "2025-11-20", rounds, rows))
    assert response.status_code == 200  # the form again, not a redirect
    assert (Matchday.objects.count(), Result.objects.count(), RatingEntry.objects.count()) == before
    return response.content.decode()


# Adding a matchday


def test_a_valid_matchday_7_is_saved_with_its_results(admin_client, club):
    rows = [("I", 1, None), ("R", 2, None), ("GL", 3, None), ("K", 4, None), ("J", 5, None)]
    response = admin_client.post(add_url(), form_data(7, "2025-11-20", 3, rows))

    assert response.status_code == 302
    matchday = Matchday.objects.get(number=7)
    assert matchday.rounds == 3
    assert {r.player.short_name: r.placing for r in matchday.results.all()} == {
        "I": 1,
        "R": 2,
        "GL": 3,
        "K": 4,
        "J": 5,
    }


def test_saving_a_new_matchday_rates_it_from_everyones_rating_after_matchday_6(admin_client, club):
    rows = [("I", 1, None), ("R", 2, None), ("GL", 3, None), ("K", 4, None), ("J", 5, None)]
    admin_client.post(add_url(), form_data(7, "2025-11-20", 3, rows))

    ratings = ratings_of(7)
    for table in ("overall", "hearts"):
        assert {p: before for (t, p), (before, _) in ratings.items() if t == table} == AFTER_MATCHDAY_6
    assert ratings[("overall", "I")][1] > 1521  # the winner gains
    assert ratings[("overall", "J")][1] < 1534  # the last loses


def test_the_success_message_shows_each_players_rating_change(admin_client, club):
    rows = [("I", 1, None), ("R", 2, None), ("GL", 3, None), ("K", 4, None), ("J", 5, None)]
    response = admin_client.post(add_url(), form_data(7, "2025-11-20", 3, rows), follow=True)

    text = response.content.decode()
    assert "Ratings updated." in text
    for player, before in AFTER_MATCHDAY_6.items():
        assert f"{player} {before} →" in text
    entry = RatingEntry.objects.get(matchday__number=7, table__slug="overall", player__short_name="I")
    assert f"Overall: I 1521 → {entry.rating_after:.0f} (+{entry.delta:.0f})" in text


def test_a_new_matchday_form_suggests_the_next_number_and_the_last_game(admin_client, club):
    text = admin_client.get(add_url()).content.decode()
    assert 'name="number" value="7"' in text
    assert f'<option value="{Game.objects.get(name="Hearts").pk}" selected>Hearts</option>' in text


# What the admin refuses, and says


def test_it_rejects_a_player_entered_twice_naming_both_rows(admin_client, club):
    text = post_invalid(admin_client, [("I", 1, None), ("GL", 2, None), ("GL", 3, None)])
    assert "GL is entered twice." in text


def test_it_rejects_placings_that_are_not_a_ranking_and_suggests_the_ranking_meant(admin_client, club):
    text = post_invalid(admin_client, [("I", 1, None), ("R", 2, None), ("GL", 2, None), ("K", 3, None)])
    assert "The placings 1, 2, 2, 3 are not a ranking" in text
    assert "Did you mean 1, 2, 2, 4?" in text


def test_it_rejects_a_placing_outside_one_to_the_number_of_players_naming_the_row(admin_client, club):
    text = post_invalid(admin_client, [("I", 1, None), ("R", 2, None), ("GL", 3, None), ("K", 5, None)])
    assert "placing 5 for K is outside 1..4 (4 players took part)." in text


def test_it_rejects_a_rated_placing_outside_one_to_the_number_of_players_naming_the_row(admin_client, club):
    text = post_invalid(admin_client, [("I", 1, None), ("R", 2, 5), ("GL", 3, None), ("K", 4, None)])
    assert "rated placing 5 for R is outside 1..4 (4 players took part)." in text


def test_it_rejects_rated_placings_that_contradict_the_penalty_naming_the_player_and_number(admin_client, club):
    text = post_invalid(admin_client, [("I", 1, None), ("R", 2, 4), ("GL", 3, None), ("K", 4, 4)])
    assert "The rated placings do not rank the players: K should be rated 3." in text


def test_it_rejects_a_placing_of_zero_with_the_clubs_wording(admin_client, club):
    text = post_invalid(admin_client, [("I", 0, None), ("R", 1, None)])
    assert "Placings start at 1 (1 is the winner)." in text


def test_it_rejects_zero_rounds(admin_client, club):
    text = post_invalid(admin_client, [("I", 1, None), ("R", 2, None)], rounds=0)
    assert "Rounds must be at least 1." in text


def test_it_rejects_a_matchday_with_only_one_player(admin_client, club):
    text = post_invalid(admin_client, [("I", 1, None)])
    assert "A matchday needs at least two players; this one has 1." in text


def test_it_rejects_a_matchday_number_that_is_taken(admin_client, club):
    data = form_data(6, "2025-11-20", 3, [("I", 1, None), ("R", 2, None)])
    before = Matchday.objects.count()
    text = admin_client.post(add_url(), data).content.decode()
    assert "Matchday with this Number already exists." in text
    assert Matchday.objects.count() == before


# Editing and deleting


def test_editing_matchday_2_rerates_matchdays_2_to_6_and_leaves_matchday_1_alone(admin_client, club):
    before = {n: ratings_of(n) for n in range(1, 7)}
    matchday = Matchday.objects.get(number=2)
    # Originally J 1st, K 2nd, GL 3rd, R 4th: turn the order round.
    rows = [("R", 1, None), ("GL", 2, None), ("K", 3, None), ("J", 4, None)]

    response = admin_client.post(change_url(matchday), form_data(2, "2025-11-06", 2, rows, matchday=matchday))

    assert response.status_code == 302
    assert {r.player.short_name: r.placing for r in matchday.results.all()} == {
        "R": 1,
        "GL": 2,
        "K": 3,
        "J": 4,
    }
    after = {n: ratings_of(n) for n in range(1, 7)}
    assert after[1] == before[1]
    for number in range(2, 7):
        assert after[number].keys() == before[number].keys()
        assert after[number] != before[number], f"matchday {number} was not re-rated"
    assert after[2][("overall", "R")][0] == before[2][("overall", "R")][0]  # same start, other result
    assert after[2][("overall", "R")][1] > before[2][("overall", "R")][1]


def test_an_edit_that_breaks_the_ranking_is_refused_and_changes_nothing(admin_client, club):
    before = {n: ratings_of(n) for n in range(1, 7)}
    matchday = Matchday.objects.get(number=2)
    rows = [("R", 1, None), ("GL", 1, None), ("K", 2, None), ("J", 3, None)]

    response = admin_client.post(change_url(matchday), form_data(2, "2025-11-06", 2, rows, matchday=matchday))

    assert response.status_code == 200
    assert "Did you mean 1, 1, 3, 4?" in response.content.decode()
    assert {r.player.short_name: r.placing for r in matchday.results.all()} == {
        "R": 4,
        "GL": 3,
        "K": 2,
        "J": 1,
    }
    assert {n: ratings_of(n) for n in range(1, 7)} == before


def test_deleting_a_result_row_in_the_change_form_rerates_the_matchday_without_that_player(admin_client, club):
    matchday = Matchday.objects.get(number=1)
    rows = [("I", 1, None), ("K", 2, None), ("R", 3, None), ("GL", 4, None)]
    data = form_data(1, "2025-11-03", 7, rows, matchday=matchday, delete={"GL"})
    # The other three keep placings 1, 2, 3 once GL (4th) is gone: still a ranking.

    response = admin_client.post(change_url(matchday), data)

    assert response.status_code == 302
    assert sorted(r.player.short_name for r in matchday.results.all()) == ["I", "K", "R"]
    first = ratings_of(1)
    assert {p for _, p in first} == {"I", "K", "R"}
    assert {before for before, _ in first.values()} == {1500}


def test_deleting_rows_until_one_player_is_left_is_refused(admin_client, club):
    matchday = Matchday.objects.get(number=1)
    rows = [("I", 1, None), ("K", 2, None), ("R", 3, None), ("GL", 4, None)]
    data = form_data(1, "2025-11-03", 7, rows, matchday=matchday, delete={"K", "R", "GL"})

    response = admin_client.post(change_url(matchday), data)

    assert response.status_code == 200
    assert "A matchday needs at least two players; this one has 1." in response.content.decode()
    assert matchday.results.count() == 4


def test_deleting_matchday_1_rerates_the_later_matchdays_from_the_start(admin_client, club):
    before_6 = ratings_of(6)
    matchday = Matchday.objects.get(number=1)

    response = admin_client.post(reverse("admin:league_matchday_delete", args=[matchday.pk]), {"post": "yes"})

    assert response.status_code == 302
    assert not Matchday.objects.filter(number=1).exists()
    assert not RatingEntry.objects.filter(matchday_id=matchday.pk).exists()
    second = ratings_of(2)
    assert set(second) == {(t, p) for t in ("overall", "hearts") for p in ("R", "GL", "K", "J")}
    assert {before for before, _ in second.values()} == {1500}
    assert ratings_of(6) != before_6


def test_the_change_form_shows_a_rating_changes_table(admin_client, club):
    matchday = Matchday.objects.get(number=6)
    text = admin_client.get(change_url(matchday)).content.decode()

    assert "Rating changes" in text
    assert "<th>Table</th><th>Player</th><th>Before</th><th>After</th><th>Change</th>" in text
    entry = RatingEntry.objects.get(matchday=matchday, table__slug="overall", player__short_name="I")
    assert (
        f"<tr><td>Overall</td><td>I</td><td>{entry.rating_before:.0f}</td><td>1521</td><td>+{entry.delta:.0f}</td></tr>"
    ) in text
    assert "<td>Hearts</td><td>I</td>" in text


def test_deleting_matchdays_with_the_changelist_action_rerates_the_later_ones(admin_client, club):
    first, second = Matchday.objects.get(number=1), Matchday.objects.get(number=2)

    response = admin_client.post(
        reverse("admin:league_matchday_changelist"),
        {"action": "delete_selected", "_selected_action": [first.pk, second.pk], "post": "yes"},
    )

    assert response.status_code == 302
    assert not Matchday.objects.filter(number__in=[1, 2]).exists()
    third = ratings_of(3)
    assert {p for _, p in third} == {"I", "R", "GL", "K"}
    assert {before for before, _ in third.values()} == {1500}
