"""SQLite is set up for a few writers at once: WAL, immediate transactions and a busy timeout.

The suite's own database is in memory, where WAL does not exist, so these tests run a fresh
interpreter on a database file, as the site does.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PRAGMAS = """
import json, django
django.setup()
from django.db import connection
with connection.cursor() as cursor:
    found = {name: cursor.execute(f"PRAGMA {name}").fetchone()[0]
             for name in ("journal_mode", "synchronous", "busy_timeout")}
found["transaction_mode"] = connection.transaction_mode
print(json.dumps(found))
"""

TWO_WRITERS = """
import threading, time, django
django.setup()
from django.core.management import call_command
from django.db import connection, transaction
from league.models import Player
call_command("migrate", verbosity=0)
errors = []

def save(name):
    try:
        with transaction.atomic():
            Player.objects.count()  # read first, then write: the pattern that deadlocks when deferred
            time.sleep(0.3)
            Player.objects.create(name=name, short_name=name)
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connection.close()

threads = [threading.Thread(target=save, args=(name,)) for name in ("A", "B")]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(errors or Player.objects.count())
"""


def run(code, database, **env):
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "LEAGUE_PRODUCTION": "",
            "DATABASE_URL": f"sqlite:///{database}",
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_sqlite_connection_uses_wal_immediate_transactions_and_a_busy_timeout(tmp_path):
    result = run(PRAGMAS, tmp_path / "db.sqlite3")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "journal_mode": "wal",
        "synchronous": 1,  # NORMAL: safe in WAL mode, and no sync on every commit
        "busy_timeout": 20000,
        "transaction_mode": "IMMEDIATE",
    }


def test_the_busy_timeout_comes_from_the_environment(tmp_path):
    result = run(PRAGMAS, tmp_path / "db.sqlite3", SQLITE_TIMEOUT="5")
    assert json.loads(result.stdout)["busy_timeout"] == 5000


@pytest.mark.slow  # two processes, one waiting for the other's lock
def test_two_writers_at_once_both_save_instead_of_finding_the_database_locked(tmp_path):
    result = run(TWO_WRITERS, tmp_path / "db.sqlite3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2"
