"""Issue 29, the page cache (classes 1, 2 and 4), each test named for its class:

- class 1, `test_checks_...`: a cached answer is exactly what the view would answer after every check
  Django makes (the Host, refused user agents, redirects, page numbers below 1);
- class 2, `test_ask_again_...`: browsers and proxies are told to ask again, and no conditional request
  after a change is told that its old copy is current;
- class 4, `test_shared_folder_...`: the folder the workers share pages through stops being used as
  soon as it is no longer this user's alone.
"""

import os
import pickle
import re
import zlib

import pytest
from django.utils import timezone
from django.utils.http import http_date

from league import services as league_services
from league.models import Player
from tests import test_page_cache
from web import page_cache
from web.page_cache import shared as shared_pages

backend = test_page_cache.backend
served = test_page_cache.served


# Class 1: the page cache answers before Django's checks.


def test_checks_the_page_cache_stands_after_djangos_checks_of_the_request(settings):
    order = settings.MIDDLEWARE
    cached = order.index("web.page_cache.PageCacheMiddleware")
    assert order.index("django.middleware.security.SecurityMiddleware") < cached
    assert order.index("django.middleware.common.CommonMiddleware") < cached


def test_checks_a_host_not_allowed_gets_the_same_400_on_a_hit_as_on_a_miss(backend, client, club):
    page_cache.clear()
    miss = client.get("/card-games/standings/", HTTP_HOST="evil.example")
    assert miss.status_code == 400
    assert (
        served(client, "/card-games/standings/")[0].status_code == 200 and served(client, "/card-games/standings/")[1]
    )
    hit = client.get("/card-games/standings/", HTTP_HOST="evil.example")
    assert hit.status_code == 400 and hit.content == miss.content
    assert (
        b"/card-games/standings/" in served(client, "/card-games/standings/")[0].content
    )  # the good host still gets its copy


def test_checks_a_refused_user_agent_is_refused_a_cached_page(backend, client, club, settings):
    served(client, "/card-games/")
    assert served(client, "/card-games/")[1]
    settings.DISALLOWED_USER_AGENTS = [re.compile("BadBot")]
    assert client.get("/card-games/", HTTP_USER_AGENT="BadBot/1.0").status_code == 403


def test_checks_prepend_www_redirects_to_a_cached_page(backend, client, club, settings):
    served(client, "/card-games/")
    assert served(client, "/card-games/")[1]
    settings.PREPEND_WWW = True
    response = client.get("/card-games/")
    assert response.status_code == 301 and response["Location"] == "http://www.testserver/card-games/"


def test_checks_the_https_redirect_applies_to_a_cached_page(backend, client, club, settings):
    settings.SECURE_SSL_REDIRECT = True  # read when the client's handler is made, at its first request
    assert client.get("/card-games/", secure=True).status_code == 200
    assert served(client, "/card-games/", secure=True)[1]
    response = client.get("/card-games/")
    assert response.status_code == 301 and response["Location"] == "https://testserver/card-games/"


# "%2B1" is "+1"; "%D9%A1" an Arabic-Indic 1 (Python reads both as 1)
NOT_PAGE_NUMBERS = ["0", "00", "-1", "%2B1", "%200%20", "%D9%A1", "1_0", "1.0", "99999999"]


@pytest.mark.parametrize("number", NOT_PAGE_NUMBERS)
def test_checks_a_page_number_that_is_not_one_is_page_not_found_for_visitors_and_staff(
    backend, client, admin_client, club, settings, number
):
    settings.LEAGUE_HOME_GRID_PAGE_SIZE = 2
    served(client, "/card-games/")
    assert served(client, "/card-games/")[1]  # page 1 is stored: it must not stand in for another
    for who in (client, admin_client, client):
        response, hit = served(who, f"/card-games/?overall-page={number}")
        assert response.status_code == 404 and not hit, (number, response.status_code)
        assert "Page not found" in response.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/card-games/standings/?hearts-page=0",
        "/card-games/players/?players-page=-1",
        "/card-games/players/?q=G&players-page=0",
    ],
)
def test_checks_other_pages_refuse_page_zero_too(backend, client, admin_client, club, url):
    for who in (client, admin_client):
        assert served(who, url)[0].status_code == 404


def test_checks_a_value_outside_a_choice_or_a_download_is_never_served_as_a_stored_page(
    backend, client, admin_client, club
):
    served(client, "/card-games/players/")  # the default order is stored: an unknown one is answered by the view
    for _ in range(2):
        response, hit = served(client, "/card-games/players/?sort=bogus")
        assert response.status_code == 200 and not hit
    for url in ("/card-games/?export=xml&table=overall", "/card-games/?export=csv&table=nowhere"):
        for who in (client, admin_client, client):
            response, hit = served(who, url)
            assert response.status_code == 400 and not hit


@pytest.mark.parametrize(
    ("spaced", "plain"),
    [
        ("/card-games/players/?sort=%20rating%20", "/card-games/players/?sort=rating"),
        ("/card-games/players/?q=G&sort=rating%20", "/card-games/players/?q=G&sort=rating"),
        ("/card-games/?overall-page=%202%20", "/card-games/?overall-page=2"),
    ],
)
def test_checks_a_parameter_with_spaces_is_read_as_without_them_by_visitors_and_staff(
    backend, client, admin_client, club, settings, spaced, plain
):
    settings.LEAGUE_HOME_GRID_PAGE_SIZE = 2
    assert client.get(spaced).content == client.get(plain).content
    assert admin_client.get(spaced).content == admin_client.get(plain).content


def test_checks_a_hit_costs_no_query_but_the_revisions(backend, client, club, django_assert_max_num_queries):
    served(client, "/card-games/standings/")
    with django_assert_max_num_queries(1):  # the token, unless a shared cache holds it
        assert served(client, "/card-games/standings/")[1]


# Class 2: browsers and proxies are not told to ask again.


def test_ask_again_every_public_page_says_so_on_a_miss_a_hit_and_a_304(backend, client, club):
    first, hit = served(client, "/card-games/standings/")
    assert not hit and first["Cache-Control"] == "no-cache, public"
    again, hit = served(client, "/card-games/standings/")
    assert hit and again["Cache-Control"] == "no-cache, public"
    unchanged, hit = served(client, "/card-games/standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert hit and unchanged.status_code == 304 and unchanged["Cache-Control"] == "no-cache, public"
    download = client.get("/card-games/?export=csv&table=overall")
    assert download["Cache-Control"] == "no-cache, public"


def test_ask_again_a_page_shown_with_a_session_is_for_that_browser_only(admin_client, club):
    for url in ("/card-games/", "/card-games/standings/", "/card-games/players/?q=G"):
        response = admin_client.get(url)
        assert response["Cache-Control"] == "no-cache, private", url


def _rename(name: str) -> None:
    player = Player.objects.get(short_name="GL")
    player.name = name
    league_services.save_player(player)


def test_ask_again_two_changes_within_one_second_never_answer_not_modified_with_the_old_page(
    backend, client, club, monkeypatch
):
    second = timezone.now().replace(microsecond=0)
    # Both writes are stamped with the same second, as two saves within one second are.
    monkeypatch.setattr(timezone, "now", lambda: second.replace(microsecond=400_000))
    with backend():
        _rename("Gerda One")
    old, _ = served(client, "/card-games/")
    assert "Gerda One" in old.content.decode()
    seen_at = old.get("Last-Modified", http_date(second.timestamp()))
    with backend():
        _rename("Gerda Two")
    for _ in ("miss", "hit"):
        for asked in ({"HTTP_IF_MODIFIED_SINCE": seen_at}, {"HTTP_IF_NONE_MATCH": old["ETag"]}):
            response = client.get("/card-games/", **asked)
            assert response.status_code == 200, asked
            assert "Gerda Two" in response.content.decode()
    assert getattr(client.get("/card-games/"), "page_cache", None) == "hit"


# Class 4: the shared pages' folder is checked at every use.


@pytest.fixture
def shared(settings, tmp_path):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    root = tmp_path / "pages"
    root.mkdir(mode=0o700)
    settings.PAGE_CACHE_SHARED_DIR = str(root)
    page_cache.clear()
    return root


ran: list[str] = []


def planted_page():
    """What unpickling a planted file runs: anything its author wished (here, noted and a page)."""
    ran.append("planted")
    return page_cache.Stored((("Content-Type", "text/html"),), b"<p>planted</p>")


class Planted:
    def __reduce__(self):
        return planted_page, ()


def plant(path) -> None:
    """A file as FileBasedCache writes one (its expiry, then the pickled value, compressed) whose
    value runs `planted_page` when read."""
    path.write_bytes(pickle.dumps(None) + zlib.compress(pickle.dumps(Planted())))


def _plant(root) -> None:
    """Put a page of another's in place of every page the folder holds."""
    pages = list(root.glob("*.djcache"))
    assert pages
    for page in pages:
        plant(page)


def _served_without_the_folder(client, root) -> None:
    ran.clear()
    page_cache.memory().clear()  # another worker: nothing in its own memory
    before = sorted(p.name for p in root.rglob("*")) if root.is_dir() and not root.is_symlink() else None
    for _ in range(2):
        response = client.get("/card-games/standings/")
        assert response.status_code == 200 and b"planted" not in response.content
        assert b"Standings" in response.content
        page_cache.memory().clear()
    assert ran == [] and not shared_pages.ours(root)
    if before is not None:
        assert sorted(p.name for p in root.rglob("*")) == before  # nothing written there either


def test_shared_folder_that_becomes_writable_by_others_is_no_longer_read(shared, client, club):
    assert client.get("/card-games/standings/").status_code == 200
    _plant(shared)
    shared.chmod(0o777)
    _served_without_the_folder(client, shared)
    shared.chmod(0o700)  # looks right again, but what was put there meanwhile may still be there
    _served_without_the_folder(client, shared)


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_shared_folder_that_changes_owner_is_no_longer_read(shared, client, club):
    assert client.get("/card-games/standings/").status_code == 200
    _plant(shared)
    os.chown(shared, 4242, -1)
    _served_without_the_folder(client, shared)


def test_shared_folder_replaced_by_a_symbolic_link_is_no_longer_read(shared, client, club, tmp_path):
    assert client.get("/card-games/standings/").status_code == 200
    elsewhere = tmp_path / "elsewhere"
    shared.rename(elsewhere)
    _plant(elsewhere)
    shared.symlink_to(elsewhere)
    _served_without_the_folder(client, shared)


def test_shared_folder_pages_in_hand_are_neither_read_nor_written_once_it_opens(shared):
    pages = page_cache.shared_pages()
    with pages.lock("page:a"):
        pages.set("page:a", b"mine")
    assert pages.get("page:a") == b"mine"
    stored = list(shared.glob("*.djcache"))
    shared.chmod(0o757)  # a worker that was handed the folder before it opened
    ran.clear()
    plant(stored[0])
    assert pages.get("page:a") is None and ran == []
    with pages.lock("page:b"):
        pages.set("page:b", b"not stored")
    assert list(shared.glob("*.djcache")) == stored
    pages.clear()
    assert stored[0].exists()  # nor emptied: it may not be ours to empty
