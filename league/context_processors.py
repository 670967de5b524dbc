from django.conf import settings
from django.utils.functional import SimpleLazyObject

from league.models import Game, Page


def navigation(request):
    """The site's name and navigation for every page; lazy, so a page without them costs no query."""
    return {
        "league_name": settings.LEAGUE_NAME,
        "nav_games": SimpleLazyObject(lambda: list(Game.objects.filter(matchdays__isnull=False).distinct())),
        "nav_pages": SimpleLazyObject(lambda: list(Page.objects.all())),
    }
