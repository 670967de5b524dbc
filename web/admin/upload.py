"""The results import in the admin: upload a CSV file, see what it would create and change, then
import it. The preview is the import itself run inside a transaction that is rolled back, so it
refuses exactly what the import would refuse and counts exactly what it would create; the file waits
in the secretary's session until they confirm, with a one-time token (league.submissions) that makes
a second confirmation import nothing. A secretary of several clubs (a superuser of a site of several)
picks the club the file is imported into; the import then reads and writes that club's rows only."""

from __future__ import annotations

import base64
from contextlib import nullcontext

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django_scopes import scope

from league import history, submissions
from league.models import Write
from ratings.services.imports import ImportSummary
from web.admin.import_preview import SHOWN, ImportPreview, did_you_mean, matchdays_shown
from web.importing import ImportFailed, columns_help, import_results
from web.pages.access import works_on
from web.pages.club_admin import club_choices

MAX_UPLOAD = 5 * 1024 * 1024  # larger files go through `manage.py import_results`
SESSION_KEY = "admin_results_import"


class UploadForm(forms.Form):
    # The columns as the import reads them, from the result record's declaration (web.importing).
    file = forms.FileField(label="CSV file", help_text=columns_help())
    replace = forms.BooleanField(
        required=False, label="Replace the results of matchdays that already exist (by number)"
    )

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        if clubs is not None:  # several to choose from; with one, the file is that club's
            self.fields["club"] = forms.ModelChoiceField(queryset=clubs, label="Club", help_text="Import into it.")
            self.order_fields(["club"])

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(
                f"The file is {upload.size:,} bytes; the admin takes files up to {MAX_UPLOAD:,}. "
                "Import larger files with manage.py import_results."
            )
        return upload.read()


class _RolledBack(Exception):
    def __init__(self, preview: ImportPreview):
        self.preview = preview


def dry_run(data: bytes, replace: bool, club_id: int | None = None) -> ImportPreview:
    """What importing `data` would do, with nothing kept: the import run and rolled back, its matchdays'
    changes read before the rollback; ImportFailed as the import raises it."""
    try:
        with transaction.atomic():
            summary = import_into(club_id, data, replace)
            with _club(club_id):
                shown = matchdays_shown(summary.numbers, set(summary.players_created))
            raise _RolledBack(ImportPreview(summary, shown, max(0, len(summary.numbers) - SHOWN)))
    except _RolledBack as done:
        preview = done.preview
    with _club(club_id):
        preview.new_players = did_you_mean(preview.summary)
    return preview


def _club(club_id: int | None):
    """The chosen club's scope (None: the one the user works on)."""
    return scope(club=club_id) if club_id is not None else nullcontext()


def import_into(club_id: int | None, data: bytes, replace: bool, user=None) -> ImportSummary:
    """Import into the club chosen (None: the one the user works on, `league.models.default_club`)."""
    with history.way_in(Write.Way.IMPORT, user), _club(club_id):
        return import_results(data, replace=replace)


def import_view(model_admin, request):
    if not (model_admin.has_add_permission(request) and model_admin.has_change_permission(request)):
        raise PermissionDenied
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": "Import results",
    }
    if request.method == "POST" and "confirm" in request.POST:
        return _confirm(request, context, request.POST["confirm"])
    form = UploadForm(request.POST or None, request.FILES or None, clubs=club_choices(request))
    if request.method == "POST" and form.is_valid():
        data, replace = form.cleaned_data["file"], form.cleaned_data["replace"]
        club = form.cleaned_data.get("club")
        club_id = club.pk if club is not None else None
        try:
            previewed = dry_run(data, replace, club_id)
        except ImportFailed as failed:
            return TemplateResponse(
                request, "admin/league/matchday/import.html", {**context, "form": form, "errors": failed.errors}
            )
        token = submissions.new_token()
        pending = {"token": token, "data": base64.b64encode(data).decode(), "replace": replace, "club": club_id}
        request.session[SESSION_KEY] = pending
        summary = previewed.summary
        preview = {"summary": summary, "text": describe(summary), "token": token, "replace": replace, "club": club}
        preview.update(matchdays=previewed.matchdays, more=previewed.more, new_players=previewed.new_players)
        return TemplateResponse(request, "admin/league/matchday/import.html", {**context, "preview": preview})
    return TemplateResponse(request, "admin/league/matchday/import.html", {**context, "form": form})


def _confirm(request, context: dict, token: str):
    """Import the previewed file once: a second confirmation of one preview (Back, a double click, a
    reload) imports nothing and says what the first imported."""
    if submissions.is_token(token) and (done := submissions.saved_with(token)):
        return _already_imported(request, done)
    pending = request.session.get(SESSION_KEY)
    club = (pending or {}).get("club")
    if not pending or pending.get("token") != token or (club is not None and not works_on(request.user, club)):
        messages.error(request, "That preview has expired; upload the file again.")
        return redirect("admin:league_matchday_import")

    def save():
        data = base64.b64decode(pending["data"])
        summary = import_into(pending.get("club"), data, pending["replace"], request.user)
        return summary, None, describe(summary)

    try:
        summary = submissions.save_once(token, save)
    except submissions.AlreadySaved as done:
        return _already_imported(request, done.submission)
    except ImportFailed as failed:  # the league changed since the preview
        del request.session[SESSION_KEY]
        return TemplateResponse(
            request,
            "admin/league/matchday/import.html",
            {**context, "form": UploadForm(clubs=club_choices(request)), "errors": failed.errors},
        )
    del request.session[SESSION_KEY]
    messages.success(request, f"Imported: {describe(summary)}")
    return redirect("admin:league_matchday_changelist")


def _already_imported(request, done: submissions.Submission):
    request.session.pop(SESSION_KEY, None)
    messages.warning(request, f"That file was already imported ({done.saved}); nothing was imported again.")
    return redirect("admin:league_matchday_changelist")


def describe(summary: ImportSummary) -> str:
    matchdays = "1 matchday" if summary.matchdays == 1 else f"{summary.matchdays} matchdays"
    parts = [f"{matchdays} with {summary.results} results"]
    if summary.players_created:
        parts.append(f"new players {', '.join(summary.players_created)}")
    if summary.games_created:
        parts.append(f"new games {', '.join(summary.games_created)}")
    parts += summary.look_alikes[:20]
    return "; ".join(parts) + "."
