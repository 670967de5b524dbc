"""The secretary's results page: a game night's matchday typed in a minute, previewed with every
rating change, then saved through the same service as the admin and the import."""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import ValidationError
from django.db.models import Max
from django.shortcuts import redirect, render
from django.utils import timezone

from league.models import Matchday, Player
from ratings.services.matchdays import MatchdayPreview, preview_matchday, save_matchday
from web.entry import LINES, EntryForm
from web.formatting import explain_change


def _initial() -> dict:
    last = Matchday.objects.select_related("game").order_by("-date", "-number").first()
    return {"date": timezone.localdate(), "game": last.game if last else None}


def _next_number() -> int:
    return (Matchday.objects.aggregate(n=Max("number"))["n"] or 0) + 1


def _preview_rows(preview: MatchdayPreview) -> list[dict]:
    n = len(preview.results)
    sections = []
    for table, outcomes in preview.changes:
        rows = []
        for result, o in sorted(zip(preview.results, outcomes, strict=True), key=lambda pair: pair[1].placing):
            rated = o.placing
            shown = f"{rated}({result.placing})" if rated != result.placing else str(rated)
            note = explain_change(o.delta, rated, n, o.expected, o.k, result.placing)
            rows.append({"player": result.player, "placing": shown, "left": result.left_early, "o": o, "note": note})
        sections.append({"table": table, "rows": rows})
    return sections


@staff_member_required
def enter(request):
    lines = LINES
    if request.method == "POST":
        lines = max(LINES, min(int(request.POST.get("lines", LINES) or LINES), 500))
        if request.POST.get("action") == "more":
            lines += LINES
    players = Player.objects.order_by("short_name").values_list("short_name", "name")
    ctx = {"players": players, "lines": lines}
    if request.method != "POST":
        return render(request, "league/enter.html", {**ctx, "form": EntryForm(initial=_initial(), lines=lines)})
    form = EntryForm(request.POST, lines=lines)
    action = request.POST.get("action")
    if action in ("more", "edit"):  # back to the form as typed, without complaints yet
        form.is_valid()  # finds the new players' boxes to show again
        return render(request, "league/enter.html", {**ctx, "form": form, "quiet": True})
    if form.is_valid():
        matchday, results = form.matchday_and_results(_next_number())
        try:
            if action == "save":
                save_matchday(matchday, results)
                return redirect("league:matchday", matchday.number)
            preview = preview_matchday(matchday, results)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            ctx.update(preview=preview, sections=_preview_rows(preview), matchday=matchday)
    return render(request, "league/enter.html", {**ctx, "form": form})
