"""Changing or deleting a saved matchday from the entry page (`/<club>/enter/?matchday=N`): its date,
game, rounds and results as the lines a secretary types, previewed with what saving changes in every
table (the save itself, run and rolled back: `ratings.services.impact`), then saved; or deleted after
the same preview.

A preview's token fits what it showed and the matchday as it was stored then: a Save after someone
else changed or deleted the matchday is previewed again, saying so, rather than saved over it.
"""

from __future__ import annotations

import json
from datetime import date

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse

from league import history, submissions
from league.models import Matchday, Write
from league.placings import BY_PLACINGS
from ratings.services.impact import impact
from ratings.services.matchdays import delete_matchdays, preview_matchday, save_matchday
from web.entry import LINES, EntryForm
from web.entry.lines import written_lines
from web.entry.preview import also_went_by, line_count, preview_rows, rounds_line
from web.page_cache.ahead import rendered_ahead

CHANGED = {
    "text": "Nothing was saved: this is not what was previewed, or the matchday was changed since the preview. "
    "Check this preview, then save it."
}
UNCONFIRMED = {"text": "Nothing was saved: tick the box to add the new players, then save."}


def _stored(matchday: Matchday) -> dict:
    return history.matchdays([matchday.pk])[matchday.pk]


def _lines(matchday: Matchday, stored: dict) -> list[str]:
    """The stored results as the lines a secretary types."""
    return written_lines(history.plays(stored), matchday.game.scoring != BY_PLACINGS)


def _initial(matchday: Matchday, stored: dict) -> tuple[dict, int]:
    """The form's fields for a stored matchday, and how many lines it needs."""
    lines = _lines(matchday, stored)
    initial = {"date": matchday.date, "game": matchday.game, "rounds": matchday.rounds}
    if matchday.winner_score:
        initial["winner_score"] = matchday.winner_score
    initial.update((f"line-{n}", text) for n, text in enumerate(lines, start=1))
    return initial, max(LINES, len(lines) + 1)


def _position(stored: dict) -> tuple[date, int, int]:
    """Where a stored matchday is rated (its date and number) and its game, for the impact's count."""
    return date.fromisoformat(stored["date"]), stored["number"], stored["game_id"]


def change(request, number: int, ctx: dict):
    """The entry page for matchday `number` of the club: its form, its preview, its save or delete."""
    matchday = Matchday.objects.select_related("game").filter(number=number).first()
    if matchday is None:
        notice = {"text": f"There is no matchday {number}: it may have been deleted. Enter a new one below."}
        return render(request, "entry/enter.html", {**ctx, "notice": notice, "form": EntryForm(lines=LINES)})
    ctx["editing"] = matchday
    stored = _stored(matchday)
    if request.method != "POST":
        initial, lines = _initial(matchday, stored)
        return render(
            request, "entry/enter.html", {**ctx, "form": EntryForm(initial=initial, lines=lines), "lines": lines}
        )
    action, token = request.POST.get("action"), request.POST.get("token", "")
    if action in ("delete", "delete-preview"):
        return _delete(request, ctx, matchday, stored, action, token)
    lines, lines_error = line_count(request.POST)
    form = EntryForm(request.POST, lines=lines, may_add_players=request.user.has_perm("league.add_player"))
    ctx["lines"] = form.line_count
    if lines_error or action in ("more", "edit"):
        form.is_valid()
        if lines_error:
            form.add_error(None, lines_error)
        return render(request, "entry/enter.html", {**ctx, "form": form, "quiet": not lines_error})
    if not form.is_valid():
        return render(request, "entry/enter.html", {**ctx, "form": form})
    content = _content(form, matchday, stored)
    if action == "save":
        if submissions.fits(token, content) and not form.unconfirmed:
            try:
                return _save(request, form, matchday, token)
            except ValidationError as refused:  # a player merged or deleted meanwhile: nothing was saved
                form.add_error(None, refused.messages)
                return render(request, "entry/enter.html", {**ctx, "form": form})
        ctx["notice"] = UNCONFIRMED if submissions.fits(token, content) else CHANGED
    return _preview(request, form, ctx, matchday, stored, content)


def _content(form: EntryForm, matchday: Matchday, stored: dict) -> str:
    """What a Save must match: the change previewed, and the matchday as stored when it was."""
    form.edit_of(matchday)
    return form.previewed_content(matchday.number) + json.dumps(stored, sort_keys=True)


def _preview(request, form: EntryForm, ctx: dict, matchday: Matchday, stored: dict, content: str):
    checked = form.edit_of(matchday)
    preview = preview_matchday(checked, form.players)
    token = submissions.new_token(content)
    new = [player for player in form.players.values() if player.pk is None]
    after = checked.matchday
    touched = [_position(stored), (after.date, after.number, after.game.pk)]
    try:
        ctx["impact"] = impact(matchday.club_id, lambda: save_matchday(checked, form.players), touched)
    finally:
        for player in new:  # the rolled-back save gave them ids that no row has
            player.pk, player._state.adding = None, True
    plays = [result.play for result in preview.checked.results]
    ctx.update(preview=preview, sections=preview_rows(preview), matchday=after, token=token)
    ctx.update(sides=any(p.side for p in plays), weights=any(p.weight != 1 for p in plays))
    ctx.update(also=form.split + also_went_by(form.resolved), reason=request.POST.get("reason", ""))
    ctx["rounds_line"] = rounds_line(preview)
    return render(request, "entry/enter.html", {**ctx, "form": form})


def _save(request, form: EntryForm, matchday: Matchday, token: str):
    def save():
        with history.way_in(Write.Way.ENTRY, request.user, request.POST.get("reason", "")), rendered_ahead():
            save_matchday(form.edit_of(matchday), form.players)
        return matchday, matchday, str(matchday)

    try:
        submissions.save_once(token, save, request.club.pk)
    except submissions.AlreadySaved:
        pass  # a second Save of one preview: the first saved it
    return redirect("league:matchday", matchday.number)


def _delete(request, ctx: dict, matchday: Matchday, stored: dict, action: str, token: str):
    content = "delete " + json.dumps(stored, sort_keys=True)
    if action == "delete" and submissions.fits(token, content):

        def delete():
            with history.way_in(Write.Way.ENTRY, request.user, request.POST.get("reason", "")), rendered_ahead():
                delete_matchdays([matchday])
            return None, None, str(matchday)

        try:
            submissions.save_once(token, delete, request.club.pk)
        except submissions.AlreadySaved:
            pass
        except ValidationError as refused:  # its reason: nothing was deleted
            ctx["notice"] = {"text": "Nothing was deleted: " + " ".join(refused.messages)}
        else:
            return redirect(reverse("league:history") + f"?matchday={matchday.number}")
    elif action == "delete":
        ctx["notice"] = {"text": "Nothing was deleted: the matchday was changed since that preview. Check it again."}
    ctx["impact"] = impact(matchday.club_id, lambda: delete_matchdays([matchday]), [_position(stored)])
    ctx.update(deleting=True, token=submissions.new_token(content), reason=request.POST.get("reason", ""))
    ctx["stored_lines"] = "\n".join(_lines(matchday, stored))
    return render(request, "entry/enter.html", ctx)
