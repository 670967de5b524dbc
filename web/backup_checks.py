"""Proof that a file is a backup of this site, taken before a restore touches anything.

A backup of this site holds this project's apps and no others, migrations this code knows (the same
as its own, or older ones: `migrate` brings those up to date), a history without gaps, and exactly
the tables and columns those migrations make, all of them readable. Anything else is refused, which
`web.backups` reports as "nothing was restored".

The SQL here is the web app's only hand-written SQL: it runs on a backup file opened with Python's
`sqlite3` module, which is none of Django's databases, so the ORM cannot read it (nor set how the
file keeps its journal).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.db.migrations.loader import MigrationLoader


class NotABackup(Exception):
    """The file is not a sound backup of this site; the message says why."""


# The project's own data: a backup without these apps' migrations is not this site's.
OWN_APPS = ("league", "ratings")
SHOWN = 8  # names listed in a message


@dataclass
class Contents:
    """What a backup holds: its applied migrations (app, name) and its tables with their columns."""

    applied: set[tuple[str, str]]
    tables: dict[str, set[str]]


def _listed(names) -> str:
    names = sorted(names)
    return ", ".join(names[:SHOWN]) + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")


def problems(contents: Contents) -> list[str]:
    """Why `contents` is not a backup of this site, or an empty list."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    known = set(loader.disk_migrations)
    apps = {app for app, _ in known}
    applied = contents.applied
    foreign = {app for app, _ in applied} - apps
    if foreign:
        return [f"it holds data of apps this site does not have ({_listed(foreign)})"]
    missing_apps = [app for app in OWN_APPS if not any(a == app for a, _ in applied)]
    if missing_apps:
        return [f"it has no {' or '.join(missing_apps)} data"]
    unknown = applied - known
    if unknown:
        return [
            f"it was made by another version of the site, with migrations this one does not have "
            f"({_listed(f'{a}.{n}' for a, n in unknown)}); restore it with that version"
        ]
    nodes = sorted(node for node in applied if node in loader.graph.nodes)
    gaps = {f"{a}.{n}" for node in nodes for a, n in loader.graph.forwards_plan(node) if (a, n) not in applied}
    if gaps:
        return [f"its migration history has gaps (missing {_listed(gaps)})"]
    state = loader.project_state(nodes=nodes, at_end=True)
    expected: dict[str, set[str]] = {}
    for model in state.apps.get_models(include_auto_created=True):
        if model._meta.managed and not model._meta.proxy:
            expected[model._meta.db_table] = {f.column for f in model._meta.local_concrete_fields}
    found = []
    missing_tables = expected.keys() - contents.tables.keys()
    if missing_tables:
        found.append(f"tables are missing ({_listed(missing_tables)})")
    extra_tables = contents.tables.keys() - expected.keys() - {"django_migrations"}
    if extra_tables:
        found.append(f"it holds tables this site does not have ({_listed(extra_tables)})")
    for table in sorted(expected.keys() & contents.tables.keys()):
        lacking, extra = expected[table] - contents.tables[table], contents.tables[table] - expected[table]
        if lacking:
            found.append(f"table {table} lacks columns ({_listed(lacking)})")
        if extra:
            found.append(f"table {table} has columns this site does not have ({_listed(extra)})")
    return found


def refuse_unless_sound(contents: Contents, source: Path) -> None:
    found = problems(contents)
    if found:
        raise NotABackup(f"{source} is not a backup of this site: {'; '.join(found[:3])}.")


# SQLite: every statement below runs on a file through `sqlite3`, none of Django's databases, so the
# ORM cannot: SQLite's own checks and catalogue (PRAGMAs, `sqlite_master`), and the file's migrations.


def seal_sqlite_copy(copy: sqlite3.Connection) -> str:
    """Make a fresh copy of the database one file, with no -wal beside it, so that it can be moved or
    mailed as it is; SQLite's verdict on the copy's integrity ("ok", or what is wrong)."""
    copy.execute("PRAGMA journal_mode=DELETE")
    return copy.execute("PRAGMA integrity_check").fetchone()[0]


def sqlite_contents(db: sqlite3.Connection, source: Path) -> Contents:
    """What an SQLite file holds, once it has passed SQLite's own integrity and foreign key checks."""
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        objects = db.execute("SELECT type, name FROM sqlite_master").fetchall()
    except sqlite3.DatabaseError as exc:
        raise NotABackup(f"{source} is not an SQLite database: {exc}.") from None
    if integrity != "ok":
        raise NotABackup(f"{source} is damaged: {integrity}.")
    broken = db.execute("PRAGMA foreign_key_check").fetchmany(SHOWN)
    if broken:
        shown = ", ".join(f"{table} row {row}" for table, row, *_ in broken)
        raise NotABackup(f"{source} is damaged: rows refer to rows that are not there ({shown}).")
    # This site never makes views or triggers; a trigger in a restored file would run on later saves.
    made = [f"{kind} {name}" for kind, name in objects if kind in ("view", "trigger")]
    if made:
        raise NotABackup(f"{source} is not a backup of this site: it holds {_listed(made)}.")
    tables = [name for kind, name in objects if kind == "table" and not name.startswith("sqlite_")]
    if "django_migrations" not in tables:
        raise NotABackup(f"{source} is an SQLite database, but not one of this site: it has no migration history.")
    try:
        applied = {(str(app), str(name)) for app, name in db.execute("SELECT app, name FROM django_migrations")}
        columns = {
            table: {row[0] for row in db.execute("SELECT name FROM pragma_table_info(?)", (table,))} for table in tables
        }
    except sqlite3.DatabaseError as exc:
        raise NotABackup(f"{source} is not a backup of this site: {exc}.") from None
    return Contents(applied, columns)


# PostgreSQL: pg_dump's custom format, read with pg_restore without touching any database

# What pg_dump writes for this site's tables. Anything else (functions, triggers, views, rules,
# extensions, other schemas...) runs code or changes the server; this site never makes any.
TOC_KINDS = (
    "TABLE DATA",
    "TABLE",
    "SEQUENCE OWNED BY",
    "SEQUENCE SET",
    "SEQUENCE",
    "DEFAULT",
    "FK CONSTRAINT",
    "CONSTRAINT",
    "INDEX",
)
_TOC_LINE = re.compile(r"\d+; \d+ \d+ (.*)")
_CREATE_TABLE = re.compile(r'CREATE TABLE public\.("?)([^"\s(]+)\1 \($')


def pg_archive_contents(source: Path, pg_restore: Callable[..., str]) -> Contents:
    """What a pg_dump archive holds. `pg_restore(*args)` runs pg_restore and returns its output, or
    raises NotABackup with pg_restore's error."""
    listing = pg_restore("--list", str(source))
    if "Format: CUSTOM" not in listing:
        raise NotABackup(f"{source} is not a backup made by backup_database (pg_dump's custom format).")
    tables, other = set(), []
    for line in listing.splitlines():
        match = _TOC_LINE.fullmatch(line.strip())
        if not match:
            continue
        entry = match.group(1)
        kind = next((k for k in TOC_KINDS if entry.startswith(k + " ")), None)
        words = entry[len(kind) + 1 :].split(" ") if kind else []
        if kind is None or words[0] != "public":
            other.append(entry.rsplit(" ", 1)[0])
        elif kind == "TABLE":
            tables.add(words[1])
    if other:
        raise NotABackup(f"{source} is not a backup of this site: it holds {_listed(other)}.")
    if "django_migrations" not in tables:
        raise NotABackup(f"{source} is a PostgreSQL backup, but not one of this site: it has no migration history.")
    columns = _pg_columns(pg_restore("--schema-only", "--file=-", str(source)))
    applied = _pg_migrations(pg_restore("--data-only", "--table=django_migrations", "--file=-", str(source)))
    if applied is None:
        raise NotABackup(f"{source} is not a backup of this site: its django_migrations table is not Django's.")
    return Contents(applied, {table: columns.get(table, set()) for table in tables})


def _pg_columns(schema: str) -> dict[str, set[str]]:
    """Each table's columns, from pg_restore's CREATE TABLE statements."""
    columns: dict[str, set[str]] = {}
    current = None
    for line in schema.splitlines():
        if current is None:
            match = _CREATE_TABLE.match(line)
            if match:
                current = columns.setdefault(match.group(2), set())
        elif line.startswith(")"):
            current = None
        else:
            word = line.strip().split(" ", 1)[0]
            if word and word != "CONSTRAINT":
                current.add(word.strip('"'))
    return columns


def _pg_migrations(data: str) -> set[tuple[str, str]] | None:
    """The (app, name) rows of django_migrations, from pg_restore's COPY of its data; None if the
    table has no such columns."""
    lines = iter(data.splitlines())
    for line in lines:
        if line.startswith("COPY public.django_migrations ("):
            names = [n.strip().strip('"') for n in line[line.index("(") + 1 : line.index(")")].split(",")]
            break
    else:
        return set()
    if "app" not in names or "name" not in names:
        return None
    app, name = names.index("app"), names.index("name")
    applied = set()
    for line in lines:
        if line == "\\.":
            break
        values = line.split("\t")
        applied.add((values[app], values[name]))
    return applied
