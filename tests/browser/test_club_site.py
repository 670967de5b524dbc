"""The club site in Chromium: the secretary adds a matchday; members read ratings on hover."""

import re

from .conftest import screenshot


def overall_row(page, number):
    row = page.locator("#overall table tbody tr").nth(number - 1)
    return [c.strip() for c in row.locator("td").all_inner_texts()]


def test_hovering_a_player_name_shows_their_current_ratings(page, site):
    page.goto(site + "/")
    tip = page.locator("#overall thead .player", has_text="GL").locator(".tip")
    assert not tip.is_visible()
    page.locator("#overall thead .player", has_text="GL").hover()
    assert tip.is_visible()
    assert re.search(r"Overall\s+1461", tip.inner_text())
    screenshot(page, "home-tooltip")


def test_a_keyboard_user_gets_the_tooltip_on_focus(page, site):
    page.goto(site + "/standings/")
    name = page.locator("#overall tbody .player").first
    name.focus()
    tip = name.locator(".tip")
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

    page.goto(site + "/")
    assert overall_row(page, 6)[4:] == ["1521", "1492", "1461", "1494", "1534"]
    seventh = overall_row(page, 7)
    assert seventh[:4] == ["7", "November 22", "Hearts", "3"]
    # R won against higher-rated I and J: up; K did not play: unchanged.
    assert int(seventh[5]) > 1492 and seventh[7] == "1494"
    screenshot(page, "home")
    page.goto(site + "/games/hearts/")
    assert page.locator("#hearts tbody tr").count() == 7


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
    page.goto(site + "/")
    assert "November 30" not in page.inner_text("#overall")
