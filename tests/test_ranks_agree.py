"""Pages agree (issue 40): on the mixed league, every rank a page shows (a player's cards, the players
directory, a game's standings, the home page's leaders), today and as at a day, is the rank the
standings page gives the same player in the same table, and a card's "of" counts the players
the standings rank."""

import re

import pytest
from django.urls import reverse

from league.models import Game, Player
from ratings.models import RatingTable
from tests.conftest import section, table_rows

pytestmark = pytest.mark.django_db


def _rank(text: str) -> int | None:
    return None if text in ("—", "") else int(text)


def standings_ranks(client, query: dict) -> dict[str, dict[str, int | None]]:
    """Table name -> player -> rank (None: listed unranked) on the standings page, every player."""
    html = client.get(reverse("league:standings"), {"print": "1", **query}).content.decode()
    found = {}
    for heading in re.findall(r'<h2 id="([^"]+-heading)">', html):
        rows = table_rows(section(html, heading))
        title = re.search(rf'<h2 id="{heading}">([^<]*)', html)[1].strip()
        ranks = {row[1]: _rank(row[0]) for row in rows[1:] if row and row[0] != "#"}
        for name in title.split(" · "):  # a category that repeats its one game is shown with it
            found[name.strip()] = ranks
    return found


def card_ranks(client, player: Player, query: dict) -> dict[str, str]:
    html = client.get(reverse("league:player", args=[player.pk]), query).content.decode()
    titles = [re.sub(r"<[^>]+>.*", "", t).strip() for t in re.findall(r'card-title">(.*?)</span>', html)]
    details = re.findall(r'card-detail">([^<]*)', html)
    assert len(titles) == len(details)
    return {t: d.split(" · ")[0] for t, d in zip(titles, details, strict=True)}


def expected_card(standings: dict[str, int | None], short_name: str) -> str:
    if short_name not in standings:
        return "Not on the standings (inactive)"
    rank = standings[short_name]
    of = sum(r is not None for r in standings.values())
    return "Unranked" if rank is None else f"#{rank} of {of}"


@pytest.mark.parametrize("query", [{}, {"as_at": "2026-03-01"}])
def test_every_players_cards_rank_them_as_the_standings_do(client, mixed_league, query):
    standings = standings_ranks(client, query)
    checked = 0
    for player in Player.objects.all():
        for table, shown in card_ranks(client, player, query).items():
            assert shown == expected_card(standings.get(table, {}), player.short_name), (player, table)
            checked += 1
    assert checked > 40
    overall = standings["Overall"]
    assert any(r is None for r in standings["Spades"].values()) and all(r for r in overall.values())


@pytest.mark.parametrize("query", [{}, {"as_at": "2026-03-01"}])
def test_the_players_directory_ranks_everyone_as_the_overall_standings_do(client, mixed_league, query):
    overall = standings_ranks(client, query)["Overall"]
    shown, page = {}, 1
    while True:
        response = client.get(reverse("league:players"), {"sort": "name", "players-page": page, **query})
        if response.status_code != 200:
            break
        html = response.content.decode()
        rows = table_rows(section(html, "players-heading"))
        header = rows[0]
        new = {row[0]: _rank(row[header.index("#")]) for row in rows[1:]}
        if not new.keys() - shown.keys():
            break
        shown.update(new)
        page += 1
    assert len(shown) >= 15
    for name, rank in shown.items():
        assert rank == overall.get(name), name


def test_each_games_standings_and_the_leaders_rank_as_the_standings_page(client, mixed_league):
    standings = standings_ranks(client, {})
    for game in Game.objects.exclude(rating_table=None):
        html = client.get(reverse("league:game", args=[game.slug])).content.decode()
        if 'id="standings-heading"' not in html:
            continue
        rows = table_rows(section(html, "standings-heading"))
        shown = {row[1]: _rank(row[0]) for row in rows[1:] if len(row) > 1}
        assert shown == standings.get(game.rating_table.name, {}), game
    html = client.get(reverse("league:home")).content.decode()
    leaders = {row[2]: _rank(row[0]) for row in table_rows(section(html, "leaderboard-heading"))[1:]}
    assert leaders and all(standings["Overall"][name] == rank for name, rank in leaders.items() if rank)
    assert RatingTable.objects.count() >= 7
