"""Revisions: a token per scope, renewed by every write, that keys the scope's cached pages (their
cache `version`) and their ETag, and a cheap way for every worker to read the current one.

A scope is the part of the site whose pages one write changes: each club (`of_club`), and the
site (`LEAGUE`), which every write renews and which keys the pages until they are the clubs' own.
Each scope has its own row (`league.models.Revision`), so a write in one club leaves every other
club's row as it was.

The token is read from the database, where the write that renews it commits, so no server ever
serves a page older than the last write: there is no copy of it to go stale (docs/cache.md). On
SQLite each worker keeps a read-only connection and asks `PRAGMA data_version`, which changes only
when another connection has committed, and reads the rows again only then; elsewhere the row is one
indexed query.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading

from django.apps import apps
from django.conf import settings

LEAGUE = "league"  # the site's scope: every write renews it
CLUBS = "clubs"  # renewed when a club is made, renamed or deleted: how workers learn their addresses


def of_club(club_id: int) -> str:
    """The scope of one club's pages."""
    return f"club-{club_id}"


def new_token() -> str:
    return secrets.token_hex(8)


def current(scope: str = LEAGUE) -> str:
    """The scope's token ("" before its first write)."""
    return current_of(scope)[0]


def current_of(*scopes: str) -> tuple[str, ...]:
    """The scopes' tokens, in one query at most (a request reads the clubs' and its club's)."""
    path = sqlite_path()
    return _from_sqlite(path, scopes) if path else _from_database(scopes)


def _from_database(scopes) -> tuple[str, ...]:
    # From the app registry, not an import: the model imports this module to bump the token.
    revisions = apps.get_model("league", "Revision").objects
    found = dict(revisions.filter(scope__in=scopes).values_list("scope", "token"))
    return tuple(found.get(scope, "") for scope in scopes)


def sqlite_path() -> str | None:
    """The database file a separate connection can watch; None for an in-memory database."""
    database = settings.DATABASES["default"]  # the connection's own settings, read without it
    if not database["ENGINE"].endswith("sqlite3"):
        return None
    name = str(database["NAME"])
    return None if name == ":memory:" or "mode=memory" in name else name


class _Watch:
    """A worker's read-only connection to the database file, and the tokens it read at one
    `data_version`."""

    def __init__(self, path: str):
        self.path, self.version, self.tokens = path, None, {}
        self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


_local = threading.local()


def _from_sqlite(path: str, scopes) -> tuple[str, ...]:
    watch = getattr(_local, "watch", None)
    if watch is None or watch.path != path:
        watch = _local.watch = _Watch(path)
    try:
        version = watch.db.execute("PRAGMA data_version").fetchone()[0]  # once for all the scopes
        if version != watch.version:
            watch.version, watch.tokens = version, {}
        tokens = watch.tokens
        for scope in scopes:
            if scope not in tokens:
                row = watch.db.execute("SELECT token FROM league_revision WHERE scope = ?", (scope,)).fetchone()
                tokens[scope] = row[0] if row else ""
        return tuple(tokens[scope] for scope in scopes)
    except sqlite3.Error:  # e.g. the tables are not there yet: ask Django's connection
        _local.watch = None
        return _from_database(scopes)
