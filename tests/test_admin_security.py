"""The admin's login is throttled, and every edit of matchdays and results stays in the history."""

import pytest
from django.contrib.admin.models import ADDITION, CHANGE, DELETION, LogEntry
from django.contrib.auth.models import User

from league.models import Matchday
from tests.conftest import add_url, change_url, form_data

LOGIN = "/admin/login/?next=/admin/"


@pytest.fixture
def axes(settings):
    """django-axes as in production (the test settings switch it off for client.login())."""
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5


@pytest.fixture
def secretary(db):
    return User.objects.create_superuser("secretary", "", "the-right-password")


def log_in(client, username, password):
    return client.post(LOGIN, {"username": username, "password": password})


def test_the_login_is_blocked_after_five_failures_with_a_message_that_says_so(axes, client, secretary):
    for _ in range(4):
        response = log_in(client, "secretary", "wrong")
        assert response.status_code == 200 and b"Please enter the correct username" in response.content
    response = log_in(client, "secretary", "wrong")
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed logins for “secretary”" in text
    assert "After 5 wrong passwords in a row" in text and "blocked for 15 minutes" in text
    assert "axes_reset_username secretary" in text
    # Blocked even with the right password, and nobody is logged in.
    assert log_in(client, "secretary", "the-right-password").status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_block_is_for_that_user_name_so_another_admin_can_still_log_in(axes, client, secretary):
    User.objects.create_superuser("treasurer", "", "another-password")
    for _ in range(5):
        log_in(client, "secretary", "wrong")
    response = log_in(client, "treasurer", "another-password")
    assert response.status_code == 302 and response.url == "/admin/"


def test_a_successful_login_starts_the_count_again(axes, client, secretary):
    for _ in range(4):
        log_in(client, "secretary", "wrong")
    assert log_in(client, "secretary", "the-right-password").status_code == 302
    client.logout()
    for _ in range(4):
        assert log_in(client, "secretary", "wrong").status_code == 200


def history(matchday):
    return LogEntry.objects.filter(object_id=str(matchday.pk), content_type__model="matchday").order_by("pk")


def test_an_admin_edit_of_a_matchdays_results_is_kept_in_its_history(admin_client, club):
    matchday = Matchday.objects.get(number=6)
    # GL and K swap places (GL was 4th, K 3rd); one round fewer; a note.
    rows = [("I", 1, None), ("R", 2, None), ("GL", 3, None), ("K", 4, None)]
    response = admin_client.post(
        change_url(matchday), form_data(6, "2025-11-15", 4, rows, matchday=matchday, notes="Late start.")
    )
    assert response.status_code == 302
    entry = history(matchday).get()
    assert entry.action_flag == CHANGE and entry.user.username == "admin"
    assert entry.get_change_message() == (
        "Changed Rounds and Notes. "
        "Changed Placing for result “GL 3 at Matchday 6”. "
        "Changed Placing for result “K 4 at Matchday 6”."
    )


def test_adding_and_deleting_a_matchday_are_kept_in_the_history(admin_client, club):
    rows = [("I", 1, None), ("R", 2, None), ("GL", 3, None)]
    admin_client.post(add_url(), form_data(7, "2025-11-20", 3, rows))
    matchday = Matchday.objects.get(number=7)
    admin_client.post(f"/admin/league/matchday/{matchday.pk}/delete/", {"post": "yes"})
    added, deleted = history(matchday)
    assert added.action_flag == ADDITION and added.get_change_message().count("Added result") == 3
    assert deleted.action_flag == DELETION and deleted.object_repr == "Matchday 7"


@pytest.mark.parametrize(
    "unsafe",
    ["https://evil.example/", "//evil.example/admin/", "javascript:alert(1)", "/\\evil.example", "\x00", ""],
)
def test_after_login_an_unsafe_next_lands_on_the_admin_not_on_a_404(client, secretary, unsafe):
    response = client.post("/admin/login/", {"username": "secretary", "password": "the-right-password", "next": unsafe})
    assert response.status_code == 302 and response.url == "/admin/"
    assert client.get(response.url).status_code == 200


def test_after_login_a_safe_next_is_followed(client, secretary, club):
    response = client.post(
        "/admin/login/", {"username": "secretary", "password": "the-right-password", "next": "/admin/league/player/"}
    )
    assert response.status_code == 302 and response.url == "/admin/league/player/"
