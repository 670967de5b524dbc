"""Reads shaped for pages, one module per thing read: `standings` (a table's standings, spans and
changes), `grids` (matchdays by players), `players` (a player's page), `overview` (the home page's
leaders and latest matchdays, the players directory), `boards` (leaderboards: provisional players
apart, inactive ones left out), `nights` (one game night) and `deletion` (what deleting matchdays would
recompute). Each function costs a fixed number of queries, whatever the history's size.
"""
