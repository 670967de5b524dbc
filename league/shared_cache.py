"""The cache shared by every server (Redis, `REDIS_URL`), which the site outlives: a Redis stopped,
restarted or out of reach costs the pages their cached copies, never an answer.

Every call that Redis cannot answer (refused, timed out, reset) is logged once per outage and
answered as a miss (reads) or skipped (writes); the worker then leaves Redis alone for
RETRY_SECONDS, so that a Redis that does not answer costs one socket timeout a while, not one
per request. Pages are then rendered from the database, and the revision token read from its row.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import redis
from django.conf import settings
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)

# What Redis being away raises: redis-py's own errors and the sockets' beneath them.
ERRORS = (redis.RedisError, OSError)
# How long a worker serves without Redis after a failed call before trying it again.
RETRY_SECONDS = 1.0
# How long a worker waits for another one (of any server) holding a lock; and how often it looks.
LOCK_SECONDS = 10
LOCK_POLL_SECONDS = 0.005

T = TypeVar("T")


class _State:
    down = False
    retry_at = 0.0


_state = _State()


def configured() -> bool:
    """Whether the default cache is Redis, shared by every worker of every server."""
    return "redis" in settings.CACHES["default"]["BACKEND"].lower()


def reset() -> None:
    """Try Redis at the next call (tests, after starting Redis again)."""
    _state.down, _state.retry_at = False, 0.0


def failed(exc: BaseException, doing: str) -> None:
    """Note that Redis did not answer: logged at the start of an outage, then quiet until it ends."""
    if not _state.down:
        logger.warning("Redis did not answer while %s (%s): serving without the shared cache", doing, exc)
    _state.down, _state.retry_at = True, time.monotonic() + RETRY_SECONDS


def _answered() -> None:
    if _state.down:
        logger.warning("Redis answers again: the shared cache is back in use")
        _state.down = False


def run(doing: str, call: Callable[[], T], default: T) -> T:
    """`call()`, or `default` if Redis does not answer it, or is being left alone after a failure."""
    if _state.down and time.monotonic() < _state.retry_at:
        return default
    try:
        result = call()
    except ERRORS as exc:
        failed(exc, doing)
        return default
    _answered()
    return result


def _tolerant(name: str, default=None, doing: str = "using the cache"):
    method = getattr(RedisCache, name)

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        return run(doing, lambda: method(self, *args, **kwargs), default)

    return call


class SharedRedisCache(RedisCache):
    """Django's Redis cache, answering a miss (or doing nothing) while Redis is away."""

    def get(self, key, default=None, version=None):
        return run("reading the cache", lambda: super(SharedRedisCache, self).get(key, default, version), default)

    set = _tolerant("set", doing="storing a page")
    add = _tolerant("add", False)
    touch = _tolerant("touch", False)
    delete = _tolerant("delete", False)
    has_key = _tolerant("has_key", False)

    def get_many(self, keys, version=None):
        return run("reading the cache", lambda: super(SharedRedisCache, self).get_many(keys, version), {})

    set_many = _tolerant("set_many", [])
    delete_many = _tolerant("delete_many")
    clear = _tolerant("clear", False, doing="emptying the cache")

    @contextmanager
    def lock(self, key: str, version=None) -> Iterator[None]:
        """Hold `key`'s lock, across every server, while the block runs: after a write the first
        worker to miss a page renders it and the others wait for its copy, instead of all rendering
        it. A worker that waits LOCK_SECONDS, or finds Redis away, runs the block anyway: a lost lock
        costs a second render, never an answer. The lock lapses by itself if its holder dies."""
        name = f"lock:{key}"
        held = self.add(name, os.getpid(), timeout=LOCK_SECONDS, version=version)
        if not held:
            deadline = time.monotonic() + LOCK_SECONDS
            while self.has_key(name, version=version) and time.monotonic() < deadline:
                time.sleep(LOCK_POLL_SECONDS)
        try:
            yield
        finally:
            if held:
                self.delete(name, version=version)
