"""Pages shared by the workers of one machine when there is no Redis: Django's file-based cache, in a
folder beside the SQLite database (config/settings.py), with the two things it does not do
(docs/cache.md):

- **It is used only while the folder is this user's alone.** FileBasedCache unpickles whatever
  file its folder holds, so a file put there by another user would be run in the worker. The folder
  is checked at every use (one lstat); one found open to others, another's or not a folder at all
  (a symbolic link) is dropped by the worker for good, its pages being rendered without it.
- **One worker renders a page, the others wait for it.** After a write every worker misses each
  page at the same moment; FileBasedCache's `add` is a look then a write, which they would all
  pass, and all render. Here the first to miss takes a lock (one of a fixed set of lock files, so
  none is ever removed) and renders; the others wait for it and read its copy.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import logging
import os
import pickle
import stat
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.core.cache.backends.filebased import FileBasedCache

# How long a worker waits for another one rendering the same page before rendering it itself.
WAIT_SECONDS = 10.0
_POLL_SECONDS = 0.003
LOCKS = 64  # pages rendered at one moment rarely share a lock, and the files stay few
# Django's file cache lists the whole folder at every store to see whether it is full (15 ms at
# 20,000 pages): it is counted at one store in a hundredth of its size instead (at most 64).
_stores = [0]
# Folders found open to others, another's or not a folder: never used again by this worker, since
# whatever was put in them meanwhile may still be there when they look right again.
_refused: set[Path] = set()
_log = logging.getLogger(__name__)


def ours(path: Path) -> bool:
    """The folder is this user's alone (or not made yet: FileBasedCache makes it for this user only).
    Asked of the folder itself, so a symbolic link put in its place is refused."""
    if path in _refused:
        return False
    try:
        found = path.lstat()
    except FileNotFoundError:
        return True
    except OSError:
        found = None
    if found and stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and not found.st_mode & 0o022:
        return True
    _refused.add(path)
    _log.warning("Pages are no longer shared through %s: it is not a folder of this user's alone.", path)
    return False


def _only_while_ours(name: str, default=None):
    method = getattr(FileBasedCache, name)

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        if not ours(self.folder):
            return default
        try:
            return method(self, *args, **kwargs)
        except OSError:  # a full or read-only disk: the page is served, only not shared
            return default

    return guarded


class SharedPages(FileBasedCache):
    def __init__(self, dir, params):
        self.folder = Path(os.path.abspath(dir))
        super().__init__(dir, params)

    def _createdir(self):
        if ours(self.folder):
            try:
                super()._createdir()
            except OSError:
                pass  # a folder that cannot be made: nothing is shared, nothing fails

    def get(self, key, default=None, version=None):
        if not ours(self.folder):
            return default
        try:
            return super().get(key, default, version)
        except (OSError, EOFError, ValueError, zlib.error, pickle.UnpicklingError):  # a damaged file: a miss
            return default

    def _cull(self):
        _stores[0] += 1
        if _stores[0] >= max(1, min(64, self._max_entries // 100)):
            _stores[0] = 0
            super()._cull()

    set = _only_while_ours("set")
    add = _only_while_ours("add", False)
    touch = _only_while_ours("touch", False)
    delete = _only_while_ours("delete", False)
    has_key = _only_while_ours("has_key", False)
    clear = _only_while_ours("clear")

    @contextmanager
    def lock(self, key: str, version=None) -> Iterator[None]:
        """Hold the page's lock while the block runs; wait up to WAIT_SECONDS for a worker that holds
        it (then run the block anyway: a lost lock costs a second render, never an answer)."""
        handle = None
        try:
            if ours(self.folder):
                digest = hashlib.md5(self.make_and_validate_key(key, version).encode(), usedforsecurity=False)
                path = self.folder / f"{int(digest.hexdigest(), 16) % LOCKS:02d}.lock"
                handle = os.open(path, os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW, 0o600)
                deadline = time.monotonic() + WAIT_SECONDS
                while True:
                    try:
                        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() > deadline:
                            break
                        time.sleep(_POLL_SECONDS)
        except OSError:
            pass
        try:
            yield
        finally:
            if handle is not None:
                os.close(handle)  # closing releases the lock
