"""A site of three clubs in Chromium: the list of clubs and each club's pages, at 1280 and 375 px,
with no serious axe violation and no sideways scroll; a club's links stay within the club."""

import re
import subprocess

import pytest

from .conftest import MANAGE, ROOT, _running_site, _site_env, screenshot
from .test_league_pages import _check

CLUBS = {"north": "North Card Club", "south": "Société des joueurs de cartes du Sud"}


@pytest.fixture(scope="module")
def clubs_site(tmp_path_factory):
    """The demo (card-games) and two clubs beside it, each with a league of its own members, who go
    by the same short names."""
    folder = tmp_path_factory.mktemp("clubs")
    env = _site_env(folder)
    steps = [["migrate", "--no-input", "-v0"], ["load_demo"]]
    for slug, name in CLUBS.items():
        league = folder / f"{slug}.csv"
        steps += [["create_club", slug, name]]
        steps += [["generate_league", "--players", "12", "--matchdays", "40", "--start", "2025-09-01", str(league)]]
        steps += [["import_results", "--club", slug, str(league)]]
    for step in steps:
        subprocess.run([*MANAGE, *step], env=env, check=True, cwd=ROOT, capture_output=True)
    with _running_site(folder, env) as url:
        yield url


@pytest.fixture(scope="module")
def club_paths(browser, clubs_site):
    """The list of clubs, and each club's pages: its front pages, a matchday, and a player and a game
    as its pages link to them."""
    paths = ["/", "/?q=north"]
    page = browser.new_page()
    try:
        for slug in ["card-games", *CLUBS]:
            paths += [f"/{slug}/", f"/{slug}/standings/", f"/{slug}/players/", f"/{slug}/matchdays/1/"]
            paths += [f"/{slug}/nights/", f"/{slug}/seasons/", f"/{slug}/methods/"]
            hrefs = []
            for start in (f"/{slug}/players/", f"/{slug}/"):
                page.goto(clubs_site + start)
                hrefs += page.eval_on_selector_all("a[href]", "links => links.map(a => a.getAttribute('href'))")
            paths.append(next(h for h in hrefs if re.fullmatch(rf"/{slug}/players/\d+/", h)))
            paths.append(next(h for h in hrefs if re.fullmatch(rf"/{slug}/games/[\w-]+/", h)))
    finally:
        page.close()
    return paths


@pytest.mark.parametrize("width", [1280, 375])
def test_the_club_list_and_each_clubs_pages_pass_axe_and_fit_the_screen(browser, clubs_site, club_paths, width):
    assert len(club_paths) == 2 + 3 * 9
    assert _check(browser, clubs_site, club_paths, width) == {}


def test_a_member_finds_a_club_from_the_list_and_stays_within_it(page, clubs_site):
    page.goto(clubs_site + "/")
    assert page.locator("table.clubs tbody tr").count() == 3
    page.fill("#club-search", "sud")
    page.click("button[type=submit]")
    assert page.locator("table.clubs tbody tr").count() == 1
    page.click(f"text={CLUBS['south']}")
    assert page.url.endswith("/south/")
    assert page.locator(".site-name").inner_text() == CLUBS["south"]
    hrefs = page.eval_on_selector_all("a[href^='/']", "links => links.map(a => a.getAttribute('href'))")
    assert hrefs and all(h.startswith(("/south/", "/admin/", "/static/")) or h == "/" for h in hrefs)
    screenshot(page, "club-home")
