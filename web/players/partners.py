"""The partners section of a player's page: who they played on a side with, per game."""

from __future__ import annotations

import django_tables2 as tables

from web.pages.columns import ChangeColumn, NumberColumn, PlayerNameColumn
from web.pages.tables import SiteTable


class PartnersTable(SiteTable):
    """A player's partners: matchdays on the same side per game, how many the side won, and the
    player's rating change in the game's table at those matchdays."""

    partner = PlayerNameColumn("Partner", accessor="partner")
    game = tables.Column("Game", accessor="game__name")
    together = NumberColumn("Matchdays together")
    won = NumberColumn("Won together")
    gained = ChangeColumn("Change together")

    class Meta:
        orderable = False
        empty_text = "No partners yet."
