"""The admin as the club secretary uses it: the league's name, its entries first, links to the
public pages, deletions that say what they recompute and report what moved, dates refused in a
secretary's words, and a CSV upload that previews before it imports."""

import re

from django.contrib.messages import get_messages
from django.urls import reverse

from league.models import Matchday, Player, Result
from ratings.models import RatingEntry, Standing
from tests.conftest import add_url, change_url, form_data

ROWS = [("GL", 1, None), ("I", 2, None), ("J", 3, None)]
CSV_HEADER = b"matchday,date,game,rounds,player,placing,rated_placing,left_early\n"


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_header_names_the_league_and_its_entries_come_before_the_logins(admin_client, settings):
    html = admin_client.get(reverse("admin:index")).content.decode()
    assert f"{settings.LEAGUE_NAME}: administration" in html
    assert "Django administration" not in html
    assert html.index("Matchdays") < html.index("Players") < html.index("Groups") < html.index("Access attempts")


def test_matchdays_and_players_link_to_their_public_pages(admin_client, club):
    matchday = Matchday.objects.get(number=5)
    player = Player.objects.get(short_name="GL")
    for change_page, public in (
        (change_url(matchday), "/card-games/matchdays/5/"),
        (reverse("admin:league_player_change", args=[player.pk]), f"/card-games/players/{player.pk}/"),
    ):
        html = admin_client.get(change_page).content.decode()
        link = re.search(r'<a href="([^"]+)" class="viewsitelink">View on site</a>', html).group(1)
        assert admin_client.get(link)["Location"].endswith(public)


def test_a_date_after_today_is_refused_in_the_admin(admin_client, club):
    response = admin_client.post(add_url(), form_data(7, "2052-11-20", 3, ROWS))
    assert response.status_code == 200
    assert "2052-11-20 is after today; enter the date the matchday was played." in text(response)
    assert not Matchday.objects.filter(number=7).exists()


def test_a_date_in_another_format_gets_the_wanted_format(admin_client, club):
    response = admin_client.post(add_url(), form_data(7, "17.11.2025", 3, ROWS))
    assert "Date &#x27;17.11.2025&#x27; is not a date like 2025-11-03." in text(response)  # as the imports say
    assert "YYYY-MM-DD, e.g. 2025-11-03" in text(admin_client.get(add_url()))  # shown with the field


def test_the_delete_page_says_which_tables_are_recomputed_from_which_matchday(admin_client, club):
    matchday = Matchday.objects.get(number=5)
    page = text(admin_client.get(reverse("admin:league_matchday_delete", args=[matchday.pk])))
    # Matchday 5 counts in the overall table and Hearts'; matchday 6 comes after it in both.
    assert re.search(r"Deleting recomputes .*Overall.* \(1 later matchday rated again\)", page)
    assert "from matchday 5, November" in page


def test_deleting_reports_every_rating_that_moved(admin_client, club):
    matchday = Matchday.objects.get(number=5)
    before = {(s.table.name, s.player.short_name): s.rating for s in Standing.objects.select_related("table", "player")}
    response = admin_client.post(reverse("admin:league_matchday_delete", args=[matchday.pk]), {"post": "yes"})
    assert response.status_code == 302
    message = " ".join(str(m) for m in get_messages(response.wsgi_request))
    assert message.startswith("Deleted; ratings recomputed.")
    after = {(s.table.name, s.player.short_name): s.rating for s in Standing.objects.select_related("table", "player")}
    changed = [key for key in before if before[key] != after.get(key)]
    assert changed  # deleting a matchday in the middle moves later ratings
    for table, player in changed:
        assert f"{table}: {player} " in message
    assert not Matchday.objects.filter(number=5).exists()


def test_the_delete_action_also_says_what_is_recomputed(admin_client, club):
    ids = [str(pk) for pk in Matchday.objects.filter(number__in=[4, 5]).values_list("pk", flat=True)]
    page = text(
        admin_client.post(
            reverse("admin:league_matchday_changelist"), {"action": "delete_selected", "_selected_action": ids}
        )
    )
    assert "Deleting recomputes" in page and "from matchday 4," in page
    assert Matchday.objects.filter(number__in=[4, 5]).count() == 2  # only asked, not done


def test_a_csv_upload_previews_what_it_would_create_then_imports(admin_client, club):
    url = reverse("admin:league_matchday_import")
    assert "Import CSV" in admin_client.get(reverse("admin:league_matchday_changelist")).content.decode()
    lines = (b"7,2025-11-20,Hearts,3,GL,1,,", b"7,2025-11-20,Hearts,3,Newbie,2,,", b"7,2025-11-20,Hearts,3,J,3,,1")
    data = CSV_HEADER + b"\n".join(lines) + b"\n"
    counts = Matchday.objects.count(), Result.objects.count(), RatingEntry.objects.count(), Player.objects.count()
    preview = admin_client.post(url, {"file": _upload(data)})
    page = text(preview)
    assert "Preview: nothing is saved yet" in page
    assert "1 matchday with 3 results; new players Newbie." in page
    assert (Matchday.objects.count(), Result.objects.count(), RatingEntry.objects.count(), Player.objects.count()) == (
        counts
    )
    digest = re.search(r'name="confirm" value="([0-9a-f]{64})"', preview.content.decode()).group(1)
    done = admin_client.post(url, {"confirm": digest})
    assert done.status_code == 302
    assert "Imported: 1 matchday with 3 results; new players Newbie." in " ".join(
        str(m) for m in get_messages(done.wsgi_request)
    )
    matchday = Matchday.objects.get(number=7)
    assert {r.player.short_name: r.display_placing for r in matchday.results.select_related("player")} == {
        "GL": "1",
        "Newbie": "2",
        "J": "3",
    }
    assert RatingEntry.objects.filter(matchday=matchday).exists()


def test_a_bad_upload_lists_its_lines_and_imports_nothing(admin_client, club):
    url = reverse("admin:league_matchday_import")
    data = CSV_HEADER + b"7,2052-11-20,Hearts,3,GL,1,,\n7,2052-11-20,Hearts,3,I,2,,\n8,2025-11-21,Hearts,x,GL,1,,\n"
    page = text(admin_client.post(url, {"file": _upload(data)}))
    assert "Nothing was imported." in page
    assert "Matchday 7 (lines 2-3): 2052-11-20 is after today; enter the date the matchday was played." in page
    assert "Line 4: rounds must be a whole number" in page
    assert not Matchday.objects.filter(number__in=[7, 8]).exists()


def test_an_upload_of_existing_matchdays_is_refused_unless_replacing(admin_client, club):
    url = reverse("admin:league_matchday_import")
    data = CSV_HEADER + b"6,2025-11-15,Hearts,3,GL,1,,\n6,2025-11-15,Hearts,3,I,2,,\n"
    refused = text(admin_client.post(url, {"file": _upload(data)}))
    # the page's own box named, not only the command's flag (it said "use --replace")
    assert "Matchday 6 already exists; to replace its results, tick Replace on the upload page" in refused
    preview = text(admin_client.post(url, {"file": _upload(data), "replace": "on"}))
    assert "1 matchday with 2 results." in preview


def test_a_confirmation_without_its_preview_imports_nothing(admin_client, club):
    response = admin_client.post(reverse("admin:league_matchday_import"), {"confirm": "0" * 64})
    assert response.status_code == 302
    assert "That preview has expired" in " ".join(str(m) for m in get_messages(response.wsgi_request))
    assert Matchday.objects.count() == 6


def _upload(data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("results.csv", data, content_type="text/csv")


# The way to the entry page


def secretary(client, *permissions):
    """`client` logged in as staff holding `permissions` (codenames of the league's models)."""
    from django.contrib.auth.models import Permission, User

    user = User.objects.create_user("sec", password="pw-for-tests", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label="league", codename__in=permissions))
    client.force_login(user)
    return client


ENTER_LINK = '<a href="/card-games/enter/">Enter results</a>'


def test_the_admins_index_links_to_the_entry_page_for_staff_who_may_use_it(client, db):
    html = secretary(client, "add_matchday", "add_result").get(reverse("admin:index")).content.decode()
    assert '<a href="/card-games/enter/"><strong>Enter results</strong></a>' in html


def test_the_admins_index_does_not_link_to_the_entry_page_for_other_staff(client, db):
    html = secretary(client, "add_matchday", "view_player").get(reverse("admin:index")).content.decode()
    assert 'href="/card-games/enter/"' not in html


def test_the_sites_navigation_links_to_the_entry_page_for_staff_who_may_use_it(client, club):
    html = secretary(client, "add_matchday", "add_result").get("/card-games/").content.decode()
    assert ENTER_LINK in html


def test_staff_without_the_permissions_get_no_link(client, club):
    assert ENTER_LINK not in secretary(client, "add_matchday").get("/card-games/standings/").content.decode()


def test_a_visitors_cached_page_never_holds_the_staff_link(client, admin_client, club):
    assert ENTER_LINK in admin_client.get("/card-games/").content.decode()  # staff first: their page is not stored
    first = client.get("/card-games/")
    assert getattr(first, "page_cache", None) != "hit" and ENTER_LINK not in first.content.decode()
    assert "cookie" not in first.get("Vary", "").lower()  # a visitor's page does not read the session
    again = client.get("/card-games/")
    assert again.page_cache == "hit" and ENTER_LINK not in again.content.decode()
    assert ENTER_LINK in admin_client.get("/card-games/").content.decode()  # staff never get the visitor's copy


def test_staffs_copy_of_a_page_has_its_own_etag(client, admin_client, club):
    visitor, staff = client.get("/card-games/standings/")["ETag"], admin_client.get("/card-games/standings/")["ETag"]
    assert visitor != staff
    assert admin_client.get("/card-games/standings/", headers={"If-None-Match": visitor}).status_code == 200
    assert admin_client.get("/card-games/standings/", headers={"If-None-Match": staff}).status_code == 304
