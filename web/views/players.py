"""A player's page: their rating in every table, its history, every change explained in the terms
of the table's method, and head to head against everyone they met."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render

from league.models import Player
from league.selectors import head_to_head_counts, head_to_head_records
from ratings import selectors
from web import charts
from web.formatting import format_rating, month_day
from web.paging import paginate
from web.tables import HeadToHeadTable, PlayerEntryTable
from web.views import deals
from web.views.common import Exports, get_or_404, page_param, player_names, public_page


def _chart(player: Player, summary: list[dict]):
    history = selectors.rating_history(player)
    return charts.rating_chart(
        [
            charts.Series(
                row["table"].name,
                [
                    charts.Point(day, rating, f"Matchday {number}, {month_day(day)}: {format_rating(rating)}")
                    for day, number, rating in history.get(row["table"].pk, [])
                ],
            )
            for row in summary
        ],
        title=f"Rating history of {player.short_name}",
    )


@public_page
def player(request, pk):
    player = get_or_404(Player.objects, f"There is no player number {pk}.", pk=pk)
    exports = Exports(request)
    summary = selectors.player_standings(player, settings.LEAGUE_PROVISIONAL_MATCHDAYS)
    sections = []
    for row in summary:
        table = row["table"]
        if table.against_deals:  # attempts at deals, explained in a section of their own
            sections.append(deals.player_section(request, exports, player, table))
            continue
        page = paginate(
            selectors.player_entries(player, table), request.GET.get(page_param(table)), settings.LEAGUE_GRID_PAGE_SIZE
        )
        entries = list(page.object_list)[::-1]  # pages run newest first, each in play order
        section = exports.add(
            f"history-{table.slug}",
            lambda names, entries=entries, method=table.rating_method: PlayerEntryTable(entries, method=method),
            page,
            param=page_param(table),
        )
        sections.append({**section, "rating_table": table})
    counts = paginate(
        head_to_head_counts(player), request.GET.get("head-to-head-page"), settings.LEAGUE_STANDINGS_PAGE_SIZE
    )
    opponents = head_to_head_records(counts.object_list)
    exports.names = player_names([player, *(r.opponent for r in opponents)])
    ctx = {
        "player": player,
        "summary": summary,
        "chart": _chart(player, [row for row in summary if not row["table"].against_deals]),
        "sections": sections,
        "head_to_head": exports.add("head-to-head", lambda names: HeadToHeadTable(opponents, names), counts),
    }
    return exports.response() or render(request, "league/player.html", ctx)
