"""Tonight's odds: before a game, each player's chance to win and what each finishing place would do
to their rating (`chances`), and tables of even strength for the players present (`balance`).

Pure Python (no Django): the page hands in ratings and states and renders what comes back.
"""

from .balance import Proposal, balanced_tables, greedy_tables, table_sizes
from .chances import PlayerOdds, Sitter, TableOdds, table_odds

__all__ = [
    "PlayerOdds",
    "Proposal",
    "Sitter",
    "TableOdds",
    "balanced_tables",
    "greedy_tables",
    "table_odds",
    "table_sizes",
]
