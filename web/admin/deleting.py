"""What the admin says about deleting matchdays: which tables are recomputed before, every rating that
moved after, and Django's delete action with the same note."""

from __future__ import annotations

from django.contrib.admin.actions import delete_selected

from ratings.selectors import deletion
from web.pages.formatting import format_rating, long_date


def deletion_note(matchdays) -> str:
    """ "Deleting it recomputes Overall (12 later matchdays) and Hearts (3) from matchday 5, November
    3, 2025, on." """
    first, recomputes = deletion.recomputed_by_deleting(matchdays)
    if not recomputes:
        return "No rating table counts this matchday, so no ratings change."
    tables = ", ".join(
        f"{r.table} ({r.later_matchdays} later matchday{'' if r.later_matchdays == 1 else 's'} rated again)"
        for r in recomputes
    )
    return f"Deleting recomputes {tables} from matchday {first.number}, {long_date(first.date)}, on."


SHOWN_CHANGES = 30  # a message longer than this lists the rest as a count


def deletion_report(changes) -> str:
    if not changes:
        return "Deleted. No rating changed."
    parts = []
    for table, player, before, after in changes[:SHOWN_CHANGES]:
        if after is None:
            parts.append(f"{table}: {player} no longer rated (was {format_rating(before)})")
        elif before is None:
            parts.append(f"{table}: {player} {format_rating(after)}")
        else:
            parts.append(f"{table}: {player} {format_rating(before)} → {format_rating(after)}")
    more = f"; and {len(changes) - SHOWN_CHANGES} more" if len(changes) > SHOWN_CHANGES else ""
    return f"Deleted; ratings recomputed. {'; '.join(parts)}{more}."


def delete_selected_with_note(modeladmin, request, queryset):
    """Django's delete action, whose confirmation page also says what is recomputed."""
    response = delete_selected(modeladmin, request, queryset)
    if getattr(response, "context_data", None) is not None:
        response.context_data["recompute_note"] = deletion_note(list(queryset.select_related("game")))
    return response
