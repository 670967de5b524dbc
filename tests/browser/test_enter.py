"""The secretary enters a game night in Chromium with the keyboard alone, previews, saves."""

import re
import subprocess
from datetime import date, timedelta

import pytest
from playwright.sync_api import expect

from .conftest import MANAGE, ROOT, _running_site, _site_env, screenshot
from .test_league_pages import _axe_violations

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
        # Chromium focuses an autofocus field at a rendering after the load event: expect waits for it.
        expect(page.locator("input[name=rounds]")).to_be_focused()
        if width == 375:  # the night before: the same night again is named as typed twice, and not saved
            page.fill("input[name=date]", (date.today() - timedelta(days=1)).isoformat())
            page.focus("input[name=rounds]")
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
        save = page.locator("button[name=action][value=save]")
        expect(save).to_be_focused()
        expect(save).to_have_text(re.compile(r"^Save matchday"))
        keys.press("Enter")
        page.wait_for_url(re.compile(r".*/enter/\?saved=\d+$"))  # on to the night's next game
        assert keys.extra <= 40, keys.extra
        page.click("main .notice a")  # the matchday saved
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


# Skat: unofficial and in no category, so it counts only in its own table, rated by the table-size
# method, which reads the winner's score and not the rounds. Hearts' tables (the club formula) read the
# rounds and not the winner's score.
SKAT = """
from league.models import Game
from ratings.services.catalogue import save_game
save_game(Game(name="Skat", slug="skat", official=False))
from tests.test_method_tables import use
use("skat", "table-size")
"""


@pytest.fixture(scope="module")
def skat_site(tmp_path_factory):
    """The demo's site with a game whose tables read the winner's score and not the rounds."""
    folder = tmp_path_factory.mktemp("skat")
    env = _site_env(folder)
    for step in (["migrate", "--no-input", "-v0"], ["load_demo"], ["shell", "-c", SKAT]):
        subprocess.run([*MANAGE, *step], env=env, check=True, cwd=ROOT, capture_output=True)
    with _running_site(folder, env) as url:
        yield url


@pytest.mark.parametrize("width", [1280, 375])
def test_the_date_reads_as_its_hint_and_only_the_facts_the_games_tables_read_are_asked(browser, skat_site, width):
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="en-US")
    page = context.new_page()
    try:
        log_in(page, skat_site)
        date_field = page.locator("#id_date")
        # A date picker would show 11/25/2026 in an American browser; the box shows what the hint says.
        assert date_field.get_attribute("type") == "text"
        shown = date_field.input_value()  # today, as the server's clock has it
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", shown) and abs(date.fromisoformat(shown) - date.today()).days <= 1
        assert page.locator("#id_date + .hint").inner_text().startswith("YYYY-MM-DD")
        assert date_field.get_attribute("placeholder") == "YYYY-MM-DD"
        rounds, winner = page.locator("#id_rounds"), page.locator("#id_winner_score")
        assert page.locator("#id_game option:checked").inner_text() == "Hearts"  # the last game played
        assert rounds.is_visible() and not winner.is_visible()  # Hearts: the club formula reads the rounds only
        page.select_option("#id_game", label="Skat")
        assert winner.is_visible() and not rounds.is_visible()  # Skat: table-size reads the winner's score only
        if width == 375:
            screenshot(page, "enter-skat-375")
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, overflow
        serious = [v["id"] for v in _axe_violations(page) if v["impact"] in ("serious", "critical")]
        assert not serious, serious
        # Skat's matchday is entered without rounds (stored as 1), with the winner's score it reads.
        winner.fill("20")
        for n, name in enumerate(("GL", "K", "I"), start=1):
            page.fill(f"#id_line-{n}", name)
        page.click("button[value=preview]")
        page.wait_for_selector("text=check, then save")
        assert "winner's score 20" in page.inner_text("main")
        page.click("button[value=edit]")
        page.wait_for_load_state()  # the form sent back: its script sets which facts show once loaded
        page.select_option("#id_game", label="Hearts")
        expect(rounds).to_be_visible()
        expect(winner).to_be_hidden()
        page.click("button[value=preview]")
        page.wait_for_selector("text=check, then save")
        assert "Hearts · 5 rounds" in page.inner_text("main")  # blank rounds: as Hearts' last matchday
    finally:
        context.close()
