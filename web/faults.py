"""Faults of the database or the disk, told in words instead of a traceback.

A lock that was not granted in time, a full disk, a read-only database or folder: the transaction
of the command or request is rolled back, so nothing changed, and the person is told what happened:
in one line by a command (exit status 1), on a 503 page by the site. Errors that are bugs are not
caught here; they stay tracebacks in the log and a 500.
"""

from __future__ import annotations

import errno
import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.management.base import CommandError
from django.db import DatabaseError
from django.http import HttpResponse
from django.template import loader

logger = logging.getLogger(__name__)

# PostgreSQL's error codes (SQLSTATE) for the faults a person can do something about.
DISK_FULL = "53100"
READ_ONLY = "25006"
LOCK_NOT_AVAILABLE = "55P03"
QUERY_CANCELED = "57014"  # lock_timeout and statement_timeout
DEADLOCK = "40P01"

BUSY, FULL, READ_ONLY_DATABASE, UNOPENABLE, DISK_ERROR = "busy", "full", "read-only", "unopenable", "disk error"


def kind(error: BaseException) -> str | None:
    """Which fault of the database `error` is, or None if it is none of them (a bug, say)."""
    cause = error.__cause__ if isinstance(error, DatabaseError) and error.__cause__ else error
    sqlstate = getattr(cause, "sqlstate", None)
    text = str(error).lower()
    if sqlstate == DISK_FULL or "disk is full" in text:
        return FULL
    if sqlstate == READ_ONLY or "readonly database" in text or "read-only transaction" in text:
        return READ_ONLY_DATABASE
    if sqlstate in (LOCK_NOT_AVAILABLE, QUERY_CANCELED, DEADLOCK) or "is locked" in text:
        return BUSY
    if "unable to open database file" in text:
        return UNOPENABLE
    if "disk i/o error" in text:
        return DISK_ERROR
    return None


def describe(error: BaseException) -> str:
    """What went wrong, in a few words and one line, e.g. "the disk is full"."""
    if isinstance(error, OSError):
        return _os_fault(error)
    fault = kind(error)
    if fault == FULL:
        return "the disk is full (or the database reached its size limit)"
    if fault == READ_ONLY_DATABASE:
        return "the database is read-only (check the permissions of its file and folder)"
    if fault == BUSY:
        return (
            f"another import or save held the database for longer than this one waits ({_timeout()}); "
            "try again when it has finished"
        )
    if fault == UNOPENABLE:
        return "the database file cannot be opened (does its folder exist, and may this user write there?)"
    if fault == DISK_ERROR:
        return "the disk reported an input/output error"
    lines = str(error).strip().splitlines()
    return f"the database refused it ({lines[0] if lines else type(error).__name__})"


def _os_fault(error: OSError) -> str:
    where = f" ({error.filename})" if error.filename else ""
    if error.errno == errno.ENOSPC:
        return f"the disk is full{where}"
    if error.errno == errno.EROFS:
        return f"the file system is read-only{where}"
    if error.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied{where}"
    if error.errno == errno.ENOENT:
        return f"no such file or folder{where}"
    return f"{error.strerror or error}{where}"


def _timeout() -> str:
    timeout = settings.DATABASES["default"].get("OPTIONS", {}).get("timeout")
    return f"{timeout} s, SQLITE_TIMEOUT" if timeout is not None else "its lock timeout"


@contextmanager
def told(nothing_done: str) -> Iterator[None]:
    """Turn a fault of the database or the disk into a CommandError of one line that starts with
    `nothing_done` ("Nothing was imported"): exit status 1, no traceback."""
    try:
        yield
    except (DatabaseError, sqlite3.Error, OSError) as error:
        raise CommandError(f"{nothing_done}: {describe(error)}.") from None


class DatabaseFaultMiddleware:
    """A request that meets a database fault (in the admin: a save that waited too long for the lock,
    a full disk) gets a 503 page saying so; its transaction was rolled back, nothing changed."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DatabaseError | sqlite3.Error) or kind(exception) is None:
            return None
        logger.warning("%s %s: %s", request.method, request.path, describe(exception))
        ctx = {"league_name": settings.LEAGUE_NAME, "reason": describe(exception)}
        html = loader.get_template("503.html").render(ctx)
        return HttpResponse(html, status=503, headers={"Retry-After": "30"})
