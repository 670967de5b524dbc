"""The public pages: the club's tables and history (`league:`), and the rating methods (`ratings:`).

Each page that may be cached for visitors who are not logged in says which query parameters it
reads (web/page_cache.py): the page numbers of its tables, its choices, its downloads.
"""

from django.urls import include, path

from web.page_cache import cached, canonical
from web.views import deals, enter, league, methods, players


def _page_params(keys) -> set[str]:
    # A section whose key is taken on its page (a game named "Results") gets "-2" (web/views/common.py).
    return {f"{key}{suffix}-page" for key in keys for suffix in ("", "-2")}


def tables_paged(*sections: str, choices: dict[str, set[str]] | None = None):
    """A page whose rating tables each page with `SLUG-page`, with other paged `sections`."""

    def params(query, shape):
        return canonical(query, pages=_page_params({*shape().table_slugs, *sections}), choices=choices, exports=True)

    return params


def paged(*sections: str, choices: dict[str, set[str]] | None = None):
    def params(query, shape):
        return canonical(query, pages=_page_params(sections), choices=choices, exports=True)

    return params


def directory_params(query, shape):
    # A search is whatever anyone types: answered in the request, never stored.
    if query.get("q", "").strip():
        return None
    return canonical(query, pages={"players-page"}, choices={"sort": set(players.SORTS)}, exports=True)


def downloads_only(query, shape):
    return canonical(query, exports=True)


def no_parameters(query, shape):
    return {}


SHOW_ALL = {"all": {"1"}}

league_patterns = [
    path("", cached(league.home, tables_paged("results")), name="home"),
    path("standings/", cached(league.standings, tables_paged(choices=SHOW_ALL)), name="standings"),
    path(
        "games/<slug:slug>/",
        cached(
            league.game,
            tables_paged("standings", "results", "power-rankings", "latest-session", choices=SHOW_ALL),
        ),
        name="game",
    ),
    path(
        "games/<slug:slug>/deals/<str:variant>/<int:level>/<int:number>/",
        cached(deals.deal, paged("attempts")),
        name="deal",
    ),
    path("players/", cached(players.directory, directory_params), name="players"),
    path("players/<int:pk>/", cached(players.player, tables_paged("head-to-head")), name="player"),
    path("matchdays/<int:number>/", cached(league.matchday, downloads_only), name="matchday"),
    path("pages/<slug:slug>/", cached(league.page, no_parameters), name="page"),
    # The secretary's form: never cached (it is for staff, who are never served from the cache anyway).
    path("enter/", enter.enter, name="enter"),
]

ratings_patterns = [
    # The calculators answer whatever is typed into them: cheap, and not worth a cache entry each.
    path("calculator/", methods.calculator, name="calculator"),
    path("calculator.json", methods.calculator_json, name="calculator_json"),
    path("calculator/attempts/", deals.attempts_calculator, name="attempts_calculator"),
    path("calculator/attempts.json", deals.attempts_calculator_json, name="attempts_calculator_json"),
    path("methods/", cached(methods.methods_page, no_parameters), name="methods"),
    # The comparison keeps its own figures per revision (ratings.comparison); its pages are not stored.
    path("compare/", methods.compare, name="compare"),
]

urlpatterns = [
    path("", include((league_patterns, "league"))),
    path("", include((ratings_patterns, "ratings"))),
]
