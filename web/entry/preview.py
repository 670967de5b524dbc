"""What the entry page shows of a matchday before it is saved, for a new one and a changed one: each
table's rows, the number of lines the form shows, and the names taken for players who went by them."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from league.validation import ENTRY_LINES, name_key, whole_number
from ratings.services.matchdays import MatchdayPreview
from web.entry import LINES
from web.fields import refusal
from web.pages.matchday_preview import changes_rows
from web.pages.typed_names import Resolved, described


def preview_rows(preview: MatchdayPreview) -> list[dict]:
    """Each table's rows, best placed first (web.pages.matchday_preview, which the upload shows too)."""
    return changes_rows([r.play for r in preview.checked.results], preview.players, preview.changes)


def line_count(post) -> tuple[int, ValidationError | None]:
    """The number of result lines the form shows (the hidden `lines`), with "More lines" added."""
    try:
        lines = max(LINES, whole_number(post.get("lines", "").strip() or str(LINES), "lines", ENTRY_LINES))
    except ValueError as error:
        return LINES, refusal(error)
    if post.get("action") == "more":
        lines = min(lines + LINES, ENTRY_LINES.highest)
    return lines, None


def also_went_by(resolved: Resolved) -> list[str]:
    """Names taken for the player who goes by them now, though others went by them before."""
    return [
        f"{name} is taken as {resolved.players[name_key(name)].short_name}, whose name it is now; "
        f"{'; '.join(described(p, resolved.former) for p in others)} went by it before."
        for name, others in resolved.also.items()
    ]


def rounds_line(preview: MatchdayPreview) -> str:
    """What the matchday's rounds do to the change, in a line: a table of the club formula moves by
    K = K per round × rounds, so a one-round game barely moves it; other methods do not read them."""
    rounds = preview.checked.matchday.rounds
    counted, unread = [], []
    for table, _ in preview.changes:
        if "rounds" in table.rating_method.facts_read:
            k = table.method_params().get("k", 1)
            counted.append(f"{table.name} K = {k:g} × {rounds} = {k * rounds:g}")
        elif table.name not in unread:
            unread.append(table.name)
    parts = []
    if counted:
        parts.append(
            f"{rounds} round{'s' if rounds != 1 else ''}: a change is at most K points either way, and K grows "
            f"with the rounds ({'; '.join(counted)})"
        )
    if unread:
        verb = "does" if len(unread) == 1 else "do"
        parts.append(f"{', '.join(unread)} {verb} not read the rounds: a game moves it as much whatever its rounds")
    return "; ".join(parts) + "." if parts else ""
