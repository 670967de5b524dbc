"""How numbers and dates read on the site: ratings, changes, places and one-line explanations."""

from __future__ import annotations

import re
from datetime import date

from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def format_rating(value: float | None) -> str:
    """Whole-number ratings as the club writes them; unrounded ones with one decimal."""
    if value is None:
        return ""
    # "%d" writes what str(int(value)) would, without its calls: a page writes thousands.
    return "%d" % value if value % 1 == 0 else f"{value:.1f}"  # noqa: UP031


def format_change(value: float) -> str:
    """A rating change as +12, −7 or ±0 (a real minus sign, which lines up with the plus)."""
    text = format_rating(abs(value))
    if value > 0:
        return f"+{text}"
    if value < 0:
        return f"\u2212{text}"
    return "\u00b10"


def format_fine_rating(value: float) -> str:
    """A rating that moves by fractions of a point (games played against deals), to two decimals:
    "1615.54" wherever it is shown."""
    return f"{value:.2f}"


def format_fine_change(value: float) -> str:
    """A change of such a rating to two decimals: +0.43, −7.57 (a real minus sign) or ±0.00."""
    text = f"{abs(value):.2f}"
    if text == "0.00":
        return "\u00b10.00"
    return f"+{text}" if value > 0 else f"\u2212{text}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip


def month_day(day: date) -> str:
    """ "November 3", as the club writes dates (in English whatever the server's locale, and without
    strftime, which costs more than the rest of a grid's date cell)."""
    return f"{MONTHS[day.month - 1]} {day.day}"


def long_date(day: date) -> str:
    """ "November 3, 2025"."""
    return f"{month_day(day)}, {day.year}"


def days_between(first: date, last: date, today: date) -> str:
    """ "November 15 to December 31" within this year; with the years, as a season's page writes
    them, when either day is in another year."""
    write = month_day if first.year == last.year == today.year else long_date
    return f"{write(first)} to {write(last)}"


def table_date(day: date | None, with_year: bool) -> str:
    """A date in a table: "November 3", or "November 3, 2025" when the table's matchdays cross a
    year, reach into the future or are of another year (`TableSpan.needs_year`), or the date
    itself is not of this year."""
    if day is None:
        return ""
    return long_date(day) if with_year or day.year != this_year() else month_day(day)


def this_year() -> int:
    return timezone.localdate().year


def plain_number(value: float | None) -> int | float | None:
    """A rating or change for a download: whole numbers as 1535, not 1535.0; others unrounded."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


# A spreadsheet reads a cell starting with one of these as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A value as a CSV cell a spreadsheet will not run: text starting with a formula character gets
    a leading apostrophe, which spreadsheets read as "this is text" and do not show. Numbers stay
    numbers (a change of -7 is a value, and our own), and so do empty cells."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def explain_change(
    delta: float, placing: int, players: int, expected: float, k: float | None, finished: int | None = None
) -> str:
    """One line a member can check by hand, e.g. "+35: 1st of 4, expected 0.50, K 70" (no K for a
    method without one).

    `finished` is the real placing when a penalty rated the player lower ("4th (finished 3rd)")."""
    place = ordinal(placing)
    if finished is not None and finished != placing:
        place += f" (finished {ordinal(finished)})"
    line = f"{format_change(delta)}: {place} of {players}, expected {expected:.2f}"
    return line if k is None else f"{line}, K {format_rating(k)}"


_EXPONENT = re.compile(r"\^\(((?:[^()]|\([^()]*\))*)\)")


def formula_html(text: str) -> SafeString:
    """A method's one-line explanation as HTML: `10^((M − R)/400)` is written 10<sup>(M − R)/400</sup>."""
    return mark_safe(_EXPONENT.sub(r"<sup>\1</sup>", escape(text)))  # noqa: S308 - escaped first
