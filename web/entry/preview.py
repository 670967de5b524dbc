"""What the entry page shows of a matchday before it is saved, for a new one and a changed one: each
table's rows, the number of lines the form shows, and the names taken for players who went by them."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from league.placings import side_groups
from league.validation import ENTRY_LINES, name_key, whole_number
from ratings.selectors.grids import with_points
from ratings.services.matchdays import MatchdayPreview
from web.entry import LINES
from web.fields import refusal
from web.pages.formatting import explain_change
from web.pages.typed_names import Resolved, described


def _partners(preview: MatchdayPreview) -> dict[str, list[str]]:
    """Each side's label -> its players' short names, in the order typed."""
    sides: dict[str, list[str]] = {}
    for result, player in zip(preview.checked.results, preview.players, strict=True):
        if result.play.side:
            sides.setdefault(result.play.side, []).append(player.short_name)
    return sides


def preview_rows(preview: MatchdayPreview) -> list[dict]:
    """Each table's rows, best placed first; a player's side names their partners (`A, with K`)."""
    sides = _partners(preview)
    plays = [result.play for result in preview.checked.results]
    n = len(side_groups([play.side for play in plays]))  # what the placings rank: the sides
    sections = []
    for table, outcomes in preview.changes:
        rows = []
        for play, player, o in sorted(
            zip(plays, preview.players, outcomes, strict=True), key=lambda row: row[2].placing
        ):
            rated = o.placing
            shown = with_points(f"{rated}({play.placing})" if rated != play.placing else str(rated), play.score)
            note = explain_change(o.delta, rated, n, o.expected, o.k, play.placing)
            partners = [name for name in sides.get(play.side, []) if name != player.short_name]
            side = f"{play.side}, with {', '.join(partners)}" if play.side else ""
            rows.append(
                {
                    "player": player,
                    "placing": shown,
                    "left": play.left_early,
                    "side": side,
                    "weight": f"{play.weight:g}",
                    "o": o,
                    "note": note,
                }
            )
        sections.append({"table": table, "rows": rows})
    return sections


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
