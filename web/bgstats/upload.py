"""A BG Stats export uploaded in the admin: the import tried first (run and rolled back) and its
report shown, every play it would add listed; then, once confirmed, imported
(web.pages.pending_upload). A secretary of several clubs picks the club."""

from __future__ import annotations

from contextlib import nullcontext

from django import forms
from django.core.exceptions import PermissionDenied, ValidationError
from django.template.response import TemplateResponse
from django.utils import timezone
from django_scopes import scope

from league import history
from league.bgstats import ExportRefused, read_export
from league.models import Write
from ratings.services.bgstats import BgReport, import_bgstats
from web.bgstats.report import play_line, report_lines
from web.page_cache.ahead import rendered_ahead
from web.pages.club_admin import ClubChoiceField, club_choices
from web.pages.pending_upload import PendingUpload

MAX_UPLOAD = 20 * 1024 * 1024  # as the reader takes (league.bgstats.LARGEST_FILE)
PENDING = PendingUpload("admin_bgstats_import", "admin:league_matchday_import_bgstats")
TEMPLATE = "admin/league/matchday/import_bgstats.html"


class BgStatsForm(forms.Form):
    file = forms.FileField(
        label="BG Stats export",
        help_text="The JSON file of the app's Export data. Plays already imported are skipped (docs/formats.md).",
    )

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        if clubs is not None:
            self.fields["club"] = ClubChoiceField(clubs, "Import into it.")
            self.order_fields(["club"])

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(f"The file is {upload.size:,} bytes; an export is taken up to {MAX_UPLOAD:,}.")
        return upload.read()


def _imported(data: bytes, club_id: int | None, dry_run: bool, user=None) -> BgReport:
    """The file read and imported (or tried) into the chosen club; ValidationError with its problems."""
    with (
        history.way_in(Write.Way.IMPORT, user),
        scope(club=club_id) if club_id is not None else nullcontext(),
        rendered_ahead() if not dry_run else nullcontext(),
    ):
        try:
            export = read_export(data, timezone.localdate())
        except ExportRefused as refused:
            raise ValidationError(str(refused)) from None
        return import_bgstats(export, dry_run=dry_run)


def bgstats_view(model_admin, request):
    if not (model_admin.has_add_permission(request) and model_admin.has_change_permission(request)):
        raise PermissionDenied
    context = {**model_admin.admin_site.each_context(request), "opts": model_admin.model._meta}
    context["title"] = "Import a BG Stats export"
    if request.method == "POST" and "confirm" in request.POST:
        return _confirm(request, context, request.POST["confirm"])
    form = BgStatsForm(request.POST or None, request.FILES or None, clubs=club_choices(request))
    if request.method != "POST" or not form.is_valid():
        return TemplateResponse(request, TEMPLATE, {**context, "form": form})
    data, club = form.cleaned_data["file"], form.cleaned_data.get("club")
    club_id = club.pk if club is not None else None
    try:
        report = _imported(data, club_id, dry_run=True)
    except ValidationError as refused:
        return TemplateResponse(request, TEMPLATE, {**context, "form": form, "errors": refused.messages})
    token = PENDING.keep(request, data, club_id)
    with scope(club=club_id) if club_id is not None else nullcontext():
        lines = report_lines(report, tried=True)
    plays = [play_line(number, play) for number, play in report.added]
    preview = {"lines": lines, "plays": plays, "token": token, "club": club, "adds": bool(report.added)}
    return TemplateResponse(request, TEMPLATE, {**context, "preview": preview})


def _confirm(request, context: dict, token: str):
    def save(data: bytes, club_id: int | None, _options: dict):
        report = _imported(data, club_id, dry_run=False, user=request.user)
        return report, report_lines(report, tried=False)[0]

    def show_refusal(refused: ValidationError):  # the club changed since the preview
        form = BgStatsForm(clubs=club_choices(request))
        return TemplateResponse(request, TEMPLATE, {**context, "form": form, "errors": refused.messages})

    return PENDING.confirm(request, token, save, ValidationError, show_refusal)
