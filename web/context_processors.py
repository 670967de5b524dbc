from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils.functional import SimpleLazyObject

from league.models import DealSession, Game, Matchday, Page
from web.pages.access import may_enter


def played_games() -> list[Game]:
    """The games played so far, by name: a step into the matchdays' and sessions' game index per game,
    not a DISTINCT over every matchday."""
    played = Exists(Matchday.objects.filter(game=OuterRef("pk"))) | Exists(
        DealSession.objects.filter(game=OuterRef("pk"))
    )
    return list(Game.objects.filter(played).order_by("name"))


def navigation(request):
    """The site's name and navigation for every page; lazy, so a page without them costs no query."""
    club = getattr(request, "club", None)
    return {
        "club": club,
        "league_name": club.name if club is not None else settings.LEAGUE_NAME,
        "nav_games": SimpleLazyObject(played_games),
        "nav_pages": SimpleLazyObject(lambda: list(Page.objects.all())),
        # The list of clubs, when there are others to find (with one, `/` is that club's home page).
        "nav_clubs": getattr(request, "several_clubs", False),
        # Staff's link to the entry page; a visitor's page never asks (web.pages.access.may_enter).
        "nav_enter": SimpleLazyObject(lambda: may_enter(request)),
    }
