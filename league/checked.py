"""The league's half of the one check of a matchday: what any way in gives (the matchday's facts and
its results as typed) turned, once, into the results as the league stores and rates them, or into
the list of what is wrong.

Every way in comes here, through ratings.services.checks.check_matchday (which then asks what the
methods of the game's tables cannot rate): the CSV import and the admin's upload, the admin's
matchday form, the entry page's preview and save; the calculator, which has no tables, directly.
The checks run in one order: the facts' and the results' ranges and names, then the points (which
give the placings in a game scored by points), then the league's rules (league.placings). What
passes is placed once: the placings from the points, the rated placings from the penalty rule,
partners' side labels written alike, the winner's score from the points. Pure Python (no Django).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, replace

from league.placings import (
    BY_PLACINGS,
    matchday_problems,
    placed_by_points,
    same_side_labels,
    stored_rated_placings,
    winner_points,
)
from league.results import TypedResult, range_problems
from league.validation import (
    EARLIEST_DAY,
    MATCHDAY_NUMBERS,
    ROUNDS,
    SHORT_NAME_LENGTH,
    WINNER_SCORES,
    Problem,
    name_problem,
)


@dataclass(frozen=True)
class MatchdayFacts:
    """What a matchday is besides who played, as a way in gives it: its number (None until the entry
    page numbers it), the day it was played, its rounds and winner's score (None where a form left
    them out), and how its game is scored."""

    number: int | None = None
    date: datetime.date | None = None
    rounds: int | None = 1
    winner_score: int | None = None
    scoring: str = BY_PLACINGS


@dataclass(frozen=True)
class CheckedResults:
    """A matchday's results that passed the check, placed and penalised as the rules say, in the order
    given, with its facts (the winner's score as the points give it). Only `check_results` makes one."""

    facts: MatchdayFacts
    results: tuple[TypedResult, ...]


class Refused(ValueError):
    """What is wrong with a matchday, every problem found (league.validation.Problem)."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


def date_problem(day: datetime.date, today: datetime.date, what: str = "matchday") -> str | None:
    """A matchday (or a session of attempts) is entered once it has been played: a year typed wrong
    (2052 or 0205 for 2025) is refused rather than shown as the league's newest or first night."""
    if day > today:
        return f"{day.isoformat()} is after today; enter the date the {what} was played."
    if day < EARLIEST_DAY:
        return f"{day.isoformat()} is before {EARLIEST_DAY.year}; enter the date the {what} was played."
    return None


_FACT_RANGES = (
    ("number", MATCHDAY_NUMBERS, "The matchday number"),
    ("rounds", ROUNDS, "Rounds"),
    ("winner_score", WINNER_SCORES, "The winner's score"),
)


def fact_problems(facts: MatchdayFacts, today: datetime.date | None = None) -> list[Problem]:
    """The facts against their ranges (and the date against `today`, when given)."""
    problems = []
    for name, span, what in _FACT_RANGES:
        value = getattr(facts, name)
        problem = span.problem(what, value) if value is not None else None
        if problem:
            problems.append(Problem(problem + ".", field=name))
    if facts.date is not None and today is not None and (problem := date_problem(facts.date, today)):
        problems.append(Problem(problem, field="date"))
    return problems


def result_problems(typed: Sequence[TypedResult], named: dict | None = None) -> list[Problem]:
    """Each result's own values: the record's ranges, the player's name, no NUL in a note; each named
    by its line, or where it has none (the admin's rows) by its player. `named` keeps each name's
    verdict, for a file that names the same players thousands of times."""
    named = {} if named is None else named
    problems = []
    for result in typed:
        if result.player not in named:
            named[result.player] = name_problem(result.player, "player", SHORT_NAME_LENGTH)
        if named[result.player]:
            problems.append(Problem(named[result.player] + ".", result.line, "player"))
        found = range_problems(result.play, result.line)
        if "\0" in result.note:
            found.append(
                Problem("The note holds a NUL character (U+0000); type it again without it.", result.line, "note")
            )
        problems += found if result.line else [Problem(f"{result.player}: {p.text}", "", p.field) for p in found]
    return problems


def check_results(
    facts: MatchdayFacts, typed: Sequence[TypedResult], today: datetime.date | None = None, named: dict | None = None
) -> CheckedResults:
    """The matchday checked, its results placed; or Refused with every problem found, in the order of
    the checks (a later check runs only once the earlier ones pass: placings are not ranked before
    the points have given them)."""
    problems = fact_problems(facts, today) + result_problems(typed, named)
    if problems:
        raise Refused(problems)
    placed, problems = placed_by_points(typed, facts.scoring)
    problems = problems or matchday_problems(placed)
    if problems:
        raise Refused(problems)
    plays = [result.play for result in placed]
    rated = stored_rated_placings(plays)
    results = tuple(
        result if result.play.rated_placing == placing else result.changed(rated_placing=placing)
        for result, placing in zip(same_side_labels(placed), rated, strict=True)
    )
    points = winner_points(plays, facts.scoring)
    if points is not None and not WINNER_SCORES.problem("", points):
        facts = replace(facts, winner_score=points)  # the table-size method's winner's score
    return CheckedResults(facts, results)
