"""A night in one pass on the entry page: the rounds as last time, the night's date kept for its next
game, a pasted line of names taken as a line each, long names as new players' full names, and one
tick for every new player."""

import re

from league.models import Game, Matchday, Player
from ratings.services.catalogue import save_game
from tests.conftest import section, table_rows
from tests.test_enter import URL, post


def test_blank_rounds_are_the_games_last_matchdays_and_1_for_a_new_game(admin_client, club):
    html = post(admin_client, ["GL", "K"], rounds="").content.decode()
    assert "Hearts · 5 rounds" in html  # matchday 6, the last of Hearts, had 5
    assert "5 rounds: a change is at most K points either way, and K grows with the rounds" in html
    assert "Hearts K = 10 × 5 = 50" in html
    save_game(Game(name="Spades", slug="spades"))
    spades = Game.objects.get(slug="spades")
    html = post(admin_client, ["GL", "K"], rounds="", extra={"game": str(spades.pk)}).content.decode()
    assert "Spades · 1 round" in html and "Spades K = 10 × 1 = 10" in html
    save_game(Game(name="Catan", slug="catan"), new_game_method=True)  # as the admin adds a game
    catan = Game.objects.get(slug="catan")
    html = post(admin_client, ["GL", "K"], rounds="", extra={"game": str(catan.pk)}).content.decode()
    assert "Overall K = 10 × 1 = 10" in html
    assert "Catan does not read the rounds: a game moves it as much whatever its rounds" in html


def test_after_a_save_the_form_goes_on_with_the_nights_next_game(admin_client, club):
    response = post(admin_client, ["GL", "K"], action="save", day="2025-11-20")
    assert response["Location"] == f"{URL}?saved=7"
    html = admin_client.get(response["Location"]).content.decode()
    assert "<h1>Next game of this night</h1>" in html
    assert 'href="/card-games/matchdays/7/"' in html
    assert re.search(r'<input [^>]*name="date"[^>]*value="2025-11-20"', html)
    assert "Enter a matchday" in admin_client.get(URL, {"saved": "x"}).content.decode()  # nothing to go on with


def test_a_line_of_known_names_without_placings_is_a_line_per_player_in_that_order(admin_client, club):
    Player.objects.create(short_name="Farid A", name="Farid Aziz")
    html = post(admin_client, ["GL Farid A k I", "J"]).content.decode()
    assert "GL Farid A k I is taken as 4 lines: GL, Farid A, k, I." in html
    rows = table_rows(section(html, "preview-heading"))
    overall = [row[0] for row in rows[1:6]]
    assert overall == ["GL", "Farid A", "K", "I", "J"]
    for n, name in enumerate(["GL", "Farid A", "k", "I", "J"], start=1):
        assert f'name="line-{n}" value="{name}"' in html  # the Save carries the lines as split
    response = post(admin_client, ["GL Farid A k I", "J"], action="save")
    assert response.status_code == 302
    assert list(
        Matchday.objects.get(number=7).results.order_by("placing").values_list("player__short_name", flat=True)
    ) == ["GL", "Farid A", "K", "I", "J"]


def test_a_line_that_is_not_all_known_names_is_left_as_typed(admin_client, club):
    html = post(admin_client, ["GL Nobody K", "I"]).content.decode()
    assert "taken as" not in html and "GL Nobody K is not a player yet." in html


def test_a_long_name_is_a_new_players_full_name_with_a_short_name_made_and_one_tick_adds_them_all(admin_client, club):
    Player.objects.create(short_name="Bosco V", name="Bosco Vale")
    lines = ["Bosco(Vivian)", "Anonymous player", "Zed", "GL"]
    html = post(admin_client, lines).content.decode()
    assert "check, then save" in html
    assert "New: <b>Bosco Vi</b>, full name Bosco(Vivian)." in html
    assert "New: <b>Anonymous P</b>, full name Anonymous player." in html
    assert html.count('name="add-new"') == 1 and "Add these 3 as new players" in html
    rows = table_rows(section(html, "preview-heading"))
    assert rows[0][:4] == ["Player", "Placing", "Change", "After"]  # what a phone shows first
    assert rows[1][0] == "Bosco Vi new"
    response = post(admin_client, lines, action="save", extra={"add-new": "on"})
    assert response.status_code == 302
    added = Player.objects.filter(short_name__in=["Bosco Vi", "Anonymous P", "Zed"])
    added = dict(added.values_list("short_name", "name"))
    assert added == {"Bosco Vi": "Bosco(Vivian)", "Anonymous P": "Anonymous player", "Zed": "Zed"}
    # The next night finds them by their full names.
    html = post(admin_client, ["anonymous player", "Bosco(Vivian)"], day="2025-11-21").content.decode()
    assert "not a player yet" not in html and "check, then save" in html


def test_a_split_line_ending_in_a_name_with_a_full_stop_ends_with_one_and_a_name_twice_on_a_line_is_said_once(
    admin_client, club
):
    Player.objects.create(short_name="Greta V.", name="Greta Varga")
    html = post(admin_client, ["GL K Greta V.", "J"]).content.decode()
    assert "GL K Greta V. is taken as 3 lines: GL, K, Greta V.." not in html
    assert "GL K Greta V. is taken as 3 lines: GL, K, Greta V." in html
    twice = post(admin_client, ["GL + GL", "K"]).content.decode()
    assert "Line 1: GL is entered twice." in twice and "(also in Line 1)" not in twice
