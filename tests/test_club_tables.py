"""The golden test: the club's published Overall and Hearts tables, every matchday, every player."""

import pytest

from league.models import Player
from ratings.models import RatingEntry, RatingTable
from ratings.selectors import grids
from ratings.services.rating_tables import save_rating_table
from ratings.services.recompute import rebuild_all
from tests.conftest import CLUB_PAGE, PLAYERS, grid_page


def grid_numbers(slug):
    table = RatingTable.objects.get(slug=slug)
    grid = grid_page(table)
    assert [p.short_name for p in grid.players] == PLAYERS
    return [[row.cells[p.pk] for p in grid.players] for row in grid.rows]


@pytest.mark.parametrize("slug", ["overall", "hearts"])
def test_the_club_tables_are_reproduced_exactly(club, slug):
    assert grid_numbers(slug) == CLUB_PAGE


def test_every_stored_rating_change_matches_the_club_page(club):
    """Not only the carried grid: each player's stored before/after at each matchday they played."""
    column = {name: i for i, name in enumerate(PLAYERS)}
    for table in RatingTable.objects.filter(slug__in=["overall", "hearts"]):
        entries = RatingEntry.objects.filter(table=table).select_related("matchday", "player")
        assert entries.count() == 24
        for entry in entries:
            row = entry.matchday.number - 1
            expected_after = CLUB_PAGE[row][column[entry.player.short_name]]
            expected_before = CLUB_PAGE[row - 1][column[entry.player.short_name]] if row else 1500
            assert (entry.rating_before, entry.rating_after) == (expected_before, expected_after)
            assert entry.delta == expected_after - expected_before


def test_a_full_rebuild_gives_the_same_tables(club):
    RatingEntry.objects.all().delete()
    rebuild_all()
    assert grid_numbers("overall") == CLUB_PAGE


def test_players_join_the_columns_in_the_order_they_first_played(club):
    assert [p.short_name for p in grids.in_join_order(Player.objects.all())] == PLAYERS
    assert Player.objects.count() == 5


def test_unrounded_carry_is_a_table_setting(club):
    table = RatingTable.objects.get(slug="hearts")
    table.whole_numbers = False
    save_rating_table(table)
    numbers = grid_numbers("hearts")
    # Matchday 1 unrounded: 1500 + 70 * (S - 1/2) for S = 1, 1/3, 0, 2/3.
    assert numbers[0][:4] == pytest.approx([1535, 1488.3333, 1465, 1511.6667])
    # Rounded, the unrounded tables stay within a few points of the club's.
    for row, published in zip(numbers, CLUB_PAGE, strict=True):
        assert row == pytest.approx(published, abs=3)
