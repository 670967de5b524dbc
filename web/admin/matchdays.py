"""Matchdays with their results in the admin.

The results' formset checks the matchday once (`ratings.services.checks.check_matchday`, as every
way in does) and a save hands what it checked to `ratings.services.matchdays.save_matchday`, which
writes it and recomputes the tables from that matchday on; the admin then reports each player's
rating change.
"""

from __future__ import annotations

from itertools import groupby

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.template.loader import render_to_string
from django.urls import path

from league import history
from league.checked import Refused
from league.models import Matchday, Result, Write
from league.placings import typed_rated_placings
from league.results import FIELDS, FRACTIONS, RESULT_FIELDS, SEDMA_FIELDS, TEXTS, Play, TypedResult
from league.validation import PLAYERS, REASON_LENGTH, name_key, reason_problem
from ratings.models import RatingTable
from ratings.selectors import deletion
from ratings.selectors.standings import matchday_changes
from ratings.services.checks import FACT_FIELDS, check_matchday
from ratings.services.impact import impact
from ratings.services.matchdays import delete_matchdays, save_matchday
from web.admin import upload
from web.admin.deleting import delete_selected_with_note, deletion_note, deletion_report
from web.admin.widgets import SharedOptionsSelect
from web.bgstats import upload as bgstats_upload
from web.fields import READERS, GivenField
from web.pages.clashes import CheckedAgainOnClash
from web.pages.club_admin import ClubOwnedAdmin, LabelledRows, refuse_other_clubs, refuse_rows_saved_since
from web.pages.formatting import format_change, format_rating


def _kept_rows(formset) -> list[tuple[int, dict]]:
    """(row number, cleaned data) of the rows that hold a result to keep."""
    rows = []
    for number, form in enumerate(formset.forms, start=1):
        data = getattr(form, "cleaned_data", None)
        if data and not data.get("DELETE") and data.get("player") is not None:
            rows.append((number, data))
    return rows


def typed_results(formset) -> list[TypedResult]:
    """The rows' results, each under its player's short name, with its note; a field of the record that
    a row does not show (or leaves blank) is its default (a placing left blank is None: in a game
    scored by points, the points give it)."""
    return [
        TypedResult(
            Play(
                **{
                    name: data.get(name) if name in UNTIL_PLACED or data.get(name) is not None else FIELDS[name].default
                    for name in RESULT_FIELDS
                }
            ),
            data["player"].short_name,
            note=data.get("note") or "",
        )
        for _, data in _kept_rows(formset)
    ]


class ResultFormSet(LabelledRows, BaseInlineFormSet):
    """Checks the matchday's results as a whole: who played, and whether the placings rank them.

    A rated placing that the penalty rule derives by itself (a player who left early, or one moved
    up past a penalised player) shows blank, so that only explicit penalties are typed in."""

    def __init__(self, *args, preview_shown: bool = False, **kwargs):
        self.player_options: dict = {}  # written once, shown in every row (web.admin.widgets)
        self.checked = None  # the matchday checked by `clean`, which a save stores
        self.preview_shown = preview_shown  # the form comes back with what saving changes, unsaved
        super().__init__(*args, **kwargs)
        stored = [form.instance for form in self.initial_forms]
        if stored:
            for form, typed in zip(self.initial_forms, typed_rated_placings([r.play() for r in stored]), strict=True):
                form.initial["rated_placing"] = typed

    def _construct_form(self, i, **kwargs):
        form = super()._construct_form(i, **kwargs)
        select = getattr(form.fields["player"].widget, "widget", None)
        if isinstance(select, SharedOptionsSelect):
            select.shared = self.player_options
        return form

    def clean(self):
        refuse_rows_saved_since(self, "This matchday's results")
        if any(form.errors for form in self.forms):
            return  # the rows' own errors come first; the whole is checked once they are fixed
        refuse_other_clubs(self.instance.club_id, [data["player"] for _, data in _kept_rows(self)])
        game = self.instance.game if self.instance.game_id else None
        try:
            self.checked = check_matchday(self.instance, game, typed_results(self))
        except Refused as refused:
            # The matchday's own fields show theirs beside them (the matchday's form checks them).
            problems = [str(p) for p in refused.problems if p.field not in FACT_FIELDS]
            if problems:
                raise ValidationError(problems) from None
        super().clean()
        if self.preview_shown and self.checked is not None:
            raise ValidationError("Preview: nothing was saved. Check what saving changes above, then Save.")

    def players(self) -> dict:
        """Each row's player by the name key of their short name, as the writer finds them."""
        return {name_key(data["player"].short_name): data["player"] for _, data in _kept_rows(self)}


def _blank_is(field: forms.Field, default) -> None:
    """A blank value counts as `default` when the admin asks whether the field changed (its history)."""
    changed = field.has_changed
    field.has_changed = lambda initial, data: changed(initial, default if data in (None, "") else data)


# Fields a row may leave blank, meaning the record's default: no Sedma counts, the whole game played.
BLANK_IS_DEFAULT = (*SEDMA_FIELDS, *FRACTIONS)
# A placing may be left blank for the points to give it (the matchday's check refuses it otherwise).
UNTIL_PLACED = ("placing",)


class ResultForm(forms.ModelForm):
    """A result row; the Sedma counts and the weight may be left blank (none; the whole game). The
    side's label and the weight are read as the import and the entry page read them."""

    class Meta:
        # The admin's 20em text field would push the row past a 1280 px screen.
        widgets = {"note": forms.TextInput(attrs={"size": 16})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in (*TEXTS, *FRACTIONS):
            if name in self.fields:
                old = self.fields[name]
                self.fields[name] = GivenField(
                    given=name,
                    label=old.label,
                    help_text=old.help_text,
                    required=False,
                    empty_value="" if name in TEXTS else None,
                    widget=forms.TextInput(
                        attrs={"size": 4, **({"inputmode": "decimal"} if name in FRACTIONS else {})}
                    ),
                )
        for name in UNTIL_PLACED:
            if name in self.fields:
                self.fields[name].required = False
        for name in BLANK_IS_DEFAULT:
            if name in self.fields:
                self.fields[name].required = False
                if self.instance.pk is None:
                    self.initial[name] = None  # so that a spare row left blank stays unchanged
                else:
                    _blank_is(self.fields[name], FIELDS[name].default)  # a stored row left blank is unchanged

    def clean(self):
        data = super().clean()
        for name in BLANK_IS_DEFAULT:
            if name in self.fields and data.get(name) is None and name not in self.errors:
                data[name] = FIELDS[name].default
        return data


class ResultInline(admin.TabularInline):
    model = Result
    form = ResultForm
    formset = ResultFormSet
    fields = ["player", *(name for name in RESULT_FIELDS if name not in SEDMA_FIELDS), "note"]
    extra = 4
    # The most players a matchday has; rows past it are refused by the check of the whole matchday
    # (and a form posting over 1,000 more by Django's formset, before anything is read).
    max_num = PLAYERS.highest
    formfield_overrides = READERS
    ordering = ["placing", "player__short_name"]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "player":
            kwargs["widget"] = SharedOptionsSelect
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_fields(self, request, obj=None):
        """The Sedma counts only where they count: for a game rated by Sedma (on a new matchday,
        whenever any table uses Sedma)."""
        sedma = RatingTable.objects.filter(method="sedma")
        if obj is not None:
            uses_sedma = any(table.counts(obj.game) for table in sedma)
        else:
            uses_sedma = sedma.exists()
        return self.fields + list(SEDMA_FIELDS) if uses_sedma else self.fields


def rating_changes_html(entries) -> str:
    """The matchday's rating changes as a table, for its page in the admin."""
    if not entries:
        return "-"
    rows = [
        (
            str(entry.table),  # a season's table says its season
            entry.player.short_name,
            format_rating(entry.rating_before),
            format_rating(entry.rating_after),
            format_change(entry.delta),
        )
        for entry in entries
    ]
    return render_to_string("admin/league/matchday/rating_changes.html", {"rows": rows})


class MatchdayForm(forms.ModelForm):
    reason = forms.CharField(
        required=False,
        label="Why",
        help_text="Optional: kept with this save in the club's history.",
        widget=forms.TextInput(attrs={"maxlength": REASON_LENGTH}),
        error_messages={"null_characters_not_allowed": reason_problem("\x00")},  # in the words of every way in
    )

    class Meta:
        model = Matchday
        fields = ["number", "date", "game", "rounds", "winner_score", "notes"]

    def clean_reason(self):
        if problem := reason_problem(self.cleaned_data["reason"]):
            raise ValidationError(problem)
        return self.cleaned_data["reason"]


@admin.register(Matchday)
class MatchdayAdmin(CheckedAgainOnClash, ClubOwnedAdmin):
    list_display = ["number", "date", "game", "rounds", "players"]
    list_filter = ["game"]
    date_hierarchy = "date"
    ordering = ["-date", "-number"]
    form = MatchdayForm
    fields = ["number", "date", "game", "rounds", "winner_score", "notes", "rating_changes", "reason"]
    readonly_fields = ["rating_changes"]
    inlines = [ResultInline]
    formfield_overrides = READERS

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game").prefetch_related("results__player")

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "date":
            field.error_messages["invalid"] = "Enter the date as YYYY-MM-DD, for example 2025-11-03."
        return field

    def get_urls(self):
        view = self.admin_site.admin_view(lambda request: upload.import_view(self, request))
        from_app = self.admin_site.admin_view(lambda request: bgstats_upload.bgstats_view(self, request))
        return [
            path("import/", view, name="league_matchday_import"),
            path("import-bgstats/", from_app, name="league_matchday_import_bgstats"),
            *super().get_urls(),
        ]

    @admin.display(description="Players")
    def players(self, matchday):
        return ", ".join(f"{r.player} {r.display_placing}" for r in matchday.results.all())

    @admin.display(description="Rating changes")
    def rating_changes(self, matchday):
        if matchday.pk is None:
            return "Shown after saving."
        return rating_changes_html(matchday_changes(matchday))

    def get_changeform_initial_data(self, request):
        """A new matchday gets the next number and the last matchday's game, which is what a
        secretary entering the evening's results usually wants."""
        initial = super().get_changeform_initial_data(request)
        last = Matchday.objects.order_by("-number").first()
        if last is not None:
            initial.setdefault("number", last.number + 1)
            initial.setdefault("game", last.game_id)
        return initial

    # A change previewed: "Preview what saving changes" runs the save and rolls it back (the admin's
    # transaction, ended by `_Previewed`), then shows the form again with what it would change.

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if request.method != "POST" or "_preview" not in request.POST or object_id is None:
            return super().changeform_view(request, object_id, form_url, extra_context)
        request.matchday_preview = "run"
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except _Previewed as previewed:
            request.matchday_preview = "shown"
            shown = {**(extra_context or {}), "impact": previewed.impact, "impact_heading": "What saving changes"}
            return super().changeform_view(request, object_id, form_url, shown)

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if getattr(request, "matchday_preview", None) == "shown":
            kwargs["preview_shown"] = True
        return kwargs

    def save_model(self, request, obj, form, change):
        """Nothing yet: the matchday is saved with its results in `save_related`."""

    def save_related(self, request, form, formsets, change):
        (formset,) = formsets
        if getattr(request, "matchday_preview", None) == "run":
            stored = Matchday.objects.get(pk=form.instance.pk)
            after = formset.checked.matchday
            touched = [(stored.date, stored.number, stored.game_id), (after.date, after.number, after.game_id)]
            players = formset.players()
            raise _Previewed(impact(stored.club_id, lambda: save_matchday(formset.checked, players), touched))
        formset.save(commit=False)  # what changed, for the admin's history; the service writes
        with history.way_in(Write.Way.ADMIN, request.user, form.cleaned_data.get("reason", "")):
            changes = matchday_changes(save_matchday(formset.checked, formset.players()))
        by_table = groupby(changes, key=lambda e: str(e.table))
        summary = "; ".join(
            f"{table}: "
            + ", ".join(
                f"{e.player.short_name} {format_rating(e.rating_before)} → "
                f"{format_rating(e.rating_after)} ({format_change(e.delta)})"
                for e in entries
            )
            for table, entries in by_table
        )
        self.message_user(request, f"Ratings updated. {summary}", messages.SUCCESS)

    # Deleting: the confirmation says what will be recomputed, and the message afterwards reports
    # every rating that moved, as a save does.

    def delete_view(self, request, object_id, extra_context=None):
        matchday = self.get_object(request, object_id)
        shown = {**(extra_context or {}), "recompute_note": deletion_note([matchday]) if matchday else ""}
        if matchday is not None and request.method == "GET":
            touched = [(matchday.date, matchday.number, matchday.game_id)]
            shown["impact"] = impact(matchday.club_id, lambda: delete_matchdays([matchday]), touched)
            shown["impact_heading"] = "What deleting changes"
        return super().delete_view(request, object_id, shown)

    def get_actions(self, request):
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            _, name, description = actions["delete_selected"]
            actions["delete_selected"] = (delete_selected_with_note, name, description)
        return actions

    def delete_model(self, request, obj):
        self._delete(request, [obj])

    def delete_queryset(self, request, queryset):
        self._delete(request, list(queryset.select_related("game")))

    def _delete(self, request, matchdays):
        _, recomputes = deletion.recomputed_by_deleting(matchdays)
        tables = [r.table for r in recomputes]
        before = deletion.ratings_now(tables)
        delete_matchdays(matchdays)
        changes = deletion.moved(before, deletion.ratings_now(tables))
        self.message_user(request, deletion_report(changes), messages.SUCCESS)


class _Previewed(Exception):
    """A previewed change, run and rolled back: what it would change."""

    def __init__(self, impact):
        super().__init__("previewed")
        self.impact = impact
