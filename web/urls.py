"""The site's addresses: the admin, the list of clubs, and a club's pages under /<slug>/: its tables
and history (`league:`) and the rating methods (`ratings:`).

Only routes: a page that may be cached for visitors who are not logged in declares the query
parameters it reads beside its view (web/page_cache/params.py: `cached_page`). A request for a
club's page gets `site_patterns(slug)` as its URL configuration (web.clubs.addresses).
"""

from django.contrib import admin
from django.urls import include, path, re_path

from web.api import site as api
from web.clubs import views as clubs
from web.deals import views as deals
from web.entry import views as enter
from web.history import views as history
from web.league import views as league
from web.methods import views as methods
from web.nights import views as nights
from web.odds import views as odds
from web.players import views as players
from web.seasons import views as seasons

league_patterns = [
    path("", league.home, name="home"),
    path("standings/", league.standings, name="standings"),
    path("games/<slug:slug>/", league.game, name="game"),
    path("games/<slug:slug>/deals/<str:variant>/<int:level>/<int:number>/", deals.deal, name="deal"),
    path("players/", players.directory, name="players"),
    path("players/<int:pk>/", players.player, name="player"),
    path("matchdays/<int:number>/", league.matchday, name="matchday"),
    path("nights/", nights.night_list, name="nights"),
    path("nights/<str:day>/", nights.night, name="night"),
    path("pages/<slug:slug>/", league.page, name="page"),
    path("seasons/", seasons.season_list, name="seasons"),
    path("seasons/<slug:slug>/", seasons.season, name="season"),
    path("honours/", seasons.honours, name="honours"),
    # The secretary's form: never cached (it is for staff, who are never served from the cache anyway).
    path("enter/", enter.enter, name="enter"),
    path("history/", history.history, name="history"),
    path("history/<int:pk>/revert/", history.revert_write, name="revert"),
]

ratings_patterns = [
    # The calculators answer whatever is typed into them: cheap, and not worth a cache entry each.
    path("calculator/", methods.calculator, name="calculator"),
    path("calculator.json", methods.calculator_json, name="calculator_json"),
    path("calculator/attempts/", deals.attempts_calculator, name="attempts_calculator"),
    path("calculator/attempts.json", deals.attempts_calculator_json, name="attempts_calculator_json"),
    path("methods/", methods.methods_page, name="methods"),
    path("odds/", odds.odds, name="odds"),
    # The comparison keeps its own figures per revision (ratings.comparison); its pages are not stored.
    path("compare/", methods.compare, name="compare"),
]

club_patterns = [
    path("", include((league_patterns, "league"))),
    path("", include((ratings_patterns, "ratings"))),
]

HANDLERS = {
    "handler400": "web.pages.errors.request_refused",
    "handler404": "web.pages.errors.not_found",
    "handler500": "web.pages.errors.server_error",
}


def site_patterns(club: str | None = None) -> list:
    """The site's addresses; with a club's slug, that club's pages under /<slug>/ too."""
    patterns = [path("admin/", admin.site.urls), path("", clubs.club_list, name="clubs")]
    # The API (web/api/): its club addresses are /api/<slug>/..., scoped and cached as the club's.
    patterns += [
        path("api/", api.index, name="api"),
        path("api/docs", api.docs, name="api_docs"),
        path("api/", api.URLS),
        re_path(r"^api/(?P<rest>.*)$", api.not_an_api_address, name="not_an_api_address"),
    ]
    if club is not None:
        patterns.append(path(f"{club}/", include(club_patterns)))
    # Last: today's addresses of a one-club site (/standings/) lead to that club's.
    patterns.append(re_path(r"^(?P<rest>.+)$", clubs.old_address, name="old_address"))
    return patterns
