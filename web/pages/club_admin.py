"""The admin of the rows a club owns, as every feature's admin shows them: each club's data is seen
through its secretaries' scope (web.clubs.secretaries), so what another club owns is not there at
all and its pages are a 404, as a missing object's. A new row belongs to the secretary's club; one
of several clubs picks it, and what a row points at (a game, a category, a player) is of its club."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import flatten_fieldsets
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import ValidationError
from django.http import Http404

from league.models import Club
from web.pages.access import clubs_of

CLUB = "club"


def club_choices(request):
    """The clubs a new row may belong to: the user's (every club, a superuser's); None when there is
    one, which is then every new row's (league.models.default_club)."""
    if not hasattr(request, "club_choices"):  # asked for the fields, the fieldsets and the form
        clubs = clubs_of(request.user)
        choices = Club.objects.all() if clubs is None else Club.objects.filter(pk__in=clubs)
        request.club_choices = choices if len(choices[:2]) > 1 else None
    return request.club_choices


class ClubForm(forms.ModelForm):
    """Keeps a row and what it points at in one club: the club chosen for a new row (set before the
    checks, so the per-club uniqueness checks run on it), and every chosen game, category or player
    of that club."""

    def clean(self):
        data = super().clean()
        if data.get(CLUB) is not None:
            self.instance.club = data[CLUB]
        club_id = getattr(self.instance, "club_id", None)
        for name, value in list(data.items()):
            if name != CLUB and club_id is not None and getattr(value, "club_id", club_id) != club_id:
                club = self.instance.club
                self.add_error(name, f"{value} is another club's; choose one of {club.name}'s (/{club.slug}/).")
        return data


def refuse_other_clubs(club_id: int | None, players) -> None:
    """A secretary of two clubs is offered both clubs' players: a matchday's or a session's are its
    club's, refused on the form (the matchdays' writer stops a mix only as a fault; the sessions'
    writer would store it)."""
    others = sorted({p.short_name for p in players if club_id is not None and p.club_id != club_id})
    if others:
        raise ValidationError(f"{', '.join(others)}: another club's players; choose this club's.")


def refuse_rows_saved_since(formset, rows: str) -> None:
    """Every save writes a matchday's results (a session's attempts) afresh, under new ids: a form
    opened before another save (another tab, Back, another secretary) names rows that are gone, and
    Django refuses them on each row's hidden id, where no error is shown."""
    if any("id" in form.errors for form in formset.forms):
        raise ValidationError(
            f"{rows} were saved again after this page was opened (in another tab or by another secretary), "
            "so nothing was saved: open the page again to see them as they are now, then make the change."
        )


class ClubChoiceField(forms.ModelChoiceField):
    """A select of clubs, each named with its address: a copy of a club restored at another address
    has the same name."""

    def __init__(self, queryset, help_text: str):
        super().__init__(queryset=queryset, label="Club", help_text=help_text)

    def label_from_instance(self, obj) -> str:
        return club_label(obj)


def club_label(club: Club) -> str:
    """A club as the admin names it where several are listed: with its address, since a copy of a
    club restored at another address has the same name."""
    return f"{club.name} (/{club.slug}/)"


@admin.display(description="Club", ordering="club__name")
def club_column(row) -> str:
    return club_label(row.club)


class ClubFilter(admin.RelatedFieldListFilter):
    def field_choices(self, field, request, model_admin):
        return [(club.pk, club_label(club)) for club in club_choices(request).order_by("name", "slug")]


def with_club(form_class, choices):
    """`form_class` with a select of the club for a new row."""
    field = ClubChoiceField(choices, "The club this belongs to.")
    return type(form_class.__name__, (ClubForm, form_class), {CLUB: field})


class DateLinksChangeList(ChangeList):
    """A list whose date links read `?date__year=` (matchdays, sessions): Django builds a datetime
    from it and turns a ValueError into its "invalid filter" redirect, but a year of 11 digits
    overflows instead."""

    def get_filters(self, request):
        try:
            return super().get_filters(request)
        except OverflowError as error:
            raise IncorrectLookupParameters(error) from error


class ClubOwnedAdmin(admin.ModelAdmin):
    """The admin of a model whose rows a club owns: another club's row is a 404 (Django would redirect
    with a message that it does not exist); a new row's club is chosen when the user has several;
    the lists show the club when there are several."""

    def get_object(self, request, object_id, from_field=None):
        found = super().get_object(request, object_id, from_field)
        if found is None:
            raise Http404(f"No {self.opts.verbose_name} has the ID “{object_id}”.")
        return found

    def get_changelist(self, request, **kwargs):
        return DateLinksChangeList

    def _owns_clubs(self) -> bool:
        return any(f.name == CLUB for f in self.opts.fields)

    def get_fields(self, request, obj=None):
        fields = list(super().get_fields(request, obj))
        if obj is None and self._owns_clubs() and club_choices(request) is not None:
            return [CLUB, *(f for f in fields if f != CLUB)]
        return fields

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None and self.fieldsets and self._owns_clubs() and club_choices(request) is not None:
            return [(None, {"fields": [CLUB]}), *fieldsets]
        return fieldsets

    def get_form(self, request, obj=None, change=False, **kwargs):
        fields = kwargs.pop("fields") if "fields" in kwargs else flatten_fieldsets(self.get_fieldsets(request, obj))
        if fields is not None:
            fields = [f for f in fields if f != CLUB]  # not the model's field, which is not editable
        form = super().get_form(request, obj, change, fields=fields, **kwargs)
        choices = club_choices(request) if obj is None and self._owns_clubs() else None
        if choices is not None:
            return with_club(form, choices)
        return type(form.__name__, (ClubForm, form), {})

    def get_list_display(self, request):
        shown = super().get_list_display(request)
        return [*shown, club_column] if self._owns_clubs() and self._several(request) else shown

    def get_list_select_related(self, request):
        shown = super().get_list_select_related(request)
        if not (self._owns_clubs() and self._several(request)) or shown is True:
            return shown
        return [*(shown or ()), CLUB]  # the club column's, in the list's query

    def get_list_filter(self, request):
        shown = super().get_list_filter(request)
        return [*shown, (CLUB, ClubFilter)] if self._owns_clubs() and self._several(request) else shown

    def _several(self, request) -> bool:
        return club_choices(request) is not None


class LabelledRows:
    """A tabular inline's formset whose fields each carry their column's name: a row's inputs are
    labelled by the table's header only, which a screen reader does not read (axe: `label`)."""

    def add_fields(self, form, index):
        super().add_fields(form, index)
        for field in form.fields.values():
            widget = getattr(field.widget, "widget", field.widget)  # the select inside the admin's links
            # A new dict, first: the admin's wrapper shares its attrs with the class's field (each row
            # would otherwise add the label to one dict, in an order that depends on the rows before).
            widget.attrs = {"aria-label": str(field.label), **widget.attrs}
