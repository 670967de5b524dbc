"""The secretary's entry page: result lines as typed (`lines`), the facts a game's tables read
(`facts`), the page's form (`form`) and the page itself (`views`); the names typed are found
among the players by web.pages.typed_names, as the odds page and the calculator find theirs."""

from web.entry.form import LINES, EntryForm
from web.entry.lines import parse_results, side_label

__all__ = ["LINES", "EntryForm", "parse_results", "side_label"]
