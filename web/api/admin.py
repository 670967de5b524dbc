"""The API's tokens in the admin: made (the token shown once, on the page that answers the save,
never stored, never in a message or a log) and revoked. A superuser makes and revokes anyone's; a
secretary their own only."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.http import Http404
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers

from league.models import ApiToken
from league.models.tokens import digest, new_token


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["user", "name", "created", "revoked"]
    list_filter = ["revoked"]
    actions = ["revoke"]
    search_fields = ["user__username", "name"]

    def get_queryset(self, request):
        found = super().get_queryset(request).select_related("user")
        return found if request.user.is_superuser else found.filter(user=request.user)

    def get_object(self, request, object_id, from_field=None):
        found = super().get_object(request, object_id, from_field)
        if found is None:  # another user's, or none: the same 404
            raise Http404(f"No API token has the ID “{object_id}”.")
        return found

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["user", "name"] if request.user.is_superuser else ["name"]
        return ["user", "name", "created", "revoked"]

    def get_readonly_fields(self, request, obj=None):
        # A revoked token stays revoked (the list's action revokes): make a new one instead.
        return ["user", "created", "revoked"] if obj is not None else []

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "user":  # a token works for staff only (web.api.tokens)
            kwargs["queryset"] = get_user_model().objects.filter(is_staff=True, is_active=True)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        if not change:  # a new token: only its digest is kept; the page answering the save shows it once
            token = new_token()
            obj.key_hash = digest(token)
            if not request.user.is_superuser:
                obj.user = request.user
            request.api_token_shown_once = token
        super().save_model(request, obj, form, change)

    def response_add(self, request, obj, post_url_continue=None):
        token = getattr(request, "api_token_shown_once", None)
        if token is None:
            return super().response_add(request, obj, post_url_continue)
        context = {**self.admin_site.each_context(request), "token": token, "row": obj, "opts": self.model._meta}
        response = TemplateResponse(request, "admin/league/apitoken_created.html", context)
        add_never_cache_headers(response)
        return response

    @admin.action(description="Revoke the selected tokens (they stop working at once)")
    def revoke(self, request, queryset):
        done = queryset.filter(revoked__isnull=True).update(revoked=timezone.now())
        self.message_user(request, f"{done} token{'s' if done != 1 else ''} revoked.")
