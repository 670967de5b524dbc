"""Large leagues: paged grids of the best players, paged standings, and standings kept by the engine
equal to a fresh computation after every kind of edit."""

import pytest

from league.models import Game, Matchday, Result
from ratings import selectors, services
from ratings.models import RatingEntry, RatingTable, Standing

from .test_club_tables import CLUB_PAGE, PLAYERS


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
    services.recompute_all()
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
    second = Matchday.objects.get(number=2)
    Result.objects.filter(matchday=second, player__short_name="J").update(placing=4)
    Result.objects.filter(matchday=second, player__short_name="R").update(placing=1)
    services.recompute_for_matchday(second)
    assert_same_as_full_recompute()

    fifth = Matchday.objects.get(number=5)  # J's last matchday: J's standing must fall back
    position, game = fifth.position, fifth.game
    fifth.delete()
    services.recompute_from(position, [game])
    assert Standing.objects.get(table__slug="overall", player__short_name="J").matchday_number == 4
    assert_same_as_full_recompute()

    sixth = Matchday.objects.get(number=6)
    old = Matchday.objects.get(pk=sixth.pk)
    sixth.date = sixth.date.replace(day=1)  # now the first matchday of all
    sixth.save()
    services.recompute_for_matchday(sixth, old=old)
    assert_same_as_full_recompute()

    spades = Game.objects.create(name="Spades", slug="spades")
    third = Matchday.objects.select_related("game").get(number=3)
    old = Matchday.objects.select_related("game").get(pk=third.pk)
    third.game = spades
    third.save()
    services.recompute_for_matchday(third, old=old)
    assert_same_as_full_recompute()


def test_an_edit_rewrites_only_the_rows_of_its_matchday_and_later_in_its_tables(club, make_matchday):
    spades = Game.objects.create(name="Spades", slug="spades")
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2}, game=spades)
    fourth = Matchday.objects.get(number=4)
    before = dict(RatingEntry.objects.values_list("pk", "matchday__number"))
    Result.objects.filter(matchday=fourth, player__short_name="J").update(placing=2)
    Result.objects.filter(matchday=fourth, player__short_name="R").update(placing=1)
    services.recompute_for_matchday(fourth)
    after = dict(RatingEntry.objects.values_list("pk", "matchday__number"))
    rewritten = {number for pk, number in before.items() if pk not in after}
    assert rewritten == {4, 5, 6, 7}  # overall: 4..7; hearts: 4..6
    kept_spades = RatingEntry.objects.filter(table__slug="spades").values_list("pk", flat=True)
    assert set(kept_spades) <= set(before)  # the Spades table was not touched


@pytest.fixture
def small_pages(settings):
    settings.LEAGUE_GRID_PAGE_SIZE = 2
    settings.LEAGUE_STANDINGS_PAGE_SIZE = 2
    settings.LEAGUE_GRID_PLAYERS = 3


def test_grid_pages_run_newest_first_and_carry_each_players_rating(club, small_pages):
    overall = RatingTable.objects.get(slug="overall")
    pages = [selectors.rating_grid(overall, number) for number in (1, 2, 3)]
    assert [[row.matchday.number for row in grid.rows] for grid in pages] == [[5, 6], [3, 4], [1, 2]]
    columns = [p.short_name for p in pages[0].players]
    assert columns == ["I", "K", "J"]  # the 3 best now (J 1534, I 1521, K 1494) in the order they joined
    full = dict(zip(range(1, 7), CLUB_PAGE, strict=True))
    for grid in pages:
        for row in grid.rows:
            expected = [full[row.matchday.number][PLAYERS.index(name)] for name in columns]
            assert [row.cells[p.pk] for p in grid.players] == expected


def test_a_page_that_does_not_exist_is_not_found(client, club, small_pages):
    assert client.get("/", {"overall-page": "9"}).status_code == 404
    assert client.get("/", {"overall-page": "x"}).status_code == 404
    response = client.get("/", {"overall-page": "2"})
    assert response.status_code == 200
    assert 'href="?overall-page=3"' in response.content.decode()


def test_standings_pages_keep_ranks_across_pages(club, small_pages):
    overall = RatingTable.objects.get(slug="overall")
    rows, page = selectors.standings_page(overall, 2)
    assert [(r.rank, r.player.short_name) for r in rows] == [(3, "K"), (4, "R")]
    assert page.paginator.num_pages == 3


def test_a_players_history_and_head_to_head_come_in_pages(client, club, small_pages):
    from league.models import Player

    r = Player.objects.get(short_name="R")
    html = client.get(f"/players/{r.pk}/").content.decode()
    overall = html[html.index('id="overall-heading"') : html.index("</section>", html.index('id="overall-heading"'))]
    assert overall.count("<tr>") == 3  # the header and R's two newest matchdays (5 and 6)
    assert 'href="/matchdays/6/"' in overall and 'href="/matchdays/4/"' not in overall
    assert 'href="?overall-page=2"' in overall
    older = client.get(f"/players/{r.pk}/", {"overall-page": "3"}).content.decode()
    assert 'href="/matchdays/1/"' in older
    assert older.count('class="point"') == html.count('class="point"') == 12  # the chart shows everything
