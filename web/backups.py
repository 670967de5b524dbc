"""Backups of the whole database, taken while the site runs, and their restore.

SQLite: SQLite's online backup API copies a consistent snapshot page by page (in WAL mode the site
goes on reading and writing meanwhile) into a single self-contained file. PostgreSQL: `pg_dump` in
its custom format and `pg_restore`, with the connection settings of DATABASE_URL.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

from django.db import connection


class BackupError(Exception):
    pass


def backup(out: Path) -> None:
    """Write a backup of the database to `out`, which must not exist yet."""
    if out.exists():
        raise BackupError(f"{out} exists already; choose a new name (e.g. with the date in it).")
    if connection.vendor == "sqlite":
        _backup_sqlite(out)
    elif connection.vendor == "postgresql":
        _pg("pg_dump", "--format=custom", "--no-owner", f"--file={out}")
    else:
        raise BackupError(f"No backup for {connection.vendor} databases; use its own tools.")


def restore(source: Path) -> None:
    """Replace everything in the database with the backup in `source`."""
    if not source.is_file():
        raise BackupError(f"{source} is not a file.")
    if connection.vendor == "sqlite":
        _restore_sqlite(source)
    elif connection.vendor == "postgresql":
        _pg("pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", str(source))
    else:
        raise BackupError(f"No restore for {connection.vendor} databases; use its own tools.")


def _backup_sqlite(out: Path) -> None:
    connection.ensure_connection()
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    target = sqlite3.connect(partial)
    try:
        connection.connection.backup(target)
        # One file, no -wal beside it: the copy can be moved or mailed as it is.
        target.execute("PRAGMA journal_mode=DELETE")
        _check(target, out)
    finally:
        target.close()
    partial.replace(out)  # a backup cut short never leaves a file that looks complete


def _restore_sqlite(source: Path) -> None:
    try:
        backup_db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BackupError(f"{source} cannot be opened as an SQLite database: {exc}") from None
    try:
        _check(backup_db, source)
        connection.ensure_connection()
        backup_db.backup(connection.connection)
    finally:
        backup_db.close()


def _check(db: sqlite3.Connection, name: Path) -> None:
    try:
        result = db.execute("PRAGMA integrity_check").fetchone()[0]
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{name} is not an SQLite database: {exc}") from None
    if result != "ok":
        raise BackupError(f"{name} is damaged: {result}")
    if "django_migrations" not in tables:
        raise BackupError(f"{name} is an SQLite database, but not one of this site.")


def _pg(program: str, *args: str) -> None:
    settings = connection.settings_dict
    env = {**os.environ}
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = settings["PASSWORD"]
    target = [f"--dbname={settings['NAME']}"]
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            target.append(f"{option}={settings[key]}")
    connection.close()  # pg_restore --clean needs the tables free of our own connection
    try:
        result = subprocess.run([program, *target, *args], env=env, capture_output=True, text=True)  # noqa: S603
    except FileNotFoundError:
        raise BackupError(f"{program} not found; install PostgreSQL's client programs.") from None
    if result.returncode != 0:
        raise BackupError(f"{program} failed: {result.stderr.strip()}")
