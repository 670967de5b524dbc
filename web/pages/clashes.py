"""The admin's answer to a save that lost a race with another secretary's."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError


class CheckedAgainOnClash:
    """A ModelAdmin mixin. Two secretaries saving at once (on two servers) both pass the form's checks;
    the second's save then finds the first's row (the service's check under its lock, or a unique
    index). Its transaction rolled back, the form is checked once more, now seeing the other row, and
    answers with the form's own error on the field instead of a 500."""

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except (IntegrityError, ValidationError):
            if request.method != "POST":
                raise
            return super().changeform_view(request, object_id, form_url, extra_context)
