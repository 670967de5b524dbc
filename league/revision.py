"""Revisions: a token per scope, renewed by every write, that keys the scope's cached pages (their
cache `version`) and their ETag, and a cheap way for every worker to read the current one.

A scope is the part of the site whose pages one write changes: today the one league (`LEAGUE`);
once several clubs share a site, each club, named by its pages' URL. Each scope has its own row
(`league.models.Revision`), so a write in one leaves every other scope's pages cached.

Where a worker reads the token, cheapest first:
- a shared cache (Redis, `REDIS_URL`): the writer publishes the new token there when its
  transaction commits, and every worker of every server reads it with one GET; while Redis is
  away, from the row (league.shared_cache);
- SQLite: each worker keeps its own read-only connection and asks `PRAGMA data_version`, which
  changes only when another connection has committed; the rows are read again only then;
- otherwise (PostgreSQL without Redis): the row, one indexed query.

In Redis a token is stored with its row's number, which every write moves on inside its
transaction (so writers are ordered by the row's lock), and only ever replaced by a token of a
higher number: a writer's publication arriving late, or a reader writing back a row it read just
before a writer committed, cannot bring an older token back. Django's cache has no such
"set if newer" (set, add and incr cannot order two writers), hence the script (docs/cache.md).
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime
from time import monotonic

from django.apps import apps
from django.conf import settings
from django.core.cache import caches
from django.db import models, transaction
from django.db.models.functions import Greatest

from league import shared_cache

logger = logging.getLogger(__name__)

LEAGUE = "league"  # the one scope until clubs share a site
# How long a token stays in the shared cache before a worker reads the row again: if a writer's
# publication was lost (Redis away or out of reach), pages are stale for at most this long after it.
SHARED_TOKEN_SECONDS = 60
# Numbers are written with this many digits in Redis, so that the script compares them as strings.
DIGITS = 20
# Stores ARGV[2] under KEYS[1] for ARGV[3] seconds unless the value there holds a number at least
# ARGV[1]'s; a value of another shape (an older deploy's) is replaced.
NEWER_ONLY = f"""
local stored = redis.call('GET', KEYS[1])
if stored then
  local number = string.match(stored, '^(' .. string.rep('%d', {DIGITS}) .. ') ')
  if number and number >= ARGV[1] then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
"""


@dataclass(frozen=True)
class Current:
    token: str
    number: int = 0


def new_token() -> str:
    return secrets.token_hex(8)


def first_number(now: datetime) -> int:
    """The lowest number a write at `now` may leave on the row: the time in microseconds, so that a
    restored backup's smaller number still moves past every one published before."""
    return int(now.timestamp() * 1_000_000)


def next_number(now: datetime) -> models.Expression:
    """The row's number after a write: one more than before, and at least `first_number(now)`."""
    big = models.PositiveBigIntegerField()
    return Greatest(models.F("number") + 1, models.Value(first_number(now), output_field=big), output_field=big)


def current(scope: str = LEAGUE) -> str:
    """The scope's token ("" before its first write)."""
    if shared_cache.configured():
        return _from_shared(scope).token
    path = sqlite_path()
    return _from_sqlite(path, scope) if path else _from_database(scope).token


def publish(scope: str = LEAGUE) -> None:
    """Tell every worker of the scope's new token once the writer's transaction commits (a shared
    cache only; the other sources see the committed row themselves). The row is read here, where
    this writer's update holds it, and published only if nothing newer has been."""
    if shared_cache.configured():
        written = _from_database(scope)
        transaction.on_commit(lambda: _publish(scope, written), robust=True)


def _publish(scope: str, written: Current) -> None:
    try:  # even while other calls leave Redis alone: a lost publication leaves pages stale
        _store(scope, written)
    except shared_cache.ERRORS as exc:
        shared_cache.failed(exc, "publishing the revision")
        logger.error(
            "The change is saved, but its revision was not published to Redis (%s): other servers may "
            "show the previous pages for up to %s seconds.",
            exc,
            SHARED_TOKEN_SECONDS,
        )


def cache_key(scope: str) -> str:
    """Where Redis holds the scope's token."""
    return f"revision:{scope}"


def _client_and_key(scope: str):
    cache, key = caches["default"], cache_key(scope)
    # Django's Redis backend keeps its redis-py client behind `_cache`; the script needs it.
    return cache._cache.get_client(key, write=True), cache.make_and_validate_key(key)


def _store(scope: str, found: Current) -> bool:
    """Store `found` in Redis unless a token of a number at least as high is there."""
    client, key = _client_and_key(scope)
    number = f"{found.number:0{DIGITS}d}"
    script = client.register_script(NEWER_ONLY)
    return bool(script(keys=[key], args=[number, f"{number} {found.token}", SHARED_TOKEN_SECONDS]))


def _stored(scope: str) -> Current | None:
    client, key = _client_and_key(scope)
    value = client.get(key)
    try:
        number, token = value.decode().split(" ")
        return Current(token, int(number))
    except (AttributeError, UnicodeDecodeError, ValueError):  # none, or an older deploy's shape
        return None


def _from_shared(scope: str) -> Current:
    found = shared_cache.run("reading the revision", lambda: _stored(scope), None)
    if found is None:
        asked = monotonic()
        found = _from_database(scope)
        # Written back only if no newer token is there; and not at all after a pause as long as a
        # token lives, in which a newer one could have come and gone.
        if monotonic() - asked < SHARED_TOKEN_SECONDS:
            shared_cache.run("storing the revision", lambda: _store(scope, found), False)
    return found


def _from_database(scope: str) -> Current:
    # From the app registry, not an import: the model imports this module to bump the token.
    revisions = apps.get_model("league", "Revision").objects
    row = revisions.filter(scope=scope).values_list("token", "number").first()
    return Current(*row) if row else Current("")


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


def _from_sqlite(path: str, scope: str) -> str:
    watch = getattr(_local, "watch", None)
    if watch is None or watch.path != path:
        watch = _local.watch = _Watch(path)
    try:
        version = watch.db.execute("PRAGMA data_version").fetchone()[0]
        if version != watch.version:
            watch.version, watch.tokens = version, {}
        token = watch.tokens.get(scope)
        if token is None:
            row = watch.db.execute("SELECT token FROM league_revision WHERE scope = ?", (scope,)).fetchone()
            token = watch.tokens[scope] = row[0] if row else ""
    except sqlite3.Error:  # e.g. the tables are not there yet: ask Django's connection
        _local.watch = None
        return _from_database(scope).token
    return token
