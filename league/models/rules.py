"""How the models keep the league's rules (league/validation.py): validators and named constraints
for the ranges, clean names, and names kept apart by their key.
"""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, ProhibitNullCharactersValidator
from django.db import models
from django.db.models import Q

from league import validation
from league.validation import (
    Span,
    name_key,
)

# Text that PostgreSQL cannot store (a NUL byte) is refused before it gets there, on SQLite too.
NO_NUL = [ProhibitNullCharactersValidator()]


def in_span(span: Span, what: str) -> list:
    """Validators for a number field that keeps `span` (the messages name the field)."""
    return [
        MinValueValidator(span.lowest, f"{what} must be at least {span.lowest}."),
        MaxValueValidator(span.highest, f"{what} must be at most {span.highest:,}."),
    ]


def span_check(field: str, span: Span, name: str, *, nullable: bool = False) -> models.CheckConstraint:
    """The database's copy of a field's range, as a named check constraint."""
    condition = Q(**{f"{field}__gte": span.lowest, f"{field}__lte": span.highest})
    if nullable:
        condition |= Q(**{f"{field}__isnull": True})
    return models.CheckConstraint(condition=condition, name=name)


def clean_name(instance: models.Model, field: str, what: str, longest: int) -> None:
    """Trim a name and refuse it, on its field, if it cannot be a name."""
    value = getattr(instance, field).strip()
    setattr(instance, field, value)
    problem = validation.name_problem(value, what, longest)
    if problem:
        raise ValidationError({field: problem[0].upper() + problem[1:] + "."})


class RangesInValidators:
    """A model whose check constraints repeat its fields' validators (league.validation's ranges).
    full_clean() runs the validators, with messages on the fields; it leaves the constraints to the
    database, where they cost nothing, instead of evaluating each in a query of its own per row (six
    checks for each of up to 500 results)."""

    def get_constraints(self):
        return [
            (model, [c for c in constraints if not isinstance(c, models.CheckConstraint)])
            for model, constraints in super().get_constraints()
        ]


class KeyedByName:
    """A model whose `KEY_FIELD` holds the comparison key of a name, set by save(). Its rules (unique,
    not empty) are checked by clean() with messages on the name itself, so full_clean() leaves the key
    to clean() instead of repeating them on a field nobody types; the database keeps them as well."""

    KEY_FIELD = ""

    def validate_unique(self, exclude=None):
        super().validate_unique(exclude={*(exclude or ()), self.KEY_FIELD})

    def validate_constraints(self, exclude=None):
        super().validate_constraints(exclude={*(exclude or ()), self.KEY_FIELD})


def refuse_same_key(instance: models.Model, field: str, key_field: str, what: str) -> None:
    """Refuse a name whose key is another row's in its club: e.g. the players "GL" and "gl" cannot
    both exist."""
    key = name_key(getattr(instance, field))
    rows = type(instance).objects.filter(club_id=instance.club_id, **{key_field: key})
    other = rows.exclude(pk=instance.pk).first()
    if other is not None:
        raise ValidationError(
            {
                field: f"{getattr(instance, field)!r} is the same {what} as {getattr(other, field)!r}, "
                "which exists already: names are compared ignoring case, width, accents' form and "
                "invisible characters."
            }
        )


class WithinClub:
    """A model whose rows belong to a club (its `club` key) and whose names are unique within it,
    by constraints on (club, field). The club is set before a form checks the row, so the checks
    include it, and a clash is reported on its field, as a single field's would be."""

    def validate_unique(self, exclude=None):
        super().validate_unique(exclude=set(exclude or ()) - {"club"})

    def validate_constraints(self, exclude=None):
        try:
            super().validate_constraints(exclude=set(exclude or ()) - {"club"})
        except ValidationError as problems:
            raise ValidationError(_on_their_fields(problems.error_dict)) from None

    def unique_error_message(self, model_class, unique_check):
        if "club" in unique_check and len(unique_check) == 2:
            unique_check = tuple(name for name in unique_check if name != "club")
        return super().unique_error_message(model_class, unique_check)


def _on_their_fields(errors: dict) -> dict:
    """Django files a clash of a two-field constraint under no field; ours name their one field."""
    moved = {field: list(found) for field, found in errors.items() if field != NON_FIELD_ERRORS}
    for error in errors.get(NON_FIELD_ERRORS, []):
        fields = (error.params or {}).get("unique_check", ()) if error.code == "unique" else ()
        moved.setdefault(fields[0] if len(fields) == 1 else NON_FIELD_ERRORS, []).append(error)
    return moved


def unique_in_club(label: str, *fields: str) -> list[models.UniqueConstraint]:
    """A constraint per field: no two rows of a club share its value (`label`: the table's prefix)."""
    return [models.UniqueConstraint(fields=["club", field], name=f"{label}_{field}_in_club") for field in fields]
