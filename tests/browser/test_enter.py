"""The secretary enters a game night in Chromium with the keyboard alone, previews, saves."""

import re

import pytest

from .conftest import screenshot

NAMES_AND_PLACINGS = set("GLKIJR")  # the characters of the names typed below


class Keyboard:
    """Types into the page and counts the keystrokes that are not characters of names or placings."""

    def __init__(self, page):
        self.page = page
        self.extra = 0

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.extra += sum(1 for ch in text if ch not in NAMES_AND_PLACINGS)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.extra += 1


def log_in(page, site):
    page.goto(f"{site}/admin/login/?next=/enter/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "secretary-pass-1")
    page.click("input[type=submit]")
    page.wait_for_url(re.compile(r".*/enter/$"))


@pytest.mark.parametrize("width", [1280, 375])
def test_a_game_night_is_entered_with_the_keyboard_in_under_40_keystrokes(browser, site, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        log_in(page, site)
        page.goto(f"{site}/enter/")
        keys = Keyboard(page)
        # The date (today) and the game (the last one played) are filled in; the cursor is in Rounds.
        assert page.evaluate("document.activeElement.name") == "rounds"
        keys.type("3")
        for line in ("GL", "K = I", "J", "R left early"):
            keys.press("Tab")
            keys.type(line)
        keys.press("Enter")
        page.wait_for_selector("text=check, then save")
        preview = page.inner_text("main")
        assert "Overall rating" in preview and "Hearts rating" in preview
        assert re.search(r"R\s+5\s", preview)  # R, 5th of 5, rated last
        if width == 1280:
            screenshot(page, "enter-preview")
        assert page.evaluate("document.activeElement.textContent").startswith("Save matchday")
        keys.press("Enter")
        page.wait_for_url(re.compile(r".*/matchdays/\d+/$"))
        assert keys.extra <= 40, keys.extra
        results = page.inner_text("#results")
        assert re.search(r"1\s+GL", results) and re.search(r"5\s+R", results)
    finally:
        context.close()


def test_the_admin_csv_upload_previews_then_imports(browser, site, tmp_path):
    csv_file = tmp_path / "night.csv"
    csv_file.write_text(
        "matchday,date,game,rounds,player,placing,rated_placing,left_early\n"
        "50,2025-11-29,Hearts,2,GL,1,,\n50,2025-11-29,Hearts,2,Newbie,2,,\n50,2025-11-29,Hearts,2,J,3,,1\n"
    )
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        log_in(page, site)
        page.goto(f"{site}/admin/league/matchday/")
        page.click("text=Import CSV")
        page.set_input_files("#id_file", str(csv_file))
        page.click("input[value=Preview]")
        preview = page.locator(".import-preview").inner_text()
        assert "1 matchday with 3 results; new players Newbie." in preview
        screenshot(page, "admin-import-preview")
        other = context.new_page()
        assert other.goto(f"{site}/matchdays/50/").status == 404  # nothing saved by the preview
        other.close()
        page.click("input[value=Import]")
        assert "Imported: 1 matchday with 3 results" in page.locator(".messagelist").inner_text()
        page.goto(f"{site}/matchdays/50/")
        assert "Newbie" in page.locator("main").inner_text()
    finally:
        context.close()
