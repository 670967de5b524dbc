"""A site of three clubs whose members go by the same short names: every public page of each club
answers with that club's data only, links only to that club's pages (and the site's own), and the
club's published numbers come out the same beside the other clubs."""

import re
from collections import Counter
from datetime import date
from urllib.parse import urlsplit

import pytest
from django.core.exceptions import ValidationError
from django.urls import resolve
from django_scopes import scope

from league.models import Club, Game, Matchday, Player, Season
from ratings.models import RatingTable
from tests.conftest import CLUB_CSV, CLUB_PAGE, CLUB_SLUG, PLAYERS, csv_bytes, grid_page, section, table_rows
from web.clubs.addresses import urlconf
from web.importing import import_results

HEADER = ["matchday", "date", "game", "rounds", "player", "placing", "rated_placing"]
# What only one club has: the game it alone plays, and its members' marks on the pages.
OWN_GAME = {"north": "Whist", "south": "Skat"}
PER_KIND = 4


def league_of(game: str, order: list[str]) -> bytes:
    """Six matchdays of Hearts and six of the club's own game, the players placed in turn."""
    rows = []
    for number in range(1, 13):
        name = "Hearts" if number <= 6 else game
        day = f"2025-10-{number + 1:02d}"
        turn = order[number % len(order) :] + order[: number % len(order)]
        rows += [[number, day, name, 5, player, place, ""] for place, player in enumerate(turn, start=1)]
    return csv_bytes(HEADER, rows)


@pytest.fixture
def three_clubs(club):
    """The club's November (card-games), and North and South, whose members are GL, I, R, K and J
    too: each league imported into its club."""
    clubs = {CLUB_SLUG: Club.objects.get(slug=CLUB_SLUG)}
    clubs[CLUB_SLUG].name = "November Card Club"  # a name no page has otherwise ("Card Games" is in a method's)
    clubs[CLUB_SLUG].save()
    for slug, order in (("north", ["GL", "I", "R", "K", "J"]), ("south", ["J", "K", "R", "I", "GL"])):
        clubs[slug] = Club.objects.create(slug=slug, name=f"{slug.title()} Card Club")
        with scope(club=clubs[slug].pk):
            import_results(league_of(OWN_GAME[slug], order))
    return clubs


def links(html: str, path: str) -> list[str]:
    found = (href.replace("&amp;", "&") for href in re.findall(r'href="([/?][^"#]*)', html))
    return [path + href if href.startswith("?") else href for href in found]


def crawl(client, club: Club) -> tuple[dict[str, int], dict[str, str], set[str]]:
    """The club's pages reached from its home page, up to PER_KIND of each kind: their answers,
    their HTML and every link they hold."""
    home, addresses = f"/{club.slug}/", urlconf(club.slug, club.pk)
    seen, kinds, answers, pages, every_link = set(), Counter(), {}, {}, set()
    queue = [home, f"{home}standings/", f"{home}players/", f"{home}seasons/", f"{home}methods/", f"{home}odds/"]
    while queue:
        url = queue.pop(0)
        if url in seen or not url.startswith(home) or url.startswith(f"{home}enter/"):
            continue
        seen.add(url)
        kind = resolve(urlsplit(url).path, urlconf=addresses).view_name
        if kinds[kind] >= PER_KIND and "export" not in url:
            continue
        kinds[kind] += 1
        response = client.get(url)
        answers[url] = response.status_code
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            pages[url] = html = response.content.decode()
            found = links(html, urlsplit(url).path)
            every_link.update(found)
            queue.extend(found)
    return answers, pages, every_link


@pytest.mark.parametrize("slug", [CLUB_SLUG, "north", "south"])
def test_every_public_page_of_a_club_shows_only_that_clubs_data(client, three_clubs, slug):
    club = three_clubs[slug]
    answers, pages, every_link = crawl(client, club)
    assert {url: status for url, status in answers.items() if status != 200} == {}
    assert len(pages) > 20
    others = [other for other in three_clubs.values() if other != club]
    for url, html in pages.items():
        for other in others:
            assert f"/{other.slug}/" not in html, f"{url} links to {other.slug}"
            assert other.name not in html, f"{url} names {other.name}"
        for name, game in OWN_GAME.items():
            if name != slug:
                assert game not in html, f"{url} shows {game}, a game of {name}"
    assert {link for link in every_link if not link.startswith((f"/{slug}/", "/admin/", "/static/"))} <= {"/"}


def test_the_same_short_name_is_a_different_player_in_each_club(client, three_clubs):
    gls = Player.objects.filter(short_name="GL")
    assert gls.count() == 3 and len({p.club_id for p in gls}) == 3
    for gl in gls:
        page = client.get(gl.get_absolute_url())
        assert page.status_code == 200
        assert gl.get_absolute_url().startswith(f"/{gl.club.slug}/players/")
    north_gl = gls.get(club=three_clubs["north"])
    south = three_clubs["south"]
    assert client.get(f"/{south.slug}/players/{north_gl.pk}/").status_code == 404  # not south's


def test_a_clubs_matchday_number_and_game_address_are_its_own(client, three_clubs):
    for slug, club in three_clubs.items():
        first = Matchday.objects.get(club=club, number=1)
        page = client.get(f"/{slug}/matchdays/1/").content.decode()
        placed = [r.player.short_name for r in first.results.select_related("player").order_by("placing")]
        shown = list(dict.fromkeys(re.findall(r'data-player="([^"]+)"', page)))
        assert shown[: len(placed)] == placed  # the club's own placings, first to last
        assert client.get(f"/{slug}/games/hearts/").status_code == 200
    assert client.get("/north/games/skat/").status_code == 404
    assert Game.objects.filter(slug="hearts").count() == 3


def test_the_club_page_numbers_are_reproduced_inside_a_club_beside_two_others(three_clubs):
    for slug in ("overall", "hearts"):
        with scope(club=three_clubs[CLUB_SLUG].pk):
            table = RatingTable.objects.get(slug=slug)
            grid = grid_page(table)
            assert [p.short_name for p in grid.players] == PLAYERS
            assert [[row.cells[p.pk] for p in grid.players] for row in grid.rows] == CLUB_PAGE


def test_the_club_list_names_every_club_with_its_latest_matchday(client, three_clubs):
    html = client.get("/").content.decode()
    for club in three_clubs.values():
        assert f'<a href="/{club.slug}/">{club.name}</a>' in html
    assert "13 Oct 2025, Skat" in html and "15 Nov 2025, Hearts" in html
    found = client.get("/", {"q": "north"}).content.decode()
    assert "North Card Club" in found and "South Card Club" not in found


def test_with_several_clubs_an_old_address_is_not_found_and_home_is_the_list(client, three_clubs):
    assert client.get("/standings/").status_code == 404
    response = client.get("/")
    assert response.status_code == 200 and "Clubs" in response.content.decode()


def test_with_one_club_old_addresses_lead_to_its_pages_for_good(client, club):
    for old, new in (("/", "/card-games/"), ("/standings/", "/card-games/standings/"), ("/players/1/?x=1", None)):
        response = client.get(old)
        assert response.status_code == 301
        assert response["Location"] == (new or "/card-games/players/1/?x=1")
    assert client.get("/no-such-page/").status_code == 404


def test_an_address_without_its_last_slash_or_with_a_capital_club_leads_to_the_page(client, three_clubs):
    for asked, page in (
        ("/north", "/north/"),
        ("/north/standings?table=overall", "/north/standings/?table=overall"),
        ("/admin", "/admin/"),
        ("/North/players/", "/north/players/"),
        ("/SOUTH", "/south/"),  # in one redirect
    ):
        response = client.get(asked)
        assert (response.status_code, response["Location"]) == (301, page), asked
    for missing in ("/north/no-such-page", "/nowhere", "/standings", "/NOWHERE/", "/api/nothing", "/api/north/x"):
        assert client.get(missing).status_code == 404, missing
    assert client.post("/north/standings").status_code == 404  # a form's redirect would lose what it sent
    for api in ("/api/clubs", "/api/north/standings"):  # an API answers in JSON, the address it meant
        assert f"did you mean {api}/" in client.get(api).json()["detail"], api
    assert "did you mean" not in client.get("/api/nowhere/standings").json()["detail"]  # no such club


def test_with_one_club_an_old_address_without_its_last_slash_leads_to_the_page(client, club):
    response = client.get("/standings")
    assert (response.status_code, response["Location"]) == (301, "/card-games/standings/")
    assert client.get("/card-games/standings").status_code == 301


def test_a_request_for_no_path_is_refused_not_an_error(client, three_clubs):
    for target in ("*", "x"):
        assert client.generic("OPTIONS", target).status_code in (400, 404), target


def test_the_demo_file_imports_into_a_club_beside_others(three_clubs):
    """The secretary's file, imported into a fourth club, gives the same numbers there."""
    fourth = Club.objects.create(slug="west", name="West Card Club")
    with scope(club=fourth.pk):
        import_results(CLUB_CSV.read_bytes())
        grid = grid_page(RatingTable.objects.get(slug="overall"))
        assert [[row.cells[p.pk] for p in grid.players] for row in grid.rows] == CLUB_PAGE


def test_each_club_has_its_own_settings_and_the_sites_stand_in_while_blank(client, three_clubs, settings):
    north, south = three_clubs["north"], three_clubs["south"]
    north.home_grid_page_size, north.provisional_matchdays = 2, 20  # everyone provisional in North
    north.save()
    settings.LEAGUE_HOME_GRID_PAGE_SIZE = 4
    north_home, south_home = (client.get(f"/{c.slug}/").content.decode() for c in (north, south))
    assert len(table_rows(section(north_home, "overall"))) == 1 + 2  # the header, and two matchdays
    assert len(table_rows(section(south_home, "overall"))) == 1 + 4  # the site's, as South chose nothing
    assert "provisional" in section(north_home, "leaderboard").lower()
    assert "provisional" not in section(south_home, "leaderboard").lower()


def test_a_clubs_settings_outside_their_ranges_are_refused_on_their_fields(three_clubs):
    north = three_clubs["north"]
    north.inactive_days, north.standings_page_size, north.provisional_matchdays = 1_000_000, 0, 5_000
    with pytest.raises(ValidationError) as refused:
        north.full_clean()
    assert refused.value.message_dict == {
        "inactive_days": ["Inactive days must be at most 3,650."],
        "standings_page_size": ["Standings page size must be at least 1."],
        "provisional_matchdays": ["Provisional matchdays must be at most 1,000."],
    }


def test_a_season_before_1900_is_refused_and_a_matchday_of_year_1_breaks_no_page(client, three_clubs):
    north = three_clubs["north"]
    season = Season(club=north, name="Old", slug="old", first_day=date(205, 1, 1), last_day=date(2025, 1, 1))
    with pytest.raises(ValidationError, match="0205-01-01 is before 1900"):
        season.full_clean()
    # Kept by a site from before the dates were checked: counted back from, the window has no start.
    Matchday.objects.filter(club=north).update(date=date(1, 1, 2))
    north.inactive_days = 3_650
    north.save()
    for path in ("/north/", "/north/standings/", "/north/players/", "/north/standings/?as_at=0001-01-02"):
        assert client.get(path).status_code == 200, path


def test_each_club_hides_its_inactive_players_after_its_own_window(client, three_clubs):
    north = three_clubs["north"]
    north.inactive_days = 10  # the site's window is off
    north.save()
    for slug in ("north", "south"):  # GL and I play on, five weeks after the others' last matchday
        with scope(club=three_clubs[slug].pk):
            import_results(
                csv_bytes(
                    HEADER, [[13, "2025-11-20", "Hearts", 5, "GL", 1, ""], [13, "2025-11-20", "Hearts", 5, "I", 2, ""]]
                )
            )
    north_page, south_page = (client.get(f"/{slug}/standings/").content.decode() for slug in ("north", "south"))
    assert "Show everyone" in north_page and "Show everyone" not in south_page
    assert len(table_rows(section(north_page, "overall-heading"))) == 1 + 2  # the header, GL and I
    assert len(table_rows(section(south_page, "overall-heading"))) == 1 + 5
    everyone = client.get("/north/standings/", {"all": "1"}).content.decode()
    assert "Hide players inactive for 10 days" in everyone
    assert len(table_rows(section(everyone, "overall-heading"))) == 1 + 5


def test_a_page_asked_for_with_options_or_trace_is_a_405_naming_get_and_head(client, three_clubs):
    for path in ("/north/", "/north/standings/", "/north/players/", "/north/games/hearts/", "/north/nights/"):
        for method in ("OPTIONS", "TRACE"):
            response = client.generic(method, path)
            assert (response.status_code, response["Allow"]) == (405, "GET, HEAD"), (method, path)
        assert client.head(path).status_code == 200 and client.get(path).status_code == 200
