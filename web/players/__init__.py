"""The players' pages: the directory, and a player's page (cards, chart, every matchday, head to
head and partners)."""
