"""A restore first proves that the file is a sound backup of this site: this project's apps, its
migrations or older ones, no gaps, its tables and columns and nothing else, readable throughout.
Anything else is refused in one line that says nothing was restored, and nothing is."""

import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

from tests.conftest import drop_postgres_databases, fresh_postgres_database
from tests.test_backup import ROOT, demo_site

pytestmark = pytest.mark.slow  # manage.py backups and restores in other processes


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One demo site and its backup; refused restores leave it as it is, so the tests share it."""
    folder = tmp_path_factory.mktemp("site")
    manage = demo_site(f"sqlite:///{folder / 'db.sqlite3'}")
    manage.database = folder / "db.sqlite3"
    manage.backup = folder / "backup.sqlite3"
    assert manage("backup_database", str(manage.backup)).returncode == 0
    manage.before = manage.pages()
    return manage


def pages_of_an_older_version(before: dict) -> dict:
    """The demo's pages after a backup of a version before score sheets is restored and migrated: that
    version had no scoring, so Hearts is scored by placings again (the default); nothing else differs."""
    older = {
        path: [status, body.replace(" Scored by points: lowest score wins.", "")]
        for path, (status, body) in before.items()
    }
    assert older != before  # the demo's Hearts is won with the fewest points
    return older


def tampered(site, tmp_path, *statements):
    """A copy of the site's backup changed by SQL `statements`."""
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(site.backup, copy)
    with sqlite3.connect(copy) as db:
        for statement in statements:
            db.execute(statement)
    return copy


def refused(site, path, reason):
    result = site("restore_database", "--no-input", str(path))
    assert result.returncode == 1
    assert result.stderr.startswith("CommandError: Nothing was restored: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr
    assert reason in result.stderr, result.stderr
    with sqlite3.connect(site.database) as db:
        assert db.execute("SELECT count(*) FROM league_matchday").fetchone()[0] == 6
    return result.stderr


def test_another_django_sites_database_is_refused_and_the_league_stays(site, tmp_path):
    other = tmp_path / "shop.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE django_migrations (id integer PRIMARY KEY, app text, name text, applied text)")
        db.execute("INSERT INTO django_migrations (app, name, applied) VALUES ('shop', '0001_initial', '')")
        db.execute("CREATE TABLE shop_order (id integer PRIMARY KEY)")
    refused(site, other, "is not a backup of this site: it holds data of apps this site does not have (shop)")
    assert site.pages() == site.before


def test_a_database_with_only_djangos_own_apps_is_refused(site, tmp_path):
    copy = tampered(site, tmp_path, "DELETE FROM django_migrations WHERE app IN ('league', 'ratings')")
    refused(site, copy, "it has no league or ratings data")


def test_an_empty_migration_table_is_not_enough(site, tmp_path):
    empty = tmp_path / "empty.sqlite3"
    with sqlite3.connect(empty) as db:
        db.execute("CREATE TABLE django_migrations (id integer PRIMARY KEY, app text, name text, applied text)")
    refused(site, empty, "it has no league or ratings data")


def test_a_backup_from_a_newer_version_is_refused(site, tmp_path):
    future = "INSERT INTO django_migrations (app, name, applied) VALUES ('league', '0099_x', '')"
    copy = tampered(site, tmp_path, future)
    refused(site, copy, "it was made by another version of the site, with migrations this one does not have")


def test_a_migration_history_with_a_gap_is_refused(site, tmp_path):
    copy = tampered(site, tmp_path, "DELETE FROM django_migrations WHERE app = 'league' AND name = '0003_revision'")
    refused(site, copy, "its migration history has gaps (missing league.0003_revision)")


def test_a_missing_table_is_refused(site, tmp_path):
    refused(site, tampered(site, tmp_path, "DROP TABLE ratings_standing"), "tables are missing (ratings_standing)")


def test_a_missing_column_is_refused(site, tmp_path):
    copy = tampered(site, tmp_path, "ALTER TABLE league_page DROP COLUMN body")
    refused(site, copy, "table league_page lacks columns (body)")


def test_a_table_this_site_does_not_have_is_refused(site, tmp_path):
    copy = tampered(site, tmp_path, "CREATE TABLE notes (x)")
    refused(site, copy, "it holds tables this site does not have (notes)")


def test_a_column_this_site_does_not_have_is_refused(site, tmp_path):
    copy = tampered(site, tmp_path, "ALTER TABLE league_player ADD COLUMN password text")
    refused(site, copy, "table league_player has columns this site does not have (password)")


def test_a_trigger_is_refused_because_it_would_run_on_later_saves(site, tmp_path):
    trigger = "CREATE TRIGGER wipe AFTER INSERT ON league_matchday BEGIN DELETE FROM league_result; END"
    refused(site, tampered(site, tmp_path, trigger), "it holds trigger wipe")


def test_a_view_is_refused(site, tmp_path):
    refused(site, tampered(site, tmp_path, "CREATE VIEW v AS SELECT 1"), "it holds view v")


def test_rows_that_refer_to_missing_rows_are_refused(site, tmp_path):
    copy = tampered(site, tmp_path, "PRAGMA foreign_keys = OFF", "DELETE FROM league_player WHERE short_name = 'GL'")
    refused(site, copy, "is damaged: rows refer to rows that are not there (")


def test_a_file_cut_short_is_refused(site, tmp_path):
    cut = tmp_path / "cut.sqlite3"
    data = site.backup.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    refused(site, cut, "cut.sqlite3 is not an SQLite database")


def test_a_pg_dump_is_not_an_sqlite_backup(site, tmp_path):
    dump = tmp_path / "league.dump"
    dump.write_bytes(b"PGDMP\x01\x0e\x00" + b"\x00" * 100)
    refused(site, dump, "is not an SQLite database")


def test_a_backup_older_than_the_code_is_restored_and_migrate_brings_it_up(site, tmp_path):
    older = tmp_path / "older.sqlite3"
    shutil.copy(site.backup, older)
    result = subprocess.run(  # the database as the previous version of the site left it
        [sys.executable, "manage.py", "migrate", "league", "0005", "--no-input"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": f"sqlite:///{older}"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    result = site("restore_database", "--no-input", str(older))
    assert result.returncode == 0, result.stderr
    assert site("migrate", "--no-input").returncode == 0
    assert site("recompute_ratings", "--check").returncode == 0
    assert site.pages() == pages_of_an_older_version(site.before)


# PostgreSQL: pg_dump's custom format, inspected with pg_restore before anything is touched


@pytest.fixture(scope="module")
def pg_site(tmp_path_factory):
    """On the PostgreSQL run of the suite: a demo site in a scratch database, its backup, and a way
    to make other scratch databases to dump."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("the PostgreSQL checks run when DATABASE_URL is PostgreSQL")
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(url)
    server = {"host": config["HOST"], "port": config["PORT"] or 5432, "user": config["USER"]}
    server["password"] = config["PASSWORD"]
    made = []

    def database(name, template=None):
        """A fresh scratch database: its name and URL."""
        full, full_url = fresh_postgres_database(url, name, template)
        made.append(full)
        return full, full_url

    def sql(name, *statements):
        with psycopg.connect(dbname=name, autocommit=True, **server) as db:
            for statement in statements:
                db.execute(statement)

    def dump(name, out):
        env = {**os.environ, "PGPASSWORD": server["password"]}
        command = ["pg_dump", "--format=custom", "--no-owner", f"--file={out}", f"--dbname={name}"]
        command += [f"--host={server['host']}", f"--port={server['port']}", f"--username={server['user']}"]
        subprocess.run(command, env=env, check=True)
        return out

    folder = tmp_path_factory.mktemp("pg")
    name, site_url = database("restore_site")
    manage = demo_site(site_url)
    manage.name, manage.database, manage.sql, manage.dump, manage.folder = name, database, sql, dump, folder
    manage.backup = dump(name, folder / "league.dump")
    manage.before = manage.pages()
    yield manage
    drop_postgres_databases(url, *made)


def pg_refused(pg_site, path, reason):
    result = pg_site("restore_database", "--no-input", str(path))
    assert result.returncode == 1
    assert result.stderr.startswith("CommandError: Nothing was restored: ") and result.stderr.count("\n") == 1
    assert reason in result.stderr, result.stderr
    assert pg_site.pages()["/card-games/matchdays/6/"] == pg_site.before["/card-games/matchdays/6/"]


def test_on_postgresql_a_file_that_is_no_archive_is_refused(pg_site, tmp_path):
    (tmp_path / "results.csv").write_text("matchday,date\n" * 100)
    pg_refused(pg_site, tmp_path / "results.csv", "is not a readable PostgreSQL backup")


def test_on_postgresql_an_sqlite_backup_is_refused(pg_site, tmp_path, site):
    pg_refused(pg_site, site.backup, "is not a readable PostgreSQL backup")


def test_on_postgresql_another_databases_dump_is_refused(pg_site):
    name, _ = pg_site.database("shop")
    pg_site.sql(
        name,
        "CREATE TABLE django_migrations (id serial, app text, name text, applied timestamptz)",
        "INSERT INTO django_migrations (app, name, applied) VALUES ('shop', '0001_initial', now())",
        "CREATE TABLE shop_order (id int)",
    )
    dump = pg_site.dump(name, pg_site.folder / "shop.dump")
    pg_refused(pg_site, dump, "it holds data of apps this site does not have (shop)")


def test_on_postgresql_a_dump_holding_a_function_is_refused(pg_site):
    name, _ = pg_site.database("function", template=pg_site.name)
    pg_site.sql(name, "CREATE FUNCTION wipe() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NULL; END'")
    pg_refused(pg_site, pg_site.dump(name, pg_site.folder / "function.dump"), "it holds FUNCTION public wipe()")


def test_on_postgresql_a_dump_lacking_a_table_is_refused(pg_site):
    name, _ = pg_site.database("no_pages", template=pg_site.name)
    pg_site.sql(name, "DROP TABLE league_page")
    pg_refused(pg_site, pg_site.dump(name, pg_site.folder / "no_pages.dump"), "tables are missing (league_page)")


def test_on_postgresql_a_dump_cut_short_is_refused(pg_site):
    cut = pg_site.folder / "cut.dump"
    data = pg_site.backup.read_bytes()
    cut.write_bytes(data[: len(data) * 2 // 3])
    pg_refused(pg_site, cut, "is not a readable PostgreSQL backup")


def test_on_postgresql_an_older_dump_is_restored_over_newer_tables_and_migrate_brings_it_up(pg_site):
    name, url = pg_site.database("older", template=pg_site.name)
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "league", "0005", "--no-input"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    older = pg_site.dump(name, pg_site.folder / "older.dump")
    # A table of a later version of the site, referring to the players: it goes with the restore.
    pg_site.sql(pg_site.name, "CREATE TABLE league_later (player_id bigint REFERENCES league_player (id))")
    result = pg_site("restore_database", "--no-input", str(older))
    assert result.returncode == 0, result.stderr
    assert pg_site("migrate", "--no-input").returncode == 0
    assert pg_site("recompute_ratings", "--check").returncode == 0
    assert pg_site.pages() == pages_of_an_older_version(pg_site.before)
