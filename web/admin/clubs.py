"""The clubs themselves in the admin. Superusers start clubs, move them to another address and name
their secretaries; a club's secretaries rename it and choose its own settings (blank: the site's),
and see no other club."""

from __future__ import annotations

from django.contrib import admin
from django.http import Http404

from league.models import Club
from league.models.clubs import CLUB_SETTINGS
from web.pages.access import clubs_of


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """A club is deleted with `manage.py delete_club` (its data goes with it), never from here."""

    list_display = ["name", "slug"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "secretaries"]}),
        (
            "The club's own settings",
            {
                "fields": list(CLUB_SETTINGS),
                "description": "Left blank, a setting is the site's (its environment variables).",
            },
        ),
    ]
    filter_horizontal = ["secretaries"]

    def get_queryset(self, request):
        clubs = clubs_of(request.user)
        found = super().get_queryset(request)
        return found if clubs is None else found.filter(pk__in=clubs)

    def get_object(self, request, object_id, from_field=None):
        found = super().get_object(request, object_id, from_field)
        if found is None:  # another club's, or none: the same 404 (not Django's redirect)
            raise Http404(f"No club has the ID “{object_id}”.")
        return found

    def get_readonly_fields(self, request, obj=None):
        """A secretary's club keeps its address and secretaries: the superusers' to change."""
        return [] if request.user.is_superuser else ["slug", "secretaries"]

    def has_module_permission(self, request):
        clubs = clubs_of(request.user)
        return clubs is None or bool(clubs)

    def has_view_permission(self, request, obj=None):
        return self.has_change_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        clubs = clubs_of(request.user)
        return clubs is None or (bool(clubs) and (obj is None or obj.pk in clubs))

    def has_add_permission(self, request):
        return clubs_of(request.user) is None

    def has_delete_permission(self, request, obj=None):
        return False
