"""A reproducible synthetic league, row by row in the import format (see league.importing)."""

from __future__ import annotations

import random
from datetime import date, timedelta

from league.validation import Entry, competition_ranking, matchday_problems

# Official games and one unofficial one (the benchmark creates it as unofficial before importing).
GAMES = [("Hearts", 6), ("Spades", 3), ("Pokemon", 1)]
UNOFFICIAL_GAME = "Pokemon"
MATCHDAYS_PER_DAY = 8


def first_day(matchdays: int, today: date | None = None) -> date:
    """The start that puts the last of `matchdays` on `today`: a league is never in the future."""
    return (today or date.today()) - timedelta(days=(matchdays - 1) // MATCHDAYS_PER_DAY)


def last_day(matchdays: int, start: date) -> date:
    return start + timedelta(days=(matchdays - 1) // MATCHDAYS_PER_DAY)


def generate(players: int, matchdays: int, seed: int, first: int = 1, start: date | None = None):
    """Yield CSV rows: 3-6 players a matchday, some ties, some penalised placings, 1-10 rounds;
    matchdays numbered from `first`, eight a day from `start` (by default, so that the last is
    today)."""
    start = start or first_day(matchdays)
    rng = random.Random(seed)
    names = [f"P{i:05d}" for i in range(1, players + 1)]
    games = [name for name, weight in GAMES for _ in range(weight)]
    for i in range(matchdays):
        number = first + i
        day = (start + timedelta(days=i // MATCHDAYS_PER_DAY)).isoformat()
        game = rng.choice(games)
        rounds = rng.randint(1, 10)
        table = rng.sample(names, rng.randint(3, min(6, players)))
        # Finishing order with the occasional tie: a player ties the one before with chance 1/8.
        order, level = [], 0
        for i in range(len(table)):
            if i == 0 or rng.random() >= 0.125:
                level = i + 1
            order.append(level)
        placings = competition_ranking(order)
        rated = [None] * len(table)
        if rng.random() < 0.05:  # someone left early and is rated last, where that still ranks
            who = rng.randrange(len(table))
            rated[who] = len(table)
            entries = [Entry("", p, pl, r) for p, pl, r in zip(table, placings, rated, strict=True)]
            if rated[who] == placings[who] or matchday_problems(entries):
                rated[who] = None
        for player, placing, rated_placing in zip(table, placings, rated, strict=True):
            yield [number, day, game, rounds, player, placing, "" if rated_placing is None else rated_placing]
