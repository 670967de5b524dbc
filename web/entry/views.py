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
from django.urls import reverse
from django.utils import timezone

from league import history, submissions
from league.models import Matchday, Player, Write
from league.validation import MATCHDAY_NUMBERS, name_key, whole_number
from ratings.services.matchdays import look_alikes, preview_matchday, save_matchday
from web.entry import LINES, EntryForm, editing
from web.entry.preview import also_went_by, line_count, preview_rows, rounds_line
from web.page_cache.ahead import rendered_ahead
from web.pages.access import ENTRY_PERMISSIONS, works_on


def _initial(night=None) -> dict:
    """Today and the last game played; after a Save, the night's date is kept for its next game."""
    last = Matchday.objects.select_related("game").order_by("-date", "-number").first()
    return {"date": night or timezone.localdate(), "game": last.game if last else None}


def _saved(request) -> Matchday | None:
    """The matchday just saved (`?saved=N`), whose night the form goes on with."""
    try:
        number = whole_number(request.GET.get("saved", ""), "saved", MATCHDAY_NUMBERS)
    except ValueError:
        return None
    return Matchday.objects.filter(number=number).first()


def _next_number() -> int:
    return (Matchday.objects.aggregate(n=Max("number"))["n"] or 0) + 1


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
        with history.way_in(Write.Way.ENTRY, request.user, request.POST.get("reason", "")), rendered_ahead():
            save_matchday(checked, form.players)
        return checked.matchday, checked.matchday, str(checked.matchday)

    return submissions.save_once(token, save, request.club.pk)


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
    lines, lines_error = line_count(request.POST) if request.method == "POST" else (LINES, None)
    ctx = {"players": Player.objects.order_by("short_name").values_list("short_name", "name"), "lines": lines}
    asked = request.POST.get("editing") if request.method == "POST" else request.GET.get("matchday")
    if asked is not None:  # a saved matchday to change or delete
        try:
            number = whole_number(asked.strip(), "matchday", MATCHDAY_NUMBERS)
        except ValueError as error:
            notice = {"text": f"{error}. Enter a new matchday below, or open a saved one from its page."}
            return render(request, "entry/enter.html", {**ctx, "notice": notice, "form": EntryForm(initial=_initial())})
        return editing.change(request, number, ctx)
    if request.method != "POST":
        saved = _saved(request)
        form = EntryForm(initial=_initial(saved.date if saved else None), lines=lines)
        return render(request, "entry/enter.html", {**ctx, "form": form, "saved": saved})
    form = EntryForm(request.POST, lines=lines, may_add_players=request.user.has_perm("league.add_player"))
    ctx["lines"] = form.line_count  # a line of several names became several
    action, token = request.POST.get("action"), request.POST.get("token", "")
    if lines_error or action in ("more", "edit"):  # back to the form as typed
        form.is_valid()  # finds the new players' boxes to show again
        if lines_error:
            form.add_error(None, lines_error)
        return render(request, "entry/enter.html", {**ctx, "form": form, "quiet": not lines_error})
    if action == "save" and submissions.is_token(token) and (done := submissions.saved_with(token, [request.club.pk])):
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
    if (alike := _look_alike(form)) and request.POST.get("another") != "on":
        text = f"Nothing was saved: this looks like matchday {alike.number}. Tick the box if it is another game."
        ctx["notice"] = {"text": text, "matchday": alike}
        return _preview(request, form, ctx, number)
    if form.unconfirmed:
        names = ", ".join(p["short"] for p in form.unconfirmed)
        ctx["notice"] = {"text": f"Nothing was saved: tick the box to add {names} as new players, then save."}
        return _preview(request, form, ctx, number)
    try:
        saved = _save(request, form, number, token).number
        return redirect(f"{reverse('league:enter')}?saved={saved}")  # the next game of this night
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
    ctx.update(preview=preview, sections=preview_rows(preview), matchday=preview.checked.matchday, token=token)
    plays = [result.play for result in preview.checked.results]
    ctx.update(sides=any(p.side for p in plays), weights=any(p.weight != 1 for p in plays))
    ctx["also"] = form.split + also_went_by(form.resolved)
    ctx["rounds_line"] = rounds_line(preview)
    ctx["reason"] = request.POST.get("reason", "")
    ctx["look_alike"] = _look_alike(form)
    return render(request, "entry/enter.html", {**ctx, "form": form})


def _look_alike(form: EntryForm) -> Matchday | None:
    """The saved matchday with the form's date, game and players, if any: a night typed twice."""
    matchday = form.checked.matchday
    who = [form.players[name_key(result.player)].pk for result in form.checked.results]
    if None in who:  # a new player: no saved matchday has them
        return None
    return look_alikes([(matchday.date, matchday.game.pk, frozenset(who))]).get(0)


def _already_saved(request, ctx: dict, done: submissions.Submission | None):
    """A second Save of one preview: nothing saved, a link to what the first saved (None: a token
    another club's save took, of which nothing is told), an empty form."""
    form = EntryForm(initial=_initial(), lines=LINES)
    return render(request, "entry/enter.html", {**ctx, "form": form, "already": True, "saved_by": done, "lines": LINES})
