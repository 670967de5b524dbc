"""Pages of games played against deals: the game (standings, average deal ratings by variant and
level, power rankings, the latest session), a deal, the player page's section, and the "What
happened?" calculator with its JSON twin."""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render

from league.models import Deal, Game, Player
from ratings.deals import calculator as deal_calculator
from ratings.deals import selectors as deal_selectors
from ratings.methods import ParamError
from ratings.models import RatingTable
from ratings.selectors.standings import ranked_standings, standing_rows
from web.deals.tables import AttemptTable, DealStandingsTable, PowerRankingsTable, level_grid_table
from web.page_params import PageParams, cached_page
from web.pages import charts
from web.pages.formatting import format_fine_rating, long_date
from web.pages.paging import WHOLE, paginate
from web.pages.sections import Exports, Section, get_or_404, player_names, public_page

PAGE = settings.LEAGUE_STANDINGS_PAGE_SIZE


def standings_section(
    section: Section, table: RatingTable, show_all: bool, latest=None, *, whole: bool = False
) -> Section:
    """The deal game's standings, hiding players with no attempt in the table's inactivity window
    before the game's latest session (unless `show_all`), with a notice saying so; all of it on one
    page when `whole`."""
    latest = latest or deal_selectors.latest_session(table)
    since = deal_selectors.active_since(table, latest)
    shown_since = None if show_all else since
    ranked = ranked_standings(table, active_since=shown_since)
    page = paginate(ranked, None, WHOLE) if whole else paginate(ranked, section.page_number, PAGE)
    rows = standing_rows(table, page, settings.LEAGUE_PROVISIONAL_MATCHDAYS)
    hidden = shown_since is not None and table.standings.filter(matchday_date__lt=shown_since).exists()
    days = table.method_params()["inactive_days"]
    notice = ""
    if hidden:
        latest_day = long_date(latest.date)
        notice = f"Players with no attempt in the {days} days before the latest session ({latest_day}) are hidden."
    elif show_all and since is not None:
        notice = "Showing everyone."
    section.show(lambda names: DealStandingsTable(rows, names), page, title=table.name, rating_table=table)
    section.rows, section.notice, section.hidden, section.show_all = rows, notice, hidden, show_all
    return section


def game_page(request, game: Game):
    table = game.rating_table
    exports = Exports(request)
    latest = deal_selectors.latest_session(table)
    standings = standings_section(exports.section("standings"), table, request.GET.get("all") == "1", latest)
    levels_section, power, session = (exports.section(key) for key in ("levels", "power-rankings", "latest-session"))
    levels = deal_selectors.level_rows(table)
    grid = deal_selectors.level_grid(levels)
    power_page = paginate(deal_selectors.power_rankings(levels), power.page_number, PAGE)
    session_page = paginate(deal_selectors.session_attempts(latest) if latest else [], session.page_number, PAGE)
    attempts = deal_selectors.attempt_rows(session_page.object_list, table.method_params()["first_attempt_only"])
    exports.names = player_names([*(row.player for row in standings.rows), *(row.player for row in attempts)])
    levels_section.show(lambda names: level_grid_table(grid), title="Average deal rating by variant and level")
    power.show(lambda names: PowerRankingsTable(power_page.object_list), power_page, title="Power rankings")
    session.show(
        lambda names: AttemptTable(attempts, names, exclude=("date", "explanation", "player_before", "player_after")),
        session_page,
        title="Latest session",
    )
    ctx = {
        "game": game,
        "table": table,
        "standings": standings,
        "levels": levels_section,
        "power": power,
        "latest": latest,
        "session": session,
    }
    return exports.response() or render(request, "deals/game.html", ctx)


@cached_page(PageParams(sections=("attempts",), exports=True))
@public_page
def deal(request, slug, variant, level, number):
    deal = get_or_404(
        Deal.objects.select_related("level__game__rating_table", "seed"),
        f"There is no deal {number} of {variant} level {level} in “{slug}”.",
        level__game__slug=slug,
        level__variant=variant,
        level__level=level,
        number=number,
    )
    table = deal.level.game.rating_table
    exports = Exports(request, reserved=("history", "history-heading"))
    attempts = exports.section("attempts")
    page = paginate(deal_selectors.deal_attempts(deal), attempts.page_number, PAGE)
    for attempt in page.object_list:
        attempt.deal = deal  # its level and game are the page's
    rows = deal_selectors.attempt_rows(page.object_list, table.method_params()["first_attempt_only"])
    history = deal_selectors.deal_history(deal)
    points = [charts.Point(day, rating, f"{long_date(day)}: {format_fine_rating(rating)}") for day, rating in history]
    exports.names = player_names([row.player for row in rows])
    ctx = {
        "deal": deal,
        "table": table,
        "rating": deal_selectors.deal_rating(deal),
        "seed": getattr(deal, "seed", None),
        "chart": charts.rating_chart([charts.Series(f"Deal {deal.number}", points)], title=f"Rating of {deal}"),
        "attempts": attempts.show(
            lambda names: AttemptTable(rows, names, exclude=("position", "deal", "explanation")),
            page,
            title="Every attempt",
            newest_first=True,
        ),
    }
    return exports.response() or render(request, "deals/deal.html", ctx)


def player_section(section: Section, player: Player, table: RatingTable, until=None) -> Section:
    """The player page's section for a deal game: every attempt (up to `until`) explained, newest
    first, and their rating chart."""
    attempts = deal_selectors.player_attempts(player, table, until)
    page = paginate(attempts, section.page_number, settings.LEAGUE_GRID_PAGE_SIZE)
    rows = deal_selectors.attempt_rows(page.object_list, table.method_params()["first_attempt_only"])  # newest first
    points = [
        charts.Point(day, rating, f"{long_date(day)}: {format_fine_rating(rating)}")
        for day, rating in deal_selectors.player_history(player, table, until)
    ]
    section.show(
        lambda names: AttemptTable(
            rows, names, exclude=("player", "position", "deal", "result", "deal_before", "deal_after")
        ),
        page,
        title=table.name,
        newest_first=True,
        rating_table=table,
    )
    section.partial = "deals/_player_section.html"
    section.chart = charts.rating_chart(
        [charts.Series(table.name, points)], title=f"{table.name} rating of {player.short_name}"
    )
    return section


def _calculation(query) -> tuple[float, list[deal_calculator.AttemptStep]]:
    k = deal_calculator.parse_k(query.get("k"))
    return k, deal_calculator.what_happened(query.get("attempts", ""), k)


def attempts_calculator(request):
    query = request.GET.dict()
    ctx = {
        "query": query,
        "example": "1500, 1000, W\n1000, L\n1620.5, 1710, W",
        "ratings_range": deal_calculator.RATINGS.range_text,
        "k_range": deal_calculator.K_PARAM.range_text,
    }
    if query.get("attempts", "").strip():
        try:
            k, steps = _calculation(query)
            ctx.update(k=k, steps=steps, total=sum(s.delta for s in steps), final=steps[-1].player_after)
        except ParamError as error:
            ctx["error"], ctx["error_field"] = str(error), error.name
    return render(request, "deals/calculator.html", ctx)


def attempts_calculator_json(request):
    try:
        k, steps = _calculation(request.GET)
    except ParamError as error:
        return JsonResponse({"error": str(error), "parameter": error.name}, status=400)
    # Ratings and K are bounded, so every number is finite; JSON never carries Infinity or NaN either way.
    return JsonResponse(deal_calculator.as_json(steps, k), json_dumps_params={"allow_nan": False})
