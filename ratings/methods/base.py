"""What every rating method shares: its inputs, its outputs, its parameters and the Elo pieces.

Pure Python (no Django): the engine, the calculator, the comparison page and the tests all call the
methods with plain values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from league.placings import is_ranking
from league.placings import side_groups as sides_of
from league.results import RATED_AS_GIVEN, Play
from league.validation import FLAG_WORDS, finite_number, quoted, whole_number, yes_or_no


class MethodError(ValueError):
    """Results that a method cannot rate (e.g. a three-player game for a two-player method).

    `param` names the input at fault, for the calculator: "placings" or "ratings" (the players).
    """

    def __init__(self, message: str, param: str = "placings"):
        super().__init__(message)
        self.param = param


class ParamError(ValueError):
    """A bad parameter; `name` is the parameter's name, which every message starts with."""

    def __init__(self, name: str, message: str):
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


def read_number(raw: Any, whole: bool = False) -> float | int | None:
    """`raw` as league.validation reads a number (a whole number with `whole`), or None if it is not
    one: every way in reads numbers alike."""
    text = raw.strip() if isinstance(raw, str) else raw  # spaces around a value, as forms and files trim
    try:
        return whole_number(text, "") if whole else finite_number(text, "")
    except ValueError:
        return None


def number_text(value: float) -> str:
    """A bound as the pages write it: 100000 -> "100,000", 0.001 -> "0.001"."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.6g}" if abs(value) >= 1 else f"{value:g}"


@dataclass(frozen=True)
class Param:
    """One parameter a method declares: the admin, the calculator and the docs are built from these.

    Every number has a documented range (`minimum` and `maximum`, inclusive; `positive` makes zero
    itself the excluded lower end), so that what comes in from a form or a query string always gives
    finite results. `choices` makes a parameter one of a few words (type str).
    """

    name: str
    label: str
    default: float | int | bool | str
    help: str
    type: type = float
    minimum: float | None = None  # inclusive
    maximum: float | None = None  # inclusive
    positive: bool = False  # strictly above zero (the minimum is then 0, excluded)
    choices: tuple[str, ...] = ()
    unit: str = ""  # what the number counts, said after it ("inactive after 14 days")

    @property
    def range_text(self) -> str:
        """The accepted values in words, e.g. "above 0, at most 10,000" or "fixed, multielo"."""
        if self.type is bool:
            return FLAG_WORDS
        if self.choices:
            return " or ".join(self.choices)
        high = f"at most {number_text(self.maximum)}" if self.maximum is not None else ""
        if self.positive:
            return ", ".join(filter(None, ["above 0", high]))
        if self.minimum is not None and self.maximum is not None:
            return f"{number_text(self.minimum)} to {number_text(self.maximum)}"
        return ", ".join(
            filter(None, [f"at least {number_text(self.minimum)}" if self.minimum is not None else "", high])
        )

    def parse(self, raw: Any) -> float | int | bool | str:
        """The value from a form, a query string or a stored JSON value; ParamError if it is bad."""
        if self.type is bool:
            try:  # an unticked box sends nothing: no
                return yes_or_no(raw, "", blank=False)
            except ValueError as error:
                raise ParamError(self.name, str(error)) from None
        if self.choices:
            text = str(raw).strip().lower()
            if text not in self.choices:
                raise ParamError(self.name, f"must be {self.range_text}, not {quoted(raw)}")
            return text
        value = read_number(raw, whole=self.type is int)
        if value is None:
            kind = "a whole number" if self.type is int else "a number"
            raise ParamError(self.name, f"must be {kind}, not {quoted(raw)}")
        low = self.minimum
        too_low = (value <= 0) if self.positive else (low is not None and value < low)
        if too_low or (self.maximum is not None and value > self.maximum):
            raise ParamError(self.name, f"must be {self.range_text}, not {value:g}")
        return value


# Seats and outcomes are made for every player of every matchday in every table a recompute
# rebuilds, so they are plain dataclasses: a frozen one sets each field through object.__setattr__,
# which a full recompute feels (docs/performance.md). Nothing changes them once made.
@dataclass
class Seat:
    """One player at one matchday, as a method sees them: their rating and state, the placing it
    rates, then the fields of league.results.Play that it reads as given (RATED_AS_GIVEN, in their
    order and with their defaults: a test holds them alike, and the engine passes them by position)."""

    rating: float
    placing: int  # the rated placing (after any penalty); 1 is the winner
    state: Mapping[str, float] | None = None  # what a method carries besides the rating (openskill)
    left_early: bool = False
    won_by_16: int = 0
    won_by_24: int = 0
    won_by_4_and_last: int = 0
    bad_moves: int = 0
    side: str = ""  # partners share a label; blank: a side of one
    weight: float = 1.0  # partial play, 0 to 1
    score: int | None = None  # the score sheet's points, which gave the placing in a game scored by points

    @classmethod
    def of(cls, play: Play, rating: float = 0.0, state: Mapping[str, float] | None = None) -> Seat:
        """`play` as a method sees it, with the player's rating and state before the matchday."""
        return cls(rating, play.effective_placing, state, *(getattr(play, name) for name in RATED_AS_GIVEN))


@dataclass(frozen=True)
class Facts:
    """The matchday's facts besides who played."""

    rounds: int = 1
    winner_score: int | None = None  # blank: a full game


# An outcome as `Method.plain_outcomes` gives it: (opponents_mean, expected, score, k, delta, rating_after).
PlainOutcome = tuple[float | None, float, float, float | None, float, float]


@dataclass
class Outcome:
    """One player's rating change at one matchday, with every piece of the computation."""

    rating_before: float
    placing: int
    expected: float
    score: float
    k: float | None
    delta: float
    rating_after: float
    opponents_mean: float | None = None
    state: dict[str, float] | None = None  # carried to the player's next matchday
    extras: dict[str, Any] = field(default_factory=dict)  # shown, not carried


class Method:
    """A rating method. Subclasses set the class attributes and implement `compute`."""

    slug: str = ""
    name: str = ""
    source: str = ""  # where the method comes from
    summary: str = ""
    formula: str = ""  # the formula in plain text, for the Methods page
    # One line that explains a stored change on the player and matchday pages; `x^(y)` is an exponent.
    explanation: str = ""
    # One sentence added to it where a matchday is played in sides or with partial play: how a side is rated.
    side_explanation: str = ""
    # The pieces of a change this method has, besides the rating before, the change and after:
    # pages show these columns and no others (M only for the club formula, K only where there is one).
    pieces: tuple[str, ...] = ("expected", "score", "k")
    params: tuple[Param, ...] = ()
    # What the calculator takes per player besides the rating, for methods that carry more than a
    # rating (e.g. Glicko-2's deviations): one value per player, in the order of the ratings.
    player_inputs: tuple[Param, ...] = ()
    # The matchday's facts (fields of Facts) this method's ratings depend on: the entry page asks only
    # for those of the tables a game counts in (a test holds every method to its declaration).
    facts_read: tuple[str, ...] = ()
    two_players_only = False
    against_deals = False  # rates attempts at deals (solitaire), not matchdays: see methods/deals.py
    display_only: tuple[str, ...] = ()  # parameters that change what pages show, not the ratings
    # A full recompute rates every player of every matchday in every table, where making a Seat and
    # an Outcome for each costs more than the club formula itself: a method that reads nothing of a
    # seat but its rating and placing, and carries no state, also gives `plain_outcomes`.
    rates_plainly = False

    def __repr__(self) -> str:
        return f"<Method {self.slug}>"

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def player_input(self, name: str) -> Param | None:
        return next((p for p in self.player_inputs if p.name == name), None)

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def clean_params(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Every parameter of the method, parsed; missing ones take their default."""
        known = {p.name for p in self.params}
        for name in raw:
            if name not in known:
                takes = ", ".join(sorted(known)) or "no parameters"
                raise ParamError(name, f"{self.slug} has no such parameter (it takes {takes})")
        return {p.name: p.parse(raw[p.name]) if p.name in raw else p.default for p in self.params}

    def is_provisional(self, state: Mapping[str, float] | None, params: Mapping[str, Any]) -> bool | None:
        """Whether a player's rating is still settling, for methods that know (None: the site's rule
        of a few matchdays applies)."""
        return None

    def start(self, params: Mapping[str, Any]) -> tuple[float, dict[str, float] | None]:
        """A new player's rating and carried state."""
        return params["start_rating"], None

    def state_for(self, rating: float, inputs: Mapping[str, float], params: Mapping[str, Any]) -> dict | None:
        """The carried state of a player the calculator knows only by rating and `inputs` (their
        values of `player_inputs`); None for methods that carry nothing but the rating."""
        return None

    def win_probability(self, a: Seat, b: Seat, params: Mapping[str, Any]) -> float:
        """The method's chance that `a` finishes ahead of `b`, from what they bring to a matchday.
        Elo-style methods: 1 / (1 + 10^(-d/400)) with d the rating difference; Bayesian methods
        override this with their own model's probability."""
        return elo_expected(a.rating, b.rating)

    def check(self, seats: Sequence[Seat]) -> None:
        """MethodError if these seats cannot be rated by this method, in sides or alone."""
        groups = side_groups(seats)
        if groups is None:
            self.check_players(seats)
        else:
            self.check_sides(seats, groups)

    def check_sides(self, seats: Sequence[Seat], groups: list[list[int]]) -> None:
        """MethodError if these sides cannot be rated: the method rates players alone, one side only,
        partners placed apart, a side nobody played for; then the sides as players."""
        if type(self).rate_sides is Method.rate_sides:
            raise MethodError(f"{self.name} rates players alone, not sides or partial play", "sides")
        if len(groups) < 2:
            raise MethodError("a matchday needs two sides or more; every player here is on one side", "sides")
        for group in groups:
            placings = {seats[i].placing for i in group}
            if len(placings) > 1:
                raise MethodError(
                    f"partners on side {seats[group[0]].side} have placings {', '.join(map(str, sorted(placings)))}: "
                    "partners share their side's placing"
                )
            if all(seats[i].weight == 0 for i in group):
                side = seats[group[0]].side or f"of player {group[0] + 1}"
                raise MethodError(f"side {side} has no player with a weight above 0", "weights")
        self.check_players([seats[group[0]] for group in groups])

    def check_players(self, seats: Sequence[Seat]) -> None:
        """MethodError if these players, each a side of one, cannot be rated by this method."""
        self.check_placings([s.placing for s in seats])

    def check_placings(self, placings: Sequence[int]) -> None:
        """MethodError if players alone with these placings cannot be rated: too few (or, for a
        two-player method, not two), or placings that are not a ranking."""
        if len(placings) < 2:
            raise MethodError("a matchday needs at least two players", "ratings")
        check_ranking(placings)
        if self.two_players_only and len(placings) != 2:
            raise MethodError(f"{self.name} rates two-player games only, not {len(placings)} players", "ratings")

    def compute(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        """Each player's outcome, in the order given. Players whose side labels match play as one side
        (`rate_sides`); a matchday of players alone at full weight is rated player by player."""
        groups = side_groups(seats)
        if groups is None:
            return self.rate_players(seats, facts, params)
        return self.rate_sides(seats, groups, facts, params)

    def rate_players(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        """Each player's outcome when every player is a side of one at full weight."""
        raise NotImplementedError

    def plain_outcomes(
        self, ratings: Sequence[float], placings: Sequence[int], facts: Facts, params: Mapping[str, Any]
    ) -> list[PlainOutcome]:
        """What `rate_players` gives players alone at full weight, each outcome as a plain tuple
        (opponents_mean, expected, score, k, delta, rating_after), for the methods that read nothing
        of a seat but its rating and placing and carry no state (`rates_plainly`)."""
        raise NotImplementedError

    def rate_sides(
        self, seats: Sequence[Seat], groups: list[list[int]], facts: Facts, params: Mapping[str, Any]
    ) -> list[Outcome]:
        """Each player's outcome when players play in sides (`groups`: each side's positions in `seats`)
        or part of the game. Methods that cannot rate sides say so (`check_sides`)."""
        self.check_sides(seats, groups)
        raise NotImplementedError

    def describe(self, params: Mapping[str, Any]) -> str:
        """The parameters in words, e.g. "K = 32, start 1500"."""
        parts = []
        for p in self.params:
            value = params.get(p.name, p.default)
            if p.type is bool:
                if value:
                    parts.append(p.label.lower())
            elif p.choices:
                if value != p.default:  # "K scaled by table size (multielo)"; the default goes unsaid
                    parts.append(f"{p.label} ({value})")
            else:
                parts.append(f"{p.label} {value:g} {p.unit}".rstrip())
        return ", ".join(parts)


RATING_LIMIT = 100_000  # every rating that comes in lies within ± this (start ratings, the calculator)


def start_rating_param(default: float, help: str = "Every player's first rating.") -> Param:
    return Param("start_rating", "Start rating", default, help, minimum=-RATING_LIMIT, maximum=RATING_LIMIT)


def side_groups(seats: Sequence[Seat]) -> list[list[int]] | None:
    """The positions of each side's players (league.validation.side_groups), or None when every player
    is a side of one at full weight: the common case, told apart at the cost of a pass."""
    if all(seat.weight == 1 for seat in seats) and not any(seat.side for seat in seats):
        return None
    groups = sides_of([seat.side for seat in seats])
    if len(groups) == len(seats) and all(seat.weight == 1 for seat in seats):
        return None
    return groups


def check_ranking(placings: Sequence[int]) -> None:
    """Placings must be a standard competition ranking: ties share a place, the next is skipped."""
    if _a_ranking(tuple(placings)):
        return
    raise MethodError(
        f"placings {', '.join(map(str, placings))} are not a ranking of {len(placings)} players "
        "(1 is the winner; tied players share a place and the next place is skipped, as in 1, 2, 2, 4)"
    )


@lru_cache(maxsize=1024)
def _a_ranking(placings: tuple[int, ...]) -> bool:
    """`is_ranking`, remembered: a recompute checks the same few orders of placings again and again."""
    return is_ranking(placings)


def round_half_up(value: float) -> int:
    """Round to a whole number the way people do by hand (x.5 goes up), not banker's rounding."""
    return math.floor(value + 0.5)


def elo_expected(rating: float, opponent: float) -> float:
    """Elo's expected score against one opponent: 1 / (1 + 10^((opponent - rating) / 400)).

    A difference past 120,000 points (10^300) is taken as 10^300: the result is then 0 or 1 to
    every digit a float holds, and the power cannot overflow whatever ratings come in."""
    exponent = (opponent - rating) / 400
    if exponent > 300.0:  # not min() and max(): this runs for every player a recompute rates
        exponent = 300.0
    elif exponent < -300.0:
        exponent = -300.0
    return 1 / (1 + 10**exponent)


def pair_score(placing: int, other: int) -> float:
    """1 for finishing ahead, 0.5 for a tie, 0 for finishing behind."""
    return 1.0 if placing < other else 0.5 if placing == other else 0.0


def finish(rating: float, change: float, whole_numbers: bool) -> float:
    """The new rating, rounded half up when the table carries whole numbers."""
    after = rating + change
    return round_half_up(after) if whole_numbers else after
