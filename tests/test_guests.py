"""Guests (issue 40): a player marked as a guest is rated and shown on matchday pages, but left out of
the standings, the leaders and the movers until made a member, which the admin does in one click,
through `league.services.save_player`, so that it is in the history."""

import pytest
from django.urls import reverse

from league import services as league_services
from league.models import Player
from league.models.history import Change, Write
from ratings.models import Standing
from tests.conftest import section, table_rows


@pytest.fixture
def guest(club, make_matchday):
    make_matchday(7, "2025-11-20", {"K": 1, "GL": 2, "I": 3})
    make_matchday(8, "2025-11-20", {"K": 1, "R": 2})
    k = Player.objects.get(short_name="K")
    k.guest = True
    league_services.save_player(k)
    return k


def test_a_guest_is_rated_and_on_matchday_pages_but_not_on_the_standings_leaders_or_movers(client, guest):
    assert Standing.objects.filter(player=guest, table__slug="overall").exists()  # rated
    standings = client.get(reverse("league:standings")).content.decode()
    assert 'data-player="K"' not in section(standings, "overall-heading")
    ranks = [row[0] for row in table_rows(section(standings, "overall-heading"))[1:]]
    assert ranks == [str(n) for n in range(1, len(ranks) + 1)]  # the members ranked without a gap
    home = client.get(reverse("league:home")).content.decode()
    assert 'data-player="K"' not in section(home, "leaderboard-heading")
    night = client.get("/card-games/nights/2025-11-20/").content.decode()
    assert 'data-player="K"' not in section(night, "movers-overall-heading")
    assert 'data-player="K"' in section(night, "winners-heading")  # shown on the night's pages
    matchday = client.get(reverse("league:matchday", args=[7])).content.decode()
    assert 'data-player="K"' in section(matchday, "results-heading")
    card = client.get(reverse("league:player", args=[guest.pk])).content.decode()
    assert "Guest, not on the standings" in card
    directory = table_rows(section(client.get(reverse("league:players")).content.decode(), "players-heading"))
    assert next(row for row in directory if row[0] == "K")[3] == "—"  # listed, unranked


def test_the_admin_makes_a_guest_a_member_in_one_click_and_it_is_in_the_history(admin_client, client, guest):
    url = reverse("admin:league_player_changelist")
    response = admin_client.post(url, {"action": "make_members", "_selected_action": [str(guest.pk)]}, follow=True)
    assert "Now members: K." in response.content.decode()
    guest.refresh_from_db()
    assert not guest.guest
    change = Change.objects.filter(kind="player", key=guest.pk).order_by("-pk").first()
    assert (change.before["guest"], change.after["guest"]) == (True, False)
    assert Write.objects.order_by("-pk").first().way == "admin"
    standings = client.get(reverse("league:standings")).content.decode()
    assert 'data-player="K"' in section(standings, "overall-heading")
    again = admin_client.post(url, {"action": "make_members", "_selected_action": [str(guest.pk)]}, follow=True)
    assert "None of the selected players is a guest." in again.content.decode()
