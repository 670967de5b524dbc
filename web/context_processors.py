from django.conf import settings
from django.utils.functional import SimpleLazyObject

from league.models import DealSession, Game, Matchday, Page
from web.entry import may_enter

# The games played so far, by name: EXISTS per game rather than a DISTINCT over every matchday,
# written out because every page's cold render paid more for the ORM's compilation of it than for
# running it. Only the models' own table names are written in.
PLAYED_GAMES = (
    f"SELECT g.* FROM {Game._meta.db_table} g"  # noqa: S608
    f" WHERE EXISTS (SELECT 1 FROM {Matchday._meta.db_table} m WHERE m.game_id = g.id)"
    f" OR EXISTS (SELECT 1 FROM {DealSession._meta.db_table} s WHERE s.game_id = g.id) ORDER BY g.name"
)


def navigation(request):
    """The site's name and navigation for every page; lazy, so a page without them costs no query."""
    return {
        "league_name": settings.LEAGUE_NAME,
        "nav_games": SimpleLazyObject(lambda: list(Game.objects.raw(PLAYED_GAMES))),
        "nav_pages": SimpleLazyObject(lambda: list(Page.objects.all())),
        # Staff's link to the entry page; a visitor's page never asks (web.entry.may_enter).
        "nav_enter": SimpleLazyObject(lambda: may_enter(request)),
    }
