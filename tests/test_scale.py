"""Large leagues: paged grids of the best players, paged standings, and standings kept by the engine
equal to a fresh computation after every kind of edit."""

import pytest
from django.core.paginator import Paginator

from league.models import Game, Matchday, Player
from ratings.models import RatingEntry, RatingTable, Standing
from ratings.selectors import standings
from ratings.services.catalogue import save_game
from ratings.services.matchdays import delete_matchdays
from ratings.services.recompute import rebuild_all
from tests.conftest import CLUB_PAGE, PLAYERS, grid_page, results_of, save_results, store


def standings_snapshot():
    return sorted(
        Standing.objects.values_list(
            "table__slug", "player__short_name", "rating", "played", "matchday_number", "delta"
        )
    )


def entries_snapshot():
    return sorted(
        RatingEntry.objects.values_list(
            "table__slug",
            "matchday__number",
            "player__short_name",
            "rating_before",
            "rating_after",
            "matchday_date",
            "matchday_number",
        )
    )


def assert_same_as_full_recompute():
    kept = standings_snapshot(), entries_snapshot()
    rebuild_all()
    assert (standings_snapshot(), entries_snapshot()) == kept


def test_standings_are_each_players_last_row(club):
    overall = dict(Standing.objects.filter(table__slug="overall").values_list("player__short_name", "rating"))
    assert overall == dict(zip(PLAYERS, CLUB_PAGE[-1], strict=True))
    j = Standing.objects.get(table__slug="overall", player__short_name="J")
    assert (j.played, j.matchday_number, j.delta) == (3, 5, -10)


def test_adding_the_latest_matchday_keeps_tables_equal_to_a_full_recompute(club, make_matchday):
    make_matchday(7, "2025-11-20", {"I": 1, "NEW": 2, "K": 3}, rounds=3)
    assert_same_as_full_recompute()


def test_editing_deleting_and_moving_matchdays_keeps_tables_equal_to_a_full_recompute(club, make_matchday):
    save_results(Matchday.objects.get(number=2), {"J": 4, "R": 1})
    assert_same_as_full_recompute()

    # J's last matchday: J's standing must fall back
    delete_matchdays([Matchday.objects.get(number=5)])
    assert Standing.objects.get(table__slug="overall", player__short_name="J").matchday_number == 4
    assert_same_as_full_recompute()

    sixth = Matchday.objects.get(number=6)
    sixth.date = sixth.date.replace(day=1)  # now the first matchday of all
    store(sixth, list(results_of(sixth).values()))
    assert_same_as_full_recompute()

    spades = Game(name="Spades", slug="spades")
    save_game(spades)
    third = Matchday.objects.select_related("game").get(number=3)
    third.game = spades
    store(third, list(results_of(third).values()))
    assert_same_as_full_recompute()


def test_an_edit_rewrites_only_the_rows_of_its_matchday_and_later_in_its_tables(club, make_matchday):
    spades = Game(name="Spades", slug="spades")
    save_game(spades)
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2}, game=spades)
    fourth = Matchday.objects.get(number=4)
    before = dict(RatingEntry.objects.values_list("pk", "matchday__number"))
    save_results(fourth, {"J": 2, "R": 1})
    after = dict(RatingEntry.objects.values_list("pk", "matchday__number"))
    rewritten = {number for pk, number in before.items() if pk not in after}
    assert rewritten == {4, 5, 6, 7}  # overall: 4..7; hearts: 4..6
    kept_spades = RatingEntry.objects.filter(table__slug="spades").values_list("pk", flat=True)
    assert set(kept_spades) <= set(before)  # the Spades table was not touched


@pytest.fixture
def small_pages(settings):
    settings.LEAGUE_GRID_PAGE_SIZE = 2
    settings.LEAGUE_HOME_GRID_PAGE_SIZE = 2
    settings.LEAGUE_STANDINGS_PAGE_SIZE = 2


def test_grid_pages_run_newest_first_and_carry_each_players_rating(club, small_pages):
    overall = RatingTable.objects.get(slug="overall")
    pages = [grid_page(overall, number) for number in (1, 2, 3)]
    assert [[row.matchday.number for row in grid.rows] for grid in pages] == [[5, 6], [3, 4], [1, 2]]
    # Everyone who played at the page's matchdays, in the order they joined: J missed matchday 6 but
    # played 5, K missed 5 but played 6; matchdays 1 and 2 had four players each, J joining at 2.
    assert [[p.short_name for p in grid.players] for grid in pages] == [PLAYERS, PLAYERS, PLAYERS]
    full = dict(zip(range(1, 7), CLUB_PAGE, strict=True))
    for grid in pages:
        for row in grid.rows:
            expected = [full[row.matchday.number][PLAYERS.index(p.short_name)] for p in grid.players]
            assert [row.cells[p.pk] for p in grid.players] == expected


def test_a_grid_page_shows_only_the_players_of_its_matchdays(club, small_pages, make_matchday):
    make_matchday(7, "2025-11-20", {"I": 1, "NEW": 2}, rounds=2)
    make_matchday(8, "2025-11-21", {"R": 1, "NEW": 2}, rounds=2)
    overall = RatingTable.objects.get(slug="overall")
    newest = grid_page(overall)
    assert [p.short_name for p in newest.players] == ["I", "R", "NEW"]
    first, second = newest.rows
    i, r, new = newest.players
    # R's rating before matchday 8 is carried into matchday 7's row; NEW starts at 1500.
    assert first.cells[r.pk] == CLUB_PAGE[-1][PLAYERS.index("R")] and r.pk not in first.notes
    assert new.pk in first.notes and new.pk in second.notes and i.pk not in second.notes


def test_a_page_that_does_not_exist_is_not_found(client, club, small_pages):
    assert client.get("/card-games/", {"overall-page": "9"}).status_code == 404
    assert client.get("/card-games/", {"overall-page": "x"}).status_code == 404
    response = client.get("/card-games/", {"overall-page": "2"})
    assert response.status_code == 200
    html = response.content.decode()
    # "Older" goes on to page 3 and comes back to the table; "Newer" back to page 1.
    assert '<a href="?overall-page=3#overall" rel="next">Older →</a>' in html
    assert '<a href="?overall-page=1#overall" rel="prev">← Newer</a>' in html


def test_standings_pages_keep_ranks_across_pages(club, small_pages):
    overall = RatingTable.objects.get(slug="overall")
    page = Paginator(standings.ranked_standings(overall), 2).page(2)
    rows = standings.standing_rows(overall, page)
    assert [(r.rank, r.player.short_name) for r in rows] == [(3, "K"), (4, "R")]
    assert page.paginator.num_pages == 3


def test_a_players_history_and_head_to_head_come_in_pages(client, club, small_pages):
    r = Player.objects.get(short_name="R")
    html = client.get(f"/card-games/players/{r.pk}/").content.decode()
    listing = html[
        html.index('id="matchdays-heading"') : html.index("</section>", html.index('id="matchdays-heading"'))
    ]
    assert listing.count("<tr>") == 3  # the header and R's two newest matchdays (6, then 5)
    assert listing.index('href="/card-games/matchdays/6/"') < listing.index('href="/card-games/matchdays/5/"')
    assert 'href="/card-games/matchdays/4/"' not in listing and 'href="?matchdays-page=2#matchdays"' in listing
    older = client.get(f"/card-games/players/{r.pk}/", {"matchdays-page": "3"}).content.decode()
    assert 'href="/card-games/matchdays/1/"' in older
    assert older.count('class="point"') == html.count('class="point"') == 12  # the chart shows everything
