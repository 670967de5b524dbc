"""The API's tokens: kept as a digest only, compared in constant time, shown once (the command, the
admin), good for their user's clubs only (another club's data is a 404 for a token as for a
visitor), stopped at once when revoked; and two clubs side by side each read and written apart."""

import hashlib
import io
import logging

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django_scopes import scope

from league.models import ApiToken, Club, Matchday, Player, Write
from tests.api_client import NIGHT, post, secretary_token
from tests.conftest import CLUB_SLUG
from tests.test_club_pages import league_of
from web.api import tokens
from web.importing import import_results


@pytest.fixture
def north(club):
    """The club's November beside North, whose members are GL, I, R, K and J too."""
    north = Club.objects.create(slug="north", name="North Card Club")
    with scope(club=north.pk):
        import_results(league_of("Whist", ["GL", "I", "R", "K", "J"]))
    return north


def test_only_the_tokens_digest_is_kept(club):
    user, token = secretary_token()
    row = ApiToken.objects.get(user=user)
    assert row.key_hash == hashlib.sha256(token.encode()).hexdigest()
    kept = " ".join(str(v) for v in ApiToken.objects.values_list().get())
    assert token not in kept and token[3:] not in kept
    assert len(token) > 40 and token.startswith("lg_")


def test_a_token_is_compared_in_constant_time(club, monkeypatch):
    _, token = secretary_token()
    compared = []

    def compare(a, b):
        compared.append((a, b))
        return a == b

    monkeypatch.setattr(tokens, "constant_time_compare", compare)
    assert tokens.found(token) is not None
    assert compared == [(hashlib.sha256(token.encode()).hexdigest(),) * 2]
    assert tokens.found(token + "x") is None and tokens.found("x" * 500) is None and tokens.found("") is None


def test_without_a_token_or_with_a_wrong_one_nothing_is_saved(client, club):
    secretary_token()
    assert post(client, NIGHT).status_code == 401
    assert post(client, NIGHT, "lg_not-a-token").status_code == 401
    response = client.post(
        f"/api/{CLUB_SLUG}/matchdays/", NIGHT, content_type="application/json", headers={"Authorization": "Basic x"}
    )
    assert response.status_code == 401
    assert Matchday.objects.count() == 6 and not Write.objects.filter(way=Write.Way.API).exists()


def test_a_revoked_token_stops_at_once(client, club, caplog):
    _, token = secretary_token()
    assert post(client, NIGHT, token).status_code == 201
    out = io.StringIO()
    call_command("api_token", "sec", "--revoke", stdout=out)
    assert "Revoked 1 token" in out.getvalue()
    with caplog.at_level(logging.DEBUG):
        refused = post(client, {**NIGHT, "date": "2025-11-21"}, token)
    assert refused.status_code == 401 and Matchday.objects.count() == 7
    assert token not in caplog.text  # nor in what is logged of the refusal


def test_a_token_of_an_inactive_or_former_staff_user_stops(client, club):
    user, token = secretary_token()
    user.is_staff = False
    user.save()
    assert post(client, NIGHT, token).status_code == 401
    user.is_staff, user.is_active = True, False
    user.save()
    assert post(client, NIGHT, token).status_code == 401 and Matchday.objects.count() == 6


def test_a_secretary_without_the_entry_permissions_is_refused(client, club):
    user, token = secretary_token()
    user.groups.remove(Group.objects.get(name="Club secretaries"))
    response = post(client, NIGHT, token)
    assert response.status_code == 403 and "may not enter results" in response.json()["detail"]


def test_another_clubs_token_is_a_404_and_saves_nothing_in_either(client, north):
    _, token = secretary_token(north, "north-sec")
    response = post(client, NIGHT, token)  # to the one club: not theirs
    assert response.status_code == 404
    with scope(club=north.pk):
        assert Matchday.objects.count() == 12
    assert Matchday.objects.filter(club__slug=CLUB_SLUG).count() == 6
    # Their own club's: saved there, under North's numbers and players.
    saved = post(client, {**NIGHT, "game": "whist"}, token, slug="north")
    assert saved.status_code == 201 and saved.json()["number"] == 13
    with scope(club=north.pk):
        assert Matchday.objects.get(number=13).game.name == "Whist"
    assert not Matchday.objects.filter(club__slug=CLUB_SLUG, number=7).exists()


def test_a_superusers_token_works_for_every_club(client, north):
    admin = User.objects.create_superuser("boss", password="x")  # noqa: S106
    _, token = ApiToken.issue(admin)
    assert post(client, NIGHT, token).status_code == 201
    assert post(client, {**NIGHT, "game": "whist"}, token, slug="north").status_code == 201


def test_two_clubs_reads_are_their_own_and_another_clubs_rows_are_404(client, north):
    club_games = {g["slug"] for g in client.get(f"/api/{CLUB_SLUG}/games/").json()}
    north_games = {g["slug"] for g in client.get("/api/north/games/").json()}
    assert "whist" in north_games and "whist" not in club_games
    assert client.get("/api/north/matchdays/").json()["count"] == 12
    assert client.get(f"/api/{CLUB_SLUG}/matchdays/").json()["count"] == 6
    theirs = Player.objects.filter(club__slug=CLUB_SLUG).first()
    assert client.get(f"/api/{CLUB_SLUG}/players/{theirs.pk}/").status_code == 200
    assert client.get(f"/api/north/players/{theirs.pk}/").status_code == 404
    north_standings = client.get("/api/north/standings/?all=1").json()
    north_ids = set(Player.objects.filter(club=north).values_list("pk", flat=True))
    assert {r["player_id"] for t in north_standings["tables"] for r in t["rows"]} <= north_ids
    # A cached read of one club is never the other's answer.
    assert client.get("/api/north/tables/").content != client.get(f"/api/{CLUB_SLUG}/tables/").content
    assert {c["slug"] for c in client.get("/api/clubs/").json()} == {CLUB_SLUG, "north"}


def test_the_command_prints_a_new_token_once_and_keeps_its_digest(client, club):
    user = User.objects.create_user("sec", password="x")  # noqa: S106
    Club.objects.get(slug=CLUB_SLUG).secretaries.add(user)
    user.is_staff = True
    user.save()
    from web.clubs.secretaries import secretaries_group

    user.groups.add(secretaries_group())
    out, err = io.StringIO(), io.StringIO()
    call_command("api_token", "sec", "--name", "bot", stdout=out, stderr=err)
    token = out.getvalue().strip()
    assert "not shown again" in err.getvalue() and token not in err.getvalue()
    assert ApiToken.objects.get(user=user).key_hash == hashlib.sha256(token.encode()).hexdigest()
    assert post(client, NIGHT, token).status_code == 201


def test_the_command_refuses_a_user_who_keeps_no_club(db):
    User.objects.create_user("visitor", password="x")  # noqa: S106
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="keeps no club"):
        call_command("api_token", "visitor", stdout=io.StringIO(), stderr=io.StringIO())
    with pytest.raises(CommandError, match="no user"):
        call_command("api_token", "nobody", stdout=io.StringIO())
    assert not ApiToken.objects.exists()


def test_the_admin_shows_a_new_token_once_and_revokes_it(admin_client, client, club):
    secretary = User.objects.create_user("sec", password="x", is_staff=True)  # noqa: S106
    response = admin_client.post("/admin/league/apitoken/add/", {"user": secretary.pk, "name": "bot"})
    assert response.status_code == 200 and "shown this once" in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    row = ApiToken.objects.get(user=secretary)
    token = response.context["token"]
    assert row.key_hash == hashlib.sha256(token.encode()).hexdigest()
    for page in ("/admin/league/apitoken/", f"/admin/league/apitoken/{row.pk}/change/"):
        assert token not in admin_client.get(page).content.decode()
    admin_client.post("/admin/league/apitoken/", {"action": "revoke", "_selected_action": [row.pk]})
    row.refresh_from_db()
    assert row.revoked is not None and tokens.found(token) is None
    # Revoked for good: the change page cannot clear it, and only staff are offered a token.
    admin_client.post(f"/admin/league/apitoken/{row.pk}/change/", {"name": "bot", "revoked_0": "", "revoked_1": ""})
    row.refresh_from_db()
    assert row.revoked is not None
    visitor = User.objects.create_user("visitor", password="x")  # noqa: S106
    refused = admin_client.post("/admin/league/apitoken/add/", {"user": visitor.pk, "name": "x"})
    assert refused.status_code == 200 and not ApiToken.objects.filter(user=visitor).exists()


def test_a_secretary_sees_and_makes_only_their_own_tokens_in_the_admin(client, club):
    user, _ = secretary_token()
    other, _ = secretary_token(username="other")
    client.force_login(user)
    listed = client.get("/admin/league/apitoken/")
    assert listed.status_code == 200 and "other" not in listed.content.decode()
    theirs = ApiToken.objects.get(user=other)
    assert client.get(f"/admin/league/apitoken/{theirs.pk}/change/").status_code == 404
    made = client.post("/admin/league/apitoken/add/", {"user": other.pk, "name": "mine"})
    assert made.status_code == 200 and ApiToken.objects.filter(user=user).count() == 2


def test_an_error_report_of_a_request_hides_its_token(rf, club):
    from django.views.debug import SafeExceptionReporterFilter

    _, token = secretary_token()
    request = rf.post(
        "/api/card-games/matchdays/", "{}", content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    meta = SafeExceptionReporterFilter().get_safe_request_meta(request)
    assert token not in str(meta) and meta["HTTP_AUTHORIZATION"].startswith("*")
