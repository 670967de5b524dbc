"""Form fields that read what people type with league.validation's readers, the ones the imports and
the calculator use, so that the entry page and the admin take and refuse the same values with the
same words: whole numbers, the record's fields given as text, yes and no, dates."""

from __future__ import annotations

from django import forms
from django.contrib.admin.widgets import AdminIntegerFieldWidget
from django.core.exceptions import ValidationError
from django.db import models

from league import validation
from league.results import read_given
from league.validation import Span


def refusal(error: ValueError) -> ValidationError:
    """A reader's ValueError as a form error, its message starting with a capital letter."""
    text = str(error)
    return ValidationError(text[:1].upper() + text[1:] + ".", code="invalid")


class WholeNumberField(forms.IntegerField):
    """A whole number written with the digits 0-9, read by league.validation.whole_number (within
    `span` when given; the model's validators check the ranges of model fields). Django's
    IntegerField reads what int() reads: "1_0", full-width "１２", "٣" and "2.0" as numbers."""

    def __init__(self, *args, span: Span | None = None, **kwargs):
        self.span = span
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            span = self.span or validation.ANY_WHOLE
            return validation.whole_number(str(value).strip(), str(self.label or "the number"), span)
        except ValueError as error:
            raise refusal(error) from None


class GivenField(forms.CharField):
    """A field of the result record read from text as the import and the entry page read it
    (league.results.read_given): a side's label, checked as a name, or a weight, read as a finite
    number (Django's FloatField reads what float() reads: "１", "٣", "1_0", "inf")."""

    def __init__(self, *args, given: str, **kwargs):
        self.given = given
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        text = super().to_python(value)
        if text in self.empty_values:
            return self.empty_value
        try:
            return read_given(self.given, text)
        except ValueError as error:
            raise refusal(error) from None


class FlagCheckbox(forms.CheckboxInput):
    """A tick box whose value goes to its field as sent, for the field to read as every way in reads
    yes and no (Django's box takes any value but "false" and "0" for yes, "no" too); unticked is no."""

    def __init__(self, attrs=None):
        super().__init__(attrs, check_test=_ticked)

    def value_from_datadict(self, data, files, name):
        return data.get(name, False) if name in data else False


def _ticked(value) -> bool:
    try:
        return validation.yes_or_no(value if value is not None else "", "", blank=False)
    except ValueError:
        return False


class FlagField(forms.BooleanField):
    """A yes or no read by league.validation.yes_or_no (an attempt's `won` by parse_won, which also
    takes W and L): the admin's boxes take the words the imports and the calculator take."""

    widget = FlagCheckbox

    def __init__(self, *args, read=None, **kwargs):
        self.read = read
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        if value is None or value == "" or isinstance(value, bool):
            return bool(value)  # unticked, or a value already read
        try:
            if self.read is not None:
                return self.read(str(value))
            return validation.yes_or_no(str(value), str(self.label or "the box"), blank=False)
        except ValueError as error:
            raise refusal(error) from None

    def has_changed(self, initial, data):
        try:
            return super().has_changed(initial, data)
        except ValidationError:
            return True  # a value the field refuses is a change, refused when the form is cleaned


class IsoDateField(forms.DateField):
    """A date written like 2025-11-03, read by league.validation.iso_date as a results file's is
    (Django's DateField also reads "11/03/2025", which could be either month)."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if hasattr(value, "year"):
            return value
        try:
            return validation.iso_date(str(value).strip(), str(self.label or "date"))
        except ValueError as error:
            raise refusal(error) from None


# For a ModelAdmin's formfield_overrides: every whole-number, date and yes-or-no column is read as above.
# An override replaces the admin's own for its class, so whole numbers keep the admin's narrow widget
# here (without it a matchday's result rows were wider than a 1280 px screen).
_WHOLE = {"form_class": WholeNumberField, "widget": AdminIntegerFieldWidget}
READERS = {
    models.BooleanField: {"form_class": FlagField},
    models.DateField: {"form_class": IsoDateField},
    models.PositiveIntegerField: _WHOLE,
    models.PositiveSmallIntegerField: _WHOLE,
    models.IntegerField: _WHOLE,
}
