"""The API's docs page in Chromium, under production's Content-Security-Policy (gunicorn,
LEAGUE_PRODUCTION=1): our own HTML from the schema, which loads nothing from elsewhere, shows
every address, breaks no rule of the policy, and passes axe at 1280 and 375 px without scrolling
sideways."""

from .test_league_pages import WIDTHS, _check
from .test_production import production_site, violations, watched_page  # noqa: F401 (fixtures)


def test_the_api_docs_page_works_under_the_policy(browser, production_site, watched_page):  # noqa: F811
    page = watched_page
    page.goto(production_site + "/api/docs")
    assert page.locator("main h1").first.is_visible()
    assert page.locator("main h2").count() == 9  # eight addresses, one with a write too
    assert page.get_by_text("POST /api/{club}/matchdays/").is_visible()
    page.goto(production_site + "/api/openapi.json")
    assert '"openapi"' in page.content()
    assert violations(page) == []
    for width in WIDTHS:
        assert _check(browser, production_site, ["/api/docs"], width) == {}, width
