"""The seasons' pages: the list of seasons, a season's boards, movers, matchdays and grids, and the
honours board of finished seasons (ratings/selectors/seasons.py reads them)."""
