"""The menu stays short (issue 40): a club with twelve games has them under one Games disclosure (no
JavaScript), so the menu is at most two rows at 375 px; and the nights' list, the menu open, pass
axe-core at 1280 and 375 px without scrolling sideways."""

import subprocess

import pytest

from .conftest import MANAGE, ROOT, _running_site, _site_env, screenshot
from .test_history import _serious, _sideways

GAMES = 12
# Twelve games, each played once (the menu lists the games played), with names as long as clubs give.
TWELVE = f"""
from datetime import date
from league.models import Game, Matchday, Player
from league.results import Play, TypedResult
from ratings.services.catalogue import save_game
from ratings.services.checks import check_matchday
from ratings.services.matchdays import save_matchday
names = ["Ticket to Ride", "Carcassonne", "Codenames", "Wingspan", "Azul", "Splendor", "Dominion",
         "Pandemic", "Catan", "Terraforming Mars", "Seven Wonders", "Love Letter"][:{GAMES}]
players = {{p.short_name.lower(): p for p in Player.objects.all()}}
for n, name in enumerate(names):
    save_game(Game(name=name, slug=name.lower().replace(" ", "-"), official=False))
    game = Game.objects.get(name=name)
    matchday = Matchday(number=7 + n, date=date(2025, 11, 20), game=game, rounds=1)
    results = [TypedResult(Play(1), "GL"), TypedResult(Play(2), "K")]
    save_matchday(check_matchday(matchday, game, results), players)
"""


@pytest.fixture(scope="module")
def games_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("menu")
    env = _site_env(folder)
    for step in (["migrate", "--no-input", "-v0"], ["load_demo"], ["shell", "-c", TWELVE]):
        subprocess.run([*MANAGE, *step], env=env, check=True, cwd=ROOT, capture_output=True)
    with _running_site(folder, env) as url:
        yield url


def _menu_rows(page) -> int:
    """How many rows the menu's own entries take (their distinct tops)."""
    tops = page.eval_on_selector_all(
        "nav[aria-label=Site] > ul > li", "items => items.map(li => Math.round(li.getBoundingClientRect().top))"
    )
    return len(set(tops))


@pytest.mark.parametrize("width", [1280, 375])
def test_twelve_games_keep_the_menu_to_two_rows_and_open_under_games(browser, games_site, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        page.goto(games_site + "/card-games/")
        games = page.locator("nav[aria-label=Site] details", has=page.locator("summary", has_text="Games"))
        assert games.locator("a").count() == GAMES + 1  # and Hearts, the demo's
        assert not games.locator("a").first.is_visible()  # closed until asked
        assert _menu_rows(page) <= (1 if width == 1280 else 2), _menu_rows(page)
        screenshot(page, f"menu-{width}", full_page=False)
        assert _serious(page) == [] and _sideways(page) <= 0
        page.locator("nav[aria-label=Site] summary", has_text="Games").click()
        assert games.locator("a", has_text="Terraforming Mars").is_visible()
        page.locator("nav[aria-label=Site] summary", has_text="More").click()
        assert page.locator("nav[aria-label=Site] a", has_text="Calculator").is_visible()
        screenshot(page, f"menu-open-{width}", full_page=False)
        assert _serious(page) == [] and _sideways(page) <= 0
        games.locator("a", has_text="Terraforming Mars").click()
        assert page.url.endswith("/card-games/games/terraforming-mars/")
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 375])
def test_the_nights_list_pages_fit_and_pass_axe(browser, games_site, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        page.goto(games_site + "/card-games/nights/")
        assert page.locator("h1").inner_text() == "Game nights"
        assert _serious(page) == [] and _sideways(page) <= 0
        screenshot(page, f"nights-{width}")
        page.locator("section#nights a", has_text="November 20, 2025").click()
        assert "Game night" in page.locator("h1").inner_text()
        assert _serious(page) == [] and _sideways(page) <= 0
    finally:
        context.close()
