"""A generated solitaire league in Chromium: the game's standings, its variant × level grid, power
rankings, deal pages and the player page's explained attempts, at 1280 and 375 px."""

import os
import re
import subprocess
import sys

import pytest

from .conftest import ROOT, _free_port, screenshot, serving

EXPLANATION = re.compile(
    r"^(won|lost) deal \d+ \(\d+x\d+ level \d+(, rated \d+\): expected [01]\.\d\d, [+\u2212±]\d+\.\d\d|: .+)$"
)


@pytest.fixture(scope="module")
def solitaire_site(tmp_path_factory):
    """A site holding only a generated solitaire league: 2,000 attempts by 40 players, seeded deals."""
    folder = tmp_path_factory.mktemp("solitaire")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "DEBUG": "1",
        "LEAGUE_PRODUCTION": "",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    attempts, seeds = folder / "attempts.csv", folder / "seeds.csv"
    for command in (
        ["migrate", "--no-input", "-v0"],
        [
            "generate_league",
            "--solitaire",
            "--attempts",
            "2000",
            "--players",
            "40",
            "--seeds",
            str(seeds),
            str(attempts),
        ],
        ["seed_deals", str(seeds)],
        ["import_attempts", str(attempts)],
    ):
        subprocess.run([*manage, *command], env=env, check=True, cwd=ROOT, capture_output=True)
    port = _free_port()
    with serving([*manage, "runserver", "--noreload", f"127.0.0.1:{port}"], env, folder / "server.log", port) as url:
        yield url


@pytest.fixture(params=[1280, 375], ids=["1280px", "375px"])
def width(request):
    return request.param


@pytest.fixture
def sized_page(browser, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    yield page
    context.close()


def no_sideways_scroll(page):
    # A click only waits for the next page to start loading; measured before its stylesheet has
    # arrived, the unstyled page is a few pixels wider than a phone (CI caught it, 3 px).
    page.wait_for_load_state("load")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow}px"


def texts(locator):
    return [t.strip() for t in locator.all_inner_texts()]


def test_the_games_page_shows_standings_grid_and_power_rankings(sized_page, solitaire_site, width):
    page = sized_page
    page.goto(solitaire_site + "/card-games/games/solitaire/")
    no_sideways_scroll(page)
    assert page.locator("h1").inner_text() == "Solitaire"
    standings = page.locator("#standings tbody tr")
    assert 0 < standings.count() <= 25
    ratings = [float(row.locator("td").nth(2).inner_text()) for row in standings.all()]
    assert ratings == sorted(ratings, reverse=True)
    hidden_notice = page.locator("#standings .notice")
    assert "are hidden" in hidden_notice.inner_text()

    assert texts(page.locator("#levels thead th")) == ["Variant", *map(str, range(5, 13))]
    assert texts(page.locator("#levels tbody td.sticky")) == ["5x4", "6x4", "7x4", "8x4", "9x4", "10x4"]
    cell = page.locator("#levels tbody tr").nth(3).locator(".played").first
    assert re.fullmatch(r"\d+ deals?, \d+ rated attempts", cell.get_attribute("title"))

    power = page.locator("#power-rankings tbody tr")
    assert power.count() == 25  # 48 variants and levels, a page of 25
    products = [float(row.locator("td").nth(5).inner_text()) for row in power.all()]
    assert products == sorted(products, reverse=True)
    first = texts(power.first.locator("td"))
    win_rate, average = float(first[3].rstrip("%")) / 100, float(first[4])
    assert abs(win_rate * average - products[0]) < 0.01 * average
    screenshot(page, f"solitaire-{width}")

    page.locator("#standings .notice a").click()  # Show everyone
    no_sideways_scroll(page)  # waits for the page to load
    assert hidden_notice.inner_text().startswith("Showing everyone.")
    assert standings_shown(page) > standings_shown(page, solitaire_site + "/card-games/games/solitaire/")


def standings_shown(page, url=None):
    """How many players the standings list over all their pages, following its Next links from
    `url` (or from the page as it is)."""
    if url:
        page.goto(url)
    shown = page.locator("#standings tbody tr").count()
    while (following := page.locator("#standings a[rel=next]")).count():
        following.click()
        page.wait_for_load_state("load")
        shown += page.locator("#standings tbody tr").count()
    return shown


def test_a_deal_page_shows_its_history_and_attempts(sized_page, solitaire_site, width):
    page = sized_page
    page.goto(solitaire_site + "/card-games/games/solitaire/")
    link = page.locator("#latest-session tbody a[href*='/deals/']").first
    label = link.inner_text()
    link.click()
    number = re.match(r"deal (\d+)", label).group(1)
    assert page.locator("h1").inner_text().startswith(f"Deal {number}")
    no_sideways_scroll(page)
    assert page.locator("#attempts tbody tr").count() >= 1
    assert page.locator(".chart svg circle.point").count() >= 1 or "no rating yet" in page.inner_text("main")
    screenshot(page, f"solitaire-deal-{width}")


def test_the_player_page_explains_each_attempt(sized_page, solitaire_site, width):
    page = sized_page
    page.goto(solitaire_site + "/card-games/games/solitaire/")
    page.locator("#standings tbody a.player").first.click()
    no_sideways_scroll(page)
    section = page.locator("#solitaire")
    assert "Solitaire: every attempt" in section.locator("h2").inner_text()
    header = texts(section.locator("thead th"))
    lines = texts(section.locator(f"tbody tr td:nth-child({header.index('What happened') + 1})"))
    assert lines and all(EXPLANATION.match(line) for line in lines), lines[:3]
    assert page.locator('svg g[data-series="Solitaire"] circle.point').count() >= 1
    assert re.search(r"\d+ attempts?", page.locator(".card").first.inner_text())
    screenshot(page, f"solitaire-player-{width}")


def test_what_happened_rates_a_pasted_night(sized_page, solitaire_site, width):
    page = sized_page
    page.goto(solitaire_site + "/card-games/calculator/")
    page.locator("a", has_text="What happened?").click()
    page.fill("textarea[name=attempts]", "1500, 1000, W\n1000, L")
    page.click("button[type=submit]")
    first = texts(page.locator("#steps tbody tr").first.locator("td"))
    assert first[1:3] == ["1500.00", "1000.00"] and first[6:8] == ["+0.43", "1500.43"]
    no_sideways_scroll(page)
    screenshot(page, f"solitaire-calculator-{width}")
