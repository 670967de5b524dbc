"""The club site in Chromium: the secretary adds a matchday; members read ratings on hover."""

import re

from .conftest import screenshot
from .test_league_pages import _axe_violations


def overall_row(page, number):
    row = page.locator("#overall table tbody tr").nth(number - 1)
    return [c.strip() for c in row.locator("td").all_inner_texts()]


def test_hovering_a_player_name_shows_their_current_ratings(page, site):
    page.goto(site + "/card-games/")
    tip = page.locator('#overall thead a[data-player="GL"] + .tip')  # beside the link, not in it
    assert not tip.is_visible()
    page.locator('#overall thead a[data-player="GL"]').hover()
    assert tip.is_visible()
    assert re.search(r"Overall\s+1461", tip.inner_text())
    screenshot(page, "home-tooltip")


def test_a_keyboard_user_gets_the_tooltip_on_focus(page, site):
    page.goto(site + "/card-games/standings/")
    name = page.locator("#overall tbody .player").first
    name.focus()
    tip = name.locator("xpath=following-sibling::span[@role='tooltip']")
    assert tip.is_visible()
    assert name.get_attribute("aria-describedby") == tip.get_attribute("id")
    screenshot(page, "standings")


def test_the_secretary_adds_matchday_7_and_every_table_updates(page, site):
    page.goto(site + "/admin/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "secretary-pass-1")
    page.click("input[type=submit]")
    page.goto(site + "/admin/league/matchday/add/")
    assert page.input_value("#id_number") == "7"  # the next number is filled in
    page.fill("#id_date", "2025-11-22")
    page.fill("#id_rounds", "3")
    for row, (player, placing) in enumerate([("I", "2"), ("R", "1"), ("GL", "3"), ("J", "4")]):
        page.select_option(f"#id_results-{row}-player", label=player)
        page.fill(f"#id_results-{row}-placing", placing)
    page.click("input[name=_save]")
    message = page.locator(".messagelist .success", has_text="Ratings updated").inner_text()
    assert "Ratings updated" in message and "R 1492 →" in message
    screenshot(page, "admin-saved")

    page.goto(site + "/card-games/")
    assert overall_row(page, 6)[4:] == ["1521", "1492", "1461", "1494", "1534"]
    seventh = overall_row(page, 7)
    assert seventh[:4] == ["7", "November 22, 2025", "Hearts", "3"]  # not this year's: with the year
    # R won against higher-rated I and J: up; K did not play: unchanged.
    assert int(seventh[5]) > 1492 and seventh[7] == "1494"
    screenshot(page, "home")
    page.goto(site + "/card-games/games/hearts/")
    assert page.locator("#hearts tbody tr").count() == 7

    # R's page shows the new matchday, its explanation and the new rating.
    page.goto(site + "/card-games/")
    page.locator('#overall thead a[data-player="R"]').click()
    assert page.locator("h1").inner_text() == "R"
    history = page.locator("#matchdays tbody tr").first.locator("td").all_inner_texts()  # newest first
    assert history[:4] == ["November 22, 2025", "7", "Hearts", "1 of 4"]  # not this year's: with the year
    change, after = history[4].split()  # Overall's change, the rating after beneath it
    assert change.startswith("+") and after == seventh[5] == history[5].split()[1]
    assert page.locator(".card").first.inner_text().split()[1] == seventh[5]


def test_the_admin_refuses_placings_that_are_not_a_ranking(page, site):
    page.goto(site + "/admin/login/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "secretary-pass-1")
    page.click("input[type=submit]")
    page.goto(site + "/admin/league/matchday/add/")
    page.fill("#id_number", "99")
    page.fill("#id_date", "2025-11-30")
    page.fill("#id_rounds", "2")
    for row, (player, placing) in enumerate([("I", "1"), ("R", "2"), ("GL", "2"), ("K", "3")]):
        page.select_option(f"#id_results-{row}-player", label=player)
        page.fill(f"#id_results-{row}-placing", placing)
    page.click("input[name=_save]")
    assert "Did you mean 1, 2, 2, 4?" in page.locator(".errorlist").first.inner_text()
    page.goto(site + "/card-games/")
    assert "November 30" not in page.inner_text("#overall")


def test_the_admins_forms_with_rows_fit_the_screen_and_name_every_field(browser, site):
    """Whole numbers keep the admin's narrow field and the note a short one (web/fields.py): the
    result rows of a matchday used to push the form 235 px past a 1280 px screen. Each row's field
    carries its column's name (web.pages.club_admin.LabelledRows), and the breadcrumbs' links are
    underlined (static/league/admin.css): axe clean."""
    for width in (1280, 375):
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        try:
            page.goto(site + "/admin/login/")
            page.fill("#id_username", "admin")
            page.fill("#id_password", "secretary-pass-1")
            page.click("input[type=submit]")
            for path in (
                "/admin/league/matchday/",
                "/admin/league/matchday/add/",
                "/admin/league/matchday/1/change/",
                "/admin/league/dealsession/add/",
            ):
                page.goto(site + path)
                assert page.locator("#content h1").is_visible()
                overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
                assert overflow <= 0, f"{path} at {width} px scrolls sideways by {overflow}px"
                serious = [v for v in _axe_violations(page) if v["impact"] in ("serious", "critical")]
                assert not serious, [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in serious]
            screenshot(page, f"admin-matchday-{width}")
        finally:
            context.close()


def test_the_player_page_chart_has_one_point_per_matchday_played(page, site):
    page.goto(site + "/card-games/")
    page.locator('#overall thead a[data-player="J"]').click()
    played = page.locator("#matchdays tbody tr").count()  # every one of J's counts in Overall
    assert played >= 3
    points = page.locator('svg g[data-series="Overall"] circle.point')
    assert points.count() == played
    assert points.first.locator("title").text_content().startswith("Overall, matchday 2, November 6, 2025:")
    box = page.locator(".chart > svg").bounding_box()
    assert box["width"] > 300 and box["height"] > 100
    screenshot(page, "player")


def test_the_matchday_page_explains_each_change(page, site):
    page.goto(site + "/card-games/")
    page.locator("#overall tbody tr").nth(4).locator("td a").first.click()  # matchday 5
    assert page.locator("h1").inner_text() == "Matchday 5"
    assert "4(3)" in page.locator("#results").inner_text()
    # The click leaves the pointer over the first row's name, whose tooltip would join the cell's text.
    page.mouse.move(0, 0)
    first = page.locator("#overall tbody tr").first.locator("td").all_inner_texts()
    # What a member reads first (the change and the rating after), then the working: before, M, E, S, K.
    assert first == ["GL", "1", "+23", "1485", "1462", "1512", "0.43", "1.00", "40"]
    screenshot(page, "matchday")


def test_a_rating_in_the_grid_explains_its_change_on_hover(page, site):
    page.goto(site + "/card-games/")
    cell = page.locator("#overall tbody tr").first.locator("td .played").first
    assert cell.get_attribute("title") == "+35: 1st of 4, expected 0.50, K 70"


def test_the_home_page_does_not_scroll_sideways_on_a_phone(browser, site):
    context = browser.new_context(viewport={"width": 375, "height": 800}, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    try:
        for path, name in [
            ("/card-games/", "home-375"),
            ("/card-games/standings/", "standings-375"),
            ("/card-games/matchdays/5/", "matchday-375"),
        ]:
            page.goto(site + path)
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{path} scrolls sideways by {overflow}px"
            screenshot(page, name)
        # The grid itself is wider than the phone: it scrolls inside its own box.
        page.goto(site + "/card-games/")
        box = page.locator("#overall .table-scroll")
        assert box.evaluate("el => el.scrollWidth > el.clientWidth")
    finally:
        context.close()
