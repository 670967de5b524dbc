"""The public pages: the club's tables and history (`league:`), and the rating methods (`ratings:`)."""

from django.urls import include, path

from web.views import deals, enter, league, methods, players

league_patterns = [
    path("", league.home, name="home"),
    path("standings/", league.standings, name="standings"),
    path("games/<slug:slug>/", league.game, name="game"),
    path("games/<slug:slug>/deals/<str:variant>/<int:level>/<int:number>/", deals.deal, name="deal"),
    path("players/", players.directory, name="players"),
    path("players/<int:pk>/", players.player, name="player"),
    path("matchdays/<int:number>/", league.matchday, name="matchday"),
    path("pages/<slug:slug>/", league.page, name="page"),
    path("enter/", enter.enter, name="enter"),
]

ratings_patterns = [
    path("calculator/", methods.calculator, name="calculator"),
    path("calculator.json", methods.calculator_json, name="calculator_json"),
    path("calculator/attempts/", deals.attempts_calculator, name="attempts_calculator"),
    path("calculator/attempts.json", deals.attempts_calculator_json, name="attempts_calculator_json"),
    path("methods/", methods.methods_page, name="methods"),
    path("compare/", methods.compare, name="compare"),
]

urlpatterns = [
    path("", include((league_patterns, "league"))),
    path("", include((ratings_patterns, "ratings"))),
]
