"""The standings as they stood at the end of a day (`?as_at=YYYY-MM-DD`), and their comparison of
two days (`?from=...&to=...`): the standings' sections of a day, for the standings page and a game's
(the days are read from the query by web.pages.as_at, as the players' pages read theirs).

The ratings come from the stored rating rows (ratings/selectors/as_at.py), never from a recompute.
"""

from __future__ import annotations

from datetime import date

from django.utils import timezone

from league.models import club_setting
from ratings.models import RatingTable
from ratings.selectors import as_at, ranks
from web.deals.tables import DealChangeColumn, DealStandingsTable
from web.league.tables import MovementColumn
from web.pages.as_at import AS_AT, FROM, TO, Days
from web.pages.columns import ChangeColumn
from web.pages.formatting import long_date
from web.pages.paging import paginate
from web.pages.sections import Section, shown_with
from web.pages.tables import StandingsTable


def standings_section(
    section: Section,
    table: RatingTable,
    days: Days,
    show_all: bool,
    with_year: bool,
    title: str = "",
) -> Section:
    """One table's standings at the end of `days.day`: inactive players hidden (unless `show_all`)
    by that day's reckoning, ranks and provisional marks of that day, and, when comparing, each
    player's change of rating and places since `days.since`."""
    since_active = None if show_all else active_since(table, days.day)
    below = club_setting("provisional_matchdays")  # the provisional after the ranked, as today's boards
    ranking = as_at.ranked_at(table, days.day, since_active, below)
    page = paginate(ranking.rows, section.page_number, club_setting("standings_page_size"))
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
    """Players whose last matchday is older than this are hidden from `day`'s standings (as a
    player's card ranks them: ratings.selectors.ranks)."""
    return ranks.shown_since_at(table, day)


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
