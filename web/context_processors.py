from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils.functional import SimpleLazyObject

from league.models import DealSession, Game, Matchday, Page


def navigation(request):
    """The site's name and navigation for every page; lazy, so a page without them costs no query."""
    return {
        "league_name": settings.LEAGUE_NAME,
        # EXISTS per game rather than a DISTINCT over every matchday.
        "nav_games": SimpleLazyObject(
            lambda: list(
                Game.objects.filter(
                    Exists(Matchday.objects.filter(game=OuterRef("pk")))
                    | Exists(DealSession.objects.filter(game=OuterRef("pk")))
                )
            )
        ),
        "nav_pages": SimpleLazyObject(lambda: list(Page.objects.all())),
    }
