"""The game-night page (`/nights/YYYY-MM-DD/`): the day's matchdays as cards, the winners of each
and every rating table's biggest movers over the night, each table downloadable."""

from __future__ import annotations

from django.shortcuts import render

from league.validation import iso_date
from ratings.models import RatingTable
from ratings.selectors import nights
from web.nights.tables import WinnersTable
from web.page_cache.params import PageParams, cached_page
from web.pages.errors import NotFound
from web.pages.formatting import long_date
from web.pages.sections import Exports, player_names, public_page
from web.pages.tables import LatestResultsTable, MoversTable

SHOWN = 40  # characters of an address that is not a date, repeated in the answer


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
