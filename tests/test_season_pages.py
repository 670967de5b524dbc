"""The seasons' pages: the list of seasons, a season's boards, movers, matchdays and grid, the honours
board, the home page's leaders while a season runs and a player's honours. Expected numbers are
worked out here from the rating rows through the ORM and `as_at`, never from the selectors under test."""

import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Matchday, Player, Season
from ratings.models import RatingEntry, RatingTable
from ratings.selectors import as_at, seasons
from ratings.services.recompute import rebuild_all
from tests.conftest import csv_bytes, section, table_rows
from tests.test_mixed_league import crawl
from tools.generate import generate
from web.importing import COLUMNS, import_results

WINTER = ("Winter 2025", "winter-2025", date(2025, 1, 1), date(2025, 3, 31), Season.Start.CARRY_OVER)
SPRING = ("Spring 2025", "spring-2025", date(2025, 4, 1), date(2025, 6, 30), Season.Start.FRESH)
SUMMER = ("Summer 2025", "summer-2025", date(2025, 7, 1), date(2025, 9, 30), Season.Start.CARRY_OVER)


def make_season(name, slug, first_day, last_day, start) -> Season:
    return Season.objects.create(name=name, slug=slug, first_day=first_day, last_day=last_day, start=start)


@pytest.fixture
def three_seasons(db):
    """A generated league of twelve players over the first nine months of 2025, in three seasons:
    carried over, a fresh start, carried over."""
    rows = generate(12, 150, seed=7, start=date(2025, 1, 1), end=date(2025, 9, 30))
    import_results(csv_bytes(COLUMNS, list(rows)))
    found = [make_season(*s) for s in (WINTER, SPRING, SUMMER)]
    rebuild_all()
    return found


def source_of(season: Season, table: RatingTable) -> RatingTable:
    """The table a season's board of `table` reads: its own for a fresh start."""
    return RatingTable.every.get(season=season, parent=table) if season.fresh else table


def expected_rows(season: Season, table: RatingTable) -> dict[str, tuple[float, int, float]]:
    """Short name -> (rating at the end, matchdays, change over the season), from the rating rows."""
    rows = RatingEntry.objects.filter(
        table=source_of(season, table), matchday_date__gte=season.first_day, matchday_date__lte=season.last_day
    ).order_by("matchday_date", "matchday_number")
    found: dict[str, list] = {}
    for row in rows.select_related("player"):
        mine = found.setdefault(row.player.short_name, [row.rating_before, 0, 0.0])
        mine[1] += 1
        mine[2] = row.rating_after
    return {name: (after, played, after - brought) for name, (brought, played, after) in found.items()}


def holders(expected: dict, place: int) -> set[str]:
    """The players in `place` (1, 2, 3), equal ratings sharing one, a shared place taking the next too."""
    ordered = sorted({rating for rating, _, _ in expected.values()}, reverse=True)
    above = 0
    for rating in ordered:
        level = [name for name, (r, _, _) in expected.items() if r == rating]
        if above + 1 == place:
            return set(level)
        above += len(level)
    return set()


def test_the_honours_board_lists_the_right_winners_of_three_seasons(three_seasons, client):
    tables = [t for t in RatingTable.objects.all() if not t.against_deals]
    found = {s.season.pk: s for s in seasons.honours(timezone.localdate())}
    assert set(found) == {s.pk for s in three_seasons}
    for season in three_seasons:
        boards = {board.table.pk: held for board, held in found[season.pk].tables}
        for table in tables:
            expected = expected_rows(season, table)
            if not expected:
                assert table.pk not in boards
                continue
            held = {h.what: {r.player.short_name for r in h.players} for h in boards[table.pk]}
            for place, what in enumerate(seasons.PODIUM, start=1):
                assert held.get(what, set()) == holders(expected, place), (season, table, what)
            most = max(played for _, played, _ in expected.values())
            assert held["Most matchdays"] == {n for n, (_, p, _) in expected.items() if p == most}
            rise = max(change for _, _, change in expected.values())
            assert held.get("Biggest rise", set()) == (
                {n for n, (_, _, c) in expected.items() if c == rise} if rise > 0 else set()
            )
    html = client.get(reverse("league:honours")).content.decode()
    overall = RatingTable.objects.get(scope="overall")
    for season in three_seasons:
        rows = table_rows(section(html, f"honours-{season.slug}-heading"))
        first = next(row for row in rows if row[:2] == ["Overall", "1st"])
        assert set(first[2].split(", ")) == holders(expected_rows(season, overall), 1)


def test_a_fresh_start_season_equals_a_league_of_only_its_matchdays(three_seasons):
    spring = three_seasons[1]
    boards = seasons.boards([spring], timezone.localdate())[spring.pk]
    shown = {b.table.name: {r.player.short_name: (r.rating, r.played, r.change) for r in b.rows} for b in boards}
    assert "Overall" in shown and len(shown) >= 3
    # The same matchdays alone, rated from nothing: the all-time tables then hold the season's numbers.
    Season.objects.all().delete()
    Matchday.objects.exclude(date__gte=spring.first_day, date__lte=spring.last_day).delete()
    rebuild_all()
    for table in RatingTable.objects.all():
        alone = {s.player.short_name: (s.rating, s.played) for s in table.standings.select_related("player")}
        if not alone:
            continue
        assert {name: row[:2] for name, row in shown[table.name].items()} == alone, table.name
        assert all(change == rating - table.start_rating for rating, _, change in shown[table.name].values())


def test_a_carry_over_seasons_numbers_are_the_all_time_ratings_as_at_its_end(three_seasons):
    today = timezone.localdate()
    for season in (three_seasons[0], three_seasons[2]):
        for board in seasons.boards([season], today)[season.pk]:
            assert board.source == board.table  # the club's own table
            at_end = {r.player_id: r.rating for r in as_at.ratings_at(board.table, season.last_day)}
            before = {
                r.player_id: r.rating for r in as_at.ratings_at(board.table, season.first_day - timedelta(days=1))
            }
            played = RatingEntry.objects.filter(
                table=board.table, matchday_date__gte=season.first_day, matchday_date__lte=season.last_day
            )
            assert {r.player.pk for r in board.rows} == set(played.values_list("player_id", flat=True))
            for row in board.rows:
                assert row.rating == at_end[row.player.pk]
                assert row.played == played.filter(player=row.player).count()
                brought = before.get(row.player.pk, board.table.start_rating)  # a newcomer brings the start
                assert row.change == row.rating - brought
            ratings = [r.rating for r in board.rows]
            assert ratings == sorted(ratings, reverse=True) and board.rows[0].rank == 1


def test_a_seasons_page_shows_its_final_standings_movers_matchdays_and_grid(three_seasons, client, settings):
    settings.LEAGUE_GRID_PAGE_SIZE = 10
    summer = three_seasons[2]
    response = client.get(summer.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert "final standings" in html and "Carry over" in html
    overall = RatingTable.objects.get(scope="overall")
    expected = expected_rows(summer, overall)
    standings = table_rows(section(html, "overall-standings-heading"))[1:]
    assert [row[1] for row in standings] == sorted(expected, key=lambda n: (-expected[n][0], n))
    assert all(int(row[4]) == expected[row[1]][1] for row in standings)
    movers = table_rows(section(html, "overall-movers-heading"))[1:]
    rises = sorted((n for n in expected if expected[n][2] > 0), key=lambda n: (-expected[n][2], n))[:3]
    assert [row[0] for row in movers[: len(rises)]] == rises
    within = Matchday.objects.filter(date__gte=summer.first_day, date__lte=summer.last_day)
    assert f"{within.count()} matchdays played" in html
    listed = table_rows(section(html, "matchdays-heading"))[1:]
    assert [int(row[0]) for row in listed] == list(
        within.order_by("-date", "-number").values_list("number", flat=True)[:10]
    )
    # The grid holds the season's matchdays only, and pages through them all.
    numbers = set(within.filter(game__official=True).values_list("number", flat=True))
    grid, page = set(), 1
    while True:
        found = client.get(summer.get_absolute_url(), {"overall-page": page})
        if found.status_code != 200:
            break
        grid |= {
            int(n)
            for n in re.findall(r"/card-games/matchdays/(\d+)/", section(found.content.decode(), "overall-heading"))
        }
        page += 1
    assert grid == numbers


def test_the_list_of_seasons_names_each_overall_winner_once_it_is_over(three_seasons, client):
    coming = make_season("Next year", "next-year", date(2099, 1, 1), date(2099, 12, 31), Season.Start.FRESH)
    html = client.get(reverse("league:seasons")).content.decode()
    rows = table_rows(section(html, "seasons-heading"))[1:]
    assert [row[0] for row in rows] == ["Next year", "Summer 2025", "Spring 2025", "Winter 2025"]
    assert rows[0][4:] == ["to come", "—"]
    overall = RatingTable.objects.get(scope="overall")
    for row, season in zip(rows[1:], reversed(three_seasons), strict=True):
        assert row[4] == "finished" and set(row[5].split(", ")) == holders(expected_rows(season, overall), 1)
    assert "has not started yet" in client.get(coming.get_absolute_url()).content.decode()


def test_a_player_page_lists_their_honours(three_seasons, client):
    overall = RatingTable.objects.get(scope="overall")
    winter = three_seasons[0]
    winner = sorted(holders(expected_rows(winter, overall), 1))[0]
    html = client.get(Player.objects.get(short_name=winner).get_absolute_url()).content.decode()
    honours = section(html, "honours-heading")
    assert f'1st in Overall, <a href="{winter.get_absolute_url()}">Winter 2025</a>' in honours
    loser = min(expected_rows(winter, overall).items(), key=lambda item: item[1][0])[0]
    page = client.get(Player.objects.get(short_name=loser).get_absolute_url()).content.decode()
    assert '1st in Overall, <a href="/card-games/seasons/winter-2025/"' not in page


def test_an_unknown_season_is_a_clear_not_found(three_seasons, client):
    response = client.get("/card-games/seasons/autumn-2025/")
    assert response.status_code == 404 and "There is no season “autumn-2025”" in response.content.decode()
    assert client.get("/card-games/seasons/%20x/").status_code == 404
    assert client.get("/card-games/seasons/winter-2025/", {"matchdays-page": "99"}).status_code == 404


@pytest.fixture
def running(club, make_matchday):
    """The club's November, then two matchdays in a season that runs today."""
    today = timezone.localdate()
    make_matchday(7, (today - timedelta(days=3)).isoformat(), {"I": 1, "NEW": 2, "R": 3})
    make_matchday(8, (today - timedelta(days=2)).isoformat(), {"NEW": 1, "I": 2})
    return today


@pytest.mark.parametrize("start", [Season.Start.FRESH, Season.Start.CARRY_OVER])
def test_while_a_season_runs_the_home_page_shows_its_leaders(running, client, start, django_assert_num_queries):
    make_season("Now", "now", running - timedelta(days=10), running + timedelta(days=10), start)
    rebuild_all()
    queries = 24 if start == Season.Start.FRESH else 23  # the running season; a fresh start's table
    with django_assert_num_queries(queries):
        html = client.get(reverse("league:home")).content.decode()
    leaders = section(html, "leaderboard-heading")
    assert (
        "Leaders: Now" in leaders
        and 'href="/card-games/seasons/now/"' in leaders
        and 'href="/card-games/standings/"' in leaders
    )
    shown = {row[2].split()[0]: int(row[3]) for row in table_rows(leaders)[1:]}
    assert set(shown) == {"I", "NEW", "R"}  # who played in the season: not GL, K or J
    overall = RatingTable.objects.get(scope="overall")
    # A fresh start rates only the season's two matchdays; a carried-over season shows the all-time ratings.
    table = RatingTable.every.get(season__slug="now", parent=overall) if start == Season.Start.FRESH else overall
    ratings = {s.player.short_name: round(s.rating) for s in table.standings.select_related("player")}
    assert shown == {name: ratings[name] for name in shown}
    if start == Season.Start.FRESH:  # not I's all-time rating, which carries the club's November
        assert shown["I"] != round(overall.standings.get(player__short_name="I").rating)


def test_without_a_running_season_the_home_page_keeps_the_all_time_leaders(club, client):
    make_season("Old", "old", date(2020, 1, 1), date(2020, 12, 31), Season.Start.FRESH)
    rebuild_all()
    html = client.get(reverse("league:home")).content.decode()
    assert "Leaders: Old" not in html and ">Leaders<" in html
    best = RatingTable.objects.get(scope="overall").standings.order_by("-rating").first()
    assert table_rows(section(html, "leaderboard-heading"))[1][2].startswith(best.player.short_name)


def test_every_season_page_answers_on_the_mixed_league(mixed_league, client):
    """Seasons over the mixed league: a fresh start, a carried-over one, one running today and one to
    come; every page reached from them answers 200, and solitaire is never a season's table."""
    today = timezone.localdate()
    make_season("Winter", "winter", date(2025, 12, 1), date(2026, 2, 28), Season.Start.FRESH)
    make_season("Spring", "spring", date(2026, 3, 1), date(2026, 5, 31), Season.Start.CARRY_OVER)
    make_season("Now", "now", date(2026, 6, 1), max(today, date(2026, 6, 1)) + timedelta(days=30), Season.Start.FRESH)
    make_season("Later", "later", date(2099, 1, 1), date(2099, 2, 1), Season.Start.CARRY_OVER)
    rebuild_all()
    start = [reverse("league:seasons"), reverse("league:honours"), reverse("league:home")]
    start += [s.get_absolute_url() for s in Season.objects.all()]
    start += [p.get_absolute_url() for p in Player.objects.all()]
    answers, kinds = crawl(client, start)
    assert {url: status for url, status in answers.items() if status != 200} == {}
    for kind in ("league:season?export=csv&table=overall-standings", "league:honours?export=json&table=honours-winter"):
        assert kind in kinds
    for season in Season.objects.all():
        html = client.get(season.get_absolute_url()).content.decode()
        assert 'id="solitaire-standings"' not in html and 'id="solitaire-heading"' not in html
    honours = client.get(reverse("league:honours")).content.decode()
    assert not any(row[0] == "Solitaire" for row in table_rows(honours))


# The list: the seasons, their boards (tables, rows, players) and the names; a season's page: its boards,
# matchdays and, per table, its grid's count, page, rows and players; the honours: the seasons and boards.
@pytest.mark.parametrize(
    ("url", "queries"),
    [
        ("/card-games/seasons/", 9),
        ("/card-games/seasons/summer-2025/", 28),
        ("/card-games/seasons/spring-2025/", 28),
        ("/card-games/honours/", 9),
    ],
)
def test_season_pages_take_a_fixed_number_of_queries(three_seasons, client, django_assert_num_queries, url, queries):
    with django_assert_num_queries(queries):
        assert client.get(url).status_code == 200
    more = [
        [200 + n, day, "Hearts", 2, player, placing, ""]
        for n, day in enumerate(["2025-05-02", "2025-08-02"])
        for placing, player in enumerate(["P00001", "P00002", "NEW"], start=1)
    ]
    import_results(csv_bytes(COLUMNS, more))  # more matchdays and a new player cost no extra query
    with django_assert_num_queries(queries):
        assert client.get(url).status_code == 200
