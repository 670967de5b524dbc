"""Faults end in one line that says what happened and that nothing changed, exit status 1, no
traceback: a lock not granted in time, a full disk, a read-only database, a CSV value past the csv
module's limit, a backup into a folder that does not exist, a restore with no terminal to ask on.
In the site they end in a 503 page that says so."""

import errno
import io
import os
import sqlite3
import subprocess
import sys

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import OperationalError, connection

from league.models import Matchday, Player
from tests.conftest import add_url, form_data
from tests.test_backup import ROOT, demo_site
from tests.test_import import HEADER
from web import faults

sqlite_only = pytest.mark.skipif("os.environ.get('DATABASE_URL', '').startswith('postgres')", reason="SQLite")
postgres_only = pytest.mark.skipif(
    "not os.environ.get('DATABASE_URL', '').startswith('postgres')", reason="the PostgreSQL run of the suite"
)


def results_file(tmp_path, matchdays=50):
    lines = [HEADER]
    for number in range(1, matchdays + 1):
        lines += [f"{number},2025-11-03,Hearts,1,A{number},1,", f"{number},2025-11-03,Hearts,1,B{number},2,"]
    path = tmp_path / "results.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def refusal(*args):
    with pytest.raises(CommandError) as raised:
        call_command(*args)
    message = str(raised.value)
    assert "\n" not in message, message
    return message


# A command run as a server's cron or a secretary runs it: exit status and the whole of stderr


@pytest.fixture
def site(tmp_path):
    manage = demo_site(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    manage.database = tmp_path / "db.sqlite3"
    return manage


def matchdays_in(database):
    with sqlite3.connect(database) as db:
        return db.execute("SELECT count(*) FROM league_matchday").fetchone()[0]


@pytest.mark.slow
def test_an_import_that_gave_up_waiting_for_the_lock_says_so_in_one_line(site, tmp_path):
    path = results_file(tmp_path)
    holder = sqlite3.connect(site.database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer, e.g. a long import
    try:
        result = subprocess.run(
            [sys.executable, "manage.py", "import_results", str(path)],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": f"sqlite:///{site.database}", "SQLITE_TIMEOUT": "1"},
            capture_output=True,
            text=True,
        )
    finally:
        holder.rollback()
        holder.close()
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"CommandError: Nothing was imported from {path}: another import or save held")
    assert "(1 s, SQLITE_TIMEOUT)" in result.stderr
    assert matchdays_in(site.database) == 6


@pytest.mark.slow
def test_a_restore_with_no_terminal_to_ask_on_refuses_in_one_line(site, tmp_path):
    site("backup_database", str(tmp_path / "backup.sqlite3"))
    result = site("restore_database", str(tmp_path / "backup.sqlite3"), stdin="yes\n")
    assert result.returncode == 1
    assert result.stderr == (
        "CommandError: Nothing was restored: there is no terminal to ask for confirmation on; "
        "run it with --no-input to restore without asking.\n"
    )


@pytest.mark.slow
def test_a_backup_into_a_folder_that_does_not_exist_refuses_in_one_line(site, tmp_path):
    result = site("backup_database", str(tmp_path / "nowhere" / "backup.sqlite3"))
    assert result.returncode == 1
    assert result.stderr == (
        f"CommandError: No backup was written: the folder {tmp_path / 'nowhere'} does not exist; "
        "create it first or choose another.\n"
    )
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.slow
def test_a_recompute_on_a_read_only_database_says_so_in_one_line(site, tmp_path):
    # Root may write any file, so the database is made read-only the way SQLite itself offers.
    (tmp_path / "readonly_settings.py").write_text(
        "from config.settings import *\nDATABASES['default']['OPTIONS']['init_command'] += ' PRAGMA query_only = ON;'\n"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "recompute_ratings"],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": f"sqlite:///{site.database}",
            "DJANGO_SETTINGS_MODULE": "readonly_settings",
            "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}",
        },
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert result.stderr == (
        "CommandError: Nothing was recomputed: the database is read-only "
        "(check the permissions of its file and folder).\n"
    )


# The same, in this process, on the test database


def test_a_csv_value_past_the_csv_modules_limit_is_refused_naming_the_line(db, tmp_path):
    path = tmp_path / "huge.csv"
    path.write_text(f'{HEADER}\n1,2025-11-03,Hearts,1,A,1,\n1,2025-11-03,Hearts,1,"{"B" * 200_000}",2,\n')
    message = refusal("import_results", str(path))
    assert message.startswith(f"Nothing was imported from {path}: Line 3: this line cannot be read as CSV")
    assert "longer than 131,072 characters" in message
    assert not Player.objects.exists()


@sqlite_only
def test_an_import_onto_a_full_disk_says_so(db, tmp_path):
    path = results_file(tmp_path, matchdays=200)
    with connection.cursor() as cursor:
        pages = cursor.execute("PRAGMA page_count").fetchone()[0]
        cursor.execute(f"PRAGMA max_page_count = {pages}")  # as if the disk had no room left
    try:
        message = refusal("import_results", str(path))
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA max_page_count = 2147483646")
    assert message == (f"Nothing was imported from {path}: the disk is full (or the database reached its size limit).")
    assert not Matchday.objects.exists()


@sqlite_only
def test_an_import_into_a_read_only_database_says_so(db, tmp_path):
    path = results_file(tmp_path)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA query_only = ON")
    try:
        message = refusal("import_results", str(path))
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA query_only = OFF")
    assert "the database is read-only" in message
    assert not Matchday.objects.exists()


@sqlite_only
@pytest.mark.parametrize(
    ("command", "content", "words"),
    [
        (
            "import_attempts",
            "date,game,variant,level,deal,player,won\n2025-11-03,Solitaire,8x4,5,11,GL,W\n",
            "imported",
        ),
        ("seed_deals", "game,variant,level,deal,plays,wins\nSolitaire,8x4,5,11,100,10\n", "imported"),
        ("merge_players", None, "merged"),
    ],
    ids=["import_attempts", "seed_deals", "merge_players"],
)
def test_attempts_seeds_and_a_merge_on_a_read_only_database_say_so_in_one_line(db, tmp_path, command, content, words):
    call_command("import_results", str(results_file(tmp_path, matchdays=2)), stdout=io.StringIO())
    path = tmp_path / "file.csv"
    path.write_text(content or "")
    args = [str(path)] if content else ["A1", "B2"]
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA query_only = ON")
    try:
        message = refusal(command, *args)  # was a traceback ending in OperationalError
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA query_only = OFF")
    assert message.startswith(f"Nothing was {words}") and "the database is read-only" in message
    assert Player.objects.count() == 4


@postgres_only
def test_an_import_into_a_read_only_postgresql_database_says_so(transactional_db, tmp_path):
    path = results_file(tmp_path)
    with connection.cursor() as cursor:
        cursor.execute("SET default_transaction_read_only = on")
    try:
        message = refusal("import_results", str(path))
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET default_transaction_read_only = off")
    assert "the database is read-only" in message
    assert not Matchday.objects.exists()


@postgres_only
def test_an_import_that_gave_up_waiting_for_a_postgresql_lock_says_so(transactional_db, tmp_path):
    path = results_file(tmp_path)
    settings = connection.settings_dict
    other = psycopg.connect(
        dbname=settings["NAME"],
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"],
    )
    other.execute("LOCK TABLE league_player IN ACCESS EXCLUSIVE MODE")  # held until rollback
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '200ms'")
    try:
        message = refusal("import_results", str(path))
    finally:
        other.rollback()
        other.close()
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    assert "another import or save held the database for longer than this one waits" in message
    assert not Matchday.objects.exists()


def test_a_restore_with_no_terminal_changes_nothing(db, tmp_path, club):
    backup = tmp_path / "backup.file"
    backup.write_bytes(b"anything")
    message = refusal("restore_database", str(backup))  # the test's standard input is no terminal
    assert message.startswith("Nothing was restored: there is no terminal")
    assert Matchday.objects.count() == 6


def test_a_backup_into_a_missing_folder_writes_nothing(db, tmp_path):
    message = refusal("backup_database", str(tmp_path / "missing" / "b.sqlite3"))
    folder = tmp_path / "missing"
    assert message == f"No backup was written: the folder {folder} does not exist; create it first or choose another."


# What each fault is called


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (OperationalError("database is locked"), "another import or save held the database"),
        (OperationalError("database table is locked"), "another import or save held the database"),
        (OperationalError("database or disk is full"), "the disk is full"),
        (OperationalError("attempt to write a readonly database"), "the database is read-only"),
        (OperationalError("unable to open database file"), "cannot be opened"),
        (OperationalError("disk I/O error"), "input/output error"),
        (OSError(errno.ENOSPC, "No space left on device", "/backups/b.sqlite3"), "the disk is full (/backups/b"),
        (OSError(errno.EROFS, "Read-only file system", "/backups/b"), "the file system is read-only"),
        (OSError(errno.EACCES, "Permission denied", "/backups/b"), "permission denied"),
        (OperationalError("something else\nwith details"), "the database refused it (something else)"),
    ],
)
def test_each_fault_is_told_in_a_few_words_on_one_line(error, words):
    assert words in faults.describe(error)
    assert "\n" not in faults.describe(error)


def test_a_fault_in_the_admin_gets_a_503_page_and_changes_nothing(admin_client, club, monkeypatch):
    from ratings import engine

    def locked(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(engine, "recompute", locked)
    rows = [("I", 1, None), ("R", 2, None)]
    response = admin_client.post(add_url(), form_data(7, "2025-11-20", 3, rows))
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    text = response.content.decode()
    assert "another import or save held the database" in text and "Nothing was changed" in text
    assert not Matchday.objects.filter(number=7).exists()


def test_a_bug_is_still_a_500(admin_client, club, monkeypatch):
    from ratings import engine

    def broken(*args, **kwargs):
        raise OperationalError("no such column: x")  # not a fault a person can do something about

    monkeypatch.setattr(engine, "recompute", broken)
    admin_client.raise_request_exception = False
    response = admin_client.post(add_url(), form_data(7, "2025-11-20", 3, [("I", 1, None), ("R", 2, None)]))
    assert response.status_code == 500
