"""A reproducible synthetic league, row by row in the import format (see league.importing)."""

from __future__ import annotations

import random
from datetime import date, timedelta

from league.placings import competition_ranking, matchday_problems
from league.results import Play, TypedResult

# Official games and one unofficial one (the benchmark creates it as unofficial before importing).
GAMES = [("Hearts", 6), ("Spades", 3), ("Pokemon", 1)]
UNOFFICIAL_GAME = "Pokemon"
# With sides, one matchday in three is played in them: Spades in pairs, or a team game of 5 against 4.
TEAM_GAMES = [("Spades", (2, 2)), ("Codenames", (5, 4))]
TEAM_SHARE = 3
MATCHDAYS_PER_DAY = 8

FIRST_NAMES = ["Ada", "Bruno", "Carla", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Katya", "Luis"]
LAST_NAMES = ["Novak", "Okafor", "Petersen", "Quintero", "Rossi", "Svoboda", "Tanaka", "Ueda", "Varga", "Weiss"]
LAST_NAMES += ["Yilmaz"]  # eleven, prime to twelve: the pairs below are all different for 132 members


def _first_and_last(index: int) -> tuple[str, str]:
    last = (index * 5 + index // len(FIRST_NAMES)) % len(LAST_NAMES)
    return FIRST_NAMES[index % len(FIRST_NAMES)], LAST_NAMES[last]


def full_name(index: int) -> str:
    """A reproducible full name for the `index`-th generated member (no two alike among the first 132)."""
    return " ".join(_first_and_last(index))


def people(count: int) -> list[str]:
    """`count` short names as a club writes them ("Ada N."), all different; past 132, numbered names."""
    named = min(count, len(FIRST_NAMES) * len(LAST_NAMES))
    names = [f"{first} {last[0]}." for first, last in map(_first_and_last, range(named))]
    return names + [f"P{i:05d}" for i in range(named + 1, count + 1)]


def numbered(count: int) -> list[str]:
    return [f"P{i:05d}" for i in range(1, count + 1)]


def spread(i: int, count: int, start: date, end: date | None) -> date:
    """The date of the `i`-th of `count` events from `start`: evenly over `start`..`end` when an end
    is given, else eight a day."""
    if end is None:
        return start + timedelta(days=i // MATCHDAYS_PER_DAY)
    return start + timedelta(days=i * ((end - start).days + 1) // max(count, 1))


def first_day(matchdays: int, today: date | None = None) -> date:
    """The start that puts the last of `matchdays` on `today`: a league is never in the future."""
    return (today or date.today()) - timedelta(days=(matchdays - 1) // MATCHDAYS_PER_DAY)


def last_day(matchdays: int, start: date) -> date:
    return start + timedelta(days=(matchdays - 1) // MATCHDAYS_PER_DAY)


def generate(
    players: int,
    matchdays: int,
    seed: int,
    first: int = 1,
    start: date | None = None,
    *,
    end: date | None = None,
    names: list[str] | None = None,
    sides: bool = False,
):
    """Yield CSV rows: 3-6 players a matchday, some ties, some penalised placings, 1-10 rounds;
    matchdays numbered from `first`, eight a day from `start` (by default, so that the last is
    today) or spread evenly up to `end`; players named `names` (P00001... by default). With `sides`,
    every row ends with a `side` column, and one matchday in three is played in sides
    (`team_matchday`)."""
    start = start or first_day(matchdays)
    rng = random.Random(seed)
    names = names or numbered(players)
    games = [name for name, weight in GAMES for _ in range(weight)]
    for i in range(matchdays):
        number = first + i
        day = spread(i, matchdays, start, end).isoformat()
        if sides and i % TEAM_SHARE == TEAM_SHARE - 1:
            yield from team_matchday(rng, number, day, names)
            continue
        game = rng.choice(games)
        rounds = rng.randint(1, 10)
        table = rng.sample(names, rng.randint(3, min(6, len(names))))
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
            entries = [TypedResult(Play(pl, r), p) for p, pl, r in zip(table, placings, rated, strict=True)]
            if rated[who] == placings[who] or matchday_problems(entries):
                rated[who] = None
        for player, placing, rated_placing in zip(table, placings, rated, strict=True):
            row = [number, day, game, rounds, player, placing, "" if rated_placing is None else rated_placing]
            yield [*row, ""] if sides else row


def team_matchday(rng: random.Random, number: int, day: str, names: list[str]):
    """One matchday in sides: Spades in pairs or a team game of five against four, either side winning."""
    game, sizes = rng.choice([(game, sizes) for game, sizes in TEAM_GAMES if sum(sizes) <= len(names)])
    rounds = rng.randint(1, 10)
    players = iter(rng.sample(names, sum(sizes)))
    winner = rng.randrange(len(sizes))
    for index, size in enumerate(sizes):
        label, placing = "AB"[index], 1 if index == winner else 2
        for _ in range(size):
            yield [number, day, game, rounds, next(players), placing, "", label]
