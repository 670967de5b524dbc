"""Issue 41, class 5: clubs, tried as a secretary of another club, a visitor and a careless
superuser would. Another club's rows are a 404 (or the login, for a visitor) wherever they are
asked for, and nothing of theirs is shown or changed; a cached page is never another club's; a
club address that differs from another only by case, that is not ASCII, that is one of the site's
own paths or that is too long is refused on its field, by every way a club is made."""

import io
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.urls import reverse
from django_scopes import scope

from league.models import Club, Matchday, Player, Write
from league.models.clubs import RESERVED_SLUGS
from ratings.services.catalogue import save_game
from tests.test_club_admin import CSV, clubs, owned, secretary  # noqa: F401 - the fixture
from web.club_files import ClubFileError, club_file, restore_club
from web.clubs.addresses import forget
from web.importing import import_results

pytestmark = pytest.mark.no_club


@pytest.fixture
def marked(db, request):
    """A player only the south has, by a name no page of the north can hold."""
    made = request.getfixturevalue("clubs")  # tests.test_club_admin's North and South
    with scope(club=made["south"].pk):
        import_results(CSV + b"2,2025-11-04,Hearts,1,Southerner,1,\n2,2025-11-04,Hearts,1,GL,2,\n")
    return made


# -- another club's rows: the admin ---------------------------------------------------------------


def test_a_visitor_is_sent_to_the_login_from_every_admin_page_of_a_clubs_rows(client, marked):
    for name, obj in owned(marked["south"]):
        for url in (
            reverse(f"admin:{name}_changelist"),
            reverse(f"admin:{name}_change", args=[obj.pk]),
            reverse(f"admin:{name}_delete", args=[obj.pk]),
            reverse(f"admin:{name}_history", args=[obj.pk]),
        ):
            response = client.get(url)
            assert response.status_code == 302 and "/admin/login/" in response["Location"], url
        assert client.post(reverse(f"admin:{name}_change", args=[obj.pk]), {}).status_code == 302
    assert "Southerner" not in client.get(reverse("admin:league_matchday_import")).content.decode()


def test_the_lists_searched_filtered_or_sorted_show_nothing_of_another_club(client, marked):
    secretary(client, marked["north"])
    south = marked["south"]
    theirs = [reverse("admin:league_player_change", args=[p.pk]) for p in Player.objects.filter(club=south)]
    url = reverse("admin:league_player_changelist")
    for query in ("?q=Southerner", f"?club__id__exact={south.pk}", f"?club={south.pk}", "?o=1", "?q=S&all="):
        response = client.get(url + query, follow=True)
        assert response.status_code == 200, query
        html = response.content.decode()
        assert not [link for link in theirs if link in html], query
        assert "Southerner</a>" not in html, query


def test_the_autocomplete_and_the_select_boxes_offer_nothing_of_another_club(client, marked):
    secretary(client, marked["north"])
    southerner = Player.objects.get(short_name="Southerner")
    mine = {str(pk) for pk in Player.objects.filter(club=marked["north"]).values_list("pk", flat=True)}
    asked = {"app_label": "league", "model_name": "result", "field_name": "player"}
    for term in ("", "S", "Southerner", "GL"):
        found = client.get("/admin/autocomplete/", {**asked, "term": term}).json()["results"]
        assert {row["id"] for row in found} <= mine and "Southerner" not in str(found), term
    assert {row["id"] for row in client.get("/admin/autocomplete/", asked).json()["results"]} == mine
    for model, field in (("matchday", "game"), ("game", "category"), ("player", "club")):
        response = client.get("/admin/autocomplete/", {"app_label": "league", "model_name": model, "field_name": field})
        assert response.status_code in (403, 404), (model, field)  # no box of it: the same for every club
        assert "Southerner" not in response.content.decode()
    client.logout()
    assert client.get("/admin/autocomplete/", asked).status_code == 302  # a visitor: the login
    secretary(client, marked["north"], name="sec2")
    add = client.get(reverse("admin:league_matchday_add")).content.decode()
    assert f'value="{southerner.pk}"' not in add and "Southerner" not in add
    session = client.get(reverse("admin:league_dealsession_add")).content.decode()
    assert "Southerner" not in session


def test_a_matchday_posted_with_another_clubs_player_or_game_is_refused_and_nothing_is_written(client, marked):
    secretary(client, marked["north"])
    south_game = Matchday.objects.get(club=marked["south"], number=1).game
    southerner = Player.objects.get(short_name="Southerner")
    writes = Write.objects.count()
    data = {
        "number": "9",
        "date": "2025-11-09",
        "game": str(south_game.pk),
        "rounds": "1",
        "results-TOTAL_FORMS": "2",
        "results-INITIAL_FORMS": "0",
        "results-0-player": str(southerner.pk),
        "results-0-placing": "1",
        "results-1-player": str(Player.objects.get(club=marked["north"], short_name="GL").pk),
        "results-1-placing": "2",
    }
    response = client.post(reverse("admin:league_matchday_add"), data)
    assert response.status_code == 200  # the form again, with what is wrong
    assert not Matchday.objects.filter(number=9).exists() and Write.objects.count() == writes


def test_an_upload_naming_another_club_imports_into_the_secretarys_own(client, marked):
    secretary(client, marked["north"])
    url = reverse("admin:league_matchday_import")
    upload = SimpleUploadedFile("r.csv", CSV + b"5,2025-11-10,Hearts,1,GL,1,\n5,2025-11-10,Hearts,1,Southerner,2,\n")
    preview = client.post(url, {"file": upload, "club": str(marked["south"].pk)}).content.decode()
    token = re.search(r'name="confirm" value="([0-9a-f]{64})"', preview).group(1)
    assert client.post(url, {"confirm": token, "club": str(marked["south"].pk)}).status_code == 302
    assert Matchday.objects.get(number=5).club == marked["north"]
    assert not Matchday.objects.filter(club=marked["south"], number=5).exists()
    # "Southerner" of the file is a new north player, not the south's
    assert Player.objects.filter(short_name_key="southerner").count() == 2


def test_another_clubs_downloads_from_a_clubs_pages_hold_only_that_club(client, marked):
    for path in ("/north/standings/?export=csv&table=overall", "/north/players/?export=csv&table=players"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "Southerner" not in response.content.decode(), path
    assert "Southerner" in client.get("/south/standings/?export=csv&table=overall").content.decode()


def test_another_clubs_own_page_in_the_admin_is_a_404_and_a_visitors_is_the_login(client, marked):
    south = marked["south"]
    url = reverse("admin:league_club_change", args=[south.pk])
    response = client.get(url)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    secretary(client, marked["north"])
    assert client.get(url).status_code == 404
    assert client.post(url, {"name": "Taken", "slug": "south"}).status_code == 404
    assert Club.objects.get(pk=south.pk).name == "South"
    listed = client.get(reverse("admin:league_club_changelist")).content.decode()
    assert url not in listed


def test_an_attempts_import_into_one_club_writes_nothing_of_the_other(marked, tmp_path):
    from league.models import Attempt, DealSession
    from web.deals.importing import ATTEMPT_COLUMNS

    south_sessions = sorted(DealSession.objects.filter(game__club=marked["south"]).values_list("pk", "date"))
    rows = "2025-11-05,Klondike,draw-1,1,7,Southerner,yes\n"
    file = tmp_path / "attempts.csv"
    file.write_text(",".join(ATTEMPT_COLUMNS) + "\n" + rows)
    out = io.StringIO()
    call_command("import_attempts", str(file), "--club", "north", stdout=out)
    assert "Imported 1 session with 1 attempts" in out.getvalue()
    (attempt,) = Attempt.objects.filter(session__game__club=marked["north"], session__date="2025-11-05")
    assert attempt.player.club == marked["north"]  # a new north player of the name, not the south's
    assert sorted(DealSession.objects.filter(game__club=marked["south"]).values_list("pk", "date")) == south_sessions
    assert not Attempt.objects.filter(player__club=marked["south"]).exists()
    assert not Attempt.objects.filter(session__game__club=marked["north"], player__club=marked["south"]).exists()


# -- another club's history and its revert ---------------------------------------------------------


def test_another_clubs_history_and_revert_are_a_404_and_revert_nothing(client, marked):
    south_write = Write.objects.filter(club=marked["south"]).order_by("-pk").first()
    # a visitor: the login, and nothing reverted
    for path in ("/south/history/", f"/south/history/{south_write.pk}/revert/"):
        response = client.get(path)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], path
    assert client.post(f"/south/history/{south_write.pk}/revert/", {"action": "revert"}).status_code == 302
    # the north's secretary, at the south's addresses and at the north's with the south's write
    secretary(client, marked["north"])
    paths = ["/south/history/", f"/south/history/{south_write.pk}/revert/", f"/north/history/{south_write.pk}/revert/"]
    for path in paths:
        assert client.get(path).status_code == 404, path
        assert client.post(path, {"action": "revert", "overwrite": "on"}).status_code == 404, path
    north = client.get("/north/history/").content.decode()
    assert f'id="write-{south_write.pk}"' not in north and "Southerner" not in north
    assert Player.objects.filter(short_name="Southerner").exists()
    assert not Write.objects.filter(reverts=south_write).exists()


def test_a_missing_write_is_the_same_404_as_another_clubs(client, marked):
    secretary(client, marked["north"])
    south_write = Write.objects.filter(club=marked["south"]).order_by("-pk").first()
    theirs = client.get(f"/north/history/{south_write.pk}/revert/")
    missing = client.get("/north/history/999999/revert/")
    assert (theirs.status_code, missing.status_code) == (404, 404)
    assert theirs.content.decode().replace(str(south_write.pk), "N") == missing.content.decode().replace("999999", "N")


# -- the page cache ---------------------------------------------------------------------------------


def test_a_cached_page_is_never_served_under_another_clubs_address(client, admin_client, marked):
    """North warms /north/; it moves to /old-north/ and a new club starts at /north/: the new club's
    page is its own, and the moved club's is served at its new address only."""
    north = marked["north"]
    assert "Southerner" not in client.get("/north/players/").content.decode()
    assert "GL" in client.get("/north/players/").content.decode()  # warm, twice: the second is a hit
    north.slug = "old-north"
    north.save()
    Club.objects.create(slug="north", name="New North")
    fresh = client.get("/north/players/")
    assert fresh.status_code == 200 and "GL" not in fresh.content.decode()
    assert "GL" in client.get("/old-north/players/").content.decode()


def test_a_deleted_club_s_cached_pages_are_not_served_to_the_club_started_at_its_address(client, marked):
    client.get("/south/players/")
    assert "Southerner" in client.get("/south/players/").content.decode()
    south_pk = marked["south"].pk
    call_command("delete_club", "south", "--no-input", stdout=io.StringIO())
    assert not Club.objects.filter(pk=south_pk).exists()
    Club.objects.create(slug="south", name="New South")
    assert "Southerner" not in client.get("/south/players/").content.decode()


def test_a_one_clubs_old_address_cached_is_not_served_once_there_are_two(client, db):
    one = Club.objects.create(slug="north", name="North")
    with scope(club=one.pk):
        import_results(CSV + b"1,2025-11-03,Hearts,1,GL,1,\n1,2025-11-03,Hearts,1,K,2,\n")
    assert client.get("/players/").status_code == 301
    client.get("/north/players/")
    Club.objects.create(slug="players", name="Players")  # an address that was an old page's
    assert client.get("/players/").status_code == 200
    assert "GL" not in client.get("/players/").content.decode()


# -- club addresses -----------------------------------------------------------------------------------

CASES = ["North", "NORTH", "ｎｏｒｔｈ", "nörth", "nörth", "ﬁsh", "x" * 1000, "no rth", "north/", "", "ℕorth"]


@pytest.fixture
def north(db):
    return Club.objects.create(slug="north", name="North")


@pytest.mark.parametrize("slug", CASES)
def test_an_address_like_another_clubs_or_no_ascii_slug_is_refused_on_its_field(north, slug):
    with pytest.raises(ValidationError) as refused:
        Club(slug=slug, name="Other").full_clean()
    assert list(refused.value.message_dict) == ["slug"], refused.value.message_dict
    assert Club.objects.count() == 1


def test_an_address_differing_only_by_case_names_the_club_that_has_it(north):
    with pytest.raises(ValidationError) as refused:
        Club(slug="North", name="Other").full_clean()
    assert refused.value.message_dict["slug"] == [
        "/north/ is the address of North already, and addresses are read in any case; choose another."
    ]


def test_the_database_refuses_an_address_differing_only_by_case(north):
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.create(slug="NORTH", name="Other")


@pytest.mark.parametrize("slug", sorted(RESERVED_SLUGS | {"ADMIN", "Static", "Api", "ACCOUNTS"}))
def test_every_address_of_the_site_itself_in_any_case_is_refused(db, slug):
    with pytest.raises(ValidationError) as refused:
        Club(slug=slug, name="Clash").full_clean()
    assert "slug" in refused.value.message_dict


def test_the_reserved_addresses_hold_every_path_the_site_answers_itself():
    """An address the site routes before any club's (web.urls.site_patterns) is reserved."""
    from web.urls import site_patterns

    own = {str(p.pattern).strip("/^$").split("/")[0] for p in site_patterns()} - {"", "(?P<rest>.+)"}
    assert own <= RESERVED_SLUGS


@pytest.mark.parametrize("slug", ["North", "ｎｏｒｔｈ", "x" * 1000, "Admin"])
def test_the_superusers_admin_refuses_it_on_the_field(admin_client, north, slug):
    response = admin_client.post(reverse("admin:league_club_add"), {"name": "Other", "slug": slug})
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert list(errors) == ["slug"], errors
    assert Club.objects.count() == 1


def test_the_superusers_admin_refuses_a_move_to_another_clubs_address_in_another_case(admin_client, north):
    south = Club.objects.create(slug="south", name="South")
    response = admin_client.post(
        reverse("admin:league_club_change", args=[south.pk]), {"name": "South", "slug": "North"}
    )
    assert response.status_code == 200 and "is the address of North already" in response.content.decode()
    assert Club.objects.get(pk=south.pk).slug == "south"


def test_a_club_keeps_its_own_address_in_another_case(admin_client, north):
    response = admin_client.post(
        reverse("admin:league_club_change", args=[north.pk]), {"name": "North", "slug": "North"}
    )
    assert response.status_code == 302 and Club.objects.get(pk=north.pk).slug == "North"


@pytest.mark.parametrize("slug", ["North", "ｎｏｒｔｈ", "x" * 1000, "Admin"])
def test_create_club_refuses_it_and_makes_nothing(north, slug):
    with pytest.raises(CommandError, match="No club was made") as refused:
        call_command("create_club", slug, "Other", "--no-input", stdout=io.StringIO())
    assert Club.objects.count() == 1
    if slug == "North":
        assert "/north/ is the address of North already" in str(refused.value)


@pytest.mark.parametrize("slug", ["North", "ｎｏｒｔｈ", "x" * 1000, "Admin"])
def test_the_demo_and_a_restored_club_file_refuse_it_and_make_nothing(north, slug):
    with pytest.raises(CommandError, match="The demo data was not loaded"):
        call_command("load_demo", "--club", slug, stdout=io.StringIO())
    with scope(club=north.pk):
        save_game(Game_named("Hearts"))
    data = club_file(north).encode()
    with pytest.raises(ClubFileError, match="slug"):
        restore_club(data, slug)
    assert Club.objects.count() == 1


def Game_named(name):  # noqa: N802 - reads as the model it makes
    from league.models import Game

    return Game(name=name, slug=name.lower(), official=True)


def test_a_clubs_address_typed_in_another_case_leads_to_that_club_and_never_another(client, marked):
    # Addresses are unique in any case (the database refuses North beside north), so /North/ is north's.
    for path, page in (("/North/players/", "/north/players/"), ("/SOUTH/players/", "/south/players/")):
        response = client.get(path)
        assert (response.status_code, response["Location"]) == (301, page), path
    Club.objects.filter(slug="south").update(slug="South")  # made with capitals (create_club, the admin)
    forget()
    for path in ("/south/players/", "/SOUTH/players/"):
        response = client.get(path)
        assert (response.status_code, response["Location"]) == (301, "/South/players/"), path
    response = client.get("/ｓｏｕｔｈ/players/")  # another script's letters: no club's address
    assert response.status_code == 404
    assert "Southerner" not in response.content.decode()
