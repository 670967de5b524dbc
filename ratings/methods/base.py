"""What every rating method shares: its inputs, its outputs, its parameters and the Elo pieces.

Pure Python (no Django): the engine, the calculator, the comparison page and the tests all call the
methods with plain values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from league.validation import is_ranking


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


@dataclass(frozen=True)
class Param:
    """One parameter a method declares: the admin, the calculator and the docs are built from these."""

    name: str
    label: str
    default: float | int | bool
    help: str
    type: type = float
    minimum: float | None = None  # inclusive
    positive: bool = False  # strictly above zero

    def parse(self, raw: Any) -> float | int | bool:
        """The value from a form, a query string or a stored JSON value; ParamError if it is bad."""
        if self.type is bool:
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("1", "true", "on", "yes"):
                return True
            if text in ("0", "false", "off", "no", ""):
                return False
            raise ParamError(self.name, f"must be 0 or 1, not {raw!r}")
        try:
            value = self.type(raw) if not isinstance(raw, str) else self.type(raw.strip())
        except (TypeError, ValueError):
            kind = "a whole number" if self.type is int else "a number"
            raise ParamError(self.name, f"must be {kind}, not {raw!r}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise ParamError(self.name, f"must be a finite number, not {raw!r}")
        if self.positive and value <= 0:
            raise ParamError(self.name, f"must be above 0, not {value}")
        if self.minimum is not None and value < self.minimum:
            raise ParamError(self.name, f"must be at least {self.minimum:g}, not {value}")
        return value


@dataclass(frozen=True)
class Seat:
    """One player at one matchday, as a method sees them."""

    rating: float
    placing: int  # the rated placing (after any penalty); 1 is the winner
    state: Mapping[str, float] | None = None  # what a method carries besides the rating (openskill)
    left_early: bool = False
    won_by_16: int = 0
    won_by_24: int = 0
    won_by_4_and_last: int = 0
    bad_moves: int = 0


@dataclass(frozen=True)
class Facts:
    """The matchday's facts besides who played."""

    rounds: int = 1
    winner_score: int | None = None  # blank: a full game


@dataclass(frozen=True)
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
    # The pieces of a change this method has, besides the rating before, the change and after:
    # pages show these columns and no others (M only for the club formula, K only where there is one).
    pieces: tuple[str, ...] = ("expected", "score", "k")
    params: tuple[Param, ...] = ()
    two_players_only = False
    against_deals = False  # rates attempts at deals (solitaire), not matchdays: see methods/deals.py
    display_only: tuple[str, ...] = ()  # parameters that change what pages show, not the ratings

    def __repr__(self) -> str:
        return f"<Method {self.slug}>"

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

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

    def check(self, seats: Sequence[Seat]) -> None:
        """MethodError if these seats cannot be rated by this method."""
        if len(seats) < 2:
            raise MethodError("a matchday needs at least two players", "ratings")
        check_ranking([s.placing for s in seats])
        if self.two_players_only and len(seats) != 2:
            raise MethodError(f"{self.name} rates two-player games only, not {len(seats)} players", "ratings")

    def compute(self, seats: Sequence[Seat], facts: Facts, params: Mapping[str, Any]) -> list[Outcome]:
        raise NotImplementedError

    def describe(self, params: Mapping[str, Any]) -> str:
        """The parameters in words, e.g. "K = 32, start 1500"."""
        parts = []
        for p in self.params:
            value = params.get(p.name, p.default)
            if p.type is bool:
                if value:
                    parts.append(p.label.lower())
            else:
                parts.append(f"{p.label} {value:g}")
        return ", ".join(parts)


def check_ranking(placings: Sequence[int]) -> None:
    """Placings must be a standard competition ranking: ties share a place, the next is skipped."""
    if is_ranking(placings):
        return
    raise MethodError(
        f"placings {', '.join(map(str, placings))} are not a ranking of {len(placings)} players "
        "(1 is the winner; tied players share a place and the next place is skipped, as in 1, 2, 2, 4)"
    )


def round_half_up(value: float) -> int:
    """Round to a whole number the way people do by hand (x.5 goes up), not banker's rounding."""
    return math.floor(value + 0.5)


def elo_expected(rating: float, opponent: float) -> float:
    """Elo's expected score against one opponent: 1 / (1 + 10^((opponent - rating) / 400))."""
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def pair_score(placing: int, other: int) -> float:
    """1 for finishing ahead, 0.5 for a tie, 0 for finishing behind."""
    return 1.0 if placing < other else 0.5 if placing == other else 0.0


def finish(rating: float, change: float, whole_numbers: bool) -> float:
    """The new rating, rounded half up when the table carries whole numbers."""
    after = rating + change
    return round_half_up(after) if whole_numbers else after
