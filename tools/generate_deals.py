"""A reproducible synthetic solitaire league, in the attempts import format (web.deals.importing).

Every deal has a hidden difficulty (its variant's, plus a step per level, plus its own luck) and every
player a hidden skill; a player wins a deal with the Elo chance of their skill against its
difficulty. Players come and go, so some are inactive by the last session. The deals' prior records
(for `seed_deals`) come from the same hidden difficulties.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, timedelta

GAME = "Solitaire"
# variant: (how often it is played, difficulty at level 5)
VARIANTS = {"8x4": (8, 1150), "7x4": (3, 1350), "6x4": (2, 1500), "5x4": (2, 1700), "9x4": (2, 1000), "10x4": (1, 800)}
LEVELS = range(5, 13)
LEVEL_STEP = 40  # each level is this much harder
DEALS_PER_LEVEL = 400  # deal numbers drawn from 1..this, so deals come back
MIN_SESSION = 10  # attempts in a session (a day), at the fewest


def difficulty(seed: int, variant: str, level: int, number: int) -> float:
    luck = random.Random(f"{seed}:{variant}:{level}:{number}").gauss(0, 180)
    return VARIANTS[variant][1] + LEVEL_STEP * (level - LEVELS[0]) + luck


def _chance(skill: float, deal: float) -> float:
    return 1 / (1 + 10 ** ((deal - skill) / 400))


def generate_attempts(
    players: int,
    attempts: int,
    seed: int,
    start: date = date(2020, 1, 1),
    *,
    end: date | None = None,
    names: list[str] | None = None,
) -> Iterator[list]:
    """Yield CSV rows `date,game,variant,level,deal,player,won,rated`: one session a day of 10 to 60
    attempts by some of the players active then (spread evenly up to `end` when given); about 2% of
    attempts unrated. Players are named `names` (S0001... by default)."""
    if end is None:  # a session never lies after today (the import refuses it): a large league starts earlier
        start = min(start, date.today() - timedelta(days=attempts // MIN_SESSION + 1))
    rng = random.Random(seed)
    names = names or [f"S{i:04d}" for i in range(1, players + 1)]
    skill = {name: rng.gauss(1500, 200) for name in names}
    days = max(1, attempts // 35)
    stretch = None if end is None else max((end - start).days + 1, 1)
    joined = {name: rng.randrange(days) // 2 for name in names}  # everyone plays a stretch of the span
    left = {name: joined[name] + rng.randint(min(max(days // 5, 7), days), days) for name in names}  # some stop early
    variants = [v for v, (weight, _) in VARIANTS.items() for _ in range(weight)]
    written, day = 0, 0
    while written < attempts:
        active = [n for n in names if joined[n] <= day < left[n]] or names
        tonight = rng.sample(active, min(len(active), rng.randint(3, 12)))
        for _ in range(min(rng.randint(MIN_SESSION, 60), attempts - written)):
            player = rng.choice(tonight)
            variant, level, number = rng.choice(variants), rng.choice(LEVELS), rng.randint(1, DEALS_PER_LEVEL)
            won = rng.random() < _chance(skill[player], difficulty(seed, variant, level, number))
            rated = rng.random() >= 0.02
            offset = day if stretch is None else min(day * stretch // days, stretch - 1)
            when = (start + timedelta(days=offset)).isoformat()
            yield [when, GAME, variant, level, number, player, int(won), int(rated)]
            written += 1
        day += 1


def generate_seeds(seed: int, share: float = 0.25) -> Iterator[list]:
    """Yield CSV rows `game,variant,level,deal,plays,wins`: a prior record for about `share` of the
    deals, as if played by 1500 players before the club rated them."""
    rng = random.Random(seed + 1)
    for variant in VARIANTS:
        for level in LEVELS:
            for number in range(1, DEALS_PER_LEVEL + 1):
                if rng.random() >= share:
                    continue
                plays = rng.randint(1, 200)
                chance = _chance(1500, difficulty(seed, variant, level, number))
                wins = sum(rng.random() < chance for _ in range(plays))
                yield [GAME, variant, level, number, plays, wins]
