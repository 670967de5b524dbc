"""The game-night page: every matchday of one day, its winners and its biggest movers."""
