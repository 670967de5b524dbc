"""One pass over the results in play order, rating each matchday in every table it counts in: the
recompute engine's inner loop (ratings.engine alone uses it).

A full recompute rates every player of every matchday in every table it counts in, about a million
seats at 100,000 matchdays, so the loop keeps to plain tuples: the results as read, each player's
carry, the rows as written. A method that rates plainly (the club formula) is given ratings and
placings and gives tuples back; the others are given a `Seat` per player and give `Outcome`s.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from itertools import groupby
from operator import itemgetter

from django.db import connection

from league.results import PLACING_FIELDS, RATED_AS_GIVEN

from . import methods
from .models import RatingEntry, RatingTable

# Where a player stands in a table after a matchday, what their next one there starts from:
# (rating, state, played, date, number, delta).
Carry = tuple[float, dict | None, int, date, int, float]

# What the methods need of each result, read as plain tuples in play order: the record's fields
# that a Seat takes as given come last, passed to it by position.
RATED_FIELDS = ("matchday_id", "player_id", *PLACING_FIELDS, *RATED_AS_GIVEN)
_SIDE, _WEIGHT = RATED_FIELDS.index("side"), RATED_FIELDS.index("weight")


class RecomputeError(Exception):
    """Stored results that cannot be rated (e.g. a matchday with one player)."""


@dataclass
class TableRun:
    """One table being recomputed: its method, and where each of its players stands."""

    table: RatingTable
    method: methods.Method
    params: dict
    start: tuple[float, dict | None]
    carries: dict[int, Carry]
    affected: set[int] | None  # players whose standing is rewritten; None: everyone who plays
    window: tuple[date, date] | None = None  # a season's table rates only the matchdays of its days
    table_id: int = 0  # the table's, read once: a model's pk is a property

    @classmethod
    def of(cls, table: RatingTable) -> TableRun:
        method, params = table.rating_method, table.method_params()
        window = None if table.season_id is None else (table.season.first_day, table.season.last_day)
        return cls(table, method, params, method.start(params), {}, None, window, table.pk)


def rate(rows: Iterable[tuple], facts: dict, counting: dict[int, list[TableRun]]) -> Iterator[tuple[int, list]]:
    """Rate each matchday of the stream (RATED_FIELDS) with every table it counts in (`counting`,
    by game), yielding a table's id and its rows of the matchday (ENTRY_COLUMNS, the id first)."""
    adapt_date = connection.ops.adapt_datefield_value
    given: dict[tuple, methods.Facts] = {}  # a few kinds of matchday: each one's Facts made once
    for matchday_id, group in groupby(rows, key=itemgetter(0)):
        group = list(group)
        day, number, rounds, winner_score, game_id = facts[matchday_id]
        if len(group) < 2:
            raise RecomputeError(f"Matchday {number} ({day}) has {len(group)} player; it needs at least two.")
        where = (matchday_id, day, number, adapt_date(day))
        matchday_facts = given.get((rounds, winner_score)) or given.setdefault(
            (rounds, winner_score), methods.Facts(rounds, winner_score)
        )
        alone = all(row[_WEIGHT] == 1 and not row[_SIDE] for row in group)
        placings = [row[2] if row[3] is None else row[3] for row in group] if alone else None
        for run in counting[game_id]:
            if run.window and not run.window[0] <= day <= run.window[1]:
                continue
            try:
                if alone and run.method.rates_plainly:
                    yield run.table_id, _rated_plainly(run, group, placings, matchday_facts, where)
                else:
                    yield run.table_id, _rated(run, group, matchday_facts, where)
            except methods.MethodError as error:
                raise RecomputeError(f"{run.table}: Matchday {number} ({day}): {error}") from error


def _rated_plainly(
    run: TableRun, group: list[tuple], placings: list[int], facts: methods.Facts, where: tuple
) -> list[tuple]:
    """A matchday of players alone, rated by a method from their ratings and placings alone; `where`
    is the matchday's id, date, number and date as stored."""
    carries, start = run.carries, run.start[0]
    carried = [carries.get(row[1]) for row in group]
    ratings = [carry[0] if carry else start for carry in carried]
    outcomes = run.method.plain_outcomes(ratings, placings, facts, run.params)
    table_id, (matchday_id, day, number, stored_day) = run.table_id, where
    rows = []
    for row, carry, rating, (mean, expected, score, k, delta, after) in zip(
        group, carried, ratings, outcomes, strict=True
    ):
        played = carry[2] + 1 if carry else 1
        carries[row[1]] = (after, None, played, day, number, delta)
        rows.append(
            (table_id, matchday_id, row[1], row[2], row[3], stored_day, number)
            + (rating, after, mean, expected, score, k, delta, played, None)
        )
    return rows


def _rated(run: TableRun, group: list[tuple], facts: methods.Facts, where: tuple) -> list[tuple]:
    """A matchday rated by the method's `compute`, a Seat per player (in sides, or with a state)."""
    carries, (start_rating, start_state) = run.carries, run.start
    carried = [carries.get(row[1]) for row in group]
    seats = [
        methods.Seat(
            carry[0] if carry else start_rating,
            row[2] if row[3] is None else row[3],
            carry[1] if carry else start_state,
            *row[4:],
        )
        for row, carry in zip(group, carried, strict=True)
    ]
    outcomes = run.method.compute(seats, facts, run.params)
    stored_state = RatingEntry._meta.get_field("state")
    table_id, (matchday_id, day, number, stored_day) = run.table_id, where
    rows = []
    for row, carry, change in zip(group, carried, outcomes, strict=True):
        played = carry[2] + 1 if carry else 1
        carries[row[1]] = (change.rating_after, change.state, played, day, number, change.delta)
        state = None if change.state is None else stored_state.get_db_prep_save(change.state, connection)
        rows.append(
            (table_id, matchday_id, row[1], row[2], row[3], stored_day, number, change.rating_before)
            + (change.rating_after, change.opponents_mean, change.expected, change.score, change.k, change.delta)
            + (played, state)
        )
    return rows
