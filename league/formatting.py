"""How numbers read on the site: ratings, changes and one-line explanations of a change."""

from __future__ import annotations

from league.rankings import ordinal


def format_rating(value: float | None) -> str:
    """Whole-number ratings as the club writes them; unrounded ones with one decimal."""
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def format_change(value: float) -> str:
    """A rating change as +12, −7 or ±0 (a real minus sign, which lines up with the plus)."""
    text = format_rating(abs(value))
    if value > 0:
        return f"+{text}"
    if value < 0:
        return f"\u2212{text}"
    return "\u00b10"


def explain_change(
    delta: float, placing: int, players: int, expected: float, k: float, finished: int | None = None
) -> str:
    """One line a member can check by hand, e.g. "+35: 1st of 4, expected 0.50, K 70".

    `finished` is the real placing when a penalty rated the player lower ("4th (finished 3rd)")."""
    place = ordinal(placing)
    if finished is not None and finished != placing:
        place += f" (finished {ordinal(finished)})"
    return f"{format_change(delta)}: {place} of {players}, expected {expected:.2f}, K {format_rating(k)}"
