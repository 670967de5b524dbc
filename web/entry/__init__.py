"""The secretary's entry page: result lines as typed (`lines`), names found among the players
(`names`), the facts a game's tables read (`facts`) and the page's form (`form`)."""

from web.entry.form import ENTRY_PERMISSIONS, LINES, EntryForm, may_enter
from web.entry.lines import parse_results, side_label
from web.entry.names import ambiguity, described, resolve_players

__all__ = [
    "ENTRY_PERMISSIONS",
    "LINES",
    "EntryForm",
    "ambiguity",
    "described",
    "may_enter",
    "parse_results",
    "resolve_players",
    "side_label",
]
