"""The calculator, methods and compare pages in Chromium: no sideways scroll on a phone, and no
serious or critical accessibility violation (axe-core, when axe-playwright-python is installed)."""

import pytest

from tests.browser.conftest import screenshot

PAGES = {
    "methods": "/card-games/methods/",
    "calculator": "/card-games/calculator/?method=glicko2&ratings=1500,1400,1550,1700&placings=3,4,2,1"
    "&deviations=200,30,100,300&games=A:1+B:2+C:3%0AA:2+B:1&start=A%3D1613,+B%3D1609",
    "compare": "/card-games/compare/?table=overall",
}


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("name", list(PAGES))
def test_the_rating_method_pages_fit_a_phone_and_pass_axe(browser, site, name, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        page.goto(site + PAGES[name])
        sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert sideways <= 0, f"{name} scrolls {sideways} px sideways at {width} px"
        screenshot(page, f"{name}-{width}")
        try:
            from axe_playwright_python.sync_playwright import Axe
        except ImportError:
            return  # the site-wide browser tests run axe on every page; here it is a bonus
        results = Axe().run(page)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in serious]
    finally:
        context.close()
