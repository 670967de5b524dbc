"""The club secretary's side of the site: matchdays with their results, games, players and pages.

Every save that touches results recomputes the rating tables from that matchday on, inside the
admin's transaction, and reports each player's rating change.
"""

from __future__ import annotations

import copy
from itertools import groupby

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Min
from django.forms.models import BaseInlineFormSet
from django.utils.html import format_html, format_html_join

from league.formatting import format_change, format_rating
from league.models import Category, Game, Matchday, Page, Player, Result, Revision
from league.rankings import Entry, matchday_problems
from ratings import methods, services
from ratings.models import RatingEntry, RatingTable
from ratings.selectors import table_order

SEDMA_FIELDS = ["won_by_16", "won_by_24", "won_by_4_and_last", "bad_moves"]


def tables_counting(game) -> list[RatingTable]:
    """The rating tables that matchdays of `game` count in."""
    return [table for table in RatingTable.objects.all() if table.counts(game)]


class ChangesPublicPages:
    """For models whose edits show on the public pages without a recompute (names, texts):
    saving or deleting moves the pages' revision on, so browsers fetch them anew."""

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        Revision.bump()

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        Revision.bump()

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        Revision.bump()


class ResultFormSet(BaseInlineFormSet):
    """Checks the matchday's results as a whole: who played, and whether the placings rank them."""

    def clean(self):
        entries = []
        for number, form in enumerate(self.forms, start=1):
            data = getattr(form, "cleaned_data", None)
            if not data or data.get("DELETE") or form.errors:
                continue
            if data.get("player") is None or data.get("placing") is None:
                continue
            entries.append(
                Entry(
                    row=f"Row {number}",
                    player=data["player"].short_name,
                    placing=data["placing"],
                    rated_placing=data.get("rated_placing"),
                )
            )
        if any(form.errors for form in self.forms):
            return  # the rows' own errors come first; the whole is checked once they are fixed
        problems = matchday_problems(entries) or self.method_problems(entries)
        if problems:
            raise ValidationError(problems)
        super().clean()

    def method_problems(self, entries: list[Entry]) -> list[str]:
        """What the rating methods of the matchday's tables cannot rate (e.g. Sedma: two players)."""
        game = self.instance.game if self.instance.game_id else None
        if game is None:
            return []
        seats = [methods.Seat(0, e.effective_placing) for e in entries]
        problems = []
        for table in tables_counting(game):
            try:
                table.rating_method.check(seats)
            except methods.MethodError as error:
                problems.append(f"The {table.name} rating uses {table.rating_method.name}: {error}.")
        return problems


class ResultForm(forms.ModelForm):
    """A result row; the Sedma counts may be left blank, which means none."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in SEDMA_FIELDS:
            if name in self.fields:
                self.fields[name].required = False
                if self.instance.pk is None:
                    self.initial[name] = None  # so that a spare row left blank stays unchanged

    def clean(self):
        data = super().clean()
        for name in SEDMA_FIELDS:
            if name in self.fields and data.get(name) is None and name not in self.errors:
                data[name] = 0
        return data


class ResultInline(admin.TabularInline):
    model = Result
    form = ResultForm
    formset = ResultFormSet
    fields = ["player", "placing", "rated_placing", "left_early", "note"]
    extra = 4
    ordering = ["placing", "player__short_name"]

    def get_fields(self, request, obj=None):
        """The Sedma counts only where they count: for a game rated by Sedma (on a new matchday,
        whenever any table uses Sedma)."""
        sedma = RatingTable.objects.filter(method="sedma")
        if obj is not None:
            uses_sedma = any(table.counts(obj.game) for table in sedma)
        else:
            uses_sedma = sedma.exists()
        return self.fields + SEDMA_FIELDS if uses_sedma else self.fields


def rating_changes_html(entries) -> str:
    if not entries:
        return "-"
    rows = (
        (
            entry.table.name,
            entry.player.short_name,
            format_rating(entry.rating_before),
            format_rating(entry.rating_after),
            format_change(entry.delta),
        )
        for entry in entries
    )
    return format_html(
        "<table><thead><tr><th>Table</th><th>Player</th><th>Before</th><th>After</th>"
        "<th>Change</th></tr></thead><tbody>{}</tbody></table>",
        format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
    )


def _entries_of(matchday: Matchday):
    entries = RatingEntry.objects.filter(matchday=matchday).select_related("table", "player")
    return sorted(entries, key=lambda e: (*table_order(e.table), -e.delta))


@admin.register(Matchday)
class MatchdayAdmin(admin.ModelAdmin):
    list_display = ["number", "date", "game", "rounds", "players"]
    list_filter = ["game"]
    date_hierarchy = "date"
    ordering = ["-date", "-number"]
    fields = ["number", "date", "game", "rounds", "winner_score", "notes", "rating_changes"]
    readonly_fields = ["rating_changes"]
    inlines = [ResultInline]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("game").prefetch_related("results__player")

    @admin.display(description="Players")
    def players(self, matchday):
        return ", ".join(f"{r.player} {r.display_placing}" for r in matchday.results.all())

    @admin.display(description="Rating changes")
    def rating_changes(self, matchday):
        if matchday.pk is None:
            return "Shown after saving."
        return rating_changes_html(_entries_of(matchday))

    def get_changeform_initial_data(self, request):
        """A new matchday gets the next number and the last matchday's game, which is what a
        secretary entering the evening's results usually wants."""
        initial = super().get_changeform_initial_data(request)
        last = Matchday.objects.order_by("-number").first()
        if last is not None:
            initial.setdefault("number", last.number + 1)
            initial.setdefault("game", last.game_id)
        return initial

    def save_model(self, request, obj, form, change):
        obj._before_edit = Matchday.objects.select_related("game").get(pk=obj.pk) if change else None
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        matchday = form.instance
        services.recompute_for_matchday(matchday, old=getattr(matchday, "_before_edit", None))
        by_table = groupby(_entries_of(matchday), key=lambda e: e.table.name)
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

    def delete_model(self, request, obj):
        position, game = obj.position, obj.game
        super().delete_model(request, obj)
        services.recompute_from(position, [game])

    def delete_queryset(self, request, queryset):
        matchdays = list(queryset.select_related("game"))
        super().delete_queryset(request, queryset)
        if matchdays:
            services.recompute_from(min(m.position for m in matchdays), {m.game_id: m.game for m in matchdays}.values())


@admin.register(Player)
class PlayerAdmin(ChangesPublicPages, admin.ModelAdmin):
    list_display = ["short_name", "name", "first_played"]
    search_fields = ["short_name", "name"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(first=Min("results__matchday__date"))

    @admin.display(description="First played", ordering="first")
    def first_played(self, player):
        return player.first


@admin.register(Category)
class CategoryAdmin(ChangesPublicPages, admin.ModelAdmin):
    list_display = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        services.sync_tables()


@admin.register(Game)
class GameAdmin(ChangesPublicPages, admin.ModelAdmin):
    list_display = ["name", "category", "official"]
    list_filter = ["official", "category"]
    prepopulated_fields = {"slug": ["name"]}

    def save_model(self, request, obj, form, change):
        before = copy.copy(Game.objects.get(pk=obj.pk)) if change else None
        super().save_model(request, obj, form, change)
        if before and (before.official, before.category_id) != (obj.official, obj.category_id):
            services.recompute_for_game(obj, before)
        else:
            services.sync_tables()


@admin.register(Page)
class PageAdmin(ChangesPublicPages, admin.ModelAdmin):
    list_display = ["title", "slug", "position"]
    prepopulated_fields = {"slug": ["title"]}
