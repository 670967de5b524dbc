"""Public pages about rating methods: the calculator (HTML and JSON), the Methods page, the comparison.

None of them writes to the database; the comparison rates a table's history in memory.
"""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import render

from ratings import calculator as calc
from ratings import comparison, selectors
from ratings.methods import METHODS, Outcome, ParamError
from ratings.methods.examples import EXAMPLES
from ratings.models import RatingTable


def _notes(outcome: Outcome) -> str:
    """What a method shows besides the common columns."""
    extras = outcome.extras
    notes = []
    if outcome.opponents_mean is not None:
        notes.append(f"M {outcome.opponents_mean:.1f}")
    if "sigma" in extras:
        notes.append(f"mu {extras['mu']:.2f}, sigma {extras['sigma']:.2f}")
        if extras["provisional"]:
            notes.append("provisional")
    if "malus" in extras:
        notes.append(f"bonus {extras['bonus']:.2f}, malus {extras['malus']:.2f}")
    return "; ".join(notes)


def _rows(names, outcomes):
    return [{"name": name, "o": o, "notes": _notes(o)} for name, o in zip(names, outcomes, strict=True)]


def calculator(request):
    query = request.GET.dict()
    ctx = {"methods": METHODS.values(), "query": query}
    if query.get("ratings") or query.get("placings"):
        single = {k: v for k, v in query.items() if k not in ("games", "start")}
        try:
            game = calc.game_from_query(single)
            outcomes = game.outcomes()
            ctx["game"] = {
                "method": game.method,
                "params": game.params,
                "rows": _rows(range(1, 1 + len(outcomes)), outcomes),
            }
        except ParamError as error:
            ctx["error"] = str(error)
    if query.get("games", "").strip():
        try:
            steps, final = calc.series(query, query.get("start", ""), query["games"])
            ctx["series"] = {
                "steps": [{"step": s, "rows": _rows(s.names, s.outcomes)} for s in steps],
                "final": sorted(final.items(), key=lambda item: -item[1]),
            }
        except ParamError as error:
            ctx["series_error"] = str(error)
    return render(request, "ratings/calculator.html", ctx)


def calculator_json(request):
    try:
        return JsonResponse(calc.as_json(calc.game_from_query(request.GET.dict())))
    except ParamError as error:
        return JsonResponse({"error": str(error), "parameter": error.name}, status=400)


def methods_page(request):
    tables = list(RatingTable.objects.in_page_order())
    sections = []
    for method in METHODS.values():
        example = EXAMPLES[method.slug]
        sections.append(
            {
                "method": method,
                "example": example,
                "rows": _rows(example.names, example.outcomes(method.slug)),
                "tables": [t for t in tables if t.method == method.slug],
            }
        )
    return render(request, "ratings/methods.html", {"sections": sections})


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{share * 100:.0f}%"


def compare(request):
    # Games played against deals have no matchdays to compare methods on.
    tables = [t for t in RatingTable.objects.in_page_order() if not t.against_deals]
    slug = request.GET.get("table") or (tables[0].slug if tables else None)
    table = next((t for t in tables if t.slug == slug), None)
    if table is None:
        raise Http404("No such rating table.")
    history, players = selectors.table_history(table)
    configs = [
        (m, table.method_params() if m.slug == table.method else m.defaults())
        for m in METHODS.values()
        if not m.against_deals
    ]
    runs = comparison.compare(configs, history)
    own = next(r for r in runs if r.method.slug == table.method)
    ranks = [run.ranking() for run in runs]
    order = sorted(
        players, key=lambda pid: (ranks[runs.index(own)].get(pid, len(players) + 1), players[pid].short_name)
    )
    standings = [
        {
            "player": players[pid],
            "cells": [
                {"rank": rank.get(pid), "outcome": run.final.get(pid)} if not run.error else None
                for run, rank in zip(runs, ranks, strict=True)
            ],
        }
        for pid in order
    ]
    matchdays = [
        {
            "number": matchday.number,
            "pairs": comparison.predicted([0] * len(matchday.results), [p.placing for p in matchday.results])[1],
            "shares": [
                None
                if run.error or i >= len(run.hits)
                else _percent(run.hits[i][0] / run.hits[i][1] if run.hits[i][1] else None)
                for run in runs
            ],
        }
        for i, matchday in enumerate(history)
    ]
    shares = [None if run.error else run.share for run in runs]
    best = max((s for s in shares if s is not None), default=None)
    ctx = {
        "tables": tables,
        "table": table,
        "runs": [
            {"run": run, "share": _percent(share), "best": share is not None and share == best}
            for run, share in zip(runs, shares, strict=True)
        ],
        "standings": standings,
        "matchdays": matchdays,
    }
    return render(request, "ratings/compare.html", ctx)
