"""Faults round four, class 2: the players' search (today's and as at a day) and the clubs' search
match names the way the site matches them everywhere (league.validation.name_key): in any case of
any script, by current and former names."""

import pytest

from league.models import Club, Player
from league.services import save_player

CLUB = "/card-games"


@pytest.fixture
def renamed(mixed_league):
    """A member renamed from "Érable" to "Zoë Quist" (short "Zoë"), who has played."""
    player = Player.objects.get(short_name="GL")
    player.name, player.short_name = "Érable", "Éra"
    save_player(player)
    player.name, player.short_name = "Zoë Quist", "Zoë"
    save_player(player)
    return player


def found(client, query: dict) -> bool:
    return "Zoë Quist" in client.get(f"{CLUB}/players/", query).content.decode()


@pytest.mark.parametrize("typed", ["ZOË", "zoë", "ZOË QUIST", "zoë  quist", "érable", "ÉRABLE", "Érable", "ＺＯË"])
def test_the_players_search_finds_a_name_in_any_case_of_any_script(renamed, client, typed):
    assert found(client, {"q": typed})
    assert found(client, {"q": typed, "as_at": "2026-06-30"})


def test_the_players_search_still_leaves_out_who_does_not_match(renamed, client):
    assert not found(client, {"q": "ZOË X"})
    assert not found(client, {"q": "ERABLE"})  # the accent is part of the name, as everywhere else


def test_the_clubs_search_matches_names_in_any_case(db, client):
    Club.objects.create(slug="erable", name="Club de l’Érable")
    Club.objects.create(slug="other", name="Other")
    for typed in ("ÉRABLE", "érable", "DE L’ÉRABLE"):
        assert "Club de l’Érable" in client.get("/", {"q": typed}).content.decode(), typed
    assert "Club de l’Érable" not in client.get("/", {"q": "OTHER"}).content.decode()
