"""Score sheets for the mixed league (tests/conftest.py's `mixed_league`): Rummy, won with the most
points, entered as points only (the placings follow from them), some nights with equal points, one
night in pairs (partners share their side's points) and one with a player who left early."""

from __future__ import annotations

import random
from datetime import date, timedelta

SCORE_COLUMNS = [
    "matchday",
    "date",
    "game",
    "rounds",
    "player",
    "placing",
    "rated_placing",
    "left_early",
    "side",
    "score",
]
SCORE_MATCHDAYS = 6


def score_matchdays(first: int, start: date, names: list[str], seed: int = 26) -> list[list]:
    """Rows of SCORE_COLUMNS: Rummy matchdays numbered from `first`, a day apart from `start`, with
    `names[0]` at every one (their page shows points). The placing is left blank: the points give it."""
    rng = random.Random(seed)
    rows = []
    for i in range(SCORE_MATCHDAYS):
        number, day = first + i, (start + timedelta(days=i)).isoformat()
        players = [names[0], *rng.sample(names[1:], 3)]
        points = [rng.randrange(-20, 120, 5) for _ in players]
        if i == 1:
            points[2] = points[1]  # equal points share a place
        sides = ["A", "A", "B", "B"] if i == 2 else [""] * 4
        if i == 2:
            points[1], points[3] = points[0], points[2]
        for n, (player, score) in enumerate(zip(players, points, strict=True)):
            left = "1" if i == 3 and n == 3 else ""
            rows.append([number, day, "Rummy", 1, player, "", "", left, sides[n], score])
    return rows


def setup_score_sheets() -> None:
    """Rummy, won with the most points: made before its matchdays are imported."""
    from league.models import Game
    from league.placings import HIGHEST_WINS
    from ratings.services.catalogue import save_game

    if not Game.objects.filter(slug="rummy").exists():
        save_game(Game(name="Rummy", slug="rummy", scoring=HIGHEST_WINS))
