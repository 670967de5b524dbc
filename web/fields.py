"""Form fields that read what people type with league.validation's readers, the ones the imports and
the calculator use, so that the entry page and the admin refuse the same mistakes with the same words."""

from __future__ import annotations

from django import forms
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


# For a ModelAdmin's formfield_overrides: every whole-number and date column is read as above.
READERS = {
    models.DateField: {"form_class": IsoDateField},
    models.PositiveIntegerField: {"form_class": WholeNumberField},
    models.PositiveSmallIntegerField: {"form_class": WholeNumberField},
    models.IntegerField: {"form_class": WholeNumberField},
}
