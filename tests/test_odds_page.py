"""The odds page (/odds/): tonight's tables typed by name, each player's chance and the change each place
would bring, in every rating table the game counts in; balanced tables; and every mistake a clear 400."""

import re
from html import unescape

import pytest
from django.urls import reverse

from league.models import Game, Player
from ratings.models import RatingTable
from ratings.services.catalogue import save_game
from ratings.services.rating_tables import save_rating_table
from tests.conftest import section, table_rows

URL = "/card-games/odds/"


def odds(client, status=200, **query):
    response = client.get(URL, query)
    assert response.status_code == status, response.content.decode()[-2000:]
    return response.content.decode()


def chances(html: str) -> list[float]:
    return [float(v) for v in re.findall(r'<data value="([^"]+)">', html)]


def problems(html: str) -> list[str]:
    alert = re.search(r'role="alert">(.*?)</div>', html, re.S).group(1)
    return [unescape(re.sub(r"<[^>]+>", "", p)).strip() for p in re.findall(r"<li>(.*?)</li>", alert, re.S)]


def test_the_empty_form_offers_the_games_played_at_a_table_and_is_in_the_navigation(client, club):
    html = odds(client)
    assert '<option value="hearts">Hearts</option>' in html
    assert f'href="{reverse("ratings:odds")}">Tonight' in client.get("/card-games/").content.decode()
    assert '<form method="get"' in html and "<script" not in html


def test_two_players_have_elos_chance_in_every_table_hearts_counts_in(client, club):
    html = odds(client, game="hearts", tables="GL, J")
    tables = [t for t in RatingTable.objects.all() if t.counts(Game.objects.get(slug="hearts"))]
    assert len(tables) == 2  # the overall table and Hearts' own
    gl, j = 1 / (1 + 10 ** ((1534 - 1461) / 400)), 1 / (1 + 10 ** ((1461 - 1534) / 400))
    assert chances(html) == [gl, j, gl, j]
    rows = table_rows(section(html, "odds-hearts"))
    assert rows[0] == ["Player", "Rating", "Chance to win", "Expected", "If 1st", "If 2nd"]
    assert rows[1][:3] == ["GL", "1461", f"{gl * 100:.1f}%"]
    assert rows[1][4:] == ["+6", "\u22124"]  # the club formula's K 10 for one round
    for name in ("GL", "J"):
        url = Player.objects.get(short_name=name).get_absolute_url()
        assert f'<a class="player" href="{url}" data-player="{name}"' in section(html, "odds-hearts")


def test_trueskill_gives_the_documented_chance_after_one_win_at_the_defaults(client, make_matchday):
    save_game(Game(name="Duel", slug="duel"))
    table = RatingTable.objects.get(slug="duel")
    table.method = "trueskill"
    save_rating_table(table)
    make_matchday(1, "2025-11-03", {"A": 1, "B": 2}, game=Game.objects.get(slug="duel"))
    html = odds(client, game="duel", tables="A, B")
    duel = section(html, "odds-duel")
    assert chances(duel)[0] == 0.7732314666870078
    assert "77.3%" in duel


def test_several_tables_at_once_each_with_a_change_for_every_place(client, club, make_matchday):
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2, "NEW": 3, "ADA": 4, "BEN": 5, "CY": 6, "DI": 7})
    html = odds(client, game="hearts", tables="GL, K, I, J\nR, NEW, ADA\nBEN, CY, DI", rounds="3")
    hearts = section(html, "odds-hearts")
    assert hearts.count("<caption>Table") == 3
    first = table_rows(hearts.split("<caption>Table 2")[0])
    assert first[0][-4:] == ["If 1st", "If 2nd", "If 3rd", "If 4th"]
    assert sum(chances(hearts)[:4]) == pytest.approx(1)
    assert sum(chances(hearts)[4:7]) == pytest.approx(1)
    assert "3 rounds" in html


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ({"tables": "GL\nK = I\n\nJ", "game": "hearts"}, "Line 4 has only one player"),
        ({"tables": "GL\nK 2 rated x", "game": "hearts"}, "Line 2"),  # the entry page's parser's own words
        ({"tables": "Newbie, K\nnewbie, I", "game": "hearts"}, "is there 2 times (lines 1, 2)"),
        ({"tables": "GL K I J", "game": "hearts"}, "Line 1 has only one player"),
        (
            {"tables": "GL, K\nI, gl", "game": "hearts"},
            "GL is there 2 times (lines 1, 2): each player sits at one table.",
        ),
        ({"tables": "GL, K, GL", "game": "hearts"}, "GL is there 2 times (line 1)"),
        ({"tables": "GL", "game": "hearts"}, "Line 1 has only one player"),
        ({"tables": "GL + K", "game": "hearts"}, "Line 1 has only one side"),
        ({"tables": ", ".join(["GL"] * 11), "game": "hearts"}, "Line 1 has 11 players: at most 10 at a table."),
        ({"tables": "\n".join(["GL, K"] * 13), "game": "hearts"}, "13 tables: at most 12 at once."),
        ({"tables": "GL, K", "game": "chess"}, "There is no game 'chess'"),
        ({"tables": "GL, K", "game": "he\x00arts"}, "There is no game 'he\\x00arts'"),
        ({"tables": "GL, K"}, "Choose tonight's game."),
        ({"tables": "GL, K", "game": "hearts", "rounds": "0"}, "Rounds must be at least 1, not 0."),
        ({"tables": "GL, K", "game": "hearts", "rounds": "x"}, "Rounds must be a whole number"),
        ({"tables": "GL, K", "game": "hearts", "size": "1"}, "The table size must be at least 2, not 1."),
        ({"tables": "GL, K + I", "game": "hearts", "size": "2"}, "balanced tables seat everyone alone"),
        ({"tables": "GL, \x07K", "game": "hearts"}, "holds an invisible or control character, U+0007"),
        ({"tables": "GL,, K", "game": "hearts"}, "Line 1: a player's name is missing."),
        ({"tables": "x" * 3001, "game": "hearts"}, "The tables are 3,001 characters long; at most 3,000."),
    ],
)
def test_every_mistake_is_a_400_naming_the_line_or_player(client, club, query, said):
    found = problems(odds(client, 400, **query))
    assert any(p.startswith(said) or said in p for p in found), found


@pytest.mark.parametrize(
    "tables",
    [" , , ", "+ + +", "GL +", "GL, K +\n\n\n, J", "ＧＬ, k", "GL, " + "x" * 500, "GL,\tK", "\u200b, GL", "GL\r\nK, J"],
)
@pytest.mark.parametrize("size", ["", "3", "99", "-1", "1e3"])
def test_whatever_is_typed_the_page_answers_200_or_400(client, club, tables, size):
    assert client.get(URL, {"game": "hearts", "tables": tables, "size": size, "rounds": "2"}).status_code in (200, 400)


def test_too_many_players_tonight_is_refused(client, club):
    lines = "\n".join(", ".join(f"P{t}-{n}" for n in range(5)) for t in range(10))
    assert "50 players: at most 40 at once." in problems(odds(client, 400, game="hearts", tables=lines))


def test_a_solitaire_game_is_refused_with_the_reason(client, club):
    save_game(Game(name="Klondike", slug="klondike", against_deals=True))
    found = problems(odds(client, 400, game="klondike", tables="GL, K"))
    assert found[0].startswith("Klondike is played against deals, not at a table")
    assert '<option value="klondike"' not in odds(client)


def test_partners_share_a_side_and_a_method_that_rates_players_alone_says_so(client, club):
    html = odds(client, game="hearts", tables="GL + K, I + J")
    hearts = section(html, "odds-hearts")
    assert hearts.count("side A") == 2 and hearts.count("side B") == 2
    assert len(table_rows(hearts)[0]) == 6  # two places: two sides
    save_game(Game(name="Duel", slug="duel"))
    table = RatingTable.objects.get(slug="duel")
    table.method = "sedma"
    save_rating_table(table)
    assert "rates two-player games only" in section(odds(client, game="duel", tables="GL, K, I"), "odds-duel")
    table.method = "elo-mmr"
    save_rating_table(table)
    duel = section(odds(client, game="duel", tables="GL + K, I"), "odds-duel")
    assert "Table 1: Elo-MMR rates players alone, not sides or partial play." in unescape(duel)
    assert "<caption>" in section(odds(client, game="duel", tables="GL, K, I"), "odds-duel")


def test_balanced_tables_show_each_mean_and_the_spread_and_their_odds(client, club, make_matchday):
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2, "NEW": 3, "ADA": 4, "BEN": 5, "CY": 6, "DI": 7, "EVE": 8, "FAY": 9})
    html = odds(client, game="hearts", tables="GL, K, I, J, R, NEW\nADA, BEN, CY, DI, EVE, FAY", size="3")
    balance = section(html, "balance-heading")
    rows = table_rows(balance)
    assert rows[0] == ["Table", "Players (rating)", "Mean"] and len(rows) == 5
    means = [float(r[2]) for r in rows[1:]]
    assert "the best of all 15400 ways" in balance
    assert f"<strong>{max(means) - min(means):.1f}</strong>" in balance or "Spread" in balance
    assert section(html, "odds-hearts").count("<caption>Table") == 4


def test_the_page_takes_a_fixed_number_of_queries(client, club, django_assert_num_queries):
    query = {"game": "hearts", "tables": "GL, K\nI, J, R", "size": ""}
    with django_assert_num_queries(11):  # the names found among players and their former names
        assert client.get(URL, query).status_code == 200
    query["size"] = "2"  # balanced tables read the same rows
    with django_assert_num_queries(11):
        assert client.get(URL, query).status_code == 200


def test_a_name_the_club_does_not_know_is_a_new_player_at_the_starting_rating(client, club):
    """Issue 40: the odds refused a first-time guest ("Newbie is not a player")."""
    html = odds(client, game="hearts", tables="GL, Newbie, Jx")
    hearts = section(html, "odds-hearts")
    rows = {row[0]: row for row in table_rows(hearts)[1:]}
    assert rows["Newbie new"][1] == rows["Jx new"][1] == "1500"  # the club method's start
    assert sum(chances(hearts)) == pytest.approx(1)
    assert "Line 1: Newbie is new here, at the starting rating." in html
    assert "Line 1: Jx is new here, at the starting rating. Did you mean J?" in html
    assert "/players/-" not in html  # no page yet: named as typed, without a link
    assert not Player.objects.filter(short_name__in=["Newbie", "Jx"]).exists()  # odds are never stored


def test_the_entry_pages_notation_one_side_per_line_partners_joined_by_plus(client, club):
    """A table as the entry page types it: a side per line, partners joined by `+`, tied sides by
    `=`, tables apart by a blank line; the same odds as the same tables typed on one line each."""
    entry = odds(client, game="hearts", tables="GL + K\nI + J\n\nR\nNewbie = Ada")
    commas = odds(client, game="hearts", tables="GL + K, I + J\nR, Newbie, Ada")
    assert chances(section(entry, "odds-hearts")) == chances(section(commas, "odds-hearts"))
    assert section(entry, "odds-hearts").count("<caption>Table") == 2
