"""Solitaire sessions with their attempts in the admin (games played against deals).

The secretary types each attempt as it was played: player, variant, level, deal number, won, rated.
Deals, variants and levels are created as they first appear. A save hands the session and its
attempts, in the order of the rows, to `ratings.deals.services.save_session`, which checks them,
writes them and recomputes the game from that session on; the admin then reports each player's
change over the session.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.forms.models import BaseInlineFormSet
from django.template.loader import render_to_string

from league.models import Attempt, DealSession, Game
from league.validation import DEALS, LEVELS, VARIANT_LENGTH, parse_won, variant_problem
from ratings.deals import services as deal_services
from ratings.deals.selectors import session_changes
from web.fields import READERS, FlagField, WholeNumberField, refusal
from web.pages.club_admin import ClubOwnedAdmin, LabelledRows, refuse_other_clubs, refuse_rows_saved_since
from web.pages.formatting import format_change, format_rating


class VariantField(forms.CharField):
    """A variant's name, read as the imports read it (league.validation.variant_problem), before
    Django's own check of a NUL can answer in other words."""

    def to_python(self, value):
        text = super().to_python(value)
        problem = variant_problem(text) if text else None
        if problem:
            raise refusal(ValueError(problem))
        return text


class AttemptForm(forms.ModelForm):
    """One attempt; the deal is typed as variant, level and number rather than chosen from a list."""

    variant = VariantField(max_length=VARIANT_LENGTH, help_text='e.g. "8x4"')
    level = WholeNumberField(label="Level", span=LEVELS)
    number = WholeNumberField(label="Deal", span=DEALS)
    # Yes and no as every way in reads them (a file's W and L too, for `won`); unticked is no.
    won = FlagField(label="Won", required=False, read=parse_won)
    rated = FlagField(label="Rated", required=False, initial=True)

    class Meta:
        model = Attempt
        fields = ["player", "won", "rated"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            deal = self.instance.deal
            self.initial.update(variant=deal.level.variant, level=deal.level.level, number=deal.number)


def _kept_rows(formset) -> list[dict]:
    return [
        data
        for form in formset.forms
        if (data := getattr(form, "cleaned_data", None)) and not data.get("DELETE") and data.get("player") is not None
    ]


def attempt_inputs(formset) -> list[deal_services.AttemptInput]:
    return [
        deal_services.AttemptInput(d["player"], d["variant"], d["level"], d["number"], d["won"], d["rated"])
        for d in _kept_rows(formset)
    ]


class AttemptFormSet(LabelledRows, BaseInlineFormSet):
    def clean(self):
        refuse_rows_saved_since(self, "This session's attempts")
        if any(form.errors for form in self.forms):
            return  # the rows' own errors first
        game = self.instance.game if self.instance.game_id else None
        if game is not None:
            refuse_other_clubs(game.club_id, [data["player"] for data in _kept_rows(self)])
        problems = deal_services.attempt_problems(game, attempt_inputs(self))
        if problems:
            raise ValidationError(problems)
        super().clean()


class AttemptInline(admin.TabularInline):
    model = Attempt
    form = AttemptForm
    formset = AttemptFormSet
    fields = ["player", "variant", "level", "number", "won", "rated"]
    ordering = ["position"]
    extra = 8

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("deal__level")


def changes_html(rows) -> str:
    """The session's rated attempts in the order played, each with both ratings before and after."""
    if not rows:
        return "-"

    def moved(before, after) -> str:
        return f"{format_rating(round(before, 2))} → {format_rating(round(after, 2))}"

    shown = [
        {
            "position": row.position,
            "player": row.player.short_name,
            "deal": str(row.deal),
            "result": "won" if row.won else "lost",
            "player_ratings": moved(row.player_before, row.player_after),
            "change": format_change(round(row.delta, 2)),
            "deal_ratings": moved(row.deal_before, row.deal_after),
        }
        for row in rows
    ]
    return render_to_string("admin/league/dealsession/_rating_changes.html", {"rows": shown})


@admin.register(DealSession)
class DealSessionAdmin(ClubOwnedAdmin):
    list_display = ["date", "game", "attempts"]
    list_filter = ["game"]
    date_hierarchy = "date"
    ordering = ["-date"]
    fields = ["game", "date", "notes", "rating_changes"]
    readonly_fields = ["rating_changes"]
    inlines = [AttemptInline]
    formfield_overrides = READERS

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game").annotate(attempt_count=Count("attempts"))

    @admin.display(description="Attempts", ordering="attempt_count")
    def attempts(self, session):
        return session.attempt_count

    @admin.display(description="Rated attempts")
    def rating_changes(self, session):
        if session.pk is None:
            return "Shown after saving."
        return changes_html(session_changes(session))

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "game":
            kwargs["queryset"] = Game.objects.filter(against_deals=True)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request):
        """A new session gets the last session's game: a club usually plays one."""
        initial = super().get_changeform_initial_data(request)
        last = DealSession.objects.order_by("-date").first()
        if last is not None:
            initial.setdefault("game", last.game_id)
        return initial

    def save_model(self, request, obj, form, change):
        """Nothing yet: the session is saved with its attempts in `save_related`."""

    def save_related(self, request, form, formsets, change):
        (formset,) = formsets
        formset.save(commit=False)  # what changed, for the admin's history; the service writes
        rows = deal_services.save_session(form.instance, attempt_inputs(formset))
        totals: dict[str, list] = {}
        for row in rows:
            first = totals.setdefault(row.player.short_name, [row.player_before, 0, 0])
            first[1], first[2] = row.player_after, first[2] + 1
        summary = ", ".join(
            f"{name} {format_rating(round(before, 1))} → {format_rating(round(after, 1))} "
            f"({format_change(round(after - before, 1))}, {n} attempt{'s' if n > 1 else ''})"
            for name, (before, after, n) in totals.items()
        )
        self.message_user(request, f"Ratings updated. {summary or 'No rated attempts.'}", messages.SUCCESS)

    def delete_model(self, request, obj):
        deal_services.delete_sessions([obj])

    def delete_queryset(self, request, queryset):
        deal_services.delete_sessions(list(queryset))
