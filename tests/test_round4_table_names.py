"""Faults round four, class 4: one table, one name. A category table that only repeats its one
game's is named for both (`Pokemon · Trading card games`) on the season's page, the honours board
and a player's honours alike; a running season's dates carry their years on the home page when
it does not lie within this year, as its own page writes them."""

import re
from datetime import date

from django.utils import timezone

from league.models import Player, Season
from ratings.services.seasons import save_season
from tests.conftest import section, table_rows
from tests.test_game_nights import night  # noqa: F401 (a fixture)

CLUB = "/card-games"
TWIN = "Pokemon · Trading card games"


def test_a_category_table_repeating_its_game_is_named_for_both_on_every_page(client, night):  # noqa: F811
    save_season(Season(name="November", slug="november", first_day=date(2025, 11, 1), last_day=date(2025, 11, 30)))
    season = client.get(f"{CLUB}/seasons/november/").content.decode()
    assert f">{TWIN}<" in season
    honours = client.get(f"{CLUB}/honours/").content.decode()
    names = {row[0] for row in table_rows(section(honours, "honours-november-heading"))[1:] if row}
    assert TWIN in names and "Pokemon" not in names and "Trading card games" not in names
    winner = Player.objects.get(short_name="R")  # first of Pokemon's only matchday
    page = client.get(f"{CLUB}/players/{winner.pk}/").content.decode()
    assert f"1st in {TWIN}" in page


def test_a_running_seasons_dates_on_the_home_page_carry_their_years_outside_this_year(client, night):  # noqa: F811
    today = timezone.localdate()
    long = Season(
        name="Long", slug="long", first_day=date(today.year - 1, 11, 15), last_day=date(today.year + 1, 12, 31)
    )
    save_season(long)
    home = client.get(f"{CLUB}/").content.decode()
    season = client.get(f"{CLUB}/seasons/long/").content.decode()
    written = re.search(r"The season runs ([^:]+):", home)[1]
    assert written == f"November 15, {today.year - 1} to December 31, {today.year + 1}"
    assert written in season


def test_a_running_season_within_this_year_is_written_without_years_on_the_home_page(client, night):  # noqa: F811
    today = timezone.localdate()
    save_season(Season(name="This", slug="this", first_day=date(today.year, 1, 1), last_day=date(today.year, 12, 31)))
    assert "The season runs January 1 to December 31:" in client.get(f"{CLUB}/").content.decode()
