"""Form fields that read what people type the way league.validation reads a results file, for the
admin and any other form that takes results."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

# Digits 0-9 and perhaps a minus sign (refused then by the field's range, with the range named).
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
MOST_DIGITS = 12  # more than any range of the league holds; int() is never asked to read thousands


class WholeNumberField(forms.IntegerField):
    """A whole number written with the digits 0-9. Django's IntegerField reads what Python's int()
    reads: "1_0" as 10, full-width "１２" as 12, "٣" as 3; none of these is what a secretary typed."""

    default_error_messages = {
        "invalid": "Enter a whole number, written with the digits 0-9.",
        "too_long": f"Enter a whole number of at most {MOST_DIGITS} digits.",
    }

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not _WHOLE_NUMBER.fullmatch(text):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        if len(text.lstrip("-")) > MOST_DIGITS:
            raise ValidationError(self.error_messages["too_long"], code="too_long")
        return int(text)


# For a ModelAdmin's formfield_overrides: every whole-number column is typed as above.
WHOLE_NUMBERS = {
    models.PositiveIntegerField: {"form_class": WholeNumberField},
    models.PositiveSmallIntegerField: {"form_class": WholeNumberField},
    models.IntegerField: {"form_class": WholeNumberField},
}
