"""The club's pages: home (the leaders, the latest matchdays, then every table as on the club's
page), standings, a game, a matchday and the text pages. Every table on a page can also be
downloaded (`?export=csv&table=KEY`, KEY being the table's anchor)."""

from __future__ import annotations

from django.db.models import F
from django.shortcuts import render
from django.utils import timezone

from league.models import Game, Matchday, Page, Result, Season, club_setting
from league.selectors import game_points, neighbours
from ratings.models import RatingTable
from ratings.selectors import against_game, boards, overview, ranks, seasons
from ratings.selectors.sides import in_sides, with_sides
from ratings.selectors.standings import matchday_entries
from ratings.selectors.standings import spans as spans_of
from web.deals import sections as deals
from web.league import as_at
from web.league.points import PlayerPointsTable, RecordScoresTable
from web.league.tables import EntryTable, LeaderboardTable, MatchdayResultsTable
from web.page_cache.params import PageParams, cached_page
from web.pages.as_at import AS_AT, DATES, Days, read_days
from web.pages.formatting import days_between
from web.pages.grid_table import rating_section, results_section
from web.pages.paging import WHOLE, paginate
from web.pages.sections import Exports, Section, bad_request, get_or_404, player_names, public_page, shown_with
from web.pages.tables import LatestResultsTable, StandingsTable

SHOW_ALL = {"all": frozenset({"1"})}  # the standings' inactive players too
PRINT = {"print": frozenset({"1"})}  # every player of every table on one page, to print
LEADERS = 10  # the home page's leaderboard
LATEST_AT_LEAST, LATEST_AT_MOST = 3, 6  # the newest matchdays on the home page: these, or all of the newest day


@cached_page(PageParams(sections=("results",), tables=True, choices=SHOW_ALL, exports=True))
@public_page
def home(request):
    exports = Exports(request, reserved=("latest", "latest-heading", "calculation"))
    leaders_section, results = exports.section("leaderboard"), exports.section("results")
    tables = list(RatingTable.objects.in_page_order())
    spans = spans_of(tables)
    # Games nobody has played yet get no empty table here; their own page says so.
    tables = [t for t in tables if t.scope != RatingTable.Scope.GAME or spans.of(t).matchdays]
    more_games = _beyond_home(tables, spans)
    tables = [t for t in tables if t not in more_games]
    per_page = club_setting("home_grid_page_size")
    repeats = _repeated(tables, spans)  # a category that repeats its one game is shown with it
    sections = [
        shown_with(exports, rating_section(exports.section(t.slug), t, spans.of(t), per_page), repeats.get(t.pk))
        for t in tables
        if t not in repeats.values()
    ]
    results_section(results, None, spans.everything, per_page)
    overall = next((t for t in tables if t.scope == RatingTable.Scope.OVERALL), None)
    show_all = request.GET.get("all") == "1"
    top, season = leaderboard(overall, spans, show_all)
    leaders = top.rows if top else []
    leaders_section.show(lambda names: LeaderboardTable(leaders, names), title="Leaders")
    latest = overview.latest_matchdays(tables, LATEST_AT_LEAST, LATEST_AT_MOST)
    shown = [*(r.player for r in leaders), *(r.player for m in latest for r in m.results)]
    exports.names = player_names([*shown, *(p for s in [*sections, results] for p in s.players)], tables)
    with_year = spans.everything.needs_year(timezone.localdate())
    ctx = {
        "leaders": leaders_section if overall else None,
        "leaders_hidden": bool(top and top.hidden and not season),  # inactive players left out: a link shows everyone
        "season": season,
        "season_days": season and days_between(season.first_day, season.last_day, timezone.localdate()),
        "show_all": show_all,
        "inactive_days": club_setting("inactive_days"),
        "latest": [
            {"day": m, "html": lambda m=m: LatestResultsTable(m.results, exports.names).as_html(request)}
            for m in latest
        ],
        "latest_with_year": with_year,
        "overall": sections[:1],
        "results": results,
        "sections": sections[1:],
        "more_games": more_games,
    }
    return exports.response() or render(request, "league/home.html", ctx)


# A club of many games (a BG Stats file brings in every game it ever logged) gets the tables of those
# played last: 150 were 1.5 MB and 2.7 s of a cold home page. Each game's page shows its own.
HOME_GAME_TABLES = 12


def _beyond_home(tables: list[RatingTable], spans) -> list[RatingTable]:
    """The games' tables beyond the HOME_GAME_TABLES played most recently, in the page's order."""
    games = [t for t in tables if t.scope == RatingTable.Scope.GAME]
    latest_first = sorted(games, key=lambda t: spans.of(t).last, reverse=True)
    beyond = {t.pk for t in latest_first[HOME_GAME_TABLES:]}
    return [t for t in games if t.pk in beyond]


def leaderboard(overall: RatingTable | None, spans, show_all: bool) -> tuple[boards.Board | None, Season | None]:
    """The home page's leaders, and the season they are of: while a season runs, its leaders (a fresh
    start's own overall table; a carry-over season's players in the all-time table); otherwise the
    all-time table's active players. One query more than the leaderboard, two for a fresh start."""
    if overall is None:
        return None, None
    today = timezone.localdate()
    table, season = overall, seasons.running(today)
    if season is not None and season.fresh:
        # Through `every`: a season's related `tables` go through the default manager, which leaves them out.
        own = RatingTable.every.filter(season=season, parent=overall).select_related("season", "parent").first()
        table, since = own or overall, None  # not yet rated (no matchday in it): the all-time table
    elif season is not None:
        since = season.first_day  # who has played since the season began: its players, all-time ratings
    else:
        since = boards.active_since(spans.everything.last, today, club_setting("inactive_days"), show_all)
    return overview.leaderboard(table, LEADERS, club_setting("provisional_matchdays"), since), season


def whole_url(request) -> str:
    """The page asked for with every table whole (`print=1`): the same choices, no page numbers."""
    query = request.GET.copy()
    for name in [n for n in query if n.endswith("-page") or n in ("export", "table")]:
        del query[name]
    query["print"] = "1"
    return f"?{query.urlencode()}"


@cached_page(PageParams(tables=True, choices={**SHOW_ALL, **PRINT}, exports=True, dates=DATES))
@public_page
def standings(request):
    exports = Exports(request)
    tables = list(RatingTable.objects.in_page_order())
    spans, today = spans_of(tables, counted=False), timezone.localdate()
    show_all = request.GET.get("all") == "1"
    whole = request.GET.get("print") == "1"  # every player on one page, to print
    try:
        when = read_days(request.GET, today, compare=True)
    except ValueError as error:
        ctx = {"error": str(error), "days": Days(), "first": spans.everything.first, "today": today}
        return render(request, "league/standings.html", ctx, status=400)
    if when.day is not None:  # as it stood at the end of a day
        ctx = as_at.standings_page(exports, tables, spans, when, show_all, _repeated(tables, spans))
        exports.names = player_names(ctx.pop("shown"), tables)
        ctx.update(inactive_days=club_setting("inactive_days"), show_all=show_all, first=spans.everything.first)
        return exports.response() or render(request, "league/standings.html", {**ctx, "today": today})
    repeats = _repeated(tables, spans)
    sections, shown, hidden = [], [], False
    for table in tables:
        if table in repeats.values():
            continue  # shown once, under its game's name and its own (see `shown_with`)
        section = exports.section(table.slug)
        if table.against_deals:  # hides its own inactive players, by its game's latest session
            sections.append(deals.standings_section(section, table, show_all, whole=whole))
            shown.extend(row.player for row in section.rows)
            continue
        board = ranks.standings_board(table, today, spans.everything.last, show_all)  # as every rank shown
        hidden = hidden or bool(board.hidden)
        quiet = table.scope == RatingTable.Scope.GAME or (table.scope == RatingTable.Scope.CATEGORY and board.hidden)
        if not board.rows and quiet:
            continue  # a game not played yet, or a category whose players are all inactive
        with_year = spans.of(table).needs_year(today)
        board_section(exports, section, table, board, with_year, repeats.get(table.pk), whole=whole)
        shown.extend(row.player for row in section.rows)
        sections.append(section)
    exports.names = player_names(shown, tables)
    ctx = {"sections": sections, "hidden": hidden, "inactive_days": club_setting("inactive_days"), "show_all": show_all}
    ctx["print_url"] = None if whole or not any(s.pager for s in sections) else whole_url(request)
    ctx.update(days=when, keep="", first=spans.everything.first, today=today)
    return exports.response() or render(request, "league/standings.html", ctx)


def _repeated(tables: list[RatingTable], spans) -> dict[int, RatingTable]:
    """Game table id -> the category table that only repeats it."""
    by_pk = {t.pk: t for t in tables}
    return {game.pk: by_pk[pk] for pk, game in boards.twins(tables, spans).items()}


def board_section(
    exports: Exports,
    section: Section,
    table: RatingTable,
    board: boards.Board,
    with_year: bool,
    also: RatingTable | None = None,
    title: str = "",
    *,
    whole: bool = False,
) -> Section:
    """A table's standings: a page of its board (the ranked players, then the provisional ones), or
    all of it when `whole` (to print), standing for `also` too (see `shown_with`)."""
    page = paginate(
        board.rows, None if whole else section.page_number, WHOLE if whole else club_setting("standings_page_size")
    )
    rows = boards.with_players(page.object_list)
    build = lambda names: StandingsTable(rows, names, with_year=with_year)  # noqa: E731
    title = title or (f"{table.name} · {also.name}" if also else table.name)
    section.show(build, page, title=title, rating_table=table)
    section.rows, section.hidden = rows, bool(board.hidden)
    return shown_with(exports, section, also)


@cached_page(
    PageParams(
        # a deal game's page (web/deals/sections.py: game_page) has sections of its own
        sections=("standings", "results", "power-rankings", "latest-session"),
        tables=True,
        choices=SHOW_ALL,
        exports=True,
        dates=(AS_AT,),
    )
)
@public_page
def game(request, slug):
    game = get_or_404(Game.objects.select_related("category", "rating_table"), f"There is no game “{slug}”.", slug=slug)
    today = timezone.localdate()
    try:
        when = read_days(request.GET, today)
    except ValueError as error:
        return bad_request(request, str(error))
    if game.against_deals:
        if when.day is not None:  # its levels and deals keep only their current state
            return bad_request(request, f"as_at: {game.name} is played against deals; its page shows today only.")
        return deals.game_page(request, game)
    table = game.rating_table
    exports = Exports(request)
    standings_section, results = exports.section("standings"), exports.section("results")
    span = spans_of([table], games=[game.pk]).of(table)
    section = rating_section(exports.section(table.slug), table, span, club_setting("grid_page_size"), when.day)
    results_section(results, game, span, club_setting("grid_page_size"), table, when.day)
    show_all = request.GET.get("all") == "1"
    with_year = span.needs_year(today)
    if when.day is not None:  # as it stood at the end of a day, hiding who was inactive then
        ranking = as_at.standings_section(standings_section, table, when, show_all, with_year, title="Standings").rows
    else:
        # Inactive by the club's latest matchday, as on the standings page and every rank shown.
        board = ranks.standings_board(table, today, ranks.latest_matchday(), show_all)
        ranking = board_section(exports, standings_section, table, board, with_year, title="Standings").rows
    points = points_sections(exports, game, with_year) if when.day is None else []  # every score sheet
    shown = [p for s in points for p in s.players]
    exports.names = player_names([*section.players, *results.players, *(row.player for row in ranking), *shown])
    ctx = {"game": game, "section": section, "standings": standings_section, "results": results, "points": points}
    ctx["against"] = against_game.game_record(game) if when.day is None else None  # co-op and solo plays
    ctx.update(show_all=show_all, inactive_days=club_setting("inactive_days"), days=when, first=span.first, today=today)
    return exports.response() or render(request, "league/game.html", ctx)


def points_sections(exports: Exports, game: Game, with_year: bool) -> list[Section]:
    """A game scored by points: each player's average and best points, and the club's record scores
    (none where no one has points)."""
    by_player, records = game_points(game)
    if not by_player:
        return []
    players = [p.player for p in by_player]
    averages = exports.section("points").show(
        lambda names: PlayerPointsTable(by_player, names), title="Points", players=players
    )
    build = lambda names: RecordScoresTable(records, names, with_year=with_year)  # noqa: E731
    return [averages, exports.section("record-scores").show(build, title="Record scores")]


@cached_page(PageParams(exports=True))
@public_page
def matchday(request, number):
    matchday = get_or_404(Matchday.objects.select_related("game"), f"There is no matchday {number}.", number=number)
    exports = Exports(request)
    placings = exports.section("results")
    results = list(
        Result.objects.filter(matchday=matchday)
        .select_related("player")
        .order_by("placing", "side", F("rated_placing").asc(nulls_first=True))
    )
    sides = in_sides(results)  # partners are then grouped, with each side's rating and each weight
    points = any(r.score is not None for r in results)  # from a score sheet: shown beside the placings
    left = any(r.left_early for r in results)
    placings.show(
        lambda names: MatchdayResultsTable(results, names, sides=sides, points=points, left=left), title="Results"
    )
    tables = {table.pk: table for table in RatingTable.objects.select_related("game")}  # for the tooltips too
    sections = []
    for table, entries in matchday_entries(matchday, tables):
        entries = with_sides(entries, results) if sides else entries
        section = exports.section(table.slug).show(
            lambda names, e=entries, m=table.rating_method: EntryTable(e, names, method=m, sides=sides),
            title=f"{table.name} rating",
            rating_table=table,
        )
        section.in_sides = sides
        sections.append(section)
    exports.names = player_names([r.player for r in results], list(tables.values()))
    previous, following = neighbours(matchday)
    ctx = {"matchday": matchday, "results": placings, "sections": sections, "previous": previous, "next": following}
    return exports.response() or render(request, "league/matchday.html", ctx)


@cached_page()
@public_page
def page(request, slug):
    page = get_or_404(Page.objects, f"There is no page “{slug}”.", slug=slug)
    return render(request, "league/page.html", {"page": page})
