"""Pages of games played against deals: a deal, and the "What happened?" calculator with its JSON
twin (the game's own page and what other pages show of it are in `web.deals.sections`)."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import render

from league.models import Deal, club_setting
from ratings.deals import calculator as deal_calculator
from ratings.deals import selectors as deal_selectors
from ratings.methods import ParamError
from web.deals.tables import AttemptTable
from web.page_cache.params import PageParams, cached_page
from web.pages import charts
from web.pages.formatting import format_fine_rating, long_date
from web.pages.paging import paginate
from web.pages.sections import Exports, get_or_404, player_names, public_page


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
    page = paginate(deal_selectors.deal_attempts(deal), attempts.page_number, club_setting("standings_page_size"))
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
