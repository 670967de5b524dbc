"""Faults of the database or the disk, told in one line to whoever ran a command.

A lock that was not granted in time, a full disk, a read-only database or folder: the command's
transaction is rolled back, so nothing changed, and the person is told what happened instead of
being shown a traceback. Errors that are bugs are not caught here.
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.management.base import CommandError
from django.db import DatabaseError

# PostgreSQL's error codes (SQLSTATE) for the faults a person can do something about.
DISK_FULL = "53100"
READ_ONLY = "25006"
LOCK_NOT_AVAILABLE = "55P03"
QUERY_CANCELED = "57014"  # lock_timeout and statement_timeout
DEADLOCK = "40P01"


def describe(error: BaseException) -> str:
    """What went wrong, in a few words and one line, e.g. "the disk is full"."""
    cause = error.__cause__ if isinstance(error, DatabaseError) and error.__cause__ else error
    sqlstate = getattr(cause, "sqlstate", None)
    text = str(error).lower()
    if isinstance(cause, OSError):
        return _os_fault(cause)
    if sqlstate == DISK_FULL or "disk is full" in text:
        return "the disk is full (or the database reached its size limit)"
    if sqlstate == READ_ONLY or "readonly database" in text or "read-only" in text:
        return "the database is read-only (check the permissions of its file and folder)"
    if sqlstate in (LOCK_NOT_AVAILABLE, QUERY_CANCELED, DEADLOCK) or "database is locked" in text:
        return (
            f"another import or save held the database for longer than this one waits ({_timeout()}); "
            "try again when it has finished"
        )
    if "unable to open database file" in text:
        return "the database file cannot be opened (does its folder exist, and may this user write there?)"
    if "disk i/o error" in text:
        return "the disk reported an input/output error"
    first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return f"the database refused it ({first_line})"


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
