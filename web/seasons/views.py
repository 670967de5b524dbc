"""The seasons (`/seasons/`), a season (`/seasons/<slug>/`: each table's final or current standings,
its movers, its matchdays and its grids) and the honours board (`/honours/`). Every table on them can
be downloaded, as everywhere."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.shortcuts import render
from django.utils import timezone

from league.models import Player, Season, club_setting
from ratings.models import RatingTable
from ratings.selectors import seasons
from ratings.selectors.standings import TableSpan
from ratings.selectors.standings import spans as spans_of
from web.page_cache.params import PageParams, cached_page
from web.pages.grid_table import rating_section
from web.pages.paging import paginate
from web.pages.sections import Exports, get_or_404, player_names, public_page
from web.pages.tables import MoversTable
from web.seasons.tables import HonoursTable, SeasonMatchdaysTable, SeasonsTable, SeasonStandingsTable


def start_words(season: Season) -> str:
    return "Fresh start" if season.fresh else "Carry over"


@dataclass
class Listed:
    season: Season
    first_day: date
    last_day: date
    start: str
    state: str
    winners: list[Player]  # of the overall table (its first table), once the season is over


@cached_page(PageParams(exports=True))
@public_page
def season_list(request):
    today = timezone.localdate()
    every = list(Season.objects.all())
    found = seasons.boards([s for s in every if seasons.finished(s, today)], today)
    rows = []
    for season in every:
        first = next(iter(found.get(season.pk, [])), None)
        overall = first if first and first.table.scope == RatingTable.Scope.OVERALL else None
        winners = [r.player for r in overall.rows if r.rank == 1] if overall else []
        rows.append(
            Listed(
                season, season.first_day, season.last_day, start_words(season), seasons.state(season, today), winners
            )
        )
    exports = Exports(request)
    with_year = len({d.year for s in every for d in (s.first_day, s.last_day)}) > 1
    section = exports.section("seasons").show(
        lambda names: SeasonsTable(rows, names, with_year=with_year), title="Seasons"
    )
    exports.names = player_names([p for row in rows for p in row.winners])
    return exports.response() or render(request, "seasons/seasons.html", {"section": section, "any": bool(every)})


@cached_page(PageParams(sections=("matchdays",), tables=True, exports=True))
@public_page
def season(request, slug):
    season = get_or_404(Season.objects, f"There is no season “{slug}”: see the list of seasons.", slug=slug)
    today = timezone.localdate()
    end = seasons.end_of(season, today)
    boards = seasons.boards([season], today).get(season.pk, [])
    exports = Exports(request)
    with_year = season.first_day.year != season.last_day.year or season.last_day > today
    standings, movers, grids = [], [], []
    for board in boards:
        rows, moved = board.rows, seasons.movers(board)
        key = board.table.slug
        standings.append(
            exports.section(f"{key}-standings").show(
                lambda names, rows=rows: SeasonStandingsTable(rows, names), title=board.title, rating_table=board.table
            )
        )
        movers.append(
            exports.section(f"{key}-movers").show(
                lambda names, moved=moved: MoversTable(moved, names), title=board.title, rating_table=board.table
            )
        )
    matchdays = exports.section("matchdays")
    page = paginate(seasons.matchdays(season, today), matchdays.page_number, club_setting("grid_page_size"))
    matchdays.show(
        lambda names: SeasonMatchdaysTable(page.object_list, names, with_year=with_year),
        page,
        title="Matchdays",
        newest_first=True,
    )
    if boards:
        spans = spans_of([b.table for b in boards], counted=False)
        for board in boards:
            span = TableSpan(0, season.first_day, season.last_day, spans.of(board.table).games)
            section = exports.section(board.table.slug)
            grids.append(
                rating_section(section, board.source, span, club_setting("grid_page_size"), end, season.first_day)
            )
    shown = [r.player for b in boards for r in b.rows]
    exports.names = player_names([*shown, *(p for s in grids for p in s.players)])
    ctx = {
        "season": season,
        "state": seasons.state(season, today),
        "start": start_words(season),
        "end": end,
        "standings": standings,
        "movers": movers,
        "matchdays": matchdays,
        "count": page.paginator.count,
        "grids": grids,
    }
    return exports.response() or render(request, "seasons/season.html", ctx)


@dataclass
class HonourRow:
    table: str
    what: str
    players: list[Player]
    figure: tuple[str, float]  # ("rating" | "matchdays" | "rise", the number)


def honour_rows(held: list[seasons.Honour]) -> list[HonourRow]:
    rows = []
    for honour in held:
        best = honour.players[0]
        if honour.what == "Most matchdays":
            figure = ("matchdays", best.played)
        elif honour.what == "Biggest rise":
            figure = ("rise", best.change)
        else:
            figure = ("rating", best.rating)
        rows.append(HonourRow(honour.title, honour.what, [r.player for r in honour.players], figure))
    return rows


@cached_page(PageParams(exports=True))
@public_page
def honours(request):
    today = timezone.localdate()
    exports = Exports(request)
    sections, shown = [], []
    for found in seasons.honours(today):
        rows = [row for _, held in found.tables for row in honour_rows(held)]
        shown.extend(p for row in rows for p in row.players)
        section = exports.section(f"honours-{found.season.slug}")
        section.season = found.season
        sections.append(section.show(lambda names, rows=rows: HonoursTable(rows, names), title=found.season.name))
    exports.names = player_names(shown)
    return exports.response() or render(request, "seasons/honours.html", {"sections": sections})
