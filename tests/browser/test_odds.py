"""Tonight's odds in Chromium, at 1280 and 375 px: the form works without JavaScript, the page gives
Elo's 1 / (1 + 10^(-d/400)) and TrueSkill's documented 0.7732314666870078, balanced tables show each
table's mean and the spread, nothing scrolls sideways and axe-core finds no serious violation."""

import subprocess

import pytest
from axe_playwright_python.sync_playwright import Axe

from .conftest import MANAGE, ROOT, _running_site, _site_env, screenshot

# A game rated by TrueSkill at its defaults, where A beat B once: A's chance against B is the
# library's documented 0.7732314666870078.
DUEL = """
from datetime import date
from league.models import Game, Matchday, Player
from ratings.models import RatingTable
from ratings.services.catalogue import save_game
from league.results import Play, TypedResult
from ratings.services.checks import check_matchday
from ratings.services.matchdays import save_matchday
from ratings.services.rating_tables import save_rating_table
save_game(Game(name="Duel", slug="duel"))
table = RatingTable.objects.get(slug="duel")
table.method = "trueskill"
save_rating_table(table)
players = [Player(name=name, short_name=name) for name in ("A", "B")]
matchday = Matchday(number=7, date=date(2025, 11, 20), game=Game.objects.get(slug="duel"), rounds=1)
results = [TypedResult(Play(1), "A"), TypedResult(Play(2), "B")]
save_matchday(check_matchday(matchday, matchday.game, results), {"a": players[0], "b": players[1]})
"""


@pytest.fixture(scope="module")
def odds_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("odds")
    env = _site_env(folder)
    for step in (["migrate", "--no-input", "-v0"], ["load_demo"], ["shell", "-c", DUEL]):
        subprocess.run([*MANAGE, *step], env=env, check=True, cwd=ROOT, capture_output=True)
    with _running_site(folder, env) as url:
        yield url


def _fits_and_passes_axe(page, name: str, width: int) -> None:
    sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert sideways <= 0, f"{name} scrolls {sideways} px sideways at {width} px"
    screenshot(page, f"odds-{name}-{width}")
    serious = [v for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in serious]


def _chances(page, heading_id: str) -> list[float]:
    section = page.locator(f"section[aria-labelledby={heading_id}]")
    return [float(data.get_attribute("value")) for data in section.locator("data").all()]


HEARTS = "/card-games/odds/?game=hearts&tables=GL%2C+J%0AI%2C+R%2C+K"
PAGES = {
    "form": "/card-games/odds/",
    "hearts": HEARTS,
    "balanced": "/card-games/odds/?game=hearts&tables=GL%2C+J%2C+I%2C+R%2C+K%2C+A&size=3",
    "new-player": "/card-games/odds/?game=hearts&tables=GL%2C+Nobody",
}
ELO = [1 / (1 + 10 ** ((1534 - 1461) / 400)), 1 / (1 + 10 ** ((1461 - 1534) / 400))]  # GL 1461 against J 1534


@pytest.mark.parametrize("width", [1280, 375])
def test_the_odds_pages_fit_a_phone_pass_axe_and_give_the_documented_numbers(browser, odds_site, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        for name, path in PAGES.items():
            page.goto(odds_site + path)
            _fits_and_passes_axe(page, name, width)
            if name == "hearts":
                assert _chances(page, "odds-hearts")[:2] == ELO
            if name == "balanced":
                balance = page.locator("section[aria-labelledby=balance-heading]")
                assert "Spread of the means" in balance.inner_text()
                assert balance.locator("tbody tr").count() == 2
        page.goto(odds_site + "/card-games/odds/?game=duel&tables=A%2C+B")
        assert _chances(page, "odds-duel")[0] == 0.7732314666870078
        assert "77.3%" in page.locator("section[aria-labelledby=odds-duel]").inner_text()
    finally:
        context.close()


def test_a_member_types_tonights_tables_without_javascript(browser, odds_site):
    context = browser.new_context(viewport={"width": 375, "height": 800}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(odds_site + "/card-games/")
        page.get_by_role("link", name="Tonight's odds").click()
        page.get_by_label("Game").select_option("hearts")
        page.get_by_label("Tables, one per line").fill("GL, J\nI, R, K")
        page.get_by_role("button", name="Show the odds").click()
        assert _chances(page, "odds-hearts")[:2] == ELO
        gl = page.locator("section[aria-labelledby=odds-hearts] a.player", has_text="GL").first
        assert gl.get_attribute("href").startswith("/card-games/players/")
        page.get_by_label("Tables, one per line").fill("GL, Nobody")
        page.get_by_role("button", name="Show the odds").click()
        assert "Line 1: Nobody is new here, at the starting rating." in page.locator(".notice").first.inner_text()
        page.get_by_label("Tables, one per line").fill("GL + J\nI + Nobody")  # the entry page's notation
        page.get_by_role("button", name="Show the odds").click()
        assert len(_chances(page, "odds-hearts")) == 4
    finally:
        context.close()
