"""A write reaches every worker: several gunicorn workers, each with its own cached copies, all show
the new data on the next view after an import run by another process (SQLite's data_version), and
the same with Redis shared between them. With each worker's own memory, the page one worker renders
after the write is the one the others serve (web/page_cache/shared.py)."""

import os
import pickle
import re
import subprocess
import sys
import urllib.request
import zlib

import pytest

from tests.browser.conftest import GUNICORN, ROOT, _free_port, production_env, serving

pytestmark = pytest.mark.slow  # gunicorn's workers on a site set up in other processes

WORKERS = 3


def fetch(url: str) -> str:
    return urllib.request.urlopen(url, timeout=10).read().decode()  # noqa: S310 - our own loopback server


def stored_body(path) -> bytes:
    """The body of a page as Django's file cache stores it (its expiry, then the value compressed)."""
    with open(path, "rb") as file:
        pickle.load(file)
        return pickle.loads(zlib.decompress(file.read())).body


@pytest.fixture(params=["locmem", "redis"])
def site(request, tmp_path):
    folder, port = tmp_path, _free_port()
    environment = {"ACCESS_LOG": ""}
    if request.param == "redis":
        if not os.environ.get("REDIS_URL"):
            if os.environ.get("CI"):
                pytest.fail("REDIS_URL is not set: in CI the caching tests must run against Redis too")
            pytest.skip("REDIS_URL is not set: no Redis server to test against")
        environment["REDIS_URL"] = os.environ["REDIS_URL"]
        import redis

        redis.Redis.from_url(environment["REDIS_URL"]).flushdb()
    env = production_env(folder, port, WORKERS, drop=("REDIS_URL",), **environment)
    manage = [sys.executable, str(ROOT / "manage.py")]
    with serving(GUNICORN, env, folder / "gunicorn.log", port) as url:
        yield url, env, manage, folder


def test_an_import_shows_on_every_workers_next_view(site):
    url, env, manage, folder = site
    for _ in range(6 * WORKERS):  # every worker caches the page
        assert "/card-games/matchdays/7/" not in fetch(url + "/")
    more = folder / "more.csv"
    more.write_text(
        "matchday,date,game,rounds,player,placing,rated_placing\n"
        "7,2025-11-20,Hearts,2,GL,1,\n7,2025-11-20,Hearts,2,K,2,\n"
    )
    # The workers render the page (the import renders none ahead here: the next test has it do so).
    alone = {**env, "PAGES_AHEAD": "0"}
    subprocess.run([*manage, "import_results", str(more)], env=alone, check=True, cwd=ROOT, capture_output=True)
    pages = [fetch(url + "/")]
    shared = rendered_once = None
    if "REDIS_URL" not in env:  # each worker's own memory: the first one's page is shared through a folder
        files = (folder / "db.sqlite3-pages").glob("*.djcache")
        (shared,) = (path for path in files if b'href="/card-games/matchdays/7/"' in stored_body(path))
        rendered_once = shared.stat().st_ino
    pages += [fetch(url + "/") for _ in range(6 * WORKERS - 1)]
    assert all('href="/card-games/matchdays/7/"' in page for page in pages)
    if shared is not None:  # the other workers read that page instead of rendering and storing their own
        assert shared.stat().st_ino == rendered_once


def test_an_import_stores_the_front_pages_before_anyone_asks_for_them(site):
    """The import's own process renders the club's home, standings, players and Hearts pages, and
    the pages of the two players and the matchday it wrote, before it commits (web/page_cache/ahead.py): they are in
    the folder before the first visitor after it, who is served that copy, not one rendered again."""
    url, env, manage, folder = site
    if "REDIS_URL" in env:
        pytest.skip("the folder is the pages' shared store only without Redis")
    pages = folder / "db.sqlite3-pages"
    fetch(url + "/")
    before = set(pages.glob("*.djcache"))
    more = folder / "more.csv"
    more.write_text(
        "matchday,date,game,rounds,player,placing,rated_placing\n"
        "7,2025-11-20,Hearts,2,GL,1,\n7,2025-11-20,Hearts,2,K,2,\n"
    )
    subprocess.run([*manage, "import_results", str(more)], env=env, check=True, cwd=ROOT, capture_output=True)
    stored = {path: path.stat().st_ino for path in set(pages.glob("*.djcache")) - before}
    assert len(stored) == 7  # home, standings, the players, the game played, its two players, the matchday
    # home, Hearts, GL and K link to the new matchday, whose own page is the one that says so
    assert sum(b'href="/card-games/matchdays/7/"' in stored_body(path) for path in stored) == 4
    assert sum(b"<h1>Matchday 7" in stored_body(path) for path in stored) == 1
    directory = fetch(url + "/players/")
    players = [re.search(r'href="/card-games(/players/\d+/)"[^>]*>' + name + "<", directory)[1] for name in ("GL", "K")]
    paths = ("/", "/standings/", "/players/", "/games/hearts/", *players, "/matchdays/7/")
    answers = [fetch(url + path) for path in paths for _ in range(2 * WORKERS)]
    assert all(answers) and 'href="/card-games/matchdays/7/"' in answers[0]
    assert {path: path.stat().st_ino for path in stored} == stored  # served as stored, never rendered again
