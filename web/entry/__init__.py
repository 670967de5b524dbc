"""The secretary's entry page: result lines as typed (`lines`) and the page's form (`form`)."""

from web.entry.form import ENTRY_PERMISSIONS, LINES, EntryForm, resolve_players
from web.entry.lines import parse_results, side_label

__all__ = ["ENTRY_PERMISSIONS", "LINES", "EntryForm", "parse_results", "resolve_players", "side_label"]
