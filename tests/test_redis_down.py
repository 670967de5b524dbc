"""Redis going away (issue 29, class 3, and the Redis bullets of class 7): with REDIS_URL set and Redis
stopped or not answering, every public page is still served and a write that committed says so; the
page stored in Redis before a write is never served after it, whatever Redis kept.

Each test runs its own redis-server, which it stops and starts again; without redis-server installed
the tests are skipped, except in CI, where they fail."""

import logging
import os
import shutil
import socket
import subprocess
import threading
import time
from contextlib import closing

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.urls import reverse

from league import revision, services, shared_cache
from league.models import Player, Revision
from league.revision import LEAGUE
from tests.conftest import NO_FORMER_NAMES, form_data
from web import page_cache

# What production's settings pass to Redis (config/settings.py): the short timeouts are under test.
BACKEND = "league.shared_cache.SharedRedisCache"


def free_port() -> int:
    with closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """A redis-server of the test's own, in memory, that the test stops and starts again."""

    def __init__(self, folder):
        self.port, self.folder, self.process = free_port(), folder, None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.folder,
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            with closing(socket.socket()) as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.02)
        raise RuntimeError("redis-server did not start")

    def stop(self):
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def redis_server(tmp_path, settings):
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is not installed: in CI the Redis outage tests must run")
        pytest.skip("redis-server is not installed: no Redis to stop and start again")
    server = RedisServer(tmp_path)
    server.start()
    settings.CACHES = {"default": {"BACKEND": BACKEND, "LOCATION": server.url, "OPTIONS": _options()}}
    shared_cache.reset()
    yield server
    server.stop()
    shared_cache.reset()


def _options():
    from config import settings as production

    return production.REDIS_OPTIONS


# Class 3: pages and writes with Redis stopped.


@pytest.mark.parametrize(
    "url",
    [
        "/card-games/",
        "/card-games/standings/",
        "/card-games/games/hearts/",
        "/card-games/matchdays/5/",
        "/card-games/methods/",
        "/card-games/players/",
    ],
)
def test_class_3_every_public_page_is_served_with_redis_stopped(redis_server, client, club, url):
    assert client.get(url).status_code == 200  # stored while Redis is up
    redis_server.stop()
    assert client.get(url).status_code == 200  # from this worker's memory, the token read from the row
    page_cache.memory().clear()  # a worker that never served it: rendered from the database
    response = client.get(url)
    assert response.status_code == 200 and getattr(response, "page_cache", None) != "hit"
    assert client.get(url).status_code == 200


def test_class_3_a_page_shows_a_write_made_while_redis_was_stopped(
    redis_server, client, club, django_capture_on_commit_callbacks
):
    client.get("/card-games/")
    redis_server.stop()
    gl = Player.objects.get(short_name="GL")
    gl.name = "Gerda Lund"
    with django_capture_on_commit_callbacks(execute=True):
        services.save_player(gl)
    assert "Gerda Lund" in client.get("/card-games/").content.decode()
    redis_server.start()  # empty, as a restarted Redis without persistence is
    shared_cache.reset()  # as a worker's next try after the pause would
    assert "Gerda Lund" in client.get("/card-games/").content.decode()


def test_class_3_an_admin_save_that_committed_says_so_with_redis_stopped(
    redis_server, admin_client, club, django_capture_on_commit_callbacks, caplog
):
    redis_server.stop()
    gl = Player.objects.get(short_name="GL")
    url = reverse("admin:league_player_change", args=[gl.pk])
    with caplog.at_level(logging.WARNING), django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(url, {"name": "Gerda Lund", "short_name": "GL", **NO_FORMER_NAMES}, follow=True)
    assert response.status_code == 200 and "was changed successfully" in response.content.decode()
    assert Player.objects.get(pk=gl.pk).name == "Gerda Lund"


def test_class_3_a_matchday_saved_in_the_admin_with_redis_stopped_is_saved_once(
    redis_server, admin_client, club, django_capture_on_commit_callbacks
):
    redis_server.stop()
    data = form_data(7, "2025-11-20", 1, [("GL", 1, None), ("R", 2, None)])
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:league_matchday_add"), data)
    assert response.status_code == 302
    assert admin_client.get("/card-games/matchdays/7/").status_code == 200


def test_class_3_a_matchday_saved_on_the_entry_page_with_redis_stopped_goes_to_its_page(
    redis_server, admin_client, club, django_capture_on_commit_callbacks
):
    from tests.test_saving_once import ENTER, preview

    save = preview(admin_client, ["GL", "K = I", "J"])
    redis_server.stop()
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(ENTER, save)
    assert response.status_code == 302 and response["Location"] == "/card-games/enter/?saved=7"  # the next game
    assert admin_client.get(response["Location"]).status_code == 200
    assert admin_client.get("/card-games/matchdays/7/").status_code == 200


def test_class_3_an_import_with_redis_stopped_commits_and_reports_success(
    redis_server, club, tmp_path, django_capture_on_commit_callbacks
):
    from tests.conftest import CLUB_CSV

    path = tmp_path / "more.csv"
    rows = "7,2025-11-20,Hearts,2,GL,1,\n7,2025-11-20,Hearts,2,K,2,\n"
    path.write_text(CLUB_CSV.read_text().splitlines()[0] + "\n" + rows)
    redis_server.stop()
    out = tmp_path / "out.txt"
    with open(out, "w") as stdout, django_capture_on_commit_callbacks(execute=True):
        call_command("import_results", str(path), stdout=stdout)
    assert "Imported" in out.read_text()


def test_class_3_a_redis_that_does_not_answer_costs_one_timeout_not_one_per_request(
    settings, client, club, monkeypatch
):
    """A server that accepts connections and never answers (a hung Redis, a dropped network): the
    first call waits for the socket timeout, then the worker leaves Redis alone until RETRY_SECONDS
    have passed (here longer than the test), and then tries again."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted = []

    def accept():
        while True:
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    url = f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    settings.CACHES = {"default": {"BACKEND": BACKEND, "LOCATION": url, "OPTIONS": _options()}}
    shared_cache.reset()
    monkeypatch.setattr(shared_cache, "RETRY_SECONDS", 3600)
    try:
        started = time.monotonic()
        for _ in range(10):
            page_cache.memory().clear()  # each a miss in the worker's memory, which then asks Redis
            assert client.get("/card-games/standings/").status_code == 200
        first_ten = time.monotonic() - started
        once = len(accepted)
        shared_cache._state.retry_at = 0.0  # as when the pause is over
        page_cache.memory().clear()
        assert client.get("/card-games/standings/").status_code == 200
    finally:
        listener.close()
        for sock in accepted:
            sock.close()
        shared_cache.reset()
    assert once == 1  # one connection, one timeout, for ten pages
    assert first_ten >= _options()["socket_timeout"]  # and that one call did wait for it
    assert len(accepted) == 2  # tried again once the pause was over


# Class 7: no page stored in Redis before a write is served after it, whatever Redis kept.


def _rename(name):
    gl = Player.objects.get(short_name="GL")
    gl.name = name
    services.save_player(gl)


def test_class_7_a_write_the_writer_could_not_tell_redis_of_shows_on_the_next_view(
    redis_server, settings, client, club, django_capture_on_commit_callbacks
):
    """Redis reachable by the readers but not by the writer: the page stored before the write is still
    in Redis, and must not be served after it."""
    assert "Gerda Lund" not in client.get("/card-games/").content.decode()
    reachable = settings.CACHES
    settings.CACHES = {"default": {"BACKEND": BACKEND, "LOCATION": f"redis://127.0.0.1:{free_port()}/0"}}
    with django_capture_on_commit_callbacks(execute=True):
        _rename("Gerda Lund")
    settings.CACHES = reachable
    shared_cache.reset()
    page_cache.memory().clear()  # another worker, which has only Redis's copy
    assert "Gerda Lund" in client.get("/card-games/").content.decode()


def test_class_7_pages_kept_by_a_redis_that_comes_back_are_not_served_after_a_write(
    redis_server, client, club, django_capture_on_commit_callbacks
):
    """A Redis that kept its data through an outage (persistence, or a network that cut only some
    servers off) holds the pages from before a write made meanwhile."""
    client.get("/card-games/")
    kept = {key: caches["default"]._cache.get_client(key).dump(key) for key in _redis_keys()}
    redis_server.stop()
    with django_capture_on_commit_callbacks(execute=True):
        _rename("Gerda Lund")
    redis_server.start()
    shared_cache.reset()
    for key, value in kept.items():  # as if Redis had kept them
        caches["default"]._cache.get_client(key, write=True).restore(key, 0, value, replace=True)
    page_cache.memory().clear()
    assert "Gerda Lund" in client.get("/card-games/").content.decode()


def test_class_7_a_restored_backup_renews_the_token_of_the_pages_it_brings_back(
    redis_server, client, club, django_capture_on_commit_callbacks
):
    """A restore brings back the row of an older revision, whose pages Redis may still hold: its
    renewed token leaves them unreachable."""
    before = revision.current()
    client.get("/card-games/")
    with django_capture_on_commit_callbacks(execute=True):
        _rename("Gerda Lund")
    Revision.objects.filter(scope=LEAGUE).update(token=before)  # as the backup's row would be
    with django_capture_on_commit_callbacks(execute=True):
        Revision.bump()  # as web/backups.py does after a restore
    assert revision.current() not in (before, "")
    assert "Gerda Lund" in client.get("/card-games/").content.decode()


def _redis_keys():
    client = caches["default"]._cache.get_client(write=True)
    return [key for key in client.keys("*") if b"page" in key]
