"""A write reaches every worker: several gunicorn workers, each with its own cached copies, all show
the new data on the next view after an import run by another process (SQLite's data_version), and
the same with Redis shared between them."""

import os
import subprocess
import sys
import urllib.request

import pytest

from tests.browser.conftest import ROOT, _free_port, serving

WORKERS = 3


def fetch(url: str) -> str:
    return urllib.request.urlopen(url, timeout=10).read().decode()  # noqa: S310 - our own loopback server


@pytest.fixture(params=["locmem", "redis"])
def site(request, tmp_path):
    folder, port = tmp_path, _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LEAGUE_PRODUCTION": "1",
        "DEBUG": "",
        "SECRET_KEY": "a-production-key-of-fifty-characters-0123456789xyz",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "STATIC_ROOT": str(folder / "static"),
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": str(WORKERS),
        "ACCESS_LOG": "",
    }
    env.pop("REDIS_URL", None)
    if request.param == "redis":
        if not os.environ.get("REDIS_URL"):
            if os.environ.get("CI"):
                pytest.fail("REDIS_URL is not set: in CI the caching tests must run against Redis too")
            pytest.skip("REDIS_URL is not set: no Redis server to test against")
        env["REDIS_URL"] = os.environ["REDIS_URL"]
        import redis

        redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    manage = [sys.executable, str(ROOT / "manage.py")]
    for command in (["migrate", "--no-input", "-v0"], ["collectstatic", "--no-input", "-v0"], ["load_demo"]):
        subprocess.run([*manage, *command], env=env, check=True, cwd=ROOT, capture_output=True)
    gunicorn = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
    with serving(gunicorn, env, folder / "gunicorn.log", port) as url:
        yield url, env, manage, folder


def test_an_import_shows_on_every_workers_next_view(site):
    url, env, manage, folder = site
    for _ in range(6 * WORKERS):  # every worker caches the page
        assert "/matchdays/7/" not in fetch(url + "/")
    more = folder / "more.csv"
    more.write_text(
        "matchday,date,game,rounds,player,placing,rated_placing\n"
        "7,2025-11-20,Hearts,2,GL,1,\n7,2025-11-20,Hearts,2,K,2,\n"
    )
    subprocess.run([*manage, "import_results", str(more)], env=env, check=True, cwd=ROOT, capture_output=True)
    pages = [fetch(url + "/") for _ in range(6 * WORKERS)]
    assert all('href="/matchdays/7/"' in page for page in pages)
