"""The clubs themselves in the admin (address, name, secretaries): the superusers' to edit. A
secretary sees their clubs' data (web.pages.club_admin), not the list of clubs."""

from __future__ import annotations

from django.contrib import admin

from league.models import Club


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Superusers start clubs, rename them, move them to another address and name their secretaries.
    A club is deleted with `manage.py` (its data goes with it), never from here."""

    list_display = ["name", "slug"]
    fields = ["name", "slug", "secretaries"]
    filter_horizontal = ["secretaries"]

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False
