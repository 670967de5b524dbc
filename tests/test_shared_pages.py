"""Pages one worker renders are shared with the other workers of the machine through a folder, and
one worker renders a page while the others wait for it (web/page_cache/shared.py). Another worker is
played here by emptying this process's own memory: what is left is what the folder holds."""

import runpy
import threading
import time
from pathlib import Path

import pytest
from django.core.cache.backends.filebased import FileBasedCache

from league import services as league_services
from league.models import Player
from tests.test_page_cache_checks import plant, ran
from web import page_cache
from web.page_cache import shared as shared_pages
from web.page_cache.shared import SharedPages

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def shared(settings, tmp_path):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.PAGE_CACHE_SHARED_DIR = str(tmp_path / "pages")
    page_cache.clear()
    return tmp_path / "pages"


def another_worker() -> None:
    page_cache.memory().clear()


def pages_in(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.djcache"))


def test_a_page_rendered_by_one_worker_is_served_to_another_without_rendering(shared, client, club):
    first = client.get("/card-games/standings/")
    assert first.status_code == 200 and getattr(first, "page_cache", None) is None
    another_worker()
    again = client.get("/card-games/standings/")
    assert again.page_cache == "hit" and again.content == first.content
    assert again["Content-Type"] == first["Content-Type"] and again["ETag"] == first["ETag"]


def test_a_write_makes_the_shared_pages_unreachable(shared, client, club):
    client.get("/card-games/")
    player = Player.objects.get(name="GL")
    player.name = "Gabriel L."
    league_services.save_player(player)
    another_worker()
    page = client.get("/card-games/")
    assert getattr(page, "page_cache", None) is None and "Gabriel L." in page.content.decode()


def test_staff_never_get_a_shared_page(shared, client, club, admin_user):
    client.get("/card-games/")
    another_worker()
    client.force_login(admin_user)
    page = client.get("/card-games/")
    assert getattr(page, "page_cache", None) is None


def test_clearing_forgets_the_shared_pages_too(shared, client, club):
    client.get("/card-games/")
    assert pages_in(shared)
    page_cache.clear()
    assert pages_in(shared) == []
    assert getattr(client.get("/card-games/"), "page_cache", None) is None


def test_the_folder_keeps_at_most_its_number_of_pages_however_many_writes(shared, client, club, settings):
    settings.PAGE_CACHE_SHARED_ENTRIES = 6
    for name in ("Gabriel L.", "Gerda L.", "Greta L.", "Gus L.", "Gil L."):
        player = Player.objects.get(short_name="GL")
        player.name = name
        league_services.save_player(player)
        assert name in client.get("/card-games/").content.decode()
        assert client.get("/card-games/standings/").status_code == 200
    assert len(pages_in(shared)) <= 6  # older revisions' pages go first... or at random, but they go
    assert len(list(shared.glob("*.lock"))) <= shared_pages.LOCKS


def test_a_damaged_page_file_is_a_miss_not_an_error(shared, client, club):
    first = client.get("/card-games/standings/")
    (page,) = pages_in(shared)
    page.write_bytes(page.read_bytes()[:-30])
    another_worker()
    again = client.get("/card-games/standings/")
    assert again.status_code == 200 and getattr(again, "page_cache", None) is None
    assert again.content == first.content


def test_djangos_file_cache_alone_would_run_a_file_put_in_its_folder(tmp_path):
    """Why the folder is checked (docs/cache.md): FileBasedCache unpickles whatever its folder holds,
    so a file another user could put there is code run in the worker."""
    folder = tmp_path / "open-to-all"
    plain = FileBasedCache(str(folder), {})
    plain.set("page", b"ours")
    folder.chmod(0o777)
    plant(next(folder.glob("*.djcache")))
    ran.clear()
    assert plain.get("page").body == b"<p>planted</p>" and ran == ["planted"]
    guarded = SharedPages(str(folder), {})
    ran.clear()
    assert guarded.get("page") is None and ran == []


def test_a_folder_that_others_can_write_in_is_not_used(tmp_path):
    open_to_all = tmp_path / "open"
    open_to_all.mkdir()
    open_to_all.chmod(0o777)
    assert not shared_pages.ours(open_to_all)
    ours = tmp_path / "ours"
    ours.mkdir(mode=0o700)
    assert shared_pages.ours(ours) and shared_pages.ours(tmp_path / "not made yet")


def test_a_worker_waits_for_the_one_rendering_the_page_then_reads_its_copy(tmp_path):
    pages = SharedPages(str(tmp_path), {})
    entered = []

    def other_worker():
        with pages.lock("page:cd34", "v1"):
            entered.append((time.monotonic(), pages.get("page:cd34", version="v1")))

    with pages.lock("page:cd34", "v1"):
        worker = threading.Thread(target=other_worker)
        worker.start()
        time.sleep(0.3)
        assert entered == []  # still waiting for the lock
        pages.set("page:cd34", b"rendered once", version="v1")
        released = time.monotonic()
    worker.join(5)
    assert entered and entered[0][0] >= released and entered[0][1] == b"rendered once"


def test_a_worker_renders_itself_when_the_lock_is_held_too_long(tmp_path, monkeypatch):
    monkeypatch.setattr(shared_pages, "WAIT_SECONDS", 0.2)
    pages = SharedPages(str(tmp_path), {})
    entered = []

    def other_worker():
        with pages.lock("page:cd34"):
            entered.append(time.monotonic())

    with pages.lock("page:cd34"):
        started = time.monotonic()
        worker = threading.Thread(target=other_worker)
        worker.start()
        worker.join(5)
    assert entered and 0.2 <= entered[0] - started < 3


def settings_with(monkeypatch, **env) -> dict:
    for name in ("REDIS_URL", "PAGE_CACHE_SHARED_DIR", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "config" / "settings.py"))


def test_the_folder_is_beside_a_sqlite_file_and_off_for_redis_or_when_asked(monkeypatch, tmp_path):
    database = tmp_path / "league.sqlite3"
    assert settings_with(monkeypatch, DATABASE_URL=f"sqlite:///{database}")["PAGE_CACHE_SHARED_DIR"] == (
        f"{database}-pages"
    )
    assert (
        settings_with(monkeypatch, DATABASE_URL=f"sqlite:///{database}", PAGE_CACHE_SHARED_DIR="off")[
            "PAGE_CACHE_SHARED_DIR"
        ]
        == ""
    )
    chosen = settings_with(monkeypatch, DATABASE_URL="postgres://u:p@db/league", PAGE_CACHE_SHARED_DIR="/srv/pages")
    assert chosen["PAGE_CACHE_SHARED_DIR"] == "/srv/pages"
    assert settings_with(monkeypatch, DATABASE_URL="postgres://u:p@db/league")["PAGE_CACHE_SHARED_DIR"] == ""
    redis = settings_with(monkeypatch, DATABASE_URL=f"sqlite:///{database}", REDIS_URL="redis://127.0.0.1:1/0")
    assert redis["PAGE_CACHE_SHARED_DIR"] == ""


def test_a_change_of_settings_is_a_new_code_version_so_pages_kept_across_a_restart_are_not_served(settings):
    before = page_cache._code_version()
    assert page_cache._code_version() == before  # the same in every worker (no addresses in it)
    settings.LEAGUE_PAGE_SIZE_FOR_THIS_TEST = 31
    assert page_cache._code_version() != before
