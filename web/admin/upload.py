"""The results import in the admin: upload a CSV file, see what it would create and change, then
import it (web.pages.pending_upload). The preview is the import itself run inside a transaction
that is rolled back, so it refuses exactly what the import would refuse and counts exactly what it
would create. A secretary of several clubs (a superuser of a site of several) picks the club the
file is imported into; the import then reads and writes that club's rows only."""

from __future__ import annotations

from contextlib import nullcontext

from django import forms
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.template.response import TemplateResponse
from django_scopes import scope

from league import history
from league.models import Write
from ratings.services.imports import ImportSummary
from web.admin.import_preview import SHOWN, ImportPreview, did_you_mean, matchdays_shown
from web.importing import ImportFailed, columns_help, import_results
from web.page_cache.ahead import rendered_ahead
from web.pages.club_admin import ClubChoiceField, club_choices
from web.pages.pending_upload import PendingUpload

MAX_UPLOAD = 5 * 1024 * 1024  # larger files go through `manage.py import_results`
TEMPLATE = "admin/league/matchday/import.html"
PENDING = PendingUpload("admin_results_import", "admin:league_matchday_import", said_before="Imported: ")


class UploadForm(forms.Form):
    # The columns as the import reads them, from the result record's declaration (web.importing).
    file = forms.FileField(label="CSV file", help_text=columns_help())
    replace = forms.BooleanField(
        required=False, label="Replace the results of matchdays that already exist (by number)"
    )

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        if clubs is not None:  # several to choose from; with one, the file is that club's
            self.fields["club"] = ClubChoiceField(clubs, "Import into it.")
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
            summary = import_into(club_id, data, replace, ahead=False)
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


def import_into(club_id: int | None, data: bytes, replace: bool, user=None, ahead: bool = True) -> ImportSummary:
    """Import into the club chosen (None: the one the user works on, `league.models.default_club`);
    with `ahead`, the club's front pages rendered before it commits (not for a preview)."""
    with history.way_in(Write.Way.IMPORT, user), _club(club_id), rendered_ahead() if ahead else nullcontext():
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
            return TemplateResponse(request, TEMPLATE, {**context, "form": form, "errors": failed.errors})
        token = PENDING.keep(request, data, club_id, replace=replace)
        summary = previewed.summary
        preview = {"summary": summary, "text": describe(summary), "token": token, "replace": replace, "club": club}
        preview.update(matchdays=previewed.matchdays, more=previewed.more, new_players=previewed.new_players)
        return TemplateResponse(request, TEMPLATE, {**context, "preview": preview})
    return TemplateResponse(request, TEMPLATE, {**context, "form": form})


def _confirm(request, context: dict, token: str):
    def save(data: bytes, club_id: int | None, options: dict):
        summary = import_into(club_id, data, options["replace"], request.user)
        return summary, describe(summary)

    def show_refusal(failed: ImportFailed):  # the league changed since the preview
        form = UploadForm(clubs=club_choices(request))
        return TemplateResponse(request, TEMPLATE, {**context, "form": form, "errors": failed.errors})

    return PENDING.confirm(request, token, save, ImportFailed, show_refusal)


def describe(summary: ImportSummary) -> str:
    matchdays = "1 matchday" if summary.matchdays == 1 else f"{summary.matchdays} matchdays"
    parts = [f"{matchdays} with {summary.results} results"]
    if summary.players_created:
        parts.append(f"new players {', '.join(summary.players_created)}")
    if summary.games_created:
        parts.append(f"new games {', '.join(summary.games_created)}")
    parts += summary.look_alikes[:20]
    return "; ".join(parts) + "."
