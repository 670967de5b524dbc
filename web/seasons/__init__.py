"""The seasons' pages (the list of seasons, a season's boards, movers, matchdays and grids, and the
honours board of finished seasons, which ratings/selectors/seasons.py reads) and the seasons' admin."""
