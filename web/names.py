"""Player names that link to the player's page and show their ratings in a tooltip.

The tooltip is plain HTML next to the link (not inside it, so the link's accessible name is the
player's name alone), shown by CSS on hover and on keyboard focus and tied to the link with
`aria-describedby`, so screen readers announce it as the link's description. On a touch screen,
where there is no hover, the first tap shows the tooltip and a second follows the link (site.css,
"Player names"). No JavaScript is involved.
"""

from __future__ import annotations

from html import escape  # Django's escape is this, behind a lazy-string check per call

from django.utils.safestring import SafeString, mark_safe

from web.formatting import format_rating
from web.paths import number_paths


class PlayerNames:
    """Renders player names with their current ratings; one per request, so tooltip ids are unique
    within a page and the ratings are read once. A player named in several tables of a page has
    the tooltip's content built once."""

    def __init__(self, ratings: dict):
        self.ratings = ratings
        self.count = 0
        self.parts: dict[int, tuple[str, str, str]] = {}
        self.path = number_paths("league:player")

    def _parts(self, player) -> tuple[str, str, str]:
        """The player's link, short name and tooltip, escaped once per page (a grid's header names
        every player of its page, and the home page shows several grids)."""
        if player.pk not in self.parts:
            # One element per tooltip (lines are kept by CSS `white-space: pre-line`).
            rows = self.ratings.get(player.pk, [])
            lines = [
                f"{table.name}{'' if table.official else ' (unofficial)'} {format_rating(r)}" for table, r in rows
            ] or ["No rated matchdays yet"]
            self.parts[player.pk] = (
                escape(self.path(player.pk)),
                escape(player.short_name),
                escape("\n".join([player.name, *lines])),
            )
        return self.parts[player.pk]

    def html(self, player) -> SafeString:
        self.count += 1
        # A dot never appears in a slug, so no table's anchor on the page can take this id.
        tip_id = f"tip.{player.pk}.{self.count}"
        url, name, tip = self._parts(player)  # escaped
        return mark_safe(  # noqa: S308 - every part escaped in _parts, the id made of numbers
            f'<span class="name" tabindex="-1"><a class="player" href="{url}" data-player="{name}" '
            f'aria-describedby="{tip_id}">{name}</a><span class="tip" role="tooltip" id="{tip_id}">{tip}</span></span>'
        )


class PlainNames:
    """Player names as plain text, for downloads."""

    def html(self, player) -> str:
        return player.short_name
