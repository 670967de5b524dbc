"""Backups of the whole database, taken while the site runs, and their restore.

SQLite: SQLite's online backup API copies a consistent snapshot page by page (in WAL mode the site
goes on reading and writing meanwhile) into a single self-contained file. PostgreSQL: `pg_dump` in
its custom format, restored with `pg_restore` into `psql` in one transaction. A restore first proves
that the file is a sound backup of this site (`web.backup_checks`); until then nothing is touched.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from django.db import DatabaseError, connection

from league.models import Club, Revision
from web import faults
from web.backup_checks import NotABackup, pg_archive_contents, refuse_unless_sound, seal_sqlite_copy, sqlite_contents


class BackupError(Exception):
    pass


def backup(out: Path) -> None:
    """Write a backup of the database to `out`, which must not exist yet, in a folder that does."""
    if out.exists():
        raise BackupError(f"{out} exists already; choose a new name (e.g. with the date in it).")
    folder = out.parent
    if not folder.is_dir():
        raise BackupError(f"the folder {folder} does not exist; create it first or choose another.")
    partial = out.with_name(out.name + ".partial")
    try:
        partial.unlink(missing_ok=True)
        if connection.vendor == "sqlite":
            _backup_sqlite(partial, out)
        elif connection.vendor == "postgresql":
            _pg("pg_dump", "--format=custom", "--no-owner", f"--file={partial}")
        else:
            raise BackupError(f"No backup for {connection.vendor} databases; use its own tools.")
        partial.replace(out)  # a backup cut short never leaves a file that looks complete
    except (OSError, sqlite3.Error, DatabaseError) as exc:
        raise BackupError(f"{faults.describe(exc)}.") from None
    finally:
        partial.unlink(missing_ok=True)


def restore(source: Path) -> None:
    """Replace everything in the database with the backup in `source`, once it is proved to be a
    sound backup of this site; BackupError (and no change at all) otherwise."""
    if not source.is_file():
        raise BackupError(f"{source} is not a file.")
    try:
        if connection.vendor == "sqlite":
            _restore_sqlite(source)
        elif connection.vendor == "postgresql":
            _restore_pg(source)
        else:
            raise BackupError(f"No restore for {connection.vendor} databases; use its own tools.")
    except NotABackup as exc:
        raise BackupError(str(exc)) from None
    except (OSError, sqlite3.Error, DatabaseError) as exc:
        raise BackupError(f"{faults.describe(exc)}.") from None
    _renew_revision()


def _renew_revision() -> None:
    """The backup brought its own revision token, perhaps one that pages were cached under before
    later changes: a new one makes every page cached since unreachable. A backup older than the
    token or the scope gets one when `migrate` brings it up (league/migrations/0010, 0017)."""
    with connection.cursor() as cursor:
        columns = {c.name for c in connection.introspection.get_table_description(cursor, "league_revision")}
    if {"token", "scope"} <= columns:
        with_clubs = "league_club" in connection.introspection.table_names()
        Revision.bump(*(Club.objects.values_list("pk", flat=True) if with_clubs else ()))


def _backup_sqlite(partial: Path, out: Path) -> None:
    connection.ensure_connection()
    target = sqlite3.connect(partial)
    try:
        connection.connection.backup(target)
        integrity = seal_sqlite_copy(target)
        if integrity != "ok":
            raise BackupError(f"the copy is damaged ({integrity}); the database itself may be.")
    finally:
        target.close()


def _restore_sqlite(source: Path) -> None:
    try:
        backup_db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BackupError(f"{source} cannot be opened as an SQLite database: {exc}") from None
    try:
        refuse_unless_sound(sqlite_contents(backup_db, source), source)
        connection.ensure_connection()
        # One write transaction on the site's database: a failure part way leaves it as it was.
        backup_db.backup(connection.connection)
    finally:
        backup_db.close()


def _restore_pg(source: Path) -> None:
    refuse_unless_sound(pg_archive_contents(source, _pg_restore_output), source)
    _pg_restore_output("--file=" + os.devnull, str(source))  # reads every block: a cut-off file stops here
    # The site's tables go first, in the same transaction as the restore: a backup older than the
    # code lacks the newest tables, which `migrate` then makes afresh. Django's own DROP TABLE ...
    # CASCADE, from a schema editor used for its SQL only (never entered).
    drop = connection.schema_editor(collect_sql=True).sql_delete_table
    tables = connection.introspection.table_names()
    statements = "".join(f"{drop % {'table': connection.ops.quote_name(table)}};\n" for table in tables)
    _pg_pipe_restore(source, f"BEGIN;\n{statements}".encode())


def _pg_connection() -> tuple[list[str], dict[str, str]]:
    """The client programs' connection options and environment, from DATABASE_URL."""
    settings = connection.settings_dict
    env = {**os.environ}
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = settings["PASSWORD"]
    target = [f"--dbname={settings['NAME']}"]
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            target.append(f"{option}={settings[key]}")
    return target, env


def _pg(program: str, *args: str) -> None:
    target, env = _pg_connection()
    connection.close()  # the client program works without our connection holding anything
    try:
        result = subprocess.run([program, *target, *args], env=env, capture_output=True, text=True)  # noqa: S603
    except FileNotFoundError:
        raise BackupError(f"{program} not found; install PostgreSQL's client programs.") from None
    if result.returncode != 0:
        raise BackupError(f"{program} failed: {_first_line(result.stderr)}")


def _pg_restore_output(*args: str) -> str:
    """pg_restore reading an archive without any database (its --list, or SQL to a file)."""
    try:
        result = subprocess.run(["pg_restore", *args], capture_output=True, text=True, errors="replace")  # noqa: S603, S607
    except FileNotFoundError:
        raise BackupError("pg_restore not found; install PostgreSQL's client programs.") from None
    if result.returncode != 0:
        raise NotABackup(f"{args[-1]} is not a readable PostgreSQL backup: {_first_line(result.stderr)}")
    return result.stdout


def _pg_pipe_restore(source: Path, prelude: bytes) -> None:
    """pg_restore's SQL into psql, after `prelude` (which begins the transaction). COMMIT is sent
    only when pg_restore has written all of it; psql stops at the first error, and a transaction
    that is not committed is rolled back: the database is as it was unless everything went in."""
    target, env = _pg_connection()
    connection.close()
    with tempfile.TemporaryFile() as restore_errors, tempfile.TemporaryFile() as psql_errors:
        try:
            psql = subprocess.Popen(  # noqa: S603
                ["psql", *target, "--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", "--file=-"],  # noqa: S607
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=psql_errors,
                env=env,
            )
            dump = subprocess.Popen(  # noqa: S603
                ["pg_restore", "--no-owner", "--file=-", str(source)],  # noqa: S607
                stdout=subprocess.PIPE,
                stderr=restore_errors,
            )
        except FileNotFoundError as exc:
            raise BackupError(f"{exc.filename} not found; install PostgreSQL's client programs.") from None
        try:
            psql.stdin.write(prelude)
            shutil.copyfileobj(dump.stdout, psql.stdin)
            if dump.wait() == 0:
                psql.stdin.write(b"COMMIT;\n")
            psql.stdin.close()
        except BrokenPipeError:
            pass  # psql stopped at an error, which it reports below
        finally:
            dump.stdout.close()
            dump.wait()
            psql.wait()
        for process, errors, program in ((dump, restore_errors, "pg_restore"), (psql, psql_errors, "psql")):
            if process.returncode != 0:
                errors.seek(0)
                raise BackupError(f"{program} failed: {_first_line(errors.read().decode(errors='replace'))}")


def _first_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[0] if lines else "no reason given"
