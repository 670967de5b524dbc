"""The league's revision: a token renewed by every write, so that a page cached for one token is
never served after a change, and a way for every worker to learn the current token cheaply.

Where the token is read from, cheapest first:
- a shared cache (Redis, `REDIS_URL`): the writer publishes the new token there when its
  transaction commits, and every worker of every server reads it with one GET; while Redis is
  away, from the row (league.shared_cache);
- SQLite: each worker keeps its own read-only connection and asks `PRAGMA data_version`, which
  changes only when another connection has committed; the token row is read again only then;
- otherwise (PostgreSQL without Redis): the token row, one indexed query.

A bump held in one worker's memory would not reach the others; these three do.

In Redis the token is stored with the row's number, which every write moves on inside its
transaction (so writers are ordered by the row's lock), and only ever replaced by a token of a
higher number: a writer's publication arriving late, or a reader writing back a row it read just
before a writer committed, cannot bring an older token back.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from time import monotonic

from django.apps import apps
from django.conf import settings
from django.core.cache import caches
from django.db import connection, models, transaction
from django.db.models.functions import Greatest
from django.utils import timezone

from league import shared_cache

logger = logging.getLogger(__name__)

CACHE_KEY = "league:revision"
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
    changed_at: datetime
    number: int = 0


def _shared_cache() -> bool:
    return "redis" in settings.CACHES["default"]["BACKEND"].lower()


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


def publish() -> None:
    """Tell every worker of the new token once the writer's transaction commits (a shared cache
    only; the other sources see the committed row themselves). The row is read here, where this
    writer's update holds it, and published only if nothing newer has been."""
    if _shared_cache():
        written = _from_database()
        transaction.on_commit(lambda: _publish(written), robust=True)


def _publish(written: Current) -> None:
    try:  # even while other calls leave Redis alone: a lost publication leaves pages stale
        _store(written)
    except shared_cache.ERRORS as exc:
        shared_cache.failed(exc, "publishing the league's revision")
        logger.error(
            "The change is saved, but its revision was not published to Redis (%s): other servers may "
            "show the previous pages for up to %s seconds.",
            exc,
            SHARED_TOKEN_SECONDS,
        )


def _client_and_key():
    cache = caches["default"]
    # Django's Redis backend keeps its redis-py client behind `_cache`; the script needs it.
    return cache._cache.get_client(CACHE_KEY, write=True), cache.make_and_validate_key(CACHE_KEY)


def _store(found: Current) -> bool:
    """Store `found` in Redis unless a token of a number at least as high is there."""
    client, key = _client_and_key()
    number = f"{found.number:0{DIGITS}d}"
    value = f"{number} {found.changed_at.isoformat()} {found.token}"
    return bool(client.register_script(NEWER_ONLY)(keys=[key], args=[number, value, SHARED_TOKEN_SECONDS]))


def _stored() -> Current | None:
    client, key = _client_and_key()
    value = client.get(key)
    if value is None:
        return None
    try:
        number, changed_at, token = value.decode().split(" ", 2)
        return Current(token, datetime.fromisoformat(changed_at), int(number))
    except (UnicodeDecodeError, ValueError):  # an older deploy's shape: read the row instead
        return None


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
    row = revisions.filter(pk=1).values_list("token", "changed_at", "number").first()
    return _current(row)


def _current(row) -> Current:
    if row is None:
        return Current("", datetime(2000, 1, 1, tzinfo=UTC))
    token, changed_at, *number = row
    if isinstance(changed_at, str):  # read by the plain sqlite3 module
        changed_at = datetime.fromisoformat(changed_at)
    if timezone.is_naive(changed_at):
        changed_at = timezone.make_aware(changed_at, UTC)
    return Current(token, changed_at.replace(microsecond=0), *number)


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
        return _from_shared()
    path = sqlite_path()
    return _from_sqlite(path) if path else _from_database()


def _from_shared() -> Current:
    found = shared_cache.run("reading the league's revision", _stored, None)
    if found is None:
        asked = monotonic()
        found = _from_database()
        # Written back only if no newer token is there; and not at all after a pause as long as a
        # token lives, in which a newer one could have come and gone.
        if monotonic() - asked < SHARED_TOKEN_SECONDS:
            shared_cache.run("storing the league's revision", lambda: _store(found), False)
    return found
