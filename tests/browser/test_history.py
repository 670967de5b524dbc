"""The secretary reads the club's history, previews a revert and reverts, in Chromium at a desk's
and a phone's width: axe clean, no sideways scroll."""

import re

import pytest

from .test_enter import log_in
from .test_league_pages import _axe_violations


def _serious(page) -> list[str]:
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in _axe_violations(page)
        if v["impact"] in ("serious", "critical")
    ]


def _sideways(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.parametrize("width", [1280, 375])
def test_a_save_is_in_the_history_and_its_revert_is_previewed_then_done(browser, site, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        log_in(page, site)
        page.fill("input[name=rounds]", "3")
        for number, line in enumerate(("GL", "K = I left early", "J"), start=1):
            page.fill(f"input[name=line-{number}]", line)
        page.click("button[value=preview]")
        page.fill("#id_reason", "Friday's sheet")
        page.click("button[value=save]")
        page.wait_for_url(re.compile(r".*/enter/\?saved=\d+$"))  # on to the night's next game
        number = page.url.rsplit("=", 1)[1]
        page.click("nav summary:text('More')")  # the menu's rarer pages are behind More
        page.click("nav >> text=History")
        entry = page.locator("article.history-entry").first
        assert f"Matchday {number}" in entry.inner_text() and "“Friday's sheet”" in entry.inner_text()
        assert "K = I left early" in entry.inner_text()
        assert _serious(page) == [] and _sideways(page) <= 0
        entry.locator("text=Revert this…").click()
        page.wait_for_selector("text=What reverting changes")
        assert _serious(page) == [] and _sideways(page) <= 0
        page.fill("#id_reason", "Entered twice")
        page.click("button[value=revert]")
        page.wait_for_selector("text=Reverted: Matchday")
        assert "This undid" in page.locator("article.history-entry").first.inner_text()
        assert page.goto(f"{site}/card-games/matchdays/{number}/").status == 404
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 375])
def test_a_saved_matchday_opens_as_lines_and_its_change_is_previewed_with_what_it_moves(browser, site, width):
    """Previewed only: the demo's numbers stay as the other tests read them."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        log_in(page, site)
        page.goto(f"{site}/card-games/")
        page.locator("a[href*='/matchdays/']").first.click()
        number = page.url.rstrip("/").rsplit("/", 1)[1]
        page.click("text=Change or delete this matchday")
        page.wait_for_selector(f"h1:has-text('Change matchday {number}')")
        assert page.input_value("input[name=line-1]") != ""
        assert _serious(page) == [] and _sideways(page) <= 0
        page.fill("input[name=rounds]", "1")
        page.click("button[value=preview]")
        page.wait_for_selector("text=What saving changes")
        text = page.inner_text("main")
        assert "rated again." in text and "→" in text
        assert _serious(page) == [] and _sideways(page) <= 0
        page.goto(f"{site}/card-games/enter/?matchday={number}")
        page.click("button[value=delete-preview]")
        page.wait_for_selector("text=What deleting changes")
        assert _serious(page) == [] and _sideways(page) <= 0
    finally:
        context.close()
