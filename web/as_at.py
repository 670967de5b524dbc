"""Pages as they stood at the end of a day (`?as_at=YYYY-MM-DD`), and the standings' comparison of
two days (`?from=...&to=...`): the days read from the query, and the standings' sections of a day.

The ratings come from the stored rating rows (ratings/selectors/as_at.py), never from a recompute.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

from league.models import Matchday
from league.validation import iso_date
from ratings.deals import selectors as deal_selectors
from ratings.models import RatingTable
from ratings.selectors import as_at, boards
from web.deals.tables import DealChangeColumn, DealStandingsTable
from web.pages.columns import ChangeColumn
from web.pages.formatting import long_date
from web.pages.paging import paginate
from web.pages.sections import Section, shown_with
from web.tables import MovementColumn, StandingsTable

AS_AT, FROM, TO = "as_at", "from", "to"
DATES = (AS_AT, FROM, TO)  # declared with the pages' other parameters (web/page_params.py)


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


def standings_section(
    section: Section, table: RatingTable, days: Days, show_all: bool, with_year: bool, title: str = ""
) -> Section:
    """One table's standings at the end of `days.day`: inactive players hidden (unless `show_all`)
    by that day's reckoning, ranks and provisional marks of that day, and, when comparing, each
    player's change of rating and places since `days.since`."""
    since_active = None if show_all else active_since(table, days.day)
    below = settings.LEAGUE_PROVISIONAL_MATCHDAYS  # the provisional after the ranked, as today's boards
    ranking = as_at.ranked_at(table, days.day, since_active, below)
    page = paginate(ranking.rows, section.page_number, settings.LEAGUE_STANDINGS_PAGE_SIZE)
    rows = as_at.standing_rows_at(table, days.day, list(page.object_list), below)
    kind = DealStandingsTable if table.against_deals else StandingsTable
    extra = {}
    if days.since is not None:
        before = None if show_all else active_since(table, days.since)
        rows = as_at.compared(rows, as_at.ranked_at(table, days.since, before, below).rows)
        change = (DealChangeColumn if table.against_deals else ChangeColumn)(f"Since {long_date(days.since)}")
        extra = {
            "extra_columns": [("movement", MovementColumn()), ("change", change)],
            "sequence": ("rank", "movement", "player", "rating", "change", "..."),
        }

    def build(names):
        return kind(rows, names, with_year=with_year, **extra)

    section.show(build, page, title=title or table.name, rating_table=table)
    section.rows, section.left_out = rows, ranking.hidden
    return section


def active_since(table: RatingTable, day: date) -> date | None:
    """Players whose last matchday is older than this are hidden from `day`'s standings: the league's
    inactivity window before its latest matchday on or before the day (as today's boards do), or a
    deal game's window before its latest session on or before the day. None: nobody is hidden."""
    if table.against_deals:
        latest = deal_selectors.latest_session(table, day)
        return deal_selectors.active_since(table, latest)
    latest = Matchday.objects.filter(date__lte=day).aggregate(latest=Max("date"))["latest"]
    return boards.active_since(latest, day, settings.LEAGUE_INACTIVE_DAYS, show_all=False)


def standings_page(exports, tables: list[RatingTable], spans, days: Days, show_all: bool, repeats: dict) -> dict:
    """The standings page's sections and notices at the end of `days.day` (compared with
    `days.since` when given), for `league/standings.html`; a category table that only repeats a
    game's (`repeats`: game table id -> category table) is shown once with it, as today."""
    sections, shown, hidden = [], [], False
    today = timezone.localdate()
    for table in tables:
        if table in repeats.values():
            continue
        with_year = spans.of(table).needs_year(today)
        also = repeats.get(table.pk)
        title = f"{table.name} · {also.name}" if also else ""
        section = standings_section(exports.section(table.slug), table, days, show_all, with_year, title)
        shown_with(exports, section, also)
        if not section.rows and table.scope == RatingTable.Scope.GAME and not table.against_deals:
            exports.downloads.remove(section.key)
            continue  # not played yet on that day
        if section.left_out and table.against_deals:
            section.notice, section.hidden = "Players inactive in this game on that day are hidden.", True
        hidden = hidden or (section.left_out and not table.against_deals)
        shown.extend(row.player for row in section.rows)
        sections.append(section)
    return {"sections": sections, "hidden": hidden, "shown": shown, "days": days, "keep": keep(days)}


def keep(days: Days) -> str:
    """The day's parameters, for the page's own links (show everyone, hide the inactive) to keep."""
    if days.since is not None:
        return f"{FROM}={days.since.isoformat()}&{TO}={days.day.isoformat()}&"
    return f"{AS_AT}={days.day.isoformat()}&" if days.day else ""
