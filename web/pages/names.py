"""Player names that link to the player's page and show their ratings in a tooltip.

The tooltip is plain HTML next to the link (not inside it, so the link's accessible name is the
player's name alone), shown by CSS on hover and on keyboard focus and tied to the link with
`aria-describedby`, so screen readers announce it as the link's description. On a touch screen,
where there is no hover, the first tap shows the tooltip and a second follows the link (site.css,
"Player names"). No JavaScript is involved.
"""

from __future__ import annotations

import re
from html import escape  # Django's escape is this, behind a lazy-string check per call

from django.urls import reverse
from django.utils.safestring import SafeString

from web.pages.formatting import format_fine_rating, format_rating


class PlayerNames:
    """Renders player names with their current ratings; one per request, so tooltip ids are unique
    within a page and the ratings are read once. A player named in several tables of a page has
    the tooltip's content built once."""

    def __init__(self, ratings: dict):
        self.ratings = ratings
        self.count = 0
        self.parts: dict[int, tuple[str, str, str]] = {}

    def _parts(self, pk: int, player) -> tuple[str, str, str]:
        """The player's link, short name and tooltip, escaped once per page (a grid's header names
        every player of its page, and the home page shows several grids)."""
        # One element per tooltip (lines are kept by CSS `white-space: pre-line`).
        rows = self.ratings.get(pk, [])
        lines = [
            f"{table.name}{'' if table.official else ' (unofficial)'} "
            + (format_fine_rating(r) if table.against_deals else format_rating(r))  # as the table's pages
            for table, r in rows
        ] or ["No rated matchdays yet"]
        # A game's stand-in (rated against the players) leads to the game's page; a player read
        # without the field (deferred) is not looked up for it: their page redirects there anyway.
        if vars(player).get("stands_for_id"):
            url = reverse("league:game", args=[player.stands_for.slug])
        else:
            url = reverse("league:player", args=[pk])
        parts = self.parts[pk] = (
            _escaped(url),
            _escaped(player.short_name),
            _escaped("\n".join([player.name, *lines])),
        )
        return parts

    def html(self, player) -> SafeString:
        self.count += 1
        pk = player.id  # the primary key, read without the `pk` property's calls
        # A dot never appears in a slug, so no table's anchor on the page can take this id.
        tip_id = f"tip.{pk}.{self.count}"
        url, name, tip = self.parts[pk] if pk in self.parts else self._parts(pk, player)  # escaped
        return SafeString(  # every part escaped in _parts, the id made of numbers
            f'<span class="name" tabindex="-1"><a class="player" href="{url}" data-player="{name}" '
            f'aria-describedby="{tip_id}">{name}</a><span class="tip" role="tooltip" id="{tip_id}">{tip}</span></span>'
        )


_SPECIAL = re.compile("[&<>\"']")  # what `escape` replaces


def _escaped(text: str) -> str:
    """`escape(text)`, searched once rather than replaced five times: most names need nothing."""
    return escape(text) if _SPECIAL.search(text) else text


class PlainNames:
    """Player names as plain text, for downloads."""

    def html(self, player) -> str:
        return player.short_name
