"""Seasons in the admin: the secretary names each one, gives its first and last day and whether it
carries the all-time ratings over or starts everyone afresh. A save or delete goes through
`ratings.services.seasons`, which keeps a fresh-start season's tables in step and rates them again."""

from __future__ import annotations

from django.contrib import admin, messages

from league.models import Season
from ratings.models import RatingEntry, RatingTable, Standing
from ratings.services.seasons import delete_season, save_season
from web.pages.clashes import CheckedAgainOnClash
from web.pages.club_admin import ClubOwnedAdmin


@admin.register(Season)
class SeasonAdmin(CheckedAgainOnClash, ClubOwnedAdmin):
    list_display = ["name", "first_day", "last_day", "start"]
    fields = ["name", "slug", "first_day", "last_day", "start"]
    prepopulated_fields = {"slug": ["name"]}
    ordering = ["-first_day"]

    def save_model(self, request, obj, form, change):
        tables = save_season(obj)
        if tables:
            self.message_user(
                request,
                f"{obj.name} starts afresh: its {len(tables)} tables are rated from its first matchday.",
                messages.SUCCESS,
            )

    def delete_model(self, request, obj):
        delete_season(obj)

    def delete_queryset(self, request, queryset):
        for season in queryset:
            delete_season(season)

    def get_deleted_objects(self, objs, request):
        """The seasons and their tables, which go with them (they cannot be deleted on their own), and
        the count of their tables' rows: listing those would list a row per player per matchday."""
        seasons = list(objs)
        tables = list(RatingTable.every.filter(season__in=seasons).order_by("name"))
        deleted = []
        for season in seasons:
            deleted += [f"Season: {season}", [f"Rating table: {t}" for t in tables if t.season_id == season.pk]]
        counts = {
            Season._meta.verbose_name_plural: len(seasons),
            RatingTable._meta.verbose_name_plural: len(tables),
            RatingEntry._meta.verbose_name_plural: RatingEntry.objects.filter(table__in=tables).count(),
            Standing._meta.verbose_name_plural: Standing.objects.filter(table__in=tables).count(),
        }
        return deleted, {name: n for name, n in counts.items() if n}, set(), []
