"""Revisions: a token per scope, renewed by every write, that keys the scope's cached pages (their
cache `version`) and their ETag, and a cheap way for every worker to read the current one.

A scope is the part of the site whose pages one write changes: each club (`of_club`), and the
site (`LEAGUE`), which every write renews and which keys the pages until they are the clubs' own.
Each scope has its own row (`league.models.Revision`), so a write in one club leaves every other
club's row as it was.

The token is read from the database, where the write that renews it commits, so no server ever
serves a page older than the last write: there is no copy of it to go stale (docs/cache.md). On
SQLite each worker keeps a read-only connection and asks `PRAGMA data_version`, which changes only
when another connection has committed, and reads the rows again only then. On PostgreSQL each worker
keeps a connection of its own in autocommit, so every read sees the last commit, and asks with one
prepared statement, and serves what it read for a lease of `REVISION_LEASE_MS`: every write waits
as long after its commit before it answers, so no page is older than a write that has answered, and
most hits ask no other process (docs/cache.md). Inside a transaction (a write, a test) Django's
connection is asked, which sees its own uncommitted writes.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
import weakref
from contextlib import contextmanager
from contextvars import ContextVar

from django.apps import apps
from django.conf import settings
from django.db import connections, transaction

LEAGUE = "league"  # the site's scope: every write renews it
CLUBS = "clubs"  # renewed when a club is made, renamed or deleted: how workers learn their addresses


def of_club(club_id: int) -> str:
    """The scope of one club's pages."""
    return f"club-{club_id}"


def club_of(scope: str) -> int | None:
    """The id of the club whose scope it is (None for the site's own scopes)."""
    prefix, _, pk = scope.partition("-")
    return int(pk) if prefix == "club" and pk.isdigit() else None


def new_token() -> str:
    return secrets.token_hex(8)


_write: ContextVar[set[str] | None] = ContextVar("write_renewals", default=None)


@contextmanager
def write_renewals():
    """The scopes the writes inside renew, in a set filled as they ask: which clubs' pages a write
    changed, without reading every club's token before and after it. The site's scope (`LEAGUE`,
    which every write renews) is renewed when the block ends, still inside its transaction: its row
    stays locked from its renewal to the commit and a write in another club waits for it, so a long
    write (its recompute, its pages rendered ahead) takes it last. The clubs' are renewed at once."""
    outer = _write.get()
    if outer is not None:  # the outer one renews the site's
        yield outer
        return
    noted: set[str] = set()
    token = _write.set(noted)
    try:
        yield noted
    finally:
        _write.reset(token)
    if LEAGUE in noted:  # not after an exception: the transaction is rolled back
        apps.get_model("league", "Revision").renew(LEAGUE)


def renewed_now(scopes: tuple[str, ...]) -> tuple[str, ...]:
    """The scopes to renew now, noted in the write's `write_renewals()`: all but the site's there."""
    noted = _write.get()
    if noted is None:
        return scopes
    noted.update(scopes)
    return tuple(scope for scope in scopes if scope != LEAGUE)


def current(scope: str = LEAGUE) -> str:
    """The scope's token ("" before its first write)."""
    return current_of(scope)[0]


def current_of(*scopes: str) -> tuple[str, ...]:
    """The scopes' tokens, in one query at most (a request reads the clubs' and its club's)."""
    connection = connections["default"]  # looked up once: each lookup is a thread-local's (a hit's path)
    if connection.in_atomic_block:  # a write's own, uncommitted tokens (web.page_cache.ahead)
        return _from_database(scopes)
    if connection.vendor == "postgresql":
        return _from_postgres(scopes, _postgres_lease())
    path = sqlite_path()
    if path:
        return _from_sqlite(path, scopes)
    return _from_database(scopes)


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


_opened: weakref.WeakSet = weakref.WeakSet()
_TOKENS = "SELECT scope, token FROM league_revision WHERE scope = ANY(%s)"


def _postgres_connection():
    import psycopg  # only where PostgreSQL is the database

    params = connections["default"].get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    opened = psycopg.connect(**params, autocommit=True)
    _opened.add(opened)
    return opened


def close_connections() -> None:
    """Close every worker thread's own PostgreSQL connection: a test database cannot be dropped
    while one is open."""
    for opened in list(_opened):
        opened.close()
    _opened.clear()


def lease_seconds() -> float:
    """How long a worker may serve the tokens it read, and how long a write waits after its commit:
    PostgreSQL's only (SQLite's check asks no other process)."""
    return _postgres_lease() if connections["default"].vendor == "postgresql" else 0.0


def _postgres_lease() -> float:
    return max(0, settings.REVISION_LEASE_MS) / 1000


def wait_out_leases() -> None:
    """Called by every write that renews tokens: once its transaction commits, it waits until no
    worker still serves a token read before the commit, so its answer comes after every old lease."""
    if not lease_seconds():
        return
    pending = connections["default"].run_on_commit  # (savepoints, function, robust): one wait per transaction
    if not any(function is _wait for _, function, _ in pending):
        transaction.on_commit(_wait)


def _wait() -> None:
    time.sleep(lease_seconds())


def forget() -> None:
    """Drop this thread's lease and what it asked (a test that empties the database without a write)."""
    _local.lease, _local.asked = None, {}


# Scopes asked this recently are read again with each new lease, in the same query: a worker among
# many serves a club only every few leases, and asking for it as a new scope would cost a query each
# time (docs/performance.md).
RECENT_SECONDS = 2.0


class _Lease:
    """Tokens read together, served `until` the lease runs out (counted from before the query)."""

    def __init__(self, until: float, tokens: dict):
        self.pid, self.until, self.tokens = os.getpid(), until, tokens


def _from_postgres(scopes, seconds: float) -> tuple[str, ...]:
    if not seconds:
        return _ask_postgres(scopes)
    held, start = getattr(_local, "lease", None), time.monotonic()
    if held is not None and held.pid != os.getpid():  # one a forked worker inherited
        held = None
    asked = _local.__dict__.setdefault("asked", {})  # scope: when this thread last asked for it
    asked.update(dict.fromkeys(scopes, start))
    running = held is not None and start < held.until
    if running and all(scope in held.tokens for scope in scopes):
        return tuple(held.tokens[scope] for scope in scopes)
    # One query for every token a lease serves: a club's token read later than the clubs' list it is
    # served with would let a page render an old club under a new token.
    if running:  # a scope it has not read yet: the held ones again with it, and a new lease
        wanted = (*{*held.tokens, *scopes},)
    else:  # run out: every scope asked lately
        _local.asked = asked = {scope: at for scope, at in asked.items() if start - at < RECENT_SECONDS}
        wanted = (*asked,)
    _local.lease = lease = _Lease(start + seconds, dict(zip(wanted, _ask_postgres(wanted), strict=True)))
    return tuple(lease.tokens[scope] for scope in scopes)


def _ask_postgres(scopes) -> tuple[str, ...]:
    import psycopg

    for attempt in (1, 2):  # a connection the server dropped is opened again once, not checked first
        own = getattr(_local, "postgres", None)
        try:
            if own is None or own[0] != os.getpid():  # not one a forked worker inherited
                own = _local.postgres = (os.getpid(), _postgres_connection())
            found = dict(own[1].execute(_TOKENS, (list(scopes),), prepare=True).fetchall())
            return tuple(found.get(scope, "") for scope in scopes)
        except psycopg.Error:
            _local.postgres = None
            if own is not None and own[0] == os.getpid():
                own[1].close()
            if attempt == 2:
                return _from_database(scopes)  # Django's connection: its error, as for any query
    raise AssertionError("unreachable")
