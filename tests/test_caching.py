"""Pages carry an ETag from the last change (no Last-Modified: docs/cache.md); unchanged pages are answered 304."""

import pytest
from django.urls import reverse

from league.models import Page, Player
from tests.conftest import NO_FORMER_NAMES


@pytest.mark.parametrize(
    "url", ["/card-games/", "/card-games/standings/", "/card-games/games/hearts/", "/card-games/matchdays/1/"]
)
def test_an_unchanged_page_is_answered_not_modified(client, club, url):
    first = client.get(url)
    assert first.status_code == 200
    assert first["ETag"] and not first.has_header("Last-Modified")
    again = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304
    assert again.content == b""


def test_a_new_matchday_changes_the_etag(client, club, make_matchday):
    before = client.get("/card-games/")["ETag"]
    make_matchday(7, "2025-11-20", {"I": 1, "R": 2})
    response = client.get("/card-games/", headers={"If-None-Match": before})
    assert response.status_code == 200
    assert response["ETag"] != before
    assert "November 20" in response.content.decode()


def test_renaming_a_player_in_the_admin_changes_the_etag(admin_client, client, club):
    before = client.get("/card-games/")["ETag"]
    gl = Player.objects.get(short_name="GL")
    admin_client.post(
        reverse("admin:league_player_change", args=[gl.pk]), {"name": "Greg L", "short_name": "GL", **NO_FORMER_NAMES}
    )
    assert client.get("/card-games/", headers={"If-None-Match": before}).status_code == 200


def test_editing_a_page_text_changes_the_etag(admin_client, client, db):
    page = Page.objects.create(slug="laws", title="Laws", body="Old")
    before = client.get("/card-games/pages/laws/")["ETag"]
    admin_client.post(
        reverse("admin:league_page_change", args=[page.pk]),
        {"slug": "laws", "title": "Laws", "body": "New", "position": 0},
    )
    response = client.get("/card-games/pages/laws/", headers={"If-None-Match": before})
    assert response.status_code == 200 and "New" in response.content.decode()
