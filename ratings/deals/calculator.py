""" "What happened?": a pasted list of attempts at deals, rated game by game (the freecell seed's Elo
calculator). Pure Python (no Django): the views hand it the text and render what it returns.

One attempt per line: `player rating, deal rating, W/L` (commas, spaces or tabs between). A line
with only `deal rating, W/L` takes the player's rating after the line before, so a night of play can
be pasted with the player's rating given once. Mistakes are ParamErrors naming `attempts` and the
line, which the JSON API returns with status 400. Ratings and K are read within the ranges declared
for the matchday calculator's ratings and the method's K, so that what goes out is always finite.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from typing import Any

from league.validation import finite_number, parse_won

from ..calculator import RATINGS
from ..methods import METHODS
from ..methods.base import ParamError
from ..methods.deals import SLUG, K, expected

MAX_LINES = 500


@dataclass(frozen=True)
class AttemptStep:
    """One attempt of "What happened?": the player's and the deal's ratings before and after it."""

    line: int
    player_before: float
    deal_before: float
    won: bool
    expected: float
    k: float
    delta: float  # the player's change; the deal's is the opposite
    player_after: float
    deal_after: float


K_PARAM = METHODS[SLUG].param("k")  # the method's K, with its range


def _rating(text: str, what: str, line: int) -> float:
    try:
        rating = finite_number(text, f"the {what} rating")
    except ValueError as error:
        raise ParamError("attempts", f"line {line}: {error}") from None
    if not RATINGS.minimum <= rating <= RATINGS.maximum:
        raise ParamError("attempts", f"line {line}: the {what} rating must be {RATINGS.range_text}, not {rating:g}")
    return rating


def parse_k(text: str | None) -> float:
    """K as the method's parameter reads it (above 0, at most its maximum); the method's K if blank."""
    if text is None or not text.strip():
        return K
    return float(K_PARAM.parse(text))


def what_happened(text: str, k: float = K) -> list[AttemptStep]:
    """Every attempt of `text` rated in turn; ParamError naming the line of the first mistake."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise ParamError("attempts", "is empty: paste one attempt a line, as player rating, deal rating, W/L")
    if len(lines) > MAX_LINES:
        raise ParamError("attempts", f"has more than {MAX_LINES} lines")
    steps: list[AttemptStep] = []
    for number, line in lines:
        parts = [p for p in re.split(r"[,;\s]+", line) if p]
        if len(parts) == 3:
            player = _rating(parts[0], "player's", number)
        elif len(parts) == 2 and steps:
            player = steps[-1].player_after
        else:
            raise ParamError(
                "attempts",
                f"line {number}: {line!r} is not `player rating, deal rating, W/L`"
                + ("" if steps else " (only lines after the first may leave out the player's rating)"),
            )
        deal = _rating(parts[-2], "deal's", number)
        try:
            won = parse_won(parts[-1])
        except ValueError as error:
            raise ParamError("attempts", f"line {number}: {error}") from None
        chance = expected(player, deal)
        delta = k * ((1.0 if won else 0.0) - chance)
        steps.append(AttemptStep(number, player, deal, won, chance, k, delta, player + delta, deal - delta))
    return steps


def as_json(steps: list[AttemptStep], k: float) -> dict[str, Any]:
    return {
        "method": SLUG,
        "k": k,
        "attempts": [asdict(step) for step in steps],
        "total_change": math.fsum(step.delta for step in steps),
        "player_after": steps[-1].player_after,
    }
