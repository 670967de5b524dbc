"""Tables of even strength for the players present tonight: the spread of the tables' mean ratings
(the strongest table's mean less the weakest's) as small as it can be.

How the tables are sized: as many tables as the size asks for, rounded up, their sizes differing by one
at most (13 players in fours: 4, 3, 3, 3); but never a table of one, so where that would happen the
players sit at one table fewer (7 in twos: 3, 2, 2).

How they are found: every way of seating the players when there are few enough ways
(`EXACT_LIMIT`; 12 players in threes is 15,400 ways), with the search cut short wherever the tables
already seated spread wider than the best found. Beyond that, a greedy split (the strongest player
first, each to the open table with the lowest mean so far) improved by swapping two players of
different tables while a swap narrows the spread (or, at an equal spread, brings the means closer
together), which never ends worse than the greedy split it starts from.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

EXACT_LIMIT = 50_000  # ways of seating searched one by one (12 in threes: 15,400); beyond, the heuristic
MAX_SWAP_ROUNDS = 200  # passes over every pair of players (each pass that swaps narrows the tables)


@dataclass
class Proposal:
    tables: list[list[int]]  # positions in the ratings given, each table strongest first
    means: list[float]
    spread: float
    exact: bool  # every way of seating was compared
    ways: int  # how many ways of seating there are


def table_sizes(players: int, size: int) -> list[int]:
    """The sizes of the tables for `players` at tables of `size` (see the module's docstring)."""
    if players < 2 or size < 2:
        raise ValueError("balanced tables need two players or more and tables of two or more")
    count = math.ceil(players / size)
    if players // count < 2:
        count = players // 2
    low, extra = divmod(players, count)
    return [low + 1] * extra + [low] * (count - extra)


def ways(sizes: Sequence[int]) -> int:
    """How many ways `sum(sizes)` players can sit at tables of `sizes` (tables of one size alike)."""
    total = math.factorial(sum(sizes))
    for size in sizes:
        total //= math.factorial(size)
    for repeats in Counter(sizes).values():
        total //= math.factorial(repeats)
    return total


def spread(ratings: Sequence[float], tables: Sequence[Sequence[int]]) -> float:
    means = [sum(ratings[i] for i in table) / len(table) for table in tables]
    return max(means) - min(means)


def _score(ratings: Sequence[float], tables: Sequence[Sequence[int]]) -> tuple[float, float]:
    """What a swap improves: the spread, then how far the means lie from their own mean."""
    means = [sum(ratings[i] for i in table) / len(table) for table in tables]
    centre = sum(means) / len(means)
    return max(means) - min(means), sum((m - centre) ** 2 for m in means)


def greedy_tables(ratings: Sequence[float], sizes: Sequence[int]) -> list[list[int]]:
    """The strongest player first, each to the open table whose mean is lowest so far (an empty
    table first, then the larger tables first)."""
    tables: list[list[int]] = [[] for _ in sizes]
    for i in sorted(range(len(ratings)), key=lambda i: -ratings[i]):
        open_tables = [t for t in range(len(sizes)) if len(tables[t]) < sizes[t]]

        def mean(t: int) -> float:
            return sum(ratings[j] for j in tables[t]) / len(tables[t]) if tables[t] else -math.inf

        tables[min(open_tables, key=lambda t: (mean(t), -sizes[t], t))].append(i)
    return tables


def improved(ratings: Sequence[float], tables: list[list[int]]) -> list[list[int]]:
    """`tables` after every swap of two players that lowers `_score`, until none does."""
    tables = [list(t) for t in tables]
    best = _score(ratings, tables)
    for _ in range(MAX_SWAP_ROUNDS):
        swapped = False
        for a in range(len(tables)):
            for b in range(a + 1, len(tables)):
                for x in range(len(tables[a])):
                    for y in range(len(tables[b])):
                        tables[a][x], tables[b][y] = tables[b][y], tables[a][x]
                        score = _score(ratings, tables)
                        if score < best:
                            best, swapped = score, True
                        else:
                            tables[a][x], tables[b][y] = tables[b][y], tables[a][x]
        if not swapped:
            break
    return tables


def exact_tables(ratings: Sequence[float], sizes: Sequence[int]) -> list[list[int]]:
    """The seating with the smallest spread of all (the first found among equals)."""
    n = len(ratings)
    best: list = [math.inf, None]
    seated: list[list[int]] = []

    def search(left: list[int], sizes_left: Counter, low: float, high: float) -> None:
        if high - low >= best[0]:
            return
        if not left:
            best[0], best[1] = high - low, [list(t) for t in seated]
            return
        first, rest = left[0], left[1:]
        for size in sorted(sizes_left, reverse=True):
            sizes_left[size] -= 1
            if not sizes_left[size]:
                del sizes_left[size]
            for others in combinations(rest, size - 1):
                table = [first, *others]
                mean = sum(ratings[i] for i in table) / size
                seated.append(table)
                taken = set(others)
                search([i for i in rest if i not in taken], sizes_left, min(low, mean), max(high, mean))
                seated.pop()
            sizes_left[size] += 1

    search(sorted(range(n), key=lambda i: -ratings[i]), Counter(sizes), math.inf, -math.inf)
    return best[1]


def balanced_tables(ratings: Sequence[float], size: int, exact_limit: int = EXACT_LIMIT) -> Proposal:
    """Tables of about `size` for players of `ratings` whose means spread as little as possible."""
    sizes = table_sizes(len(ratings), size)
    count = ways(sizes)
    exact = count <= exact_limit
    tables = exact_tables(ratings, sizes) if exact else improved(ratings, greedy_tables(ratings, sizes))
    tables = [sorted(t, key=lambda i: -ratings[i]) for t in tables]
    tables.sort(key=lambda t: -sum(ratings[i] for i in t) / len(t))
    means = [sum(ratings[i] for i in t) / len(t) for t in tables]
    return Proposal(tables, means, max(means) - min(means), exact, count)
