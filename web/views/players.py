"""The players: the directory (search and sort), and a player's page: their rating in every table,
its history, every change explained in the terms of the table's method, head to head against
everyone they met and the partners they played on a side with."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render
from django.utils import timezone

from league.models import Player
from league.selectors import head_to_head_counts, head_to_head_records
from ratings.models import RatingTable
from ratings.selectors import as_at as as_at_ratings
from ratings.selectors import overview, seasons, standings
from ratings.selectors.players import entry_pages, player_standings, rating_history
from ratings.selectors.sides import add_partners, in_sides, partnerships
from web import as_at, charts
from web.deals import views as deals
from web.formatting import format_rating, long_date
from web.page_params import PageParams, cached_page
from web.paging import paginate
from web.partners import PartnersTable
from web.tables import HeadToHeadTable, PlayerEntryTable, PlayersTable
from web.views.sections import Exports, bad_request, get_or_404, player_names, public_page

SEARCH_LENGTH = 100  # longer searches are cut: no name is longer
SORTS = {"name": "Name", "rating": "Rating", "last-played": "Last played"}


# A search is whatever anyone types: answered in the request, never stored.
@cached_page(
    PageParams(
        sections=("players",), choices={"sort": frozenset(SORTS)}, exports=True, uncached=("q",), dates=(as_at.AS_AT,)
    )
)
@public_page
def directory(request):
    search = request.GET.get("q", "").strip()[:SEARCH_LENGTH]
    order = request.GET.get("sort") if request.GET.get("sort") in SORTS else "name"
    try:
        days = as_at.read_days(request.GET, timezone.localdate())
    except ValueError as error:
        return bad_request(request, str(error))
    exports = Exports(request)
    section = exports.section("players")
    size = settings.LEAGUE_STANDINGS_PAGE_SIZE
    if days.day is None:
        page = paginate(overview.player_directory(search, order), section.page_number, size)
        rows = overview.directory_rows(page)
    else:  # as it stood at the end of a day
        page = paginate(as_at_ratings.directory_at(search, order, days.day), section.page_number, size)
        rows = list(page.object_list)
    with_year = standings.all_dates().needs_year(timezone.localdate())
    section.show(lambda names: PlayersTable(rows, names, with_year=with_year), page, title="Players")
    exports.names = player_names([row.player for row in rows])
    query = request.GET.copy()
    query.pop(section.param, None)
    sorts = []
    for key, label in SORTS.items():
        query["sort"] = key
        sorts.append({"label": label, "url": f"?{query.urlencode()}#players", "current": key == order})
    ctx = {"section": section, "search": search, "order": order, "sorts": sorts, "count": page.paginator.count}
    ctx["days"] = days
    return exports.response() or render(request, "league/players.html", ctx)


def _chart(player: Player, summary: list[dict], history: dict):
    days = {day for points in history.values() for day, _, _ in points}  # shared by the tables
    dates = {day: long_date(day) for day in days}
    return charts.rating_chart(
        [
            charts.Series(
                row["table"].name,
                [
                    charts.Point(
                        day,
                        rating,
                        f"{row['table'].name}, matchday {number}, {dates[day]}: {format_rating(rating)}",
                    )
                    for day, number, rating in history.get(row["table"].pk, [])
                ],
            )
            for row in summary
        ],
        title=f"Rating history of {player.short_name}",
    )


def _entries_section(section, page, table: RatingTable, entries: list, with_year: bool):
    """A page of the player's rows in one table; played in sides, with their sides and weights and
    the method's word on how it rates sides."""
    method, sides = table.rating_method, in_sides(entries)

    def build(names):
        return PlayerEntryTable(entries, method=method, with_year=with_year, sides=sides)

    def write(names):
        return PlayerEntryTable.changes_html(entries, method, with_year=with_year, sides=sides)

    section.show(build, page, title=table.name, newest_first=True, rating_table=table, html=write)
    section.in_sides = sides
    return section


@cached_page(PageParams(sections=("head-to-head",), tables=True, exports=True, dates=(as_at.AS_AT,)))
@public_page
def player(request, pk):
    player = get_or_404(Player.objects, f"There is no player number {pk}.", pk=pk)
    today = timezone.localdate()
    try:
        day = as_at.read_days(request.GET, today).day
    except ValueError as error:
        return bad_request(request, str(error))
    exports = Exports(request, reserved=("history", "history-heading", "honours", "honours-heading"))
    head_to_head, partners_section = exports.section("head-to-head"), exports.section("partners")
    tables = list(RatingTable.objects.select_related("game"))
    if day is None:
        summary = player_standings(player, tables, settings.LEAGUE_PROVISIONAL_MATCHDAYS)
    else:  # as they stood at the end of a day
        summary = as_at_ratings.player_standings_at(player, tables, day, settings.LEAGUE_PROVISIONAL_MATCHDAYS)
    history = rating_history(player, [row["table"].pk for row in summary], day)
    # Every table's page of rows first, then all of them in one query.
    pages, positions = {}, {}
    for row in summary:
        table = row["table"]
        if not table.against_deals:
            section = exports.section(table.slug)
            played = row["standing"].played  # a row per matchday
            page = paginate(range(played), section.page_number, settings.LEAGUE_GRID_PAGE_SIZE, count=played)
            pages[table.pk], positions[table.pk] = (section, page), page.object_list  # a range of positions
    games = {table.game_id: table.game for table in tables if table.game_id}  # read with the tables
    found = entry_pages(player, positions, games, day)
    add_partners(player, (entry for entries in found.values() for entry in entries))
    sections = []
    for row in summary:
        table = row["table"]
        if table.against_deals:  # attempts at deals, explained in a section of their own
            sections.append(deals.player_section(exports.section(table.slug), player, table, day))
            continue
        section, page = pages[table.pk]
        page.object_list = entries = found[table.pk][::-1]  # pages run newest first, each in play order
        dates = [d for d, _, _ in history.get(table.pk, [])]
        with_year = bool(dates) and standings.Span(len(dates), dates[0], dates[-1]).needs_year(today)
        sections.append(_entries_section(section, page, table, entries, with_year))
    opponents, partners = [], []
    if day is None:  # counted over every matchday: today's page only
        opponents = _head_to_head(head_to_head, player, games)
        partners = partnerships(player, games)
    if partners:
        partners_section.show(lambda names: PartnersTable(partners, names), title="Partners")
    exports.names = player_names([player, *(r.opponent for r in opponents), *(r.partner for r in partners)], tables)
    ctx = {
        "player": player,
        "summary": summary,
        "chart": _chart(player, [row for row in summary if not row["table"].against_deals], history),
        "sections": sections,
        "head_to_head": head_to_head if day is None else None,
        "days": as_at.Days(day),
        "partners": partners_section if partners else None,
        "honours": seasons.player_honours(player, today) if day is None else [],  # finished seasons'
    }
    return exports.response() or render(request, "league/player.html", ctx)


def _head_to_head(section, player: Player, games: dict) -> list:
    """A page of how `player` finished against every opponent, shown in `section`."""
    counts = paginate(head_to_head_counts(player, games), section.page_number, settings.LEAGUE_STANDINGS_PAGE_SIZE)
    opponents = head_to_head_records(counts.object_list)
    section.show(
        lambda names: HeadToHeadTable(opponents, names),
        counts,
        title="Head to head",
        html=lambda names: HeadToHeadTable.page_html(opponents, names),
    )
    return opponents
