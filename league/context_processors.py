from django.conf import settings
from django.utils.functional import SimpleLazyObject

from league.models import Game, Page


def navigation(request):
    """The site's name, navigation and rating tooltips for every page.

    Everything is lazy: a page that shows no navigation or player name costs no query.
    """
    from league.views import player_names

    return {
        "league_name": settings.LEAGUE_NAME,
        "nav_games": SimpleLazyObject(lambda: list(Game.objects.filter(matchdays__isnull=False).distinct())),
        "nav_pages": SimpleLazyObject(lambda: list(Page.objects.all())),
        "player_names": SimpleLazyObject(lambda: player_names(request)),
    }
