"""The public pages on a phone, in print and in the dark, in Chromium: what a member reads first is in
view at 375 px, a table that scrolls shows that it does, the pages follow `prefers-color-scheme: dark`
with axe finding no serious violation (contrast included, tooltips too), the standings and a player
page print whole without navigation, and the calculator shows its answer first and one method's
parameters, with JavaScript and without."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from .conftest import MIXED_TEAMS_FROM, screenshot
from .test_league_pages import _axe_violations, _player_url, public_pages

AXE = Axe()
WIDTHS = (1280, 375)
A4_WIDTH = 718  # CSS pixels across an A4 sheet less 1 cm margins (190 mm at 96 px to the inch)
DARK_PAPER = "rgb(20, 24, 30)"  # site.css --paper in the dark


@pytest.fixture(scope="module")
def dark_pages(mixed_site):
    """Every kind of public page of the mixed league (as test_league_pages.py checks them in light)."""
    games = ["hearts", "spades", "pokemon", "solitaire", "codenames"]
    teams = [f"/card-games/matchdays/{MIXED_TEAMS_FROM + n}/" for n in (0, 3)]
    return (
        public_pages(mixed_site, _player_url(mixed_site, "Ada N."), 60, games)
        + teams
        + ["/card-games/calculator/attempts/"]
    )


def _serious(violations: list[dict]) -> list[str]:
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("width", WIDTHS)
def test_the_pages_in_the_dark_pass_axe_and_fit_the_screen(browser, mixed_site, dark_pages, width):
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme="dark")
    page = context.new_page()
    problems = {}
    try:
        for path in dark_pages:
            page.goto(mixed_site + path)
            found = _serious(_axe_violations(page))
            if page.evaluate("getComputedStyle(document.documentElement).backgroundColor") != DARK_PAPER:
                found.append("not dark")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            if overflow > 0:
                found.append(f"scrolls sideways by {overflow}px")
            if found:
                problems[path] = found
    finally:
        context.close()
    assert problems == {}


def test_changes_charts_and_tooltips_take_the_dark_colours(browser, mixed_site):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    page = context.new_page()
    try:
        page.goto(mixed_site + _player_url(mixed_site, "Ada N."))
        screenshot(page, "player-dark", full_page=False)
        colour = "el => getComputedStyle(el).color"
        assert page.locator("td .up").first.evaluate(colour) == "rgb(74, 222, 128)"
        assert page.locator("td .down").first.evaluate(colour) == "rgb(251, 138, 138)"
        line = page.locator(".chart .series polyline").first
        assert line.evaluate("el => getComputedStyle(el).stroke") == "rgb(138, 184, 255)"
        assert page.locator(".chart .point").first.evaluate("el => getComputedStyle(el).fill") == "rgb(138, 184, 255)"
        # A name's tooltip, shown on keyboard focus, is readable in the dark.
        name = page.locator("td a.player").first
        name.focus()
        tip = f'[id="{name.get_attribute("aria-describedby")}"]'
        assert page.locator(tip).is_visible()
        contrast = {"resultTypes": ["violations"], "runOnly": {"type": "rule", "values": ["color-contrast"]}}
        assert AXE.run(page, context={"include": [[tip]]}, options=contrast).response["violations"] == []
    finally:
        context.close()


def _in_view(page, box_selector: str, headers: list[str]) -> list[str]:
    """The headers of the first table in `box_selector` (a scroll box) that lie outside the box, unscrolled."""
    scroll_box = page.locator(box_selector).first
    box = scroll_box.bounding_box()
    outside = []
    for text in headers:
        th = scroll_box.locator("thead th").filter(has_text=re.compile(rf"^{re.escape(text)}$")).first
        cell = th.bounding_box()
        if cell is None or cell["x"] < box["x"] - 1 or cell["x"] + cell["width"] > box["x"] + box["width"] + 1:
            outside.append(text)
    return outside


EXPLAINED = ".table-scroll:has(table.explained)"  # a matchday's changes in a rating table
SHADOW = "el => getComputedStyle(el).boxShadow"


def test_on_a_phone_the_columns_a_member_reads_are_in_view(phone, page, mixed_site):
    phone.goto(mixed_site + "/card-games/standings/")
    assert _in_view(phone, "#overall .table-scroll", ["#", "Player", "Rating", "Last change"]) == []
    for number in (60, MIXED_TEAMS_FROM + 3):  # players alone, and in sides with partial play
        phone.goto(f"{mixed_site}/matchdays/{number}/")
        assert _in_view(phone, EXPLAINED, ["Player", "Placing", "Change", "After"]) == [], number
    # The working beyond the screen: the box scrolls, and a shadow at its edge shows it.
    box = phone.locator(EXPLAINED).first
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")
    assert "inset" in box.evaluate(SHADOW)
    screenshot(phone, "matchday-sides-375", full_page=False)
    # A table with nothing to scroll has no shadow.
    page.goto(mixed_site + "/card-games/standings/")
    whole = page.locator("#overall .table-scroll")
    assert whole.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert whole.evaluate(SHADOW) == "none"


def test_longer_names_never_widen_the_home_page_on_a_phone(phone, mixed_site):
    phone.goto(mixed_site + "/card-games/")
    # The longest short name a member may have, for every leader, and a provisional badge.
    phone.evaluate(
        """() => {
            for (const a of document.querySelectorAll('#leaderboard a.player')) a.textContent = 'Maximilianus';
            const badge = ' <span class="badge">provisional</span>';
            document.querySelector('#leaderboard a.player').insertAdjacentHTML('afterend', badge);
        }"""
    )
    assert phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") == 0
    box = phone.locator("#leaderboard").bounding_box()
    assert box["x"] + box["width"] <= 375
    assert _in_view(phone, "#leaderboard .table-scroll", ["#", "Player", "Rating"]) == []


def _printed(browser, url: str):
    context = browser.new_context(viewport={"width": A4_WIDTH, "height": 1000})
    page = context.new_page()
    page.emulate_media(media="print")
    page.goto(url)
    return context, page


def _clipped(page) -> list[str]:
    """What would not fit on the sheet: a scroll box cutting off its table, or the page wider than it."""
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('.table-scroll')]
            .filter(el => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > innerWidth + 1)
            .map(el => (el.closest('section') || el).id)"""
    )
    if page.evaluate("document.documentElement.scrollWidth") > A4_WIDTH:
        clipped.append("page")
    return clipped


def _hidden_in_print(page) -> None:
    for selector in (".site-header", "nav", ".pager", ".downloads", "form", ".print-link"):
        shown = page.locator(selector).evaluate_all("els => els.filter(el => el.getClientRects().length).length")
        assert shown == 0, selector


def test_the_standings_print_every_player_without_navigation_or_pager(browser, page, league_site):
    page.goto(league_site + "/card-games/standings/")
    assert page.locator("#overall tbody tr").count() == 25
    page.get_by_role("link", name="Every player on one page").click()
    assert "print=1" in page.url
    context, printed = _printed(browser, page.url)
    try:
        assert printed.locator("#overall tbody tr").count() == 45  # every player of the league
        _hidden_in_print(printed)
        assert _clipped(printed) == []
        assert printed.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgb(255, 255, 255)"
        printed.pdf(path=None, format="A4")  # Chromium lays it out on A4 without fault
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_player_page_prints_whole_in_black_on_white(browser, mixed_site, scheme):
    context, printed = _printed(browser, mixed_site + _player_url(mixed_site, "Ada N."))
    try:
        printed.emulate_media(media="print", color_scheme=scheme)
        _hidden_in_print(printed)
        assert _clipped(printed) == []
        assert printed.evaluate("getComputedStyle(document.body).color") == "rgb(0, 0, 0)"
        for header in ("Change", "After"):  # the columns the scroll boxes used to cut off
            cells = printed.locator("section thead th").filter(has_text=re.compile(rf"^{header}$"))
            assert cells.count() > 0
            right = cells.evaluate_all("els => Math.max(...els.map(el => el.getBoundingClientRect().right))")
            assert right <= A4_WIDTH
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_calculator_shows_its_answer_first_and_one_methods_parameters(browser, mixed_site, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        page.goto(mixed_site + "/card-games/calculator/")
        shown = page.locator("fieldset.calc-fields:visible")
        assert shown.count() == 1 and shown.get_attribute("data-method") == "club"
        assert page.locator("button[name=choose]").is_hidden()  # the script shows another method at once
        page.select_option("select[name=method]", "glicko2")
        assert page.locator("fieldset.calc-fields:visible").get_attribute("data-method") == "glicko2"
        page.select_option("select[name=method]", "club")
        page.fill("input[name=players]", "Ada N., gl")  # names found as the entry page finds them, case aside
        page.fill("input[name=placings]", "2, 1")
        page.click("button:text-is('Calculate')")
        answer = page.locator("#answer")
        assert answer.bounding_box()["y"] < 400
        names = answer.locator("tbody td:first-child").all_inner_texts()
        assert len(names) == 2 and names[0] == "Ada N."
        assert page.locator("input[name=ratings]").input_value() != ""
        screenshot(page, f"calculator-{width}", full_page=False)
    finally:
        context.close()


def test_without_javascript_the_calculator_is_a_two_step_form(browser, mixed_site):
    context = browser.new_context(viewport={"width": 375, "height": 800}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(mixed_site + "/card-games/calculator/?method=club&k=40&ratings=1500,1500&placings=1,2")
        page.select_option("select[name=method]", "rating-band")
        page.click("button[name=choose]")
        assert page.locator("fieldset.calc-fields:visible").get_attribute("data-method") == "rating-band"
        assert page.locator(".error").count() == 0  # the club formula's K was let go
        assert page.locator("#answer").is_visible()
    finally:
        context.close()
