"""Rating tables in the admin: the club picks each table's method and its parameters.

Every method's own parameters are form fields of their own (a fieldset per method, open for the
table's method), checked by the method's declared parameters, so a bad value is a form error on
that field. Changing the method or a parameter recomputes the table.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponseRedirect

from ratings import methods
from ratings.models import RatingTable
from ratings.services.rating_tables import method_problems, save_rating_table
from ratings.services.recompute import RecomputeError
from web.pages.club_admin import ClubOwnedAdmin


def own_params(method: methods.Method) -> list[methods.Param]:
    """The parameters kept in `RatingTable.parameters` (the others have columns of their own)."""
    return [
        p for p in method.params if p.name not in RatingTable.COLUMNS and not (method.slug == "club" and p.name == "k")
    ]


def field_name(method: methods.Method, param: methods.Param) -> str:
    return f"{method.slug.replace('-', '_')}__{param.name}"


def form_field(param: methods.Param) -> forms.Field:
    if param.type is bool:
        return forms.BooleanField(label=param.label, required=False, initial=param.default, help_text=param.help)
    help_text = f"{param.help} Range: {param.range_text}."
    if param.choices:
        choices = [("", f"default ({param.default})"), *((c, c) for c in param.choices)]
        return forms.ChoiceField(label=param.label, required=False, choices=choices, help_text=help_text)
    # A CharField, not a FloatField: the method's own parsing reads it, so the admin refuses exactly
    # what the calculator refuses, with the same message.
    return forms.CharField(label=param.label, required=False, initial=param.default, help_text=help_text, max_length=40)


class BaseRatingTableForm(forms.ModelForm):
    class Meta:
        model = RatingTable
        fields = ["name", "slug", "description", "method", "start_rating", "k_per_round", "whole_numbers"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for method in methods.METHODS.values():
            for param in own_params(method):
                if self.instance.method == method.slug and param.name in self.instance.parameters:
                    self.initial[field_name(method, param)] = self.instance.parameters[param.name]

    def clean(self):
        data = super().clean()
        slug = data.get("method")
        if slug not in methods.METHODS:
            return data
        method = methods.METHODS[slug]
        switched = self.instance.pk is not None and "method" in self.changed_data
        defaults = method.defaults()
        # A new method brings its own start rating and rounding unless the club set them too.
        if switched and "start_rating" not in self.changed_data and "start_rating" in defaults:
            data["start_rating"] = defaults["start_rating"]
        if switched and "whole_numbers" not in self.changed_data:
            data["whole_numbers"] = defaults.get("round", False)  # player-vs-deal has no rounding
        # The columns every method shares are checked against this method's declared ranges.
        for field, name in (("start_rating", "start_rating"), ("k_per_round", "k")):
            param = method.param(name)
            if data.get(field) is None or param is None or (field == "k_per_round" and slug != "club"):
                continue
            try:
                param.parse(data[field])
            except methods.ParamError as error:
                self.add_error(field, f"{param.label}: {error.message}.")
        parameters = {}
        for param in own_params(method):
            raw = data.get(field_name(method, param))
            if raw in (None, ""):
                continue
            try:
                parameters[param.name] = param.parse(raw)
            except methods.ParamError as error:
                self.add_error(field_name(method, param), error.message)
        self.instance.parameters = parameters
        if "start_rating" not in defaults:  # openskill: new players start at the model's ordinal
            start, _ = method.start(method.clean_params(parameters))
            data["start_rating"] = start
        if self.instance.pk is not None and not self.errors:
            problems = method_problems(self.instance, method)
            if problems:
                self.add_error("method", [f"{method.name} cannot rate this table: {p}" for p in problems[:5]])
        return data


def _form_class() -> type[BaseRatingTableForm]:
    fields = {
        field_name(method, param): form_field(param)
        for method in methods.METHODS.values()
        for param in own_params(method)
    }
    return type("RatingTableForm", (BaseRatingTableForm,), fields)


RatingTableForm = _form_class()


@admin.register(RatingTable)
class RatingTableAdmin(ClubOwnedAdmin):
    """Tables are created from the games; here the club sets their texts, method and parameters."""

    form = RatingTableForm
    list_display = ["name", "scope", "method", "settings"]
    readonly_fields = ["scope", "game", "category"]

    def get_fieldsets(self, request, obj=None):
        current = obj.method if obj else "club"
        fieldsets = [
            (None, {"fields": ["name", "slug", "scope", "game", "category", "description"]}),
            (
                "Rating method",
                {
                    "fields": ["method", "start_rating", "whole_numbers"],
                    "description": "Each method is explained on the site's Methods page. A new method "
                    "brings its own start rating and rounding unless you change them as well; "
                    "saving recomputes the whole table.",
                },
            ),
            (
                "Club formula",
                {"fields": ["k_per_round"], "classes": [] if current == "club" else ["collapse"]},
            ),
        ]
        for method in methods.METHODS.values():
            params = own_params(method)
            if method.slug == "club" or not params:
                continue
            fieldsets.append(
                (
                    method.name,
                    {
                        "fields": [field_name(method, p) for p in params],
                        "description": method.summary,
                        "classes": [] if current == method.slug else ["collapse"],
                    },
                )
            )
        return fieldsets

    @admin.display(description="Parameters")
    def settings(self, table):
        return table.rating_method.describe(table.method_params())

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # the games call for their tables; a table's rows are rebuilt, never deleted

    def save_model(self, request, obj, form, change):
        try:
            rows = save_rating_table(obj)
        except (ValidationError, RecomputeError) as error:
            # The form checks what it can before saving; a method that fails on a matchday's numbers
            # is only found by rating them. The service's transaction has undone everything.
            request.rating_table_refused = True
            transaction.set_rollback(True)  # nothing of this request is to be kept
            text = "; ".join(error.messages) if isinstance(error, ValidationError) else str(error)
            self.message_user(request, f"Nothing was saved: {text}", messages.ERROR)
            return
        if rows is not None:
            self.message_user(
                request,
                f"{obj.name} recomputed with {obj.method_description} ({rows} rows).",
                messages.SUCCESS,
            )

    def log_change(self, request, obj, message):
        if not getattr(request, "rating_table_refused", False):
            return super().log_change(request, obj, message)
        return None

    def response_change(self, request, obj):
        if getattr(request, "rating_table_refused", False):
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)
