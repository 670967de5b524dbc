"""After a write, one worker of any server renders a page and the others wait for its copy, with the
pages in Redis as with the shared folder (league.shared_cache.SharedRedisCache.lock): before it, every
worker that missed the page rendered it (9 renders of one page by 10 workers of two servers)."""

import threading
import time

import pytest
from django.core.cache import caches

from league import shared_cache
from tests.test_redis_down import redis_server  # noqa: F401 - a fixture: each test its own redis-server
from web import page_cache

PAGE = "/card-games/matchdays/5/"


def test_a_worker_waits_for_the_one_rendering_the_page_then_reads_its_copy(redis_server):  # noqa: F811
    pages, entered, holding = caches["default"], [], threading.Event()

    def rendering():
        with pages.lock("page:cd34", "v1"):
            holding.set()
            time.sleep(0.3)
            pages.set("page:cd34", b"rendered once", version="v1")

    other = threading.Thread(target=rendering)
    other.start()
    holding.wait(5)
    with pages.lock("page:cd34", "v1"):
        entered.append((time.monotonic(), pages.get("page:cd34", version="v1")))
    other.join(5)
    assert entered[0][1] == b"rendered once"


def test_the_lock_is_one_per_page_and_version_and_let_go_when_the_block_fails(redis_server):  # noqa: F811
    pages = caches["default"]
    with pages.lock("page:cd34", "v1"):
        started = time.monotonic()
        with pages.lock("page:cd34", "v2"), pages.lock("page:ef56", "v1"):  # other pages: no wait
            pass
        assert time.monotonic() - started < 0.5
    with pytest.raises(RuntimeError), pages.lock("page:cd34", "v1"):
        raise RuntimeError("the render failed")
    started = time.monotonic()
    with pages.lock("page:cd34", "v1"):  # released by the failed block
        pass
    assert time.monotonic() - started < 0.5


def test_a_worker_renders_itself_when_the_lock_is_held_too_long(redis_server, monkeypatch):  # noqa: F811
    monkeypatch.setattr(shared_cache, "LOCK_SECONDS", 1)
    pages, holding, release = caches["default"], threading.Event(), threading.Event()

    def stuck():
        with pages.lock("page:cd34"):
            holding.set()
            release.wait(10)

    other = threading.Thread(target=stuck)
    other.start()
    holding.wait(5)
    started = time.monotonic()
    with pages.lock("page:cd34"):
        waited = time.monotonic() - started
    release.set()
    other.join(5)
    assert 1 <= waited < 3


def test_with_redis_stopped_the_lock_does_not_wait(redis_server):  # noqa: F811
    redis_server.stop()
    started = time.monotonic()
    with caches["default"].lock("page:cd34", "v1"):
        pass
    assert time.monotonic() - started < 1


def test_a_request_that_misses_waits_for_the_worker_rendering_the_page_and_serves_its_copy(
    redis_server,  # noqa: F811
    client,
    club,
):
    first = client.get(PAGE)
    version, key = first["ETag"].strip('"'), page_cache.page_key(PAGE, {})
    pages = caches["default"]
    pages.delete(key, version=version)
    page_cache.memory().clear()  # this worker has not served it under this revision either
    holding = threading.Event()

    def other_worker():
        with pages.lock(key, version):
            holding.set()
            time.sleep(0.3)
            pages.set(key, page_cache.Stored(tuple(first.items()), b"the other worker's copy"), version=version)

    other = threading.Thread(target=other_worker)
    other.start()
    holding.wait(5)
    response = client.get(PAGE)
    other.join(5)
    assert response.status_code == 200 and response.content == b"the other worker's copy"
    assert response.page_cache == "hit"
