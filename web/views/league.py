"""The club's pages: home (every table, as on the club's page), standings, a game, a matchday and the
text pages. Every table on a page can also be downloaded (`?export=csv&table=KEY`)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import F
from django.shortcuts import render
from django.utils import timezone

from league.models import Game, Matchday, Page, Result
from ratings import selectors
from ratings.models import RatingTable, Standing
from web.paging import paginate
from web.tables import EntryTable, MatchdayResultsTable, StandingsTable, grid_table
from web.views import deals
from web.views.common import Exports, get_or_404, page_param, player_names, public_page


def rating_section(request, exports: Exports, table: RatingTable) -> tuple[dict, list]:
    """One table's rating grid: the page asked for, newest first; and the players it shows."""
    page = paginate(selectors.grid_matchdays(table), request.GET.get(page_param(table)), settings.LEAGUE_GRID_PAGE_SIZE)
    grid = selectors.rating_grid(table, settings.LEAGUE_GRID_PLAYERS, page)
    show_game = table.scope != RatingTable.Scope.GAME
    section = exports.add(
        table.slug,
        lambda names: grid_table(grid, names, show_game=show_game, ratings=True),
        page,
    )
    return {**section, "rating_table": table}, grid.players


def results_section(request, exports: Exports, matchdays, players, *, show_game: bool) -> dict:
    """The placings of `players` at `matchdays`, a page at a time, newest first."""
    page = paginate(
        selectors.results_matchdays(matchdays), request.GET.get("results-page"), settings.LEAGUE_GRID_PAGE_SIZE
    )
    grid = selectors.results_grid(page, players)
    return exports.add("results", lambda names: grid_table(grid, names, show_game=show_game, ratings=False), page)


@public_page
def home(request):
    exports = Exports(request)
    tables = list(RatingTable.objects.in_page_order())
    played = set(Matchday.objects.order_by().values_list("game_id", flat=True).distinct())
    # Games nobody has played yet get no empty table here; their own page says so.
    tables = [t for t in tables if t.scope != RatingTable.Scope.GAME or t.game_id in played]
    sections, grids = [], []
    for table in tables:
        section, players = rating_section(request, exports, table)
        sections.append(section)
        grids.append(players)
    columns = selectors.results_players(grids, settings.LEAGUE_GRID_PLAYERS)
    results = results_section(request, exports, Matchday.objects.all(), columns, show_game=True)
    exports.names = player_names([p for players in grids for p in players])
    ctx = {"overall": sections[:1], "results": results, "sections": sections[1:]}
    return exports.response() or render(request, "league/home.html", ctx)


@public_page
def standings(request):
    exports = Exports(request)
    tables = list(RatingTable.objects.in_page_order())
    show_all = request.GET.get("all") == "1"
    days = settings.LEAGUE_INACTIVE_DAYS
    since = timezone.localdate() - timedelta(days=days) if days and not show_all else None
    matchday_tables = [t for t in tables if not t.against_deals]  # deal games hide players their own way
    hidden = since is not None and Standing.objects.filter(table__in=matchday_tables, matchday_date__lt=since).exists()
    sections, shown = [], []
    for table in tables:
        if table.against_deals:  # hides its own inactive players, by its game's latest session
            sections.append(deals.standings_section(request, exports, table, show_all))
            shown.extend(row.player for row in sections[-1]["rows"])
            continue
        page = paginate(
            selectors.ranked_standings(table, active_since=since),
            request.GET.get(page_param(table)),
            settings.LEAGUE_STANDINGS_PAGE_SIZE,
        )
        rows = selectors.standing_rows(table, page, settings.LEAGUE_PROVISIONAL_MATCHDAYS)
        if not rows and table.scope == RatingTable.Scope.GAME:
            continue
        shown.extend(row.player for row in rows)
        section = exports.add(
            f"standings-{table.slug}",
            lambda names, rows=rows: StandingsTable(rows, names),
            page,
            param=page_param(table),
        )
        sections.append({**section, "rating_table": table})
    exports.names = player_names(shown)
    ctx = {"sections": sections, "hidden": hidden, "inactive_days": days, "show_all": show_all}
    return exports.response() or render(request, "league/standings.html", ctx)


@public_page
def game(request, slug):
    game = get_or_404(Game.objects.select_related("category", "rating_table"), f"There is no game “{slug}”.", slug=slug)
    if game.against_deals:
        return deals.game_page(request, game)
    table = game.rating_table
    exports = Exports(request)
    section, players = rating_section(request, exports, table)
    ranking_page = paginate(
        selectors.ranked_standings(table), request.GET.get("standings-page"), settings.LEAGUE_STANDINGS_PAGE_SIZE
    )
    ranking = selectors.standing_rows(table, ranking_page, settings.LEAGUE_PROVISIONAL_MATCHDAYS)
    results = results_section(request, exports, game.matchdays.all(), players, show_game=False)
    exports.names = player_names([*players, *(row.player for row in ranking)])
    ctx = {
        "game": game,
        "section": section,
        "standings": exports.add(
            f"standings-{table.slug}",
            lambda names: StandingsTable(ranking, names),
            ranking_page,
            param="standings-page",
        ),
        "results": results,
    }
    return exports.response() or render(request, "league/game.html", ctx)


@public_page
def matchday(request, number):
    matchday = get_or_404(Matchday.objects.select_related("game"), f"There is no matchday {number}.", number=number)
    exports = Exports(request)
    results = list(
        Result.objects.filter(matchday=matchday)
        .select_related("player")
        .order_by("placing", F("rated_placing").asc(nulls_first=True))
    )
    sections = [
        {
            **exports.add(
                f"ratings-{table.slug}",
                lambda names, e=entries, m=table.rating_method: EntryTable(e, names, method=m),
            ),
            "rating_table": table,
        }
        for table, entries in selectors.matchday_entries(matchday)
    ]
    exports.names = player_names([r.player for r in results])
    ctx = {
        "matchday": matchday,
        "results": exports.add("results", lambda names: MatchdayResultsTable(results, names)),
        "sections": sections,
        "previous": Matchday.objects.filter(number__lt=number).order_by("-number").first(),
        "next": Matchday.objects.filter(number__gt=number).order_by("number").first(),
    }
    return exports.response() or render(request, "league/matchday.html", ctx)


@public_page
def page(request, slug):
    page = get_or_404(Page.objects, f"There is no page “{slug}”.", slug=slug)
    return render(request, "league/page.html", {"page": page})
