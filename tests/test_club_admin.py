"""Secretaries per club: in the admin a club's secretary sees, picks from and changes only their
clubs' rows, and imports only into them; another club's object is a 404 wherever it is asked for,
as is another club's entry page. A superuser sees every club; a secretary of several picks the club
of what they add."""

import datetime
import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import Permission, User
from django.contrib.contenttypes.models import ContentType
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django_scopes import scope

from league.models import Category, Club, DealSession, Game, Matchday, Page, Player, Season
from league.placings import BY_PLACINGS
from ratings.models import RatingTable
from ratings.services.catalogue import save_category, save_game
from tests.conftest import NO_FORMER_NAMES, form_data
from tests.test_deal_admin import session_form
from web.importing import import_results

pytestmark = pytest.mark.no_club  # a site of two clubs, made here
DAY = datetime.date(2025, 11, 3)
CSV = b"matchday,date,game,rounds,player,placing,rated_placing\n"


@pytest.fixture
def clubs(db):
    """North and South, each with a player GL, a game Hearts (with a matchday), a category, a season,
    a page, rating tables and a solitaire session."""
    made = {}
    for slug in ("north", "south"):
        club = Club.objects.create(slug=slug, name=slug.title())
        with scope(club=club.pk):
            import_results(CSV + b"1,2025-11-03,Hearts,2,GL,1,\n1,2025-11-03,Hearts,2,K,2,\n")
            save_category(Category(name="Trick-taking", slug="trick-taking"))
            save_game(Game(name="Klondike", slug="klondike", against_deals=True))
        Season.objects.create(club=club, name="2025", slug="2025", first_day=DAY, last_day=DAY)
        Page.objects.create(club=club, slug="laws", title="Laws")
        DealSession.objects.create(game=Game.objects.get(club=club, slug="klondike"), date=DAY)
        made[slug] = club
    return made


def secretary(client, *clubs, name="sec"):
    """`client` logged in as staff with every permission on the league's data, secretary of `clubs`."""
    user = User.objects.create_user(name, password="pw-for-tests", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=["league", "ratings"]))
    for club in clubs:
        club.secretaries.add(user)
    client.force_login(user)
    return client


def owned(club):
    """One object of each kind the admin shows, of `club`: (admin name, object)."""
    return [
        ("league_player", Player.objects.get(club=club, short_name="GL")),
        ("league_game", Game.objects.get(club=club, slug="hearts")),
        ("league_category", Category.objects.get(club=club)),
        ("league_matchday", Matchday.objects.get(club=club, number=1)),
        ("league_season", Season.objects.get(club=club)),
        ("league_page", Page.objects.get(club=club)),
        ("ratings_ratingtable", RatingTable.objects.get(club=club, slug="overall")),
        ("league_dealsession", DealSession.objects.get(game__club=club)),
    ]


def test_another_clubs_objects_are_a_404_on_every_admin_page(client, clubs):
    secretary(client, clubs["north"])
    for name, obj in owned(clubs["south"]):
        for page in ("change", "delete", "history"):
            url = reverse(f"admin:{name}_{page}", args=[obj.pk])
            assert client.get(url).status_code == 404, url
        assert client.post(reverse(f"admin:{name}_change", args=[obj.pk]), {}).status_code == 404
    for name, obj in owned(clubs["north"]):  # their own are theirs to change
        assert client.get(reverse(f"admin:{name}_change", args=[obj.pk])).status_code == 200, name
    assert Matchday.objects.filter(club=clubs["south"]).count() == 1


def test_a_missing_object_is_the_same_404_as_another_clubs(client, clubs):
    secretary(client, clubs["north"])
    south = Player.objects.get(club=clubs["south"], short_name="GL")
    missing = client.get(reverse("admin:league_player_change", args=[999_999]))
    other = client.get(reverse("admin:league_player_change", args=[south.pk]))
    assert (missing.status_code, other.status_code) == (404, 404)
    same = other.content.decode().replace(f"/player/{south.pk}/", "/player/N/")
    assert same == missing.content.decode().replace("/player/999999/", "/player/N/")  # word for word


def test_deleting_another_clubs_rows_through_the_list_deletes_nothing(client, clubs):
    secretary(client, clubs["north"])
    south = Player.objects.get(club=clubs["south"], short_name="K")
    data = {"action": "delete_selected", "_selected_action": [str(south.pk)], "post": "yes"}
    client.post(reverse("admin:league_player_changelist"), data)
    assert Player.objects.filter(pk=south.pk).exists()


def test_the_lists_show_only_the_secretarys_club(client, clubs):
    secretary(client, clubs["north"])
    for (name, mine), (_, theirs) in zip(owned(clubs["north"]), owned(clubs["south"]), strict=True):
        html = client.get(reverse(f"admin:{name}_changelist")).content.decode()
        assert reverse(f"admin:{name}_change", args=[mine.pk]) in html, name
        assert reverse(f"admin:{name}_change", args=[theirs.pk]) not in html, name
        assert "column-club" not in html  # one club: the lists look as they always did


def test_the_matchday_form_offers_only_the_clubs_games_and_players(client, clubs):
    secretary(client, clubs["north"])
    html = client.get(reverse("admin:league_matchday_add")).content.decode()
    options = set(re.findall(r'<option value="(\d+)"', html))
    north, south = clubs["north"], clubs["south"]
    assert {str(p.pk) for p in Player.objects.filter(club=north)} <= options
    assert {str(g.pk) for g in Game.objects.filter(club=north, against_deals=False)} <= options
    assert not options & {str(p.pk) for p in Player.objects.filter(club=south)}
    assert not options & {str(g.pk) for g in Game.objects.filter(club=south)}
    assert 'name="club"' not in html  # one club: no club to pick


def test_a_secretary_adds_a_matchday_a_player_and_a_game_to_their_club(client, clubs):
    north = clubs["north"]
    secretary(client, north)
    with scope(club=north.pk):
        data = form_data(2, "2025-11-10", 2, [("GL", 1, None), ("K", 2, None)], game=Game.objects.get(slug="hearts"))
    assert client.post(reverse("admin:league_matchday_add"), data).status_code == 302
    assert Matchday.objects.get(number=2).club == north
    assert client.post(reverse("admin:league_player_add"), {"name": "Zed", "short_name": "Z", **NO_FORMER_NAMES})
    assert Player.objects.get(short_name="Z").club == north
    game = {"name": "Bridge", "slug": "bridge", "official": "on", "scoring": BY_PLACINGS, "category": ""}
    assert client.post(reverse("admin:league_game_add"), game).status_code == 302
    assert Game.objects.get(slug="bridge").club == north


def test_the_upload_imports_into_the_secretarys_club(client, clubs):
    secretary(client, clubs["north"])
    url = reverse("admin:league_matchday_import")
    assert 'name="club"' not in client.get(url).content.decode()
    upload = SimpleUploadedFile("r.csv", CSV + b"2,2025-11-10,Hearts,2,GL,1,\n2,2025-11-10,Hearts,2,New,2,\n")
    preview = client.post(url, {"file": upload}).content.decode()
    token = re.search(r'name="confirm" value="([0-9a-f]{64})"', preview).group(1)
    assert client.post(url, {"confirm": token}).status_code == 302
    matchday = Matchday.objects.get(number=2)
    assert matchday.club == clubs["north"] and Player.objects.get(short_name="New").club == clubs["north"]
    assert {r.player.club_id for r in matchday.results.select_related("player")} == {clubs["north"].pk}
    assert not Matchday.objects.filter(club=clubs["south"], number=2).exists()


def test_another_clubs_entry_page_is_a_404_and_the_navigation_does_not_offer_it(client, clubs):
    secretary(client, clubs["north"])
    assert client.get("/south/enter/").status_code == 404
    assert client.get("/north/enter/").status_code == 200
    assert 'href="/north/enter/"' in client.get("/north/").content.decode()
    assert 'href="/south/enter/"' not in client.get("/south/").content.decode()
    index = client.get(reverse("admin:index")).content.decode()
    assert 'href="/north/enter/"' in index and 'href="/south/enter/"' not in index


def test_a_save_sent_to_another_clubs_entry_page_is_a_404_and_saves_nothing(client, clubs):
    secretary(client, clubs["north"])
    typed = {"date": "2025-11-20", "game": str(Game.objects.get(club=clubs["north"], slug="hearts").pk), "rounds": "3"}
    typed.update({"line-1": "GL", "line-2": "K"})
    html = client.post("/north/enter/", {**typed, "action": "preview"}).content.decode()
    hidden = dict(re.findall(r'name="(token|number)" value="([^"]*)"', html))
    assert "token" in hidden, "north's own preview works"
    matchdays = Matchday.objects.count()
    for data in ({**typed, "action": "preview"}, {**typed, **hidden, "action": "save"}):
        assert client.post("/south/enter/", data).status_code == 404
    assert Matchday.objects.count() == matchdays


def test_the_entry_page_offers_only_its_clubs_games_and_refuses_another_clubs(client, clubs):
    secretary(client, clubs["north"])
    north, south = (set(Game.objects.filter(club=club).values_list("pk", flat=True)) for club in clubs.values())
    html = client.get("/north/enter/").content.decode()
    offered = {int(pk) for pk in re.findall(r'<option value="(\d+)"', html)}
    assert offered and offered <= north and not offered & south
    south_hearts = Game.objects.get(club=clubs["south"], slug="hearts").pk
    typed = {"date": "2025-11-20", "game": str(south_hearts), "rounds": "3", "line-1": "GL", "line-2": "K"}
    matchdays = Matchday.objects.count()
    for extra in ({}, {"editing": "1"}):  # a new matchday, and matchday 1 changed
        response = client.post("/north/enter/", {**typed, **extra, "action": "preview"})
        html = response.content.decode()
        assert response.status_code == 200 and 'name="token"' not in html, extra
        assert "Select a valid choice" in html, extra
    assert Matchday.objects.count() == matchdays
    assert Matchday.objects.get(club=clubs["north"], number=1).game.club == clubs["north"]


def test_another_clubs_rows_asked_for_as_downloads_under_a_clubs_address_are_a_404(client, clubs):
    south_gl = Player.objects.get(club=clubs["south"], short_name="GL")
    north_gl = Player.objects.get(club=clubs["north"], short_name="GL")
    assert client.get(f"/north/players/{north_gl.pk}/?export=csv&table=matchdays").status_code == 200
    for path in (
        f"/north/players/{south_gl.pk}/?export=csv&table=matchdays",
        f"/north/players/{south_gl.pk}/?export=json&table=matchdays",
    ):
        assert client.get(path).status_code == 404, path
    secretary(client, clubs["north"])  # a secretary is no exception
    assert client.get(f"/north/players/{south_gl.pk}/?export=csv&table=matchdays").status_code == 404


def test_a_superuser_sees_both_clubs_and_picks_the_club_of_what_they_add(admin_client, clubs):
    html = admin_client.get(reverse("admin:league_player_changelist")).content.decode()
    for club in clubs.values():
        assert reverse("admin:league_player_change", args=[Player.objects.get(club=club, short_name="GL").pk]) in html
    assert "column-club" in html
    for label in ("North (/north/)", "South (/south/)"):  # in the club column and the club filter
        assert html.count(label) >= 3, label
    filtered = admin_client.get(reverse("admin:league_player_changelist"), {"club__id__exact": clubs["north"].pk})
    assert filtered.status_code == 200 and "South (/south/)</td>" not in filtered.content.decode()
    add = admin_client.get(reverse("admin:league_player_add")).content.decode()
    assert 'name="club"' in add and "North" in add and "South" in add
    data = {"club": str(clubs["south"].pk), "name": "Zed", "short_name": "Z", **NO_FORMER_NAMES}
    assert admin_client.post(reverse("admin:league_player_add"), data).status_code == 302
    assert Player.objects.get(short_name="Z").club == clubs["south"]
    assert admin_client.get("/south/enter/").status_code == 200


def test_a_secretary_of_both_clubs_picks_the_club_and_its_own_rows(client, clubs):
    north, south = clubs["north"], clubs["south"]
    secretary(client, north, south)
    add = client.get(reverse("admin:league_player_add")).content.decode()
    assert 'name="club"' in add
    imports = client.get(reverse("admin:league_matchday_import")).content.decode()
    for html in (add, imports):  # each club with its address: a club's copy may have its name
        assert ">North (/north/)</option>" in html and ">South (/south/)</option>" in html
    taken = {"club": str(south.pk), "name": "Other", "short_name": "gl", **NO_FORMER_NAMES}
    refused = client.post(reverse("admin:league_player_add"), taken).content.decode()
    assert "is the same player as" in refused  # the club's own names are checked on the form
    no_club = {"name": "Zed", "short_name": "Z", **NO_FORMER_NAMES}
    assert "This field is required." in client.post(reverse("admin:league_player_add"), no_club).content.decode()
    assert client.post(reverse("admin:league_player_add"), {**no_club, "club": str(south.pk)}).status_code == 302
    assert Player.objects.get(short_name="Z").club == south

    with scope(club=south.pk):  # south's game, north's players: refused on the form, nothing saved
        data = form_data(2, "2025-11-10", 2, [("GL", 1, None), ("K", 2, None)], game=Game.objects.get(slug="hearts"))
    with scope(club=north.pk):
        players = {str(p.pk) for p in Player.objects.filter(short_name__in=["GL", "K"])}
    data = {**data, "club": str(north.pk), "results-0-player": players.pop(), "results-1-player": players.pop()}
    page = client.post(reverse("admin:league_matchday_add"), data).content.decode()
    assert "Hearts is another club&#x27;s; choose one of North&#x27;s (/north/)." in page
    assert Matchday.objects.filter(number=2).count() == 0

    upload = SimpleUploadedFile("r.csv", CSV + b"2,2025-11-10,Hearts,2,GL,1,\n2,2025-11-10,Hearts,2,K,2,\n")
    url = reverse("admin:league_matchday_import")
    preview = client.post(url, {"file": upload, "club": str(south.pk)}).content.decode()
    assert "into South" in preview
    token = re.search(r'name="confirm" value="([0-9a-f]{64})"', preview).group(1)
    assert client.post(url, {"confirm": token}).status_code == 302
    assert Matchday.objects.get(number=2).club == south


def test_a_secretary_of_no_club_sees_nothing_of_a_site_of_several(client, clubs):
    secretary(client)
    html = client.get(reverse("admin:league_player_changelist")).content.decode()
    assert "0 players" in html
    assert client.get("/north/enter/").status_code == 404


def test_a_secretary_renames_their_club_and_sets_its_own_settings_but_not_its_address(client, clubs):
    north, south = clubs["north"], clubs["south"]
    secretary(client, north)
    listed = client.get(reverse("admin:league_club_changelist")).content.decode()
    assert "North" in listed and "South" not in listed
    assert client.get(reverse("admin:league_club_change", args=[south.pk])).status_code == 404
    assert client.get(reverse("admin:league_club_add")).status_code == 403
    form = client.get(reverse("admin:league_club_change", args=[north.pk])).content.decode()
    assert "The club&#x27;s own settings" in form and 'name="standings_page_size"' in form
    assert 'name="slug"' not in form and 'name="secretaries"' not in form

    data = {"name": "Northern Card Club", "slug": "elsewhere", "standings_page_size": "1", "inactive_days": ""}
    answer = client.post(reverse("admin:league_club_change", args=[north.pk]), data)

    assert answer.status_code == 302, answer.content.decode()[:2000]
    north.refresh_from_db()
    assert (north.name, north.slug, north.standings_page_size, north.inactive_days) == (
        "Northern Card Club",
        "north",
        1,
        None,
    )
    assert client.post(reverse("admin:league_club_change", args=[south.pk]), data).status_code == 404
    page = client.get("/north/standings/").content.decode()
    assert "Northern Card Club" in page and "?overall-page=2" in page  # one player a page, as it chose


def test_only_a_superuser_moves_a_club_and_a_new_address_is_served(client, admin_client, clubs):
    url = reverse("admin:league_club_change", args=[clubs["north"].pk])
    data = {"name": "Northern", "slug": "northern", "secretaries": []}
    assert admin_client.post(url, data).status_code == 302
    assert admin_client.get("/northern/").status_code == 200
    assert admin_client.get("/north/").status_code == 404


def test_a_solitaire_session_takes_only_its_games_clubs_players(client, clubs):
    north, south = clubs["north"], clubs["south"]
    secretary(client, north, south)
    with scope(club=north.pk):
        data = session_form(Game.objects.get(slug="klondike"), "2025-11-10", [("GL", "8x4", 5, 11982, True, True)])
    with scope(club=south.pk):
        data["attempts-0-player"] = str(Player.objects.get(short_name="GL").pk)
    page = client.post(reverse("admin:league_dealsession_add"), data).content.decode()
    assert "GL: another club&#x27;s players; choose this club&#x27;s." in page
    assert DealSession.objects.count() == 2  # the fixture's


def test_view_on_site_redirects_only_to_the_secretarys_clubs_objects(client, clubs):
    secretary(client, clubs["north"])
    for club, expected in ((clubs["north"], 302), (clubs["south"], 404)):
        for _, obj in owned(club):
            if not hasattr(obj, "get_absolute_url"):
                continue
            kind = ContentType.objects.get_for_model(obj)
            response = client.get(reverse("admin:view_on_site", args=[kind.pk, obj.pk]))
            assert response.status_code == expected, (club.slug, obj)
            if expected == 302:
                assert urlsplit(response["Location"]).path.startswith(f"/{club.slug}/"), obj
    for bad in ((999_999, 1), (ContentType.objects.get_for_model(Player).pk, "x")):
        assert client.get(reverse("admin:view_on_site", args=bad)).status_code == 404
    User.objects.create_user("staff", password="pw-for-tests", is_staff=True)  # staff, no club's secretary
    client.login(username="staff", password="pw-for-tests")
    player = ContentType.objects.get_for_model(Player).pk
    assert client.get(reverse("admin:view_on_site", args=[player, owned(clubs["north"])[0][1].pk])).status_code == 404


def test_a_token_another_clubs_save_took_says_nothing_of_what_it_saved(client, clubs):
    """A secretary of both clubs saves a preview in South; its token sent to North's entry page and
    to the admin's uploads (by a secretary of North only) saves nothing and tells nothing of it."""
    both = secretary(client, clubs["north"], clubs["south"], name="both")
    hearts = Game.objects.get(club=clubs["south"], slug="hearts")
    typed = {"date": "2025-11-20", "game": str(hearts.pk), "rounds": "3", "line-1": "GL", "line-2": "K"}
    html = both.post("/south/enter/", {**typed, "action": "preview"}).content.decode()
    hidden = dict(re.findall(r'name="(token|number)" value="([^"]*)"', html))
    assert both.post("/south/enter/", {**typed, **hidden, "action": "save"}).status_code == 302
    upload = SimpleUploadedFile("r.csv", CSV + b"3,2025-11-21,Hearts,2,GL,1,\n3,2025-11-21,Hearts,2,SouthOnly,2,\n")
    url = reverse("admin:league_matchday_import")
    preview = both.post(url, {"file": upload, "club": clubs["south"].pk}).content.decode()
    confirm = re.search(r'name="confirm" value="([0-9a-f]{64})"', preview).group(1)
    assert both.post(url, {"confirm": confirm}).status_code == 302
    assert Matchday.objects.filter(club=clubs["south"], number=3).exists()
    both.logout()
    north = secretary(client, clubs["north"])
    matchdays = Matchday.objects.count()
    north_game = Game.objects.get(club=clubs["north"], slug="hearts").pk
    again = north.post("/north/enter/", {**typed, **hidden, "game": north_game, "action": "save"}).content.decode()
    assert "/south/" not in again and "already saved" not in again
    for path in (url, reverse("admin:league_matchday_import_bgstats")):
        answer = north.post(path, {"confirm": confirm}, follow=True).content.decode()
        assert "SouthOnly" not in answer and "1 matchday" not in answer
    assert Matchday.objects.count() == matchdays


@pytest.mark.parametrize("model", ["league_matchday", "league_dealsession"])
@pytest.mark.parametrize("query", ["date__year=99999999999", "date__year=2025&date__month=99999999999999999999"])
def test_a_dated_lists_overflowing_date_link_is_the_invalid_filter_redirect(client, clubs, model, query):
    secretary(client, clubs["north"])
    url = reverse(f"admin:{model}_changelist")
    response = client.get(f"{url}?{query}")
    assert (response.status_code, response["Location"]) == (302, f"{url}?e=1")  # the sessions' list: a 500


def test_a_secretary_deletes_a_game_nobody_played_with_its_table(client, clubs):
    north, south = clubs["north"], clubs["south"]
    secretary(client, north)
    for club in (north, south):
        with scope(club=club.pk):
            save_game(Game(name="Bridge", slug="bridge"))
            save_game(Game(name="Skat", slug="skat"))
    bridge, skat = (Game.objects.get(club=north, slug=slug) for slug in ("bridge", "skat"))
    page = client.get(reverse("admin:league_game_delete", args=[bridge.pk])).content.decode()
    assert "Are you sure" in page and "permission" not in page  # was: no permission for its rating table
    assert client.post(reverse("admin:league_game_delete", args=[bridge.pk]), {"post": "yes"}).status_code == 302
    action = {"action": "delete_selected", "_selected_action": [str(skat.pk)], "post": "yes"}
    assert client.post(reverse("admin:league_game_changelist"), action).status_code == 302
    assert not Game.objects.filter(club=north, slug__in=["bridge", "skat"]).exists()
    assert not RatingTable.objects.filter(club=north, slug__in=["bridge", "skat"]).exists()
    assert RatingTable.objects.filter(club=south, slug__in=["bridge", "skat"]).count() == 2
    hearts = Game.objects.get(club=north, slug="hearts")  # played: its matchday protects it, named
    page = client.get(reverse("admin:league_game_delete", args=[hearts.pk])).content.decode()
    assert "Cannot delete game" in page and "Matchday 1" in page


def test_a_form_opened_before_another_save_is_refused_saying_so(client, clubs):
    """Every save writes the rows afresh: a second save of a page opened before it (Back, another tab)
    named rows that were gone, and the page said only "Please correct the errors below"."""
    north = clubs["north"]
    secretary(client, north)
    with scope(club=north.pk):
        matchday = Matchday.objects.get(number=1)
        opened = form_data(1, "2025-11-03", 2, [("GL", 1, None), ("K", 2, None)], matchday=matchday)
        klondike, session = Game.objects.get(slug="klondike"), DealSession.objects.get()
        rows = [("GL", "8x4", 5, 1, True, True), ("K", "8x4", 5, 1, False, True)]
    url = reverse("admin:league_matchday_change", args=[matchday.pk])
    assert client.post(url, {**opened, "notes": "first"}).status_code == 302
    again = client.post(url, {**opened, "results-0-placing": "2", "results-1-placing": "1"})
    assert "This matchday&#x27;s results were saved again after this page was opened" in again.content.decode()
    assert list(matchday.results.order_by("placing").values_list("player__short_name", flat=True)) == ["GL", "K"]
    url = reverse("admin:league_dealsession_change", args=[session.pk])
    with scope(club=north.pk):
        opened = session_form(klondike, "2025-11-03", rows, session=session)
    assert client.post(url, opened).status_code == 302
    with scope(club=north.pk):
        opened = session_form(klondike, "2025-11-03", rows, session=session)
    assert client.post(url, opened).status_code == 302
    again = client.post(url, {**opened, "attempts-0-won": ""})
    assert "This session&#x27;s attempts were saved again after this page was opened" in again.content.decode()
    assert session.attempts.get(position=1).won
