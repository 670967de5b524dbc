"""The public pages: the club's tables and history (`league:`), and the rating methods (`ratings:`).

Each page that may be cached for visitors who are not logged in says which query parameters it
reads (web/page_cache.py): the page numbers of its tables, its choices, its downloads.
"""

from django.urls import include, path

from web.page_cache import cached, canonical
from web.views import league, methods, players


def tables_paged(*pages: str, choices: dict[str, set[str]] | None = None):
    """A page whose rating tables each page with `SLUG-page`, with other paged tables `pages`."""

    def params(query, shape):
        names = {f"{slug}-page" for slug in shape().table_slugs} | set(pages)
        return canonical(query, pages=names, choices=choices, exports=True)

    return params


def downloads_only(query, shape):
    return canonical(query, exports=True)


def no_parameters(query, shape):
    return {}


league_patterns = [
    path("", cached(league.home, tables_paged("results-page")), name="home"),
    path("standings/", cached(league.standings, tables_paged(choices={"all": {"1"}})), name="standings"),
    path("games/<slug:slug>/", cached(league.game, tables_paged("standings-page", "results-page")), name="game"),
    path("players/<int:pk>/", cached(players.player, tables_paged("head-to-head-page")), name="player"),
    path("matchdays/<int:number>/", cached(league.matchday, downloads_only), name="matchday"),
    path("pages/<slug:slug>/", cached(league.page, no_parameters), name="page"),
]

ratings_patterns = [
    # The calculator answers whatever is typed into it: cheap, and not worth a cache entry each.
    path("calculator/", methods.calculator, name="calculator"),
    path("calculator.json", methods.calculator_json, name="calculator_json"),
    path("methods/", cached(methods.methods_page, no_parameters), name="methods"),
    path("compare/", methods.compare, name="compare"),
]

urlpatterns = [
    path("", include((league_patterns, "league"))),
    path("", include((ratings_patterns, "ratings"))),
]
