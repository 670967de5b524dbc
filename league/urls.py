from django.contrib import admin
from django.urls import include, path

from league import views

league_patterns = [
    path("", views.home, name="home"),
    path("standings/", views.standings, name="standings"),
    path("games/<slug:slug>/", views.game, name="game"),
    path("players/<int:pk>/", views.player, name="player"),
    path("matchdays/<int:number>/", views.matchday, name="matchday"),
    path("pages/<slug:slug>/", views.page, name="page"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include((league_patterns, "league"))),
    path("", include("ratings.urls")),
]

handler400 = "league.views.request_refused"
handler404 = "league.views.not_found"
handler500 = "league.views.server_error"
