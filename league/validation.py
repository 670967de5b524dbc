"""Checks that a matchday's results make sense, with messages a club secretary understands.

Pure Python (no Django): the admin, the CSV import and the rating methods all check results with
these functions, so each mistake gets the same message whichever way it came in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """One result as typed in: `row` is how the person who typed it can find it again."""

    row: str
    player: str
    placing: int
    rated_placing: int | None = None

    @property
    def effective_placing(self) -> int:
        return self.rated_placing if self.rated_placing is not None else self.placing


def name_key(name: str) -> str:
    """The form in which two names (of players or games) are compared: two names with the same key
    are the same player or game, wherever a name comes in."""
    return name.casefold()


def competition_ranking(placings: Sequence[int]) -> list[int]:
    """The standard competition ranking ("1224") that keeps the order of the given placings: each
    player's place is one more than the number of players placed strictly better. Sorts once."""
    first_index: dict[int, int] = {}
    for index, placing in enumerate(sorted(placings)):
        first_index.setdefault(placing, index)
    return [1 + first_index[p] for p in placings]


def is_ranking(placings: Sequence[int]) -> bool:
    """Whether `placings` already are a standard competition ranking (1, 2, 2, 4)."""
    return list(placings) == competition_ranking(placings)


def _ranking_problem(placings: Sequence[int], what: str) -> str | None:
    suggestion = competition_ranking(placings)
    if list(placings) == suggestion:
        return None
    shown = ", ".join(str(p) for p in sorted(placings))
    fixed = ", ".join(str(p) for p in sorted(suggestion))
    return (
        f"The {what} {shown} are not a ranking: tied players share a place and the next player "
        f"skips the places they used (1, 2, 2, 4). Did you mean {fixed}?"
    )


def matchday_problems(entries: Sequence[Entry]) -> list[str]:
    """Everything wrong with one matchday's results, or an empty list.

    Checks, in order: at least two players, nobody twice, placings within 1..n, placings that form a
    ranking, and rated placings (placings after penalties) that form a ranking too.
    """
    n = len(entries)
    if n < 2:
        return [f"A matchday needs at least two players; this one has {n}."]
    problems = []
    first_row: dict[str, str] = {}
    for entry in entries:
        key = name_key(entry.player)
        if key in first_row:
            problems.append(f"{entry.row}: {entry.player} is entered twice (also in {first_row[key]}).")
        else:
            first_row[key] = entry.row
    for entry in entries:
        for label, value in (("placing", entry.placing), ("rated placing", entry.rated_placing)):
            if value is not None and not 1 <= value <= n:
                problems.append(
                    f"{entry.row}: {label} {value} for {entry.player} is outside 1..{n} ({n} players took part)."
                )
    if problems:
        return problems
    ranking = _ranking_problem([e.placing for e in entries], "placings")
    if ranking:
        return [ranking]
    if any(e.rated_placing is not None for e in entries):
        rated = _ranking_problem([e.effective_placing for e in entries], "rated placings")
        if rated:
            return [rated + " (A player penalised for leaving early is usually rated last.)"]
    return []


# Attempts at deals (games played against deals): the same rules for the admin and the CSV imports.

WON = {"1": True, "0": False, "w": True, "l": False, "yes": True, "no": False}
RATED = {"1": True, "0": False, "yes": True, "no": False}
VARIANT_LENGTH = 20


def parse_won(text: str) -> bool:
    """Whether the player won: 1/0, W/L or yes/no (any case); ValueError naming the choices."""
    try:
        return WON[text.strip().casefold()]
    except KeyError:
        raise ValueError(f"won must be 1/0, W/L or yes/no, not {text!r}") from None


def parse_rated(text: str) -> bool:
    """Whether the attempt is rated: 1/0 or yes/no; blank means rated."""
    if not text.strip():
        return True
    try:
        return RATED[text.strip().casefold()]
    except KeyError:
        raise ValueError(f"rated must be 1 or 0 (blank is 1), not {text!r}") from None


def variant_problem(variant: str) -> str | None:
    """What is wrong with a variant's name ("8x4"), or None. Variants name pages, so no slash."""
    if not variant.strip():
        return "variant is empty"
    if len(variant) > VARIANT_LENGTH:
        return f"variant {variant!r} is longer than {VARIANT_LENGTH} characters"
    if "/" in variant or variant != variant.strip():
        return f"variant {variant!r} may not contain a slash or begin or end with a space"
    return None


def seed_problem(plays: int, wins: int) -> str | None:
    """What is wrong with a deal's prior record, or None."""
    if plays < 1:
        return f"plays must be at least 1, not {plays}"
    if not 0 <= wins <= plays:
        return f"wins must be between 0 and plays ({plays}), not {wins}"
    return None
