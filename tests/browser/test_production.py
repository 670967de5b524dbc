"""The site as it runs in production: gunicorn, LEAGUE_PRODUCTION=1, collected static files.

A member's pages and the secretary's admin work in Chromium under the Content Security Policy, with
not one violation in the console; static files are served hashed, compressed and cached for good.
"""

import gzip
import re
import urllib.request

import pytest

from .conftest import GUNICORN, _free_port, production_env, screenshot, serving
from .test_league_pages import WIDTHS, _check

PASSWORD = "secretary-pass-1"


@pytest.fixture(scope="module")
def production_site(tmp_path_factory):
    """A gunicorn server with production settings on a free loopback port, with the demo data."""
    folder = tmp_path_factory.mktemp("production")
    port = _free_port()
    createsuperuser = ["createsuperuser", "--no-input", "--username", "admin", "--email", "admin@club.example"]
    # Cookies without the Secure flag: the browser logs in over plain HTTP.
    env = production_env(folder, port, 2, createsuperuser, SECURE_COOKIES="0", DJANGO_SUPERUSER_PASSWORD=PASSWORD)
    with serving(GUNICORN, env, folder / "gunicorn.log", port) as url:
        yield url


def get(url, **headers):
    return urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10)  # noqa: S310


@pytest.fixture
def watched_page(page):
    """A page whose console messages are collected; CSP violations are reported there."""
    page.console_messages = []
    page.on("console", lambda message: page.console_messages.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: page.console_messages.append(f"pageerror: {error}"))
    return page


def violations(page):
    return [m for m in page.console_messages if "Content Security Policy" in m or m.startswith("pageerror")]


def test_gunicorn_serves_the_pages_with_the_content_security_policy(production_site):
    response = get(production_site + "/card-games/standings/")
    assert response.status == 200
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_behind_an_https_proxy_pages_carry_hsts(production_site):
    response = get(production_site + "/", **{"X-Forwarded-Proto": "https"})
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"


def test_static_files_are_hashed_compressed_and_cached_for_good(production_site):
    html = get(production_site + "/card-games/").read().decode()
    stylesheet = re.search(r'href="(/static/league/site\.[0-9a-f]{12}\.css)"', html)
    assert stylesheet, "the stylesheet's name carries its hash"
    response = get(production_site + stylesheet.group(1), **{"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert "immutable" in response.headers["Cache-Control"]
    assert b"font" in gzip.decompress(response.read())


def test_a_members_pages_load_without_a_policy_violation(production_site, watched_page):
    page = watched_page
    for path in (
        "/card-games/",
        "/card-games/standings/",
        "/card-games/games/hearts/",
        "/card-games/players/1/",
        "/card-games/matchdays/3/",
        "/card-games/pages/laws/",
    ):
        page.goto(production_site + path)
        assert page.locator("main h1, main h2").first.is_visible(), path
    assert violations(page) == []


def test_the_admin_login_changelist_and_matchday_form_work_under_the_policy(production_site, watched_page):
    page = watched_page
    page.goto(production_site + "/admin/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    assert page.locator("#site-name").is_visible()

    page.goto(production_site + "/admin/league/matchday/")
    assert page.locator("#result_list tbody tr").count() == 6
    page.click("#changelist-filter a >> nth=1")  # the game filter, driven by the admin's scripts
    page.locator("#action-toggle").check()  # the select-all box is JavaScript too
    assert page.locator("#result_list tbody tr.selected").count() >= 1

    page.goto(production_site + "/admin/league/matchday/add/")
    assert page.input_value("#id_number") == "7"
    # The calendar and "Today" shortcuts are added by the admin's JavaScript.
    page.click(".datetimeshortcuts a >> text=Today")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", page.input_value("#id_date"))
    rows = page.locator("#results-group tbody tr.form-row:not(.empty-form)")
    assert rows.count() == 4
    page.click("#results-group .add-row a")  # another result row, added by inlines.js
    assert rows.count() == 5
    screenshot(page, "production-admin-matchday-add")
    assert violations(page) == []


def test_repeated_wrong_passwords_lead_to_a_plain_lockout_page(production_site, watched_page):
    page = watched_page
    for _ in range(5):
        page.goto(production_site + "/admin/login/")
        page.fill("#id_username", "intruder")
        page.fill("#id_password", "guess")
        page.click("input[type=submit]")
    assert "Too many failed logins for “intruder”" in page.locator("#content-main").inner_text()
    screenshot(page, "production-admin-locked-out")
    assert violations(page) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_mistyped_address_gets_the_sites_own_not_found_page(browser, production_site, width):
    """Only with DEBUG off (as here) does a member see the site's 404 page rather than Django's."""
    page = browser.new_page(viewport={"width": width, "height": 800})
    try:
        response = page.goto(production_site + "/no-such-page/")
        assert response.status == 404
        assert "There is no page at /no-such-page/." in page.locator("main").inner_text()
    finally:
        page.close()
    assert _check(browser, production_site, ["/no-such-page/", "/card-games/matchdays/9999/"], width, status=404) == {}
