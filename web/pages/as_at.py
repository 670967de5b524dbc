"""The day a page shows as it stood at its end (`?as_at=YYYY-MM-DD`), and the standings' two days
compared (`?from=...&to=...`), read from the query; the standings of a day are web.league.as_at's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from league.validation import iso_date
from ratings.selectors import as_at
from web.pages.formatting import long_date

AS_AT, FROM, TO = "as_at", "from", "to"
DATES = (AS_AT, FROM, TO)  # declared with the pages' other parameters (web/page_cache/params.py)


@dataclass(frozen=True)
class Days:
    """The day a page shows (None: today, as it is kept) and, when comparing, the earlier day."""

    day: date | None = None
    since: date | None = None


def read_day(query, name: str, first: date | None, today: date) -> date | None:
    """The day in the query's `name` (None when absent), one between the league's `first` matchday
    and `today`; ValueError naming the field otherwise."""
    text = query.get(name, "").strip()
    if not text:
        return None
    day = iso_date(text, name)
    if first is None:
        raise ValueError(f"{name}: the league has no matchday yet, so it stood nowhere on {long_date(day)}.")
    if day < first:
        raise ValueError(f"{name} {long_date(day)} is before the first matchday, {long_date(first)}.")
    if day > today:
        raise ValueError(f"{name} {long_date(day)} is after today, {long_date(today)}.")
    return day


def read_days(query, today: date, *, compare: bool = False) -> Days:
    """`as_at`, or (where the page compares) `from` and `to` (today when left out); ValueError with
    a message naming the field when they cannot be read or do not fit together."""
    wanted = [name for name in (DATES if compare else (AS_AT,)) if query.get(name, "").strip()]
    if not wanted:
        return Days()
    if AS_AT in wanted and len(wanted) > 1:
        raise ValueError("as_at shows one day; from and to compare two: give one or the other.")
    if TO in wanted and FROM not in wanted:
        raise ValueError("to needs from: the day to compare with.")
    first = as_at.first_day()
    if AS_AT in wanted:
        return Days(read_day(query, AS_AT, first, today))
    since, day = read_day(query, FROM, first, today), read_day(query, TO, first, today) or today
    if since > day:
        raise ValueError(f"from ({long_date(since)}) must not be after to ({long_date(day)}).")
    return Days(day, since)
