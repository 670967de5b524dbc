"""Team matchdays for the mixed league (tests/conftest.py's `mixed_league`, the browser tests'
`mixed_site`): the same members play Spades two against two and Codenames five against four, some
joining late (weight 0.5); Codenames is rated by TrueSkill's teams, Spades by openskill's.

`setup_team_tables` runs before the import, inside the site's own process too: `manage.py shell -c "from
tests.team_play import setup_team_tables; setup_team_tables()"`.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

TEAM_COLUMNS = ["matchday", "date", "game", "rounds", "player", "placing", "rated_placing", "side", "weight"]
TEAM_MATCHDAYS = 8  # alternately Spades (2 against 2) and Codenames (5 against 4)
TABLE_METHODS = {"codenames": "trueskill", "spades": "openskill"}


def team_matchdays(first: int, start: date, names: list[str], seed: int = 25) -> list[list]:
    """Rows of TEAM_COLUMNS: matchdays numbered from `first`, a day apart from `start`, each with
    `names[0]` on one side (their page has partners). Every second Codenames matchday has a player on
    each side at weight 0.5."""
    rng = random.Random(seed)
    rows = []
    for i in range(TEAM_MATCHDAYS):
        number, day = first + i, (start + timedelta(days=i)).isoformat()
        game, sizes = ("Spades", (2, 2)) if i % 2 == 0 else ("Codenames", (5, 4))
        players = [names[0], *rng.sample(names[1:], sum(sizes) - 1)]
        rng.shuffle(players)
        placings = rng.choice([(1, 2), (2, 1)])
        partial = game == "Codenames" and i % 4 == 3
        at = 0
        for side, size, placing in zip("AB", sizes, placings, strict=True):
            for n, player in enumerate(players[at : at + size]):
                weight = 0.5 if partial and n == 0 else 1
                rows.append([number, day, game, 1, player, placing, "", side, weight])
            at += size
    return rows


def setup_team_tables() -> None:
    """Rate Codenames (made here if need be) and Spades by the libraries' teams: run before the team
    matchdays are imported, as a table's method is changed only where it can rate every matchday."""
    from league.models import Game
    from ratings.models import RatingTable
    from ratings.services.catalogue import save_game
    from ratings.services.rating_tables import save_rating_table

    if not Game.objects.filter(slug="codenames").exists():
        save_game(Game(name="Codenames", slug="codenames"))
    for slug, method in TABLE_METHODS.items():
        table = RatingTable.objects.get(slug=slug)
        table.method, table.whole_numbers = method, False  # mu - 3 sigma, to a tenth
        save_rating_table(table)
