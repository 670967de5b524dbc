"""The one check of a matchday, for every way in (the entry page, the admin, the CSV import and the
admin's upload): the league's (league.checked: ranges, names, points, placings, sides, penalties),
then what the methods of the tables its game counts in cannot rate. What passes is a
`CheckedMatchday`, the only thing the one writer (`matchdays.save_matchdays`) stores. Reads only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.utils import timezone

from league.checked import MatchdayFacts, Refused, check_results
from league.models import Game, Matchday
from league.placings import BY_PLACINGS
from league.results import TypedResult
from league.validation import Problem

from .. import methods
from ..models import RatingTable

# The matchday's own fields, which the admin's and the entry page's forms show their problems beside.
FACT_FIELDS = ("number", "date", "rounds", "winner_score")


@dataclass(frozen=True)
class CheckedMatchday:
    """A matchday ready to store: its row (number, date, game, rounds, notes: a new Matchday, or a stored
    one with its changes) and its results placed as the rules say, with the winner's score as the
    points give it. Only `check_matchday` makes one."""

    matchday: Matchday
    results: tuple[TypedResult, ...]
    winner_score: int | None


class GameTables:
    """The tables each game's matchdays count in, read once for all the matchdays checked (a file of
    thousands asks for them once)."""

    def __init__(self):
        self.tables = list(RatingTable.objects.all())  # a season's table has its parent's method, checked there
        self.by_game: dict[int | str, list[RatingTable]] = {}

    def of(self, game: Game) -> list[RatingTable]:
        key = game.pk if game.pk is not None else f"new {game.name}"
        if key not in self.by_game:
            self.by_game[key] = [t for t in self.tables if t.counts(game)]
        return self.by_game[key]


def unratable(game: Game, seats: Sequence[methods.Seat], tables: GameTables | None = None) -> list[str]:
    """What the methods of the tables a matchday of `game` counts in cannot rate (e.g. Sedma: two
    players only), one line per table."""
    if game.against_deals:
        return [f"{game} is played against deals: enter its attempts as a session, not a matchday."]
    counting = (tables or GameTables()).of(game)
    problems = []
    for table in counting:
        try:
            table.rating_method.check(seats)
        except methods.MethodError as error:
            problems.append(f"The {table.name} rating uses {table.rating_method.name}: {error}.")
    return problems


def check_matchday(
    matchday: Matchday,
    game: Game | None,
    typed: Sequence[TypedResult],
    *,
    tables: GameTables | None = None,
    named: dict | None = None,
    today: date | None = None,
) -> CheckedMatchday:
    """The matchday and its results as typed (each player by the name they go by now, so that one
    player under two names is one player twice), checked once: a CheckedMatchday, or
    league.checked.Refused with every problem found. `game` is None where a form has no game yet (its
    own error says so): the rules are checked, the methods are not. `tables` and `named` keep what
    one matchday's check read for the next one's (an import's), and so may `today`."""
    scoring = game.scoring if game is not None else BY_PLACINGS
    facts = MatchdayFacts(matchday.number, matchday.date, matchday.rounds, matchday.winner_score, scoring)
    checked = check_results(facts, typed, today or timezone.localdate(), named)
    if game is not None:
        problems = unratable(game, [methods.Seat.of(result.play) for result in checked.results], tables)
        if problems:
            raise Refused([Problem(problem) for problem in problems])
    return CheckedMatchday(matchday, checked.results, checked.facts.winner_score)
