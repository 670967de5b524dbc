"""Standings options: inactive players hidden (off by default), few matchdays marked provisional."""

import re
from datetime import date

from tests.conftest import section, table_rows


def overall_players(client, **params):
    html = client.get("/standings/", params).content.decode()
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
    assert "no matchday in the last 14 days are hidden" in html
    assert '<a href="?all=1">Show everyone</a>' in html
    _, everyone = overall_players(client, all="1")
    assert len(everyone) == 5


def test_players_with_few_matchdays_are_marked_provisional(client, club, settings):
    settings.LEAGUE_PROVISIONAL_MATCHDAYS = 4
    html = client.get("/standings/").content.decode()
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", section(html, "overall-heading"), flags=re.S)
    marked = {re.search(r'">(\w+)</a><span class="tip"', row).group(1) for row in rows if "provisional</span>" in row}
    assert marked == {"J"}  # 3 matchdays; K has 4
