"""The seasons' pages in Chromium at 1280 and 375 px: axe clean and no sideways scroll, on a league of
matchdays and solitaire by the same members in seasons (a fresh start, a carried-over one, one running
today and one to come), with the home page's leaders of the running season."""

import subprocess

import pytest

from .conftest import MANAGE, ROOT, _running_site, _site_env
from .test_league_pages import WIDTHS, _check

SEASONS = """
from datetime import date, timedelta
from django.utils import timezone
from league.models import Season
from ratings.services.recompute import rebuild_all
today = timezone.localdate()
make = Season.objects.create
make(name="Winter 2025–26", slug="winter", first_day=date(2025, 12, 1), last_day=date(2026, 2, 28), start="fresh")
make(name="Spring 2026", slug="spring", first_day=date(2026, 3, 1), last_day=date(2026, 5, 31))
runs_to = max(today, date(2026, 6, 1)) + timedelta(days=30)
make(name="Now", slug="now", first_day=date(2026, 6, 1), last_day=runs_to, start="fresh")
make(name="Later", slug="later", first_day=date(2099, 1, 1), last_day=date(2099, 12, 31))
rebuild_all()
"""


@pytest.fixture(scope="module")
def season_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("seasons")
    env = _site_env(folder)
    results, attempts = folder / "league.csv", folder / "attempts.csv"
    generate = ["generate_league", str(results), "--players", "15", "--matchdays", "120", "--first", "7"]
    generate += ["--start", "2025-12-01", "--end", "2026-06-30", "--people", "--attempts-out", str(attempts)]
    steps = [["migrate", "--no-input", "-v0"], ["load_demo"], [*generate, "--attempts", "300"]]
    steps += [["import_results", str(results)], ["import_attempts", str(attempts)], ["shell", "-c", SEASONS]]
    for step in steps:
        subprocess.run([*MANAGE, *step], env=env, check=True, cwd=ROOT, capture_output=True)
    with _running_site(folder, env) as url:
        yield url


PAGES = [
    "/card-games/",
    "/card-games/seasons/",
    "/card-games/seasons/winter/",
    "/card-games/seasons/spring/",
    "/card-games/seasons/now/",
    "/card-games/seasons/later/",
    "/card-games/honours/",
]


@pytest.mark.parametrize("width", WIDTHS)
def test_the_season_pages_pass_axe_and_fit_the_screen(browser, season_site, width):
    assert _check(browser, season_site, PAGES, width) == {}


def test_a_player_with_honours_sees_them_on_their_page(browser, season_site):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    try:
        page.goto(f"{season_site}/honours/")
        page.locator("#honours-winter table.honours tbody tr").first.locator("a").first.click()
        page.wait_for_load_state()
        assert page.locator("#honours-heading").is_visible()
        assert "Winter 2025–26" in page.locator("#honours").inner_text()
        assert _check(browser, season_site, [page.url.removeprefix(season_site)], 375) == {}
    finally:
        context.close()
