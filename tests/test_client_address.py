"""Behind a proxy, the client's address is the one the trusted proxies forwarded (TRUSTED_PROXIES),
for the API's per-address limit and the admin's lockout alike; without proxies, or past what the
proxies added, X-Forwarded-For is a client's own words and never read."""

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory

from tests.conftest import CLUB_SLUG
from tests.test_api_limits import tight  # noqa: F401 - five requests an address, three a token
from web.pages.access import client_address

PROXY = "10.0.0.2"


def address(forwarded: str | None, proxies: int, settings) -> str:
    settings.TRUSTED_PROXIES = proxies
    extra = {"REMOTE_ADDR": PROXY}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **extra))


@pytest.mark.parametrize(
    ("forwarded", "proxies", "expected"),
    [
        ("203.0.113.5", 0, PROXY),  # no proxy trusted: the header is the client's to write
        (None, 1, PROXY),
        ("203.0.113.5", 1, "203.0.113.5"),
        ("1.2.3.4, 203.0.113.5", 1, "203.0.113.5"),  # the left entry is the client's own
        ("1.2.3.4, 203.0.113.5, 10.0.0.1", 2, "203.0.113.5"),
        ("203.0.113.5", 2, "203.0.113.5"),  # came through one of the two
        (" 2001:db8::1 ", 1, "2001:db8::1"),
        ("not-an-address", 1, PROXY),
        ("1.2.3.4, <script>", 1, PROXY),
    ],
)
def test_the_clients_address(settings, forwarded, proxies, expected):
    assert address(forwarded, proxies, settings) == expected


def _tables(client, forwarded):
    return client.get(f"/api/{CLUB_SLUG}/tables/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded).status_code


@pytest.mark.usefixtures("tight")
def test_behind_a_proxy_the_api_counts_each_forwarded_address(client, club, settings):
    settings.TRUSTED_PROXIES = 1
    assert [_tables(client, "203.0.113.5") for _ in range(6)] == [200] * 5 + [429]
    assert _tables(client, "198.51.100.7") == 200  # another client behind the same proxy


@pytest.mark.usefixtures("tight")
def test_without_trusted_proxies_a_forged_header_does_not_escape_the_limit(client, club, settings):
    settings.TRUSTED_PROXIES = 0
    assert [_tables(client, f"203.0.113.{n}") for n in range(6)] == [200] * 5 + [429]


def test_behind_a_proxy_one_clients_failed_logins_do_not_lock_out_another(client, db, settings):
    settings.AXES_ENABLED, settings.AXES_FAILURE_LIMIT, settings.TRUSTED_PROXIES = True, 5, 1
    User.objects.create_superuser("secretary", "", "the-right-password")

    def log_in(password, forwarded):
        data = {"username": "secretary", "password": password}
        return client.post("/admin/login/?next=/admin/", data, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)

    for _ in range(5):
        log_in("wrong", "203.0.113.5")
    assert log_in("the-right-password", "203.0.113.5").status_code == 429
    assert log_in("the-right-password", "198.51.100.7").status_code == 302
