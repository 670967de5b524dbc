"""The secretary's results page: a game night's matchday typed in a minute, previewed with every
rating change, then saved through the same service as the admin and the import.

A preview carries a one-time token and the matchday's number: a second Save of the same preview
(Back, a double click, a reload) saves nothing and says where the matchday went, and a preview whose
number was taken meanwhile (before our check, or between it and our save) is shown again,
renumbered, rather than saved as another matchday. The token fits only the content previewed: a
Save of anything else (fields changed in the page) is previewed, not saved. Only staff who may add
matchdays and results (as in the admin) may use the page.
"""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.db.models import Max
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone

from league import history, submissions
from league.models import Matchday, Player, Write
from league.placings import side_groups
from league.validation import ENTRY_LINES, MATCHDAY_NUMBERS, name_key, whole_number
from ratings.selectors.grids import with_points
from ratings.services.matchdays import MatchdayPreview, preview_matchday, save_matchday
from web.entry import LINES, EntryForm
from web.fields import refusal
from web.pages.access import ENTRY_PERMISSIONS, works_on
from web.pages.formatting import explain_change
from web.pages.typed_names import Resolved, described


def _initial() -> dict:
    last = Matchday.objects.select_related("game").order_by("-date", "-number").first()
    return {"date": timezone.localdate(), "game": last.game if last else None}


def _next_number() -> int:
    return (Matchday.objects.aggregate(n=Max("number"))["n"] or 0) + 1


def _partners(preview: MatchdayPreview) -> dict[str, list[str]]:
    """Each side's label -> its players' short names, in the order typed."""
    sides: dict[str, list[str]] = {}
    for result, player in zip(preview.checked.results, preview.players, strict=True):
        if result.play.side:
            sides.setdefault(result.play.side, []).append(player.short_name)
    return sides


def _preview_rows(preview: MatchdayPreview) -> list[dict]:
    """Each table's rows, best placed first; a player's side names their partners (`A, with K`)."""
    sides = _partners(preview)
    plays = [result.play for result in preview.checked.results]
    n = len(side_groups([play.side for play in plays]))  # what the placings rank: the sides
    sections = []
    for table, outcomes in preview.changes:
        rows = []
        for play, player, o in sorted(
            zip(plays, preview.players, outcomes, strict=True), key=lambda row: row[2].placing
        ):
            rated = o.placing
            shown = with_points(f"{rated}({play.placing})" if rated != play.placing else str(rated), play.score)
            note = explain_change(o.delta, rated, n, o.expected, o.k, play.placing)
            partners = [name for name in sides.get(play.side, []) if name != player.short_name]
            side = f"{play.side}, with {', '.join(partners)}" if play.side else ""
            rows.append(
                {
                    "player": player,
                    "placing": shown,
                    "left": play.left_early,
                    "side": side,
                    "weight": f"{play.weight:g}",
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


def _save(request, form: EntryForm, number: int, token: str):
    """Save the previewed matchday once for `token`, in the history as the user's with the reason
    they typed; the saved matchday, or AlreadySaved."""

    def save():
        checked = form.matchday(number)
        with history.way_in(Write.Way.ENTRY, request.user, request.POST.get("reason", "")):
            save_matchday(checked, form.players)
        return checked.matchday, checked.matchday, str(checked.matchday)

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


NOT_PREVIEWED = {"text": "This is not what was previewed, so nothing was saved: check this preview, then save it."}


def _refusal(request):
    """Staff who may not add matchdays and their results, as the admin refuses them: 403, saying why."""
    text = (
        "You may not enter results: that needs the permissions to add matchdays and results "
        "(Matchday: Can add matchday; Result: Can add result). An administrator gives them in the admin's Users."
    )
    return render(request, "entry/enter.html", {"refused": text}, status=403)


@staff_member_required
def enter(request):
    if not works_on(request.user, request.club.pk):
        raise Http404("No page has this address.")  # another club's secretary: nothing to confirm
    if not request.user.has_perms(ENTRY_PERMISSIONS):
        return _refusal(request)
    lines, lines_error = _line_count(request.POST) if request.method == "POST" else (LINES, None)
    ctx = {"players": Player.objects.order_by("short_name").values_list("short_name", "name"), "lines": lines}
    if request.method != "POST":
        return render(request, "entry/enter.html", {**ctx, "form": EntryForm(initial=_initial(), lines=lines)})
    form = EntryForm(request.POST, lines=lines, may_add_players=request.user.has_perm("league.add_player"))
    action, token = request.POST.get("action"), request.POST.get("token", "")
    if lines_error or action in ("more", "edit"):  # back to the form as typed
        form.is_valid()  # finds the new players' boxes to show again
        if lines_error:
            form.add_error(None, lines_error)
        return render(request, "entry/enter.html", {**ctx, "form": form, "quiet": not lines_error})
    if action == "save" and submissions.is_token(token) and (done := submissions.saved_with(token)):
        return _already_saved(request, ctx, done)
    if not form.is_valid():
        return render(request, "entry/enter.html", {**ctx, "form": form})
    if action == "save":
        return _save_as_previewed(request, form, ctx, token)
    return _preview(request, form, ctx, _next_number())


def _save_as_previewed(request, form: EntryForm, ctx: dict, token: str):
    """Save exactly what was previewed, as the matchday it was previewed as; anything else (content
    changed since, no token, or the number taken meanwhile) is previewed again, saying why."""
    number, previewed = _next_number(), _previewed_number(request.POST)
    if previewed is None or not submissions.fits(token, form.previewed_content(previewed)):
        ctx["notice"] = NOT_PREVIEWED if submissions.is_token(token) else _taken_notice(None, number, token)
        return _preview(request, form, ctx, number)
    if previewed != number:
        ctx["notice"] = _taken_notice(previewed, number, token)
        return _preview(request, form, ctx, number)
    try:
        return redirect("league:matchday", _save(request, form, number, token).number)
    except submissions.AlreadySaved as done:
        return _already_saved(request, ctx, done.submission)
    except (IntegrityError, ValidationError) as error:
        if isinstance(error, ValidationError) and not Matchday.objects.filter(number=number).exists():
            form.add_error(None, error.messages)
            return render(request, "entry/enter.html", {**ctx, "form": form})
    # Another save took the number (or a new player's name) between our check and our save: the
    # form is read again, so that a player added meanwhile is found, and previewed as the next number.
    form = EntryForm(request.POST, lines=ctx["lines"], may_add_players=form.may_add_players)
    if not form.is_valid():
        return render(request, "entry/enter.html", {**ctx, "form": form})
    number = _next_number()
    ctx["notice"] = _taken_notice(previewed, number, token)
    return _preview(request, form, ctx, number)


def _preview(request, form: EntryForm, ctx: dict, number: int):
    """The preview of the form's matchday as `number`, with a new one-time token for its Save, which
    fits only what this preview shows."""
    preview = preview_matchday(form.matchday(number), form.players)
    token = submissions.new_token(form.previewed_content(number))
    ctx.update(preview=preview, sections=_preview_rows(preview), matchday=preview.checked.matchday, token=token)
    plays = [result.play for result in preview.checked.results]
    ctx.update(sides=any(p.side for p in plays), weights=any(p.weight != 1 for p in plays))
    ctx["also"] = _also_went_by(form.resolved)
    ctx["reason"] = request.POST.get("reason", "")
    return render(request, "entry/enter.html", {**ctx, "form": form})


def _also_went_by(resolved: Resolved) -> list[str]:
    """Names taken for the player who goes by them now, though others went by them before."""
    return [
        f"{name} is taken as {resolved.players[name_key(name)].short_name}, whose name it is now; "
        f"{'; '.join(described(p, resolved.former) for p in others)} went by it before."
        for name, others in resolved.also.items()
    ]


def _already_saved(request, ctx: dict, done: submissions.Submission):
    """A second Save of one preview: nothing saved, a link to what the first saved, an empty form."""
    form = EntryForm(initial=_initial(), lines=LINES)
    return render(request, "entry/enter.html", {**ctx, "form": form, "already": done, "lines": LINES})
