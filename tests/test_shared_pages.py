"""Pages one worker renders are shared with the other workers of the machine through a folder, and
one worker renders a page while the others wait for it (web/shared_pages.py). Another worker is
played here by clearing this process's own cache: what is left is what the folder holds."""

import threading
import time

import pytest
from django.core.cache import cache

from league import services as league_services
from league.models import Player
from web import page_cache, shared_pages
from web.shared_pages import SharedPages


@pytest.fixture
def shared(settings, tmp_path):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.PAGE_CACHE_SHARED_DIR = str(tmp_path / "pages")
    cache.clear()
    return SharedPages(tmp_path / "pages")


def token_folders(shared):
    return sorted(path.name for path in shared.root.iterdir()) if shared.root.exists() else []


def test_a_page_rendered_by_one_worker_is_served_to_another_without_rendering(shared, client, club):
    first = client.get("/standings/")
    assert first.status_code == 200 and getattr(first, "page_cache", None) is None
    cache.clear()  # another worker: nothing in its own memory
    again = client.get("/standings/")
    assert again.page_cache == "hit" and again.content == first.content
    assert again["Content-Type"] == first["Content-Type"] and again["ETag"] == first["ETag"]


def test_a_write_makes_the_shared_pages_unreachable_and_their_folder_goes(shared, client, club):
    client.get("/")
    old = token_folders(shared)
    assert len(old) == 1
    player = Player.objects.get(name="GL")
    player.name = "Gabriel L."
    league_services.save_player(player)
    cache.clear()
    page = client.get("/")
    assert getattr(page, "page_cache", None) is None and "Gabriel L." in page.content.decode()
    assert token_folders(shared) != old and len(token_folders(shared)) == 1


def test_staff_never_get_a_shared_page(shared, client, club, admin_user):
    client.get("/")
    cache.clear()
    client.force_login(admin_user)
    page = client.get("/")
    assert getattr(page, "page_cache", None) is None


def test_clearing_forgets_the_shared_pages_too(shared, client, club):
    client.get("/")
    page_cache.clear()
    assert not shared.root.exists()
    assert getattr(client.get("/"), "page_cache", None) is None


def test_a_page_is_stored_whole_and_read_back_with_its_headers(tmp_path):
    pages = SharedPages(tmp_path)
    pages.put("ab12", "page:cd34", 200, (("Content-Type", "text/html"), ("ETag", '"x"')), b"<p>\n\xc3\xa9</p>")
    assert pages.get("ab12", "page:cd34") == (
        200,
        (("Content-Type", "text/html"), ("ETag", '"x"')),
        b"<p>\n\xc3\xa9</p>",
    )
    assert pages.get("ef56", "page:cd34") is None  # another revision
    assert [p.name for p in (tmp_path / "ab12").iterdir()] == ["page-cd34"]  # no temporary file left


def test_a_damaged_page_file_is_a_miss_not_an_error(tmp_path):
    pages = SharedPages(tmp_path)
    pages.put("ab12", "page:cd34", 200, (), b"body")
    (tmp_path / "ab12" / "page-cd34").write_bytes(b"not json\nbody")
    assert pages.get("ab12", "page:cd34") is None


def test_names_that_are_not_the_projects_keys_never_reach_the_file_system(tmp_path):
    pages = SharedPages(tmp_path)
    for bad in ("../etc", "a/b", ""):
        with pytest.raises(ValueError):
            pages.put("ab12", bad, 200, (), b"")
    assert not (tmp_path / "ab12").exists() or list((tmp_path / "ab12").iterdir()) == []


def test_a_new_token_removes_the_older_tokens_folders(tmp_path):
    pages = SharedPages(tmp_path)
    pages.put("old1", "page:a", 200, (), b"a")
    pages.put("new2", "page:a", 200, (), b"b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new2"]
    assert pages.get("new2", "page:a")[2] == b"b"


def test_a_worker_waits_for_the_one_rendering_the_page_then_reads_its_copy(tmp_path):
    pages = SharedPages(tmp_path)
    entered = []

    def other_worker():
        with pages.turn("ab12", "page:cd34"):
            entered.append((time.monotonic(), pages.get("ab12", "page:cd34")))

    with pages.turn("ab12", "page:cd34"):
        worker = threading.Thread(target=other_worker)
        worker.start()
        time.sleep(0.3)
        assert entered == []  # still waiting for the lock
        pages.put("ab12", "page:cd34", 200, (), b"rendered once")
        released = time.monotonic()
    worker.join(5)
    assert entered and entered[0][0] >= released and entered[0][1][2] == b"rendered once"


def test_a_worker_renders_itself_when_the_lock_is_held_too_long(tmp_path, monkeypatch):
    monkeypatch.setattr(shared_pages, "WAIT_SECONDS", 0.2)
    pages = SharedPages(tmp_path)
    entered = []

    def other_worker():
        with pages.turn("ab12", "page:cd34"):
            entered.append(time.monotonic())

    with pages.turn("ab12", "page:cd34"):
        started = time.monotonic()
        worker = threading.Thread(target=other_worker)
        worker.start()
        worker.join(5)
    assert entered and 0.2 <= entered[0] - started < 3


def test_the_folder_is_beside_a_sqlite_file_and_off_for_redis_or_when_asked(settings):
    from django.db import connection

    settings.PAGE_CACHE_SHARED_DIR = ""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    name = str(connection.settings_dict["NAME"])
    expected = None if connection.vendor != "sqlite" or "memory" in name else name + "-pages"
    assert (str(shared_pages.folder()) if shared_pages.folder() else None) == expected
    settings.PAGE_CACHE_SHARED_DIR = "off"
    assert shared_pages.folder() is None
    settings.PAGE_CACHE_SHARED_DIR = "/srv/pages"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://x"}}
    assert shared_pages.folder() is None


def test_a_new_day_or_deploy_starts_a_new_generation_and_the_old_pages_go(shared, client, club, monkeypatch):
    import datetime

    from web import page_cache as middleware

    client.get("/")
    (today,) = token_folders(shared)
    tomorrow = middleware.timezone.localdate() + datetime.timedelta(days=1)
    monkeypatch.setattr(middleware.timezone, "localdate", lambda: tomorrow)
    client.get("/")
    (next_day,) = token_folders(shared)
    assert next_day != today and next_day.endswith(f"{tomorrow:%Y%m%d}")
    monkeypatch.setattr(middleware, "CODE_VERSION", "0123456789abcdef")
    client.get("/")
    (deployed,) = token_folders(shared)
    assert deployed.startswith("0123456789abcdef-")
