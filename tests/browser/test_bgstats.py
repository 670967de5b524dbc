"""The BG Stats import and plays against the game in Chromium at 1280 and 375 px: the admin's upload
previews every play, then imports once; a co-operative game's page gives its record and rating, a
player's page their record against it, and /methods/ the model; axe-core clean, no sideways scroll."""

import subprocess
from pathlib import Path

import pytest

from .conftest import MANAGE, ROOT, _running_site, _site_env, screenshot
from .test_history import _serious, _sideways
from .test_league_pages import _axe_violations

EXPORT = Path(__file__).parent.parent / "data" / "bgstats" / "BGStatsExport.json"


@pytest.fixture(scope="module")
def bg_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bgstats")
    env = _site_env(folder)
    for step in (["migrate", "--no-input", "-v0"], ["load_demo"]):
        subprocess.run([*MANAGE, *step], env=env, check=True, cwd=ROOT, capture_output=True)
    with _running_site(folder, env) as url:
        yield url


def _log_in(page, site):
    page.goto(f"{site}/admin/login/?next=/admin/league/matchday/import-bgstats/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "secretary-pass-1")
    page.click("input[type=submit]")


def _serious_but_admin_breadcrumbs(page) -> list:
    """Django admin's own breadcrumbs (on every admin page) fail link-in-text-block: not this page's."""
    return [
        (v["id"], target)
        for v in _axe_violations(page)
        if v["impact"] in ("serious", "critical")
        for target in [n["target"] for n in v["nodes"]]
        if not str(target[0]).startswith(".breadcrumbs")
    ]


@pytest.mark.parametrize("width", [1280, 375])
def test_the_upload_previews_every_play_then_the_pages_show_the_games_record(browser, bg_site, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        _log_in(page, bg_site)
        page.set_input_files("#id_file", str(EXPORT))
        page.click("input[value=Preview]")
        main = page.inner_text("#content")
        assert "Would add 596 plays as matchdays" in main or "No new plays" in main  # the second width: done
        assert _serious_but_admin_breadcrumbs(page) == [] and _sideways(page) <= 0
        screenshot(page, f"bgstats-preview-{width}", full_page=False)
        if "Would add" in main:
            assert page.locator("ol.import-plays li").count() == 596
            page.click("input[value=Import]")
            assert "Added 596 plays" in page.inner_text(".messagelist")
        page.goto(f"{bg_site}/card-games/games/pandemic-legacy-season-1/")
        assert "the players beat Pandemic Legacy: Season 1 12 times in 15" in page.inner_text("#against-the-game")
        assert _serious(page) == [] and _sideways(page) <= 0
        page.locator("#against-the-game a").click()  # how: the methods page's section
        assert page.locator("#against-the-game-heading").is_visible()
        assert _serious(page) == [] and _sideways(page) <= 0
        page.goto(f"{bg_site}/card-games/")  # a club of many games: the tables of those played last
        assert page.locator("#more-games li").count() > 100
        assert _serious(page) == [] and _sideways(page) <= 0
        page.locator("#more-games").scroll_into_view_if_needed()
        screenshot(page, f"bgstats-home-{width}", full_page=False)
        name = page.locator("#more-games a").first.inner_text()
        page.locator("#more-games a").first.click()
        assert page.locator("h1").inner_text().startswith(name)
        page.goto(f"{bg_site}/card-games/players/")
        page.fill("input[name=q]", "Jul")
        page.keyboard.press("Enter")
        page.locator("section a.player", has_text="Jul").first.click()
        assert "Pandemic Legacy: Season 1: won 12 of 15" in page.inner_text("#against-the-game")
        assert _serious(page) == [] and _sideways(page) <= 0
        screenshot(page, f"bgstats-player-{width}")
    finally:
        context.close()
