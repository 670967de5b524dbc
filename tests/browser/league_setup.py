"""The generated league of the browser tests: 45 players with full names, 600 matchdays of Hearts,
Spades and Pokemon (unofficial, in its own category, as `manage.py benchmark` sets it up).

Run inside the site's own process: `manage.py shell -c "from tests.browser.league_setup import build;
build('league.csv')"`.
"""

from pathlib import Path

from league import services as league_services
from league.models import Category, Game, Player
from ratings.services.catalogue import save_category, save_game
from tools.generate import UNOFFICIAL_GAME, full_name
from web.importing import import_results


def build(csv_path: str) -> None:
    category = Category(slug="trading-card-games", name="Trading card games")
    save_category(category)
    save_game(Game(name=UNOFFICIAL_GAME, slug=UNOFFICIAL_GAME.lower(), category=category, official=False))
    import_results(Path(csv_path).read_bytes())
    for player in Player.objects.all():
        player.name = full_name(int(player.short_name[1:]))
        league_services.save_player(player)
