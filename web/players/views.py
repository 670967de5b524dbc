"""The players: the directory (search and sort), and a player's page, a function per section: a card
per table (rating, rank, record), the history chart, every matchday in one list with the change in
each table, attempts at deals, head to head against everyone they met and their partners."""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.utils import timezone

from league.models import DealSession, Player, club_setting
from league.selectors import head_to_head_counts, head_to_head_records
from ratings.deals import selectors as deal_selectors
from ratings.models import RatingTable
from ratings.selectors import against_game, overview, seasons, standings
from ratings.selectors import as_at as as_at_ratings
from ratings.selectors.players import (
    RECENT_DAYS,
    matchday_rows,
    played_matchdays,
    player_standings,
    rating_history,
    record_of,
)
from ratings.selectors.sides import add_partners, partnerships
from web.deals import sections as deals
from web.page_cache.params import PageParams, cached_page
from web.pages import charts
from web.pages.as_at import AS_AT, Days, read_days
from web.pages.columns import change_html
from web.pages.formatting import format_change, format_fine_change, format_fine_rating, format_rating, long_date
from web.pages.paging import paginate
from web.pages.sections import Exports, bad_request, get_or_404, player_names, public_page
from web.players.partners import PartnersTable
from web.players.tables import HeadToHeadTable, PlayerMatchdaysTable, PlayersTable, matchday_columns

SEARCH_LENGTH = 100  # longer searches are cut: no name is longer
SORTS = {"name": "Name", "rating": "Rating", "last-played": "Last played"}


# A search is whatever anyone types: answered in the request, never stored.
@cached_page(
    PageParams(sections=("players",), choices={"sort": frozenset(SORTS)}, exports=True, uncached=("q",), dates=(AS_AT,))
)
@public_page
def directory(request):
    search = request.GET.get("q", "").strip()[:SEARCH_LENGTH]
    order = request.GET.get("sort") if request.GET.get("sort") in SORTS else "name"
    try:
        days = read_days(request.GET, timezone.localdate())
    except ValueError as error:
        return bad_request(request, str(error))
    exports = Exports(request)
    section = exports.section("players")
    size = club_setting("standings_page_size")
    if days.day is None:
        page = paginate(overview.player_directory(search, order), section.page_number, size)
        rows = overview.directory_rows(page, timezone.localdate())
    else:  # as it stood at the end of a day
        page = paginate(as_at_ratings.directory_at(search, order, days.day), section.page_number, size)
        rows = list(page.object_list)
    with_year = standings.all_dates().needs_year(timezone.localdate())
    # Columns that are zero for everyone are left out: attempts at deals, for a club without solitaire.
    zero = () if DealSession.objects.exists() else ("attempts",)
    build = lambda names: PlayersTable(rows, names, with_year=with_year, exclude=zero)  # noqa: E731
    section.show(build, page, title="Players")
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


def _cards(summary: list[dict], history: dict, deal_records: dict, today) -> list[dict]:
    """A card per table: rating, rank, the last change and the record (wins, podiums, win %, the
    change over the last days, the peak); a game against deals has its own record (`deal_records`,
    by table id: attempts won, no podiums) and moves by fractions of a point: two decimals."""
    cards = []
    for row in summary:
        table, standing = row["table"], row["standing"]
        fine = table.against_deals
        record = deal_records.get(table.pk) if fine else record_of(history.get(table.pk, []), today)
        changed = format_fine_change if fine else format_change
        cards.append(
            {
                **row,
                "rating": format_fine_rating(standing.rating) if fine else format_rating(standing.rating),
                "last_change": change_html(standing.delta, format_fine_change if fine else format_change),
                "unit": "attempt" if fine else "matchday",
                "record": record,
                "recent_change": record and change_html(record.recent_change, changed),
                "peak": record and (format_fine_rating(record.peak) if fine else format_rating(record.peak)),
                "recent_since": record and long_date(record.recent_since),
                "peak_day": record and long_date(record.peak_day),
                "win_percent": record and f"{record.win_share:.0%}",
            }
        )
    return cards


def _deal_records(player: Player, summary: list[dict], today, until) -> dict:
    """Table id -> the player's record at each game against deals they play (one query each)."""
    return {
        row["table"].pk: deal_selectors.player_record(player, row["table"], today, until)
        for row in summary
        if row["table"].against_deals
    }


def _chart(player: Player, rated: list[RatingTable], history: dict):
    days = {p.day for points in history.values() for p in points}  # shared by the tables
    dates = {day: long_date(day) for day in days}
    return charts.rating_chart(
        [
            charts.Series(
                table.name,
                [
                    charts.Point(
                        p.day,
                        p.rating,
                        f"{table.name}, matchday {p.number}, {dates[p.day]}: {format_rating(p.rating)}",
                        (p.day, p.number),  # a step per matchday, shared by its tables
                    )
                    for p in history.get(table.pk, [])
                ],
            )
            for table in rated
        ],
        title=f"Rating history of {player.short_name}",
    )


def _matchdays_section(section, player: Player, rated: list[RatingTable], history: dict, games: dict, today):
    """The player's matchdays, newest first, a page of them in one list: their change in each table
    the matchday counted in, with how each table's method works (and rates sides, where a matchday
    shown was played in sides)."""
    played = played_matchdays(history)
    page = paginate(played, section.page_number, club_setting("grid_page_size"))
    rows = matchday_rows(player, page.object_list, games)
    add_partners(player, rows)
    with_year = bool(played) and standings.TableSpan(len(played), played[-1][0], played[0][0]).needs_year(today)
    sided = {table_id for row in rows if row.side or row.weight != 1 for table_id in row.changes}
    sides, points = bool(sided), any(row.points is not None for row in rows)

    def build(names):
        columns = matchday_columns(rated, sides, downloads=True, points=points)
        return PlayerMatchdaysTable(rows, with_year=with_year, extra_columns=columns)

    section.show(build, page, title="Every matchday", newest_first=True)
    section.methods = [{"table": table, "in_sides": table.pk in sided} for table in rated]
    section.in_sides = sides
    return section


def _head_to_head_section(section, player: Player, games: dict):
    counts = paginate(head_to_head_counts(player, games), section.page_number, club_setting("standings_page_size"))
    opponents = head_to_head_records(counts.object_list)
    section.show(lambda names: HeadToHeadTable(opponents, names), counts, title="Head to head")
    return section, opponents


def _partners_section(section, player: Player, games: dict):
    partners = partnerships(player, games)
    if partners:
        section.show(lambda names: PartnersTable(partners, names), title="Partners")
    return (section if partners else None), partners


@cached_page(PageParams(sections=("matchdays", "head-to-head"), tables=True, exports=True, dates=(AS_AT,)))
@public_page
def player(request, pk):
    player = get_or_404(Player.objects, f"There is no player number {pk}.", pk=pk)
    if player.stands_for_id is not None:  # a game's own rating: shown on the game's page
        return redirect(player.get_absolute_url())
    today = timezone.localdate()
    try:
        day = read_days(request.GET, today).day
    except ValueError as error:
        return bad_request(request, str(error))
    exports = Exports(request, reserved=("history", "history-heading", "honours", "honours-heading"))
    tables = list(RatingTable.objects.select_related("game"))
    games = {table.game_id: table.game for table in tables if table.game_id}  # read with the tables
    if day is None:
        summary = player_standings(player, tables, today)
    else:  # as they stood at the end of a day
        summary = as_at_ratings.player_standings_at(player, tables, day, club_setting("provisional_matchdays"))
    rated = [row["table"] for row in summary if not row["table"].against_deals]
    history = rating_history(player, [table.pk for table in rated], day)
    shown_day = day or today  # the record's recent change counts back from it
    matchdays = _matchdays_section(exports.section("matchdays"), player, rated, history, games, shown_day)
    # Attempts at deals are explained in a section of their own per game.
    attempts = [
        deals.player_section(exports.section(row["table"].slug), player, row["table"], day)
        for row in summary
        if row["table"].against_deals
    ]
    head_to_head, opponents, partners_section, partners = None, [], None, []
    if day is None:  # counted over every matchday: today's page only
        head_to_head, opponents = _head_to_head_section(exports.section("head-to-head"), player, games)
        partners_section, partners = _partners_section(exports.section("partners"), player, games)
    exports.names = player_names([player, *(r.opponent for r in opponents), *(r.partner for r in partners)], tables)
    ctx = {
        "player": player,
        "cards": _cards(summary, history, _deal_records(player, summary, shown_day, day), shown_day),
        "recent_days": RECENT_DAYS,
        "chart": _chart(player, rated, history),
        "matchdays": matchdays if rated else None,
        "attempts": attempts,
        "head_to_head": head_to_head,
        "partners": partners_section,
        "days": Days(day),
        "honours": seasons.player_honours(player, today) if day is None else [],  # finished seasons'
        "against": against_game.records_against(player) if day is None else [],  # co-op and solo plays
    }
    return exports.response() or render(request, "league/player.html", ctx)
