"""Backup and restore: a backup taken from the running site brings back the very same pages.

Runs manage.py in fresh interpreters on an SQLite file, as a club's server does, and reads the pages
through Django's test client in another interpreter.
"""

import json
import os
import pty
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import scratch_postgres_database

pytestmark = pytest.mark.slow  # sites set up, backed up and restored by manage.py in other processes

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    "/card-games/",
    "/card-games/standings/",
    "/card-games/players/1/",
    "/card-games/matchdays/6/",
    "/card-games/games/hearts/",
]

READ_PAGES = """
import json, sys, django
django.setup()
from django.test import Client
client = Client(raise_request_exception=False)
pages = {}
for path in sys.argv[1:]:
    response = client.get(path)
    pages[path] = [response.status_code, response.content.decode()]
print(json.dumps(pages))
"""


def demo_site(database_url):
    """manage.py and a page reader for a site with the club's demo data in `database_url`."""
    # Without REDIS_URL: each page reader is a fresh process with its own empty page cache, so the
    # pages are read from the database as it is. A shared Redis would rightly go on serving the
    # pages of a database deleted behind the site's back (no write renewed the revision).
    env = {
        **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LEAGUE_PRODUCTION": "",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": database_url,
    }

    def manage(*args, stdin=None, terminal=None):
        """manage.py ARGS; `terminal` is typed on a pseudo-terminal as its standard input."""
        if terminal is None:
            return subprocess.run(
                [sys.executable, "manage.py", *args], cwd=ROOT, env=env, input=stdin, capture_output=True, text=True
            )
        typist, tty = pty.openpty()
        try:
            os.write(typist, terminal.encode())
            return subprocess.run(
                [sys.executable, "manage.py", *args], cwd=ROOT, env=env, stdin=tty, capture_output=True, text=True
            )
        finally:
            os.close(typist)
            os.close(tty)

    def pages():
        result = subprocess.run(
            [sys.executable, "-c", READ_PAGES, *PAGES], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    assert manage("migrate", "--no-input").returncode == 0
    assert manage("load_demo").returncode == 0
    manage.pages = pages
    return manage


@pytest.fixture
def site(tmp_path):
    manage = demo_site(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    manage.database = tmp_path / "db.sqlite3"
    return manage


@pytest.fixture
def postgres_site():
    """On the PostgreSQL run of the suite (.ci/run): a scratch database beside the test database."""
    with scratch_postgres_database("backup_test") as (url, recreate):
        manage = demo_site(url)
        manage.wipe = recreate
        yield manage


def test_a_backup_restored_into_a_wiped_database_gives_the_same_pages_byte_for_byte(site, tmp_path):
    before = site.pages()
    assert all(status == 200 for status, _ in before.values())
    result = site("backup_database", str(tmp_path / "backup.sqlite3"))
    assert result.returncode == 0, result.stderr
    assert "Backed up the sqlite database" in result.stdout

    for path in site.database.parent.glob("db.sqlite3*"):  # the database, its -wal and -shm, the shared pages
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    assert site.pages()["/card-games/"][0] == 500  # nothing left: no tables

    result = site("restore_database", "--no-input", str(tmp_path / "backup.sqlite3"))
    assert result.returncode == 0, result.stderr
    assert site.pages() == before


def test_a_restore_renews_the_revision_so_no_page_cached_since_the_backup_is_served(site, tmp_path):
    def token():
        with sqlite3.connect(site.database) as db:
            return db.execute("SELECT token FROM league_revision WHERE scope = 'league'").fetchone()[0]

    site("backup_database", str(tmp_path / "backup.sqlite3"))
    at_backup = token()
    result = site("restore_database", "--no-input", str(tmp_path / "backup.sqlite3"))
    assert result.returncode == 0, result.stderr
    assert token() not in ("", at_backup)


def test_a_backup_is_one_self_contained_file(site, tmp_path):
    site("backup_database", str(tmp_path / "backup.sqlite3"))
    assert sorted(p.name for p in tmp_path.glob("backup*")) == ["backup.sqlite3"]
    assert (tmp_path / "backup.sqlite3").read_bytes()[:16] == b"SQLite format 3\x00"


def test_a_backup_never_overwrites_a_file(site, tmp_path):
    (tmp_path / "backup.sqlite3").write_text("last week's backup")
    result = site("backup_database", str(tmp_path / "backup.sqlite3"))
    assert result.returncode != 0 and "exists already" in result.stderr
    assert (tmp_path / "backup.sqlite3").read_text() == "last week's backup"


def test_restoring_something_that_is_not_a_backup_changes_nothing(site, tmp_path):
    before = site.pages()
    (tmp_path / "results.csv").write_text("matchday,date,game\n" * 200)
    result = site("restore_database", "--no-input", str(tmp_path / "results.csv"))
    assert result.returncode != 0 and "Nothing was restored" in result.stderr
    assert "is not an SQLite database" in result.stderr
    assert site.pages() == before


def test_restoring_asks_first_and_stops_without_a_yes(site, tmp_path):
    site("backup_database", str(tmp_path / "backup.sqlite3"))
    result = site("restore_database", str(tmp_path / "backup.sqlite3"), terminal="no\n")
    assert "Type 'yes'" in result.stdout
    assert result.returncode != 0 and "Nothing was restored." in result.stderr


def test_on_postgresql_a_pg_dump_restored_into_an_empty_database_gives_the_same_pages(postgres_site, tmp_path):
    before = postgres_site.pages()
    result = postgres_site("backup_database", str(tmp_path / "league.dump"))
    assert result.returncode == 0, result.stderr
    postgres_site.wipe()
    result = postgres_site("restore_database", "--no-input", str(tmp_path / "league.dump"))
    assert result.returncode == 0, result.stderr
    assert postgres_site.pages() == before
