"""Leaderboards (the standings, the home page's leaders, a game's standings): inactive players hidden
(after 180 days by default, off in the tests' settings), provisional players listed after the
ranked ones, a category of one game shown once, and links to each table."""

import re
from datetime import date

from league.models import Category, Game, Player
from ratings.services.catalogue import save_category, save_game
from tests.conftest import section, table_rows


def overall_players(client, **params):
    html = client.get("/card-games/standings/", params).content.decode()
    return html, [row[1] for row in table_rows(section(html, "overall-heading"))[1:]]


def test_everyone_is_shown_by_default(client, club):
    html, players = overall_players(client)
    assert players == ["J", "I", "K", "R", "GL"]
    assert "Show everyone" not in html


def test_inactive_players_are_hidden_with_a_link_to_show_everyone(client, club, make_matchday, settings):
    settings.LEAGUE_INACTIVE_DAYS = 14
    today = date.today()
    make_matchday(7, today.isoformat(), {"I": 1, "GL": 2}, rounds=1)
    html, players = overall_players(client)
    assert [p.split()[0] for p in players] == ["I", "GL"]
    assert table_rows(section(html, "overall-heading"))[1][0] == "1"  # ranked among the active
    assert "no matchday in the 14 days before the latest matchday are hidden" in html
    assert '<a href="?all=1">Show everyone</a>' in html
    _, everyone = overall_players(client, all="1")
    assert len(everyone) == 5


def test_players_with_few_matchdays_are_marked_provisional(client, club, settings):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = 4
    html = client.get("/card-games/standings/").content.decode()
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", section(html, "overall-heading"), flags=re.S)
    marked = {re.search(r'">(\w+)</a><span class="tip"', row).group(1) for row in rows if "provisional</span>" in row}
    assert marked == {"J"}  # 3 matchdays; K has 4


def test_a_provisional_player_is_listed_after_the_ranked_players_without_a_rank(client, club, settings):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = 4  # J, the best rated, has 3 matchdays
    rows = table_rows(section(client.get("/card-games/standings/").content.decode(), "overall-heading"))[1:]
    assert [row[:2] for row in rows] == [["1", "I"], ["2", "K"], ["3", "R"], ["4", "GL"], ["—", "J"]]
    download = client.get("/card-games/standings/", {"export": "json", "table": "overall"}).json()
    assert [(row["#"], row["Player"], row["Provisional"]) for row in download][-1] == (None, "J", True)


def test_the_home_leaders_list_a_provisional_player_after_the_ranked_ones(client, club, settings):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = 4
    rows = table_rows(section(client.get("/card-games/").content.decode(), "leaderboard-heading"))[1:]
    assert [[row[0], row[2]] for row in rows] == [["1", "I"], ["2", "K"], ["3", "R"], ["4", "GL"], ["—", "J"]]
    assert rows[-1][1] == ""  # no move: J had no rank to move from


def test_the_provisional_split_ranks_only_settled_players(club):
    from ratings.selectors.boards import split
    from ratings.selectors.standings import StandingRow

    def row(name, rating, flag):
        return StandingRow(0, Player(short_name=name), rating, 1, date(2025, 11, 3), 0.0, flag)

    rows = split([row("A", 1600, True), row("B", 1550, False), row("C", 1550, False), row("D", 1500, True)])
    assert [(r.player.short_name, r.rank) for r in rows] == [("B", 1), ("C", 1), ("A", None), ("D", None)]


def test_the_inactive_are_hidden_by_default_after_180_days(monkeypatch):
    import importlib

    import config.settings as project

    monkeypatch.delenv("LEAGUE_INACTIVE_DAYS", raising=False)
    assert importlib.reload(project).LEAGUE_INACTIVE_DAYS == 180


def test_the_home_leaderboard_and_a_games_standings_hide_the_inactive_too(client, club, make_matchday, settings):
    settings.LEAGUE_INACTIVE_DAYS = 14
    make_matchday(7, date.today().isoformat(), {"I": 1, "GL": 2}, rounds=1)
    for url, heading in [("/card-games/", "leaderboard-heading"), ("/card-games/games/hearts/", "standings-heading")]:
        html = client.get(url).content.decode()
        shown = [row[2 if url == "/card-games/" else 1] for row in table_rows(section(html, heading))[1:]]
        assert shown == ["I", "GL"], url
        assert "no matchday in the 14 days before the latest matchday" in section(html, heading), url
        assert "Show everyone</a>" in section(html, heading), url
        everyone = client.get(url, {"all": "1"}).content.decode()
        assert len(table_rows(section(everyone, heading))) == 6, url


def _pokemon(make_matchday):
    tcg = Category(name="Trading card games", slug="trading-card-games")
    save_category(tcg)
    save_game(Game(name="Magic: The Gathering", slug="magic", category=tcg, official=False))
    pokemon = Game(name="Pokemon", slug="pokemon", category=tcg, official=False)
    save_game(pokemon)
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2, "K": 3}, game=pokemon)
    return tcg


def heading(html, heading_id):
    """The text of a section's heading (its badge's too)."""
    return re.sub(r"<[^>]+>", "", re.search(rf'<h2 id="{heading_id}">(.*?)</h2>', html, flags=re.S).group(1))


def test_a_category_of_one_game_played_is_shown_once_named_for_both(client, club, make_matchday):
    _pokemon(make_matchday)
    for url, suffix in [("/card-games/standings/", ""), ("/card-games/", " rating")]:
        html = client.get(url).content.decode()
        assert heading(html, "pokemon-heading") == f"Pokemon · Trading card games{suffix} unofficial", url
        assert 'id="trading-card-games-heading"' not in html, url
        assert 'id="trading-card-games"' in html, url  # links to the category's table still land
    # Once another game of the category is played, the category's table is its own again.
    make_matchday(8, "2025-11-21", {"I": 1, "K": 2}, game=Game.objects.get(slug="magic"))
    html = client.get("/card-games/standings/").content.decode()
    assert heading(html, "trading-card-games-heading") == "Trading card games unofficial"
    assert heading(html, "pokemon-heading") == "Pokemon unofficial"


def test_the_standings_open_with_links_to_each_table(client, club, make_matchday):
    _pokemon(make_matchday)
    html = client.get("/card-games/standings/").content.decode()
    jump = html[html.index('<nav class="jump"') : html.index("</nav>", html.index('<nav class="jump"'))]
    targets = re.findall(r'href="#([^"]+)"', jump)
    assert targets == ["overall", "hearts", "pokemon"]
    assert all(f'<section id="{t}"' in html for t in targets)
