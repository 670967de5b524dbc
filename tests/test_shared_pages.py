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


def test_a_write_makes_the_shared_pages_unreachable(shared, client, club):
    client.get("/")
    assert len(token_folders(shared)) == 1
    player = Player.objects.get(name="GL")
    player.name = "Gabriel L."
    league_services.save_player(player)
    cache.clear()
    page = client.get("/")
    assert getattr(page, "page_cache", None) is None and "Gabriel L." in page.content.decode()
    assert len(token_folders(shared)) == 2  # the old one goes once no request has used it for a minute


def test_staff_never_get_a_shared_page(shared, client, club, admin_user):
    client.get("/")
    cache.clear()
    client.force_login(admin_user)
    page = client.get("/")
    assert getattr(page, "page_cache", None) is None


def test_clearing_forgets_the_shared_pages_too(shared, client, club):
    client.get("/")
    page_cache.clear()
    assert token_folders(shared) == []
    assert getattr(client.get("/"), "page_cache", None) is None


G1 = "0123456789abcdef-aa11-20261124"
G2 = "0123456789abcdef-bb22-20261124"


def stored(pages, generation, key, body, headers=()):
    with pages.turn(generation, key):
        pages.put(generation, key, 200, headers, body)


def test_a_page_is_stored_whole_and_read_back_with_its_headers(tmp_path):
    pages = SharedPages(tmp_path)
    headers = (("Content-Type", "text/html"), ("ETag", '"x"'))
    stored(pages, G1, "page:cd34", b"<p>\n\xc3\xa9</p>", headers)
    assert pages.get(G1, "page:cd34") == (200, headers, b"<p>\n\xc3\xa9</p>")
    assert pages.get(G2, "page:cd34") is None  # another generation
    assert sorted(p.name for p in (tmp_path / G1).iterdir()) == ["page-cd34", "page-cd34.lock"]  # no temporary


def test_a_damaged_or_cut_short_page_file_is_a_miss_not_an_error(tmp_path):
    pages = SharedPages(tmp_path)
    stored(pages, G1, "page:cd34", b"the whole body")
    page = tmp_path / G1 / "page-cd34"
    page.write_bytes(page.read_bytes()[:-3])
    assert pages.get(G1, "page:cd34") is None
    page.write_bytes(b"not json\nbody")
    assert pages.get(G1, "page:cd34") is None


def test_names_that_are_not_the_projects_keys_never_reach_the_file_system(tmp_path):
    pages = SharedPages(tmp_path)
    for bad in ("../etc", "a/b", ""):
        stored(pages, G1, bad, b"x")  # neither stored nor an error: the page is served unshared
        assert pages.get(G1, bad) is None
    assert list(tmp_path.rglob("*")) == []


def test_a_page_of_a_generation_whose_folder_is_gone_is_not_stored(tmp_path):
    pages = SharedPages(tmp_path)
    pages.put(G1, "page:a", 200, (), b"a")
    assert pages.get(G1, "page:a") is None and not (tmp_path / G1).exists()


def test_a_new_generation_removes_only_idle_generations_folders(tmp_path, monkeypatch):
    pages = SharedPages(tmp_path)
    stored(pages, G1, "page:a", b"a")
    (tmp_path / "notes").mkdir()  # not a generation: never removed
    stored(pages, G2, "page:a", b"b")
    assert sorted(p.name for p in tmp_path.iterdir()) == [G1, G2, "notes"]  # G1 was used a moment ago
    monkeypatch.setattr(shared_pages, "IDLE_SECONDS", -1.0)  # as if a minute had passed
    g3 = "0123456789abcdef-cc33-20261124"
    stored(pages, g3, "page:a", b"c")
    assert sorted(p.name for p in tmp_path.iterdir()) == [g3, "notes"]
    assert pages.get(g3, "page:a")[2] == b"c"
    pages.clear()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes"]


def test_a_late_request_of_the_old_generation_does_not_remove_the_new_one(tmp_path):
    pages = SharedPages(tmp_path)
    stored(pages, G1, "page:a", b"old")
    stored(pages, G2, "page:a", b"new")  # a write landed: workers store the new generation's pages
    stored(pages, G1, "page:b", b"old")  # a request that read the revision just before it
    assert pages.get(G2, "page:a")[2] == b"new"


def test_a_folder_that_others_can_write_in_is_not_used(settings, tmp_path):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    open_to_all = tmp_path / "open"
    open_to_all.mkdir()
    open_to_all.chmod(0o777)
    settings.PAGE_CACHE_SHARED_DIR = str(open_to_all)
    assert shared_pages.folder() is None
    ours = tmp_path / "ours"
    ours.mkdir(mode=0o700)
    settings.PAGE_CACHE_SHARED_DIR = str(ours)
    assert shared_pages.folder() == ours


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

    monkeypatch.setattr(shared_pages, "IDLE_SECONDS", -1.0)  # as if each generation were a minute old
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


def test_a_change_of_settings_is_a_new_code_version_so_pages_kept_across_a_restart_are_not_served(settings):
    before = page_cache._code_version()
    assert page_cache._code_version() == before  # the same in every worker (no addresses in it)
    settings.LEAGUE_PAGE_SIZE_FOR_THIS_TEST = 31
    assert page_cache._code_version() != before
