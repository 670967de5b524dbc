"""Player names with a rating tooltip that works without JavaScript.

The tooltip is plain HTML shown by CSS on hover and on keyboard focus (`:hover`, `:focus-within`),
and tied to the name with `aria-describedby` so screen readers announce it.
"""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString


def format_rating(value: float | None) -> str:
    """Whole-number ratings as the club writes them; unrounded ones with one decimal."""
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def format_change(value: float) -> str:
    """A rating change as +12, −7 or ±0 (a real minus sign, which lines up with the plus)."""
    text = format_rating(abs(value))
    if value > 0:
        return f"+{text}"
    if value < 0:
        return f"\u2212{text}"
    return "\u00b10"


class PlayerNames:
    """Renders player names with their current ratings; one per request, so tooltip ids are unique
    within a page and the ratings are read once."""

    def __init__(self, ratings: dict):
        self.ratings = ratings
        self.count = 0

    def html(self, player) -> SafeString:
        self.count += 1
        tip_id = f"tip-{player.pk}-{self.count}"
        rows = self.ratings.get(player.pk, [])
        if rows:
            lines = format_html_join(
                "",
                '<span class="tip-row"><span>{}</span> <b>{}</b></span>',
                (
                    (table.name + ("" if table.official else " (unofficial)"), format_rating(r))
                    for table, r in rows
                ),
            )
        else:
            lines = format_html('<span class="tip-row">{}</span>', "No rated matchdays yet")
        return format_html(
            '<span class="player" tabindex="0" aria-describedby="{}">{}'
            '<span class="tip" role="tooltip" id="{}"><span class="tip-name">{}</span>{}</span>'
            "</span>",
            tip_id,
            player.short_name,
            tip_id,
            player.name,
            lines,
        )
