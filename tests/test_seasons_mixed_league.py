"""The mixed league (tests/conftest.py) with a fresh-start season: its tables of team play, score
sheets and unofficial games are rated, solitaire has none, and every public page still answers."""

from datetime import date

import tests.test_mixed_league as mixed
from league.models import Season
from ratings.models import RatingEntry, RatingTable
from ratings.services.recompute import differences
from ratings.services.seasons import save_season


def test_the_mixed_league_with_a_fresh_start_season_rates_every_table_of_matchdays(mixed_league):
    """Team play (Spades in pairs, Codenames five against four) and Rummy's score sheets fall in the
    summer, with the last of the generated official and unofficial games; solitaire is played
    against deals, so it has no season table."""
    season = Season(name="Summer", slug="summer", first_day=date(2026, 6, 1), last_day=date(2026, 7, 31))
    season.start = Season.Start.FRESH
    save_season(season)
    tables = {t.parent.slug: t for t in season.tables.select_related("parent__game")}
    solitaire = RatingTable.objects.get(game__against_deals=True)
    assert solitaire.slug not in tables
    assert all(table.official == table.parent.official for table in tables.values())
    played = {slug for slug, table in tables.items() if table.entries.exists()}
    assert {"overall", "spades", "codenames", "rummy"} <= played  # team play and score sheets
    assert any(not tables[slug].official for slug in played)  # an unofficial table too
    assert differences() == []


def test_every_public_page_still_answers_on_the_mixed_league_with_a_fresh_start_season(client, mixed_league):
    """A season's tables are kept out of the club's own tables: the tooltips, the standings and the
    players' pages are unchanged by them."""
    save_season(
        Season(name="Summer", slug="summer", first_day=date(2026, 6, 1), last_day=date(2026, 7, 31), start="fresh")
    )
    assert RatingEntry.objects.filter(table__season__slug="summer").exists()
    mixed.test_every_public_page_answers_on_the_mixed_league(client, mixed_league)
