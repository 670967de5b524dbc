"""Public pages about rating methods: the calculator (HTML and JSON), the Methods page, the comparison.

None of them writes to the database; the comparison rates a table's history in memory.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import JsonResponse
from django.shortcuts import render

from league.models import club_setting
from league.validation import name_key, quoted
from ratings import calculator as calc
from ratings import comparison
from ratings.methods import METHODS, Outcome, ParamError
from ratings.methods.examples import EXAMPLES, TEAM_EXAMPLES
from ratings.models import RatingTable, Standing
from ratings.selectors.standings import table_history
from web.page_cache import generation
from web.page_cache.params import cached_page
from web.pages.errors import NotFound
from web.pages.formatting import plain_number
from web.pages.paging import paginate
from web.pages.sections import page_links, public_page
from web.pages.typed_names import resolve_players


def _notes(outcome: Outcome) -> str:
    """What a method shows besides the common columns."""
    extras = outcome.extras
    notes = []
    if outcome.opponents_mean is not None:
        notes.append(f"M {outcome.opponents_mean:.1f}")
    if "sigma" in extras:
        notes.append(f"mu {extras['mu']:.2f}, sigma {extras['sigma']:.2f}")
    if "rd" in extras:
        notes.append(f"RD {extras['rd']:.2f}, volatility {extras['volatility']:.5f}")
    if extras.get("provisional"):
        notes.append("provisional")
    if "side_rating" in extras:
        notes.append(f"side {extras['side_rating']:.1f}")
    if extras.get("weight", 1) != 1:
        notes.append(f"weight {extras['weight']:g}")
    if "malus" in extras:
        notes.append(f"bonus {extras['bonus']:.2f}, malus {extras['malus']:.2f}")
    return "; ".join(notes)


def _rows(names, outcomes):
    return [{"name": name, "o": o, "notes": _notes(o)} for name, o in zip(names, outcomes, strict=True)]


def _seat_name(label: str, seat) -> str:
    """A player of the one-game calculator: their name or number, with their side and weight when given."""
    side = f", side {seat.side}" if seat.side else ""
    weight = f", weight {seat.weight:g}" if seat.weight != 1 else ""
    return f"{label}{side}{weight}"


# The page's own inputs, which the calculator itself does not take: members whose ratings fill
# `ratings` and the table those come from, and the button that shows another method's parameters.
PAGE_INPUTS = ("players", "table", "choose")
ALL_PARAMS = {p.name for m in METHODS.values() for p in m.params}


def _members(text: str, slug: str, tables: list[RatingTable]) -> tuple[RatingTable, list, list[float]]:
    """The table named by `slug` (the first one when blank), the members named in `text` (found as
    the entry page finds them) and their current ratings in it; a member who has not played in it
    has its start rating. ParamError naming `players` or `table` otherwise."""
    names = calc.member_names(text)
    table = next((t for t in tables if t.slug == slug), None) if slug else next(iter(tables), None)
    if table is None:
        raise ParamError("table", f"there is no rating table {quoted(slug)} to take ratings from")
    found = resolve_players(names)
    members, problems = [], []
    for name in names:
        if name in found.ambiguous:
            problems.append(f"{name} could be {', '.join(p.short_name for p in found.ambiguous[name])}")
        elif name in found.unknown:
            close = found.unknown[name]
            problems.append(f"no member is called {name}" + (f" (did you mean {close}?)" if close else ""))
        else:
            members.append(found.players[name_key(name)])
    if problems:
        raise ParamError("players", "; ".join(problems))
    if len({m.pk for m in members}) < len(members):
        raise ParamError("players", "names one member twice")
    rated = dict(Standing.objects.filter(table=table, player__in=members).values_list("player_id", "rating"))
    start = table.rating_method.start(table.method_params())[0]
    return table, members, [rated.get(m.pk, start) for m in members]


def _method_forms(query: dict) -> list[dict]:
    """Each method's parameters, the chosen one's holding what was typed (the page shows it alone)."""
    chosen = METHODS.get(str(query.get("method", "")).strip()) or METHODS["club"]
    forms = []
    for method in METHODS.values():
        typed = method is chosen
        fields = [{**f, "value": query.get(f["param"].name, "") if typed else ""} for f in calc.method_fields(method)]
        forms.append({"method": method, "chosen": method is chosen, "fields": fields})
    return forms


def _one_game(query: dict, names: list[str] | None) -> dict:
    game = calc.game_from_query({k: v for k, v in query.items() if k not in ("games", "start", *PAGE_INPUTS)})
    labels = names or [str(i) for i in range(1, len(game.seats) + 1)]
    rows = _rows([_seat_name(label, seat) for label, seat in zip(labels, game.seats, strict=True)], game.outcomes())
    return {"method": game.method, "params": game.params, "rows": rows}


def calculator(request):
    query = request.GET.dict()
    tables = [t for t in RatingTable.objects.in_page_order() if not t.against_deals]
    if "choose" in query and str(query.get("method", "")).strip() in METHODS:
        # Another method chosen without JavaScript: the parameters of the one before are let go.
        own = {p.name for p in METHODS[query["method"].strip()].params}
        query = {k: v for k, v in query.items() if k not in ALL_PARAMS or k in own}
    ctx = {
        "methods": _method_forms(query),
        "tables": tables,
        "query": query,
        "player_fields": [{"param": p, "value": query.get(p.name, "")} for p in calc.player_fields()],
        "limits": {"players": calc.MAX_PLAYERS, "games": calc.MAX_GAMES, "seats": calc.MAX_SEATS},
    }
    ctx["player_open"] = any(f["value"] for f in ctx["player_fields"])
    names = None
    if query.get("players", "").strip():
        try:
            ctx["from_table"], members, ratings = _members(query["players"], query.get("table", ""), tables)
            query["ratings"] = ", ".join(str(plain_number(r)) for r in ratings)
            names = [m.short_name for m in members]
        except ParamError as error:
            ctx["error"] = str(error)
    if "error" not in ctx and (query.get("ratings") or query.get("placings")):
        try:
            ctx["game"] = _one_game(query, names)
        except ParamError as error:
            ctx["error"] = str(error)
    if query.get("games", "").strip():
        try:
            rest = {k: v for k, v in query.items() if k not in PAGE_INPUTS}
            steps, final = calc.series(rest, query.get("start", ""), query["games"])
            ctx["series"] = {
                "steps": [{"step": s, "rows": _rows(s.names, s.outcomes)} for s in steps],
                "final": sorted(final.items(), key=lambda item: -item[1]),
            }
        except ParamError as error:
            ctx["series_error"] = str(error)
    # A refused input is shown on the form, with the status that says the request was at fault.
    return render(
        request, "ratings/calculator.html", ctx, status=400 if "error" in ctx or "series_error" in ctx else 200
    )


def calculator_json(request):
    try:
        answer = calc.as_json(calc.game_from_query(request.GET.dict()))
    except ParamError as error:
        return JsonResponse({"error": str(error), "parameter": error.name}, status=400)
    # The calculator refuses results that are not finite; JSON never carries Infinity or NaN either way.
    return JsonResponse(answer, json_dumps_params={"allow_nan": False})


@cached_page()
def methods_page(request):
    tables = list(RatingTable.objects.in_page_order())
    sections = []
    for method in METHODS.values():
        example, team = EXAMPLES[method.slug], TEAM_EXAMPLES.get(method.slug)
        sections.append(
            {
                "method": method,
                "example": example,
                "rows": _rows(example.names, example.outcomes(method.slug)),
                "team": team,
                "team_rows": _rows(team.names, team.outcomes(method.slug)) if team else None,
                "tables": [t for t in tables if t.method == method.slug],
                "params": [*method.params, *method.player_inputs],
            }
        )
    return render(request, "ratings/methods.html", {"sections": sections})


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{share * 100:.0f}%"


def _loss(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _compared(request, table: RatingTable):
    """Every method over the table's most recent matchdays, computed once per revision of the
    league (and per process): paging through the lists, or asking again, costs no second rating."""
    window, version = settings.LEAGUE_COMPARE_MATCHDAYS, generation(request)
    key = f"compare:{table.pk}:{window}"
    found = cache.get(key, version=version)
    if found is None:
        history, players, total = table_history(table, window)
        configs = [
            (m, table.method_params() if m.slug == table.method else m.defaults())
            for m in METHODS.values()
            if not m.against_deals
        ]
        names = {pk: player.short_name for pk, player in players.items()}  # plain values pickle fast
        found = (comparison.compare(configs, history), history, names, total)
        cache.set(key, found, timeout=24 * 3600, version=version)
    return found


def _best(values: list[float | None], lowest: bool = False) -> float | None:
    present = [v for v in values if v is not None]
    return (min if lowest else max)(present) if present else None


def _summary(runs: list[comparison.Run]) -> list[dict]:
    """One row per method: the three measures over every rated matchday and over the last year,
    the best of each column marked."""
    columns = {
        name: [None if r.error else getattr(getattr(r, span), measure) for r in runs]
        for span in ("all", "last_year")
        for measure in ("pair_order", "winner", "log_loss")
        for name in [f"{span}.{measure}"]
    }
    best = {name: _best(values, lowest=name.endswith("log_loss")) for name, values in columns.items()}
    rows = []
    for i, run in enumerate(runs):
        cells = []
        for name, values in columns.items():
            value = values[i]
            shown = _loss(value) if name.endswith("log_loss") else _percent(value)
            cells.append({"text": "n/a" if run.error else shown, "best": value is not None and value == best[name]})
        rows.append({"run": run, "cells": cells, "matchdays": run.all.matchdays, "year": run.last_year.matchdays})
    return rows


@public_page
def compare(request):
    # Games played against deals have no matchdays to compare methods on.
    tables = [t for t in RatingTable.objects.in_page_order() if not t.against_deals]
    slug = request.GET.get("table") or (tables[0].slug if tables else None)
    table = next((t for t in tables if t.slug == slug), None)
    if table is None:
        raise NotFound("There is no such rating table to compare.")
    runs, history, players, total = _compared(request, table)
    ranks = [run.ranking() for run in runs]
    own = next(i for i, run in enumerate(runs) if run.method.slug == table.method)
    order = sorted(players, key=lambda pid: (ranks[own].get(pid, len(players) + 1), players[pid]))
    standings = paginate(order, request.GET.get("standings-page"), club_setting("standings_page_size"))
    newest_first = paginate(
        range(len(history) - 1, -1, -1), request.GET.get("matchdays-page"), club_setting("grid_page_size")
    )
    ctx = {
        "tables": tables,
        "table": table,
        "rated": history,
        "total": total,
        "window": settings.LEAGUE_COMPARE_MATCHDAYS,
        "summary": _summary(runs),
        "verdict": comparison.verdict(runs),
        "coin_toss": _loss(comparison.COIN_TOSS_LOG_LOSS),
        "references": comparison.REFERENCES,
        "runs": runs,
        "matchdays": [
            _matchday_row(history[i], [run.days[i] if not run.error else None for run in runs]) for i in newest_first
        ],
        "matchdays_pager": page_links(request, "matchdays-page", newest_first),
        "standings": [_standing_row(pid, players[pid], runs, ranks) for pid in standings.object_list],
        "standings_pager": page_links(request, "standings-page", standings),
    }
    return render(request, "ratings/compare.html", ctx)


def _matchday_row(matchday: comparison.MatchdayRecord, days: list[comparison.DayScore | None]) -> dict:
    pairs = comparison.predicted([0] * len(matchday.results), [p.placing for p in matchday.results])[1]
    return {
        "matchday": matchday,
        "pairs": pairs,
        "shares": [None if day is None else _percent(day.share) for day in days],
    }


def _standing_row(pid: int, name: str, runs: list[comparison.Run], ranks: list[dict]) -> dict:
    cells = [
        None if run.error else {"rank": rank.get(pid), "final": run.final.get(pid)}
        for run, rank in zip(runs, ranks, strict=True)
    ]
    return {"name": name, "cells": cells}
