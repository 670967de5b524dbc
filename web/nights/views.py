"""The game nights (`/nights/`, newest first, paged) and a night's page (`/nights/YYYY-MM-DD/`): the
day's matchdays as cards, the winners of each and every rating table's biggest movers over the
night, each table downloadable."""

from __future__ import annotations

from django.shortcuts import render

from league.models import club_setting
from league.validation import iso_date
from ratings.models import RatingTable
from ratings.selectors import nights
from web.nights.tables import NightsTable, WinnersTable
from web.page_cache.params import PageParams, cached_page
from web.pages.errors import NotFound
from web.pages.formatting import long_date
from web.pages.paging import paginate
from web.pages.sections import Exports, player_names, public_page
from web.pages.tables import LatestResultsTable, MoversTable

SHOWN = 40  # characters of an address that is not a date, repeated in the answer


@cached_page(PageParams(sections=("nights",), exports=True))
@public_page
def night_list(request):
    exports = Exports(request)
    section = exports.section("nights")
    page = paginate(nights.nights(), section.page_number, club_setting("standings_page_size"))
    rows = nights.listed(list(page.object_list))
    section.show(lambda names: NightsTable(rows, names), page, title="Game nights", newest_first=True)
    return exports.response() or render(request, "nights/nights.html", {"section": section, "any": bool(rows)})


@cached_page(PageParams(exports=True))
@public_page
def night(request, day: str):
    try:
        when = iso_date(day, "night")
    except ValueError:
        shown = day if len(day) <= SHOWN else f"{day[:SHOWN]}…"
        raise NotFound(
            f"There is no night “{shown}”: a night's address is its date, like /nights/2025-11-03/."
        ) from None
    tables = list(RatingTable.objects.in_page_order())
    found = nights.night(when, tables)
    if found is None:
        raise NotFound(f"No matchday was played on {long_date(when)}.")
    exports = Exports(request, reserved=("matchdays", "matchdays-heading"))
    winners = exports.section("winners").show(lambda names: WinnersTable(found.winners, names), title="Winners")
    movers = [
        exports.section(f"movers-{m.table.slug}").show(
            lambda names, m=m: MoversTable(m.rows, names), title=m.title, rating_table=m.table
        )
        for m in found.movers
    ]
    exports.names = player_names([r.player for card in found.cards for r in card.results], tables)
    ctx = {
        "night": found,
        "cards": [
            {"day": c, "html": lambda c=c: LatestResultsTable(c.results, exports.names).as_html(request)}
            for c in found.cards
        ],
        "winners": winners,
        "movers": movers,
    }
    return exports.response() or render(request, "nights/night.html", ctx)
