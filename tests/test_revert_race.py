"""A revert racing an edit of the same matchday, and two reverts of one change at once, lose nothing
and half-apply nothing, on SQLite and on PostgreSQL (tests/revert_race.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.revert_race import judged, race

ROOT = Path(__file__).resolve().parent.parent
RACE = """
import json, os, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tests.conftest import CLUB_CSV
from web.importing import import_results
import_results(CLUB_CSV.read_bytes())
from tests.revert_race import race
print(json.dumps([race(second) for second in ("edit", "revert")]))
"""


@pytest.mark.slow
def test_on_an_sqlite_file_a_revert_racing_an_edit_or_another_revert_loses_nothing(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LEAGUE_PRODUCTION": "",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": "",
    }
    done = subprocess.run([sys.executable, "-c", RACE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    edit, again = json.loads(done.stdout.strip().splitlines()[-1])
    judged(edit, "edit")
    judged(again, "revert")


@pytest.mark.parametrize("second", ["edit", "revert"])
def test_on_postgresql_a_revert_racing_an_edit_or_another_revert_loses_nothing(transactional_db, club, second):
    if connection.vendor != "postgresql":
        pytest.skip("two connections at once: the suite's SQLite database is in memory (the test above)")
    judged(race(second), second)
