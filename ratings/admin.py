from django.contrib import admin, messages

from ratings import services
from ratings.models import RatingTable


@admin.register(RatingTable)
class RatingTableAdmin(admin.ModelAdmin):
    """Tables are created from the games; here the club sets their texts and formula parameters."""

    list_display = ["name", "scope", "method", "k_per_round", "start_rating", "whole_numbers"]
    readonly_fields = ["scope", "game", "category"]
    fields = [
        "name",
        "slug",
        "scope",
        "game",
        "category",
        "description",
        "method",
        "start_rating",
        "k_per_round",
        "whole_numbers",
    ]

    def has_add_permission(self, request):
        return False

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        formula = {"method", "start_rating", "k_per_round", "whole_numbers"}
        if formula & set(form.changed_data):
            rows = services.recompute(obj)
            self.message_user(request, f"{obj.name} recomputed ({rows} rows).", messages.SUCCESS)
