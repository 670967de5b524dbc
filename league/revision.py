"""The league's revision: a token renewed by every write, so that a page cached for one token is
never served after a change, and a way for every worker to learn the current token cheaply.

Where the token is read from, cheapest first:
- a shared cache (Redis, `REDIS_URL`): the writer publishes the new token there when its
  transaction commits, and every worker of every server reads it with one GET;
- SQLite: each worker keeps its own read-only connection and asks `PRAGMA data_version`, which
  changes only when another connection has committed; the token row is read again only then;
- otherwise (PostgreSQL without Redis): the token row, one indexed query.

A bump held in one worker's memory would not reach the others; these three do.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

CACHE_KEY = "league:revision"
# How long a worker trusts the token in the shared cache before reading the row again: if a
# writer's publication was lost (Redis briefly down), pages are stale for at most this long.
SHARED_TOKEN_SECONDS = 60


@dataclass(frozen=True)
class Current:
    token: str
    changed_at: datetime


def _shared_cache() -> bool:
    return "redis" in settings.CACHES["default"]["BACKEND"].lower()


def new_token() -> str:
    return secrets.token_hex(8)


def publish(token: str, changed_at: datetime) -> None:
    """Tell every worker of the new token once the writer's transaction commits (a shared cache
    only; the other sources see the committed row themselves)."""
    if _shared_cache():
        current = Current(token, changed_at.replace(microsecond=0))
        transaction.on_commit(lambda: cache.set(CACHE_KEY, current, timeout=SHARED_TOKEN_SECONDS))


_local = threading.local()


def sqlite_path() -> str | None:
    """The database file a separate connection can watch; None for an in-memory database."""
    if connection.vendor != "sqlite":
        return None
    name = str(connection.settings_dict["NAME"])
    return None if name == ":memory:" or "mode=memory" in name else name


def _from_database() -> Current:
    # From the app registry, not an import: the model imports this module to bump the token.
    revisions = apps.get_model("league", "Revision").objects
    row = revisions.filter(pk=1).values_list("token", "changed_at").first()
    return _current(row)


def _current(row) -> Current:
    if row is None:
        return Current("", datetime(2000, 1, 1, tzinfo=UTC))
    token, changed_at = row
    if isinstance(changed_at, str):  # read by the plain sqlite3 module
        changed_at = datetime.fromisoformat(changed_at)
    if timezone.is_naive(changed_at):
        changed_at = timezone.make_aware(changed_at, UTC)
    return Current(token, changed_at.replace(microsecond=0))


def _from_sqlite(path: str) -> Current:
    watch = getattr(_local, "watch", None)
    if watch is None or watch[0] != path:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        watch = _local.watch = [path, db, None, None]
    _, db, version, current = watch
    try:
        now = db.execute("PRAGMA data_version").fetchone()[0]
        if now != version or current is None:
            row = db.execute("SELECT token, changed_at FROM league_revision WHERE id = 1").fetchone()
            watch[2], watch[3] = now, _current(row)
    except sqlite3.Error:  # e.g. the tables are not there yet: ask Django's connection
        _local.watch = None
        return _from_database()
    return watch[3]


def current() -> Current:
    """The current token and when it changed."""
    if _shared_cache():
        found = cache.get(CACHE_KEY)
        if found is None:
            found = _from_database()
            cache.set(CACHE_KEY, found, timeout=SHARED_TOKEN_SECONDS)
        return found
    path = sqlite_path()
    return _from_sqlite(path) if path else _from_database()
