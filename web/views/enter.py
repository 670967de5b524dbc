"""The secretary's results page: a game night's matchday typed in a minute, previewed with every
rating change, then saved through the same service as the admin and the import.

A preview carries a one-time token and the matchday's number: a second Save of the same preview
(Back, a double click, a reload) saves nothing and says where the matchday went, and a preview whose
number was taken meanwhile is shown again, renumbered, rather than saved as another matchday.
"""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.db.models import Max
from django.shortcuts import redirect, render
from django.utils import timezone

from league import submissions
from league.models import Matchday, Player
from league.placings import side_groups
from league.validation import ENTRY_LINES, MATCHDAY_NUMBERS, whole_number
from ratings.selectors.grids import with_points
from ratings.services.matchdays import MatchdayPreview, preview_matchday, save_matchday
from web.entry import LINES, EntryForm
from web.fields import refusal
from web.formatting import explain_change


def _initial() -> dict:
    last = Matchday.objects.select_related("game").order_by("-date", "-number").first()
    return {"date": timezone.localdate(), "game": last.game if last else None}


def _next_number() -> int:
    return (Matchday.objects.aggregate(n=Max("number"))["n"] or 0) + 1


def _partners(results) -> dict[str, list[str]]:
    """Each side's label -> its players' short names, in the order typed."""
    sides: dict[str, list[str]] = {}
    for result in results:
        if result.side:
            sides.setdefault(result.side, []).append(result.player.short_name)
    return sides


def _preview_rows(preview: MatchdayPreview) -> list[dict]:
    """Each table's rows, best placed first; a player's side names their partners (`A, with K`)."""
    sides = _partners(preview.results)
    n = len(side_groups([r.side for r in preview.results]))  # what the placings rank: the sides
    sections = []
    for table, outcomes in preview.changes:
        rows = []
        for result, o in sorted(zip(preview.results, outcomes, strict=True), key=lambda pair: pair[1].placing):
            rated = o.placing
            shown = with_points(f"{rated}({result.placing})" if rated != result.placing else str(rated), result.score)
            note = explain_change(o.delta, rated, n, o.expected, o.k, result.placing)
            partners = [name for name in sides.get(result.side, []) if name != result.player.short_name]
            side = f"{result.side}, with {', '.join(partners)}" if result.side else ""
            rows.append(
                {
                    "player": result.player,
                    "placing": shown,
                    "left": result.left_early,
                    "side": side,
                    "weight": f"{result.weight:g}",
                    "o": o,
                    "note": note,
                }
            )
        sections.append({"table": table, "rows": rows})
    return sections


def _line_count(post) -> tuple[int, ValidationError | None]:
    """The number of result lines the form shows (the hidden `lines`), with "More lines" added."""
    try:
        lines = max(LINES, whole_number(post.get("lines", "").strip() or str(LINES), "lines", ENTRY_LINES))
    except ValueError as error:
        return LINES, refusal(error)
    if post.get("action") == "more":
        lines = min(lines + LINES, ENTRY_LINES.highest)
    return lines, None


def _previewed_number(post) -> int | None:
    try:
        return whole_number(post.get("number", "").strip(), "number", MATCHDAY_NUMBERS)
    except ValueError:
        return None


def _save(form: EntryForm, number: int, token: str):
    """Save the previewed matchday once for `token`; the saved matchday, or AlreadySaved."""

    def save():
        matchday, results = form.matchday_and_results(number)
        save_matchday(matchday, results)
        return matchday, matchday, str(matchday)

    return submissions.save_once(token, save)


def _taken_notice(previewed: int | None, number: int, token: str) -> dict:
    """Why a Save became a fresh preview: its number was taken meanwhile, or it came without a token."""
    if previewed is None or previewed == number or not submissions.is_token(token):
        return {"text": f"Check the preview of matchday {number}, then save it."}
    return {
        "text": f"Matchday {previewed} was saved meanwhile, so nothing was saved: this preview is now matchday "
        f"{number}. Check it, then save it.",
        "matchday": Matchday.objects.filter(number=previewed).first(),
    }


@staff_member_required
def enter(request):
    lines, lines_error = _line_count(request.POST) if request.method == "POST" else (LINES, None)
    players = Player.objects.order_by("short_name").values_list("short_name", "name")
    ctx = {"players": players, "lines": lines}
    if request.method != "POST":
        return render(request, "league/enter.html", {**ctx, "form": EntryForm(initial=_initial(), lines=lines)})
    form = EntryForm(request.POST, lines=lines)
    action, token = request.POST.get("action"), request.POST.get("token", "")
    if lines_error or action in ("more", "edit"):  # back to the form as typed
        form.is_valid()  # finds the new players' boxes to show again
        if lines_error:
            form.add_error(None, lines_error)
        return render(request, "league/enter.html", {**ctx, "form": form, "quiet": not lines_error})
    if action == "save" and submissions.is_token(token) and (done := submissions.saved_with(token)):
        return _already_saved(request, ctx, done)
    if not form.is_valid():
        return render(request, "league/enter.html", {**ctx, "form": form})
    number, previewed = _next_number(), _previewed_number(request.POST)
    if action == "save" and submissions.is_token(token) and previewed == number:
        try:
            return redirect("league:matchday", _save(form, number, token).number)
        except submissions.AlreadySaved as done:
            return _already_saved(request, ctx, done.submission)
        except IntegrityError:  # another preview took the number between our check and our save
            number = _next_number()
            ctx["notice"] = _taken_notice(previewed, number, token)
        except ValidationError as error:
            form.add_error(None, error)
            return render(request, "league/enter.html", {**ctx, "form": form})
    elif action == "save":
        ctx["notice"] = _taken_notice(previewed, number, token)
    return _preview(request, form, ctx, number)


def _preview(request, form: EntryForm, ctx: dict, number: int):
    """The preview of the form's matchday as `number`, with a new one-time token for its Save."""
    matchday, results = form.matchday_and_results(number)
    try:
        preview = preview_matchday(matchday, results)
    except ValidationError as error:
        form.add_error(None, error)
    else:
        ctx.update(preview=preview, sections=_preview_rows(preview), matchday=matchday, token=submissions.new_token())
        ctx.update(sides=any(r.side for r in results), weights=any(r.weight != 1 for r in results))
    return render(request, "league/enter.html", {**ctx, "form": form})


def _already_saved(request, ctx: dict, done: submissions.Submission):
    """A second Save of one preview: nothing saved, a link to what the first saved, an empty form."""
    form = EntryForm(initial=_initial(), lines=LINES)
    return render(request, "league/enter.html", {**ctx, "form": form, "already": done, "lines": LINES})
