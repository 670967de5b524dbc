"""Rendered pages shared by the workers of one machine, through a folder beside the SQLite database.

Each worker keeps its pages in its own memory, so after every write each worker rendered each page
again, all of them at the same moment: measured in the load test while imports ran, five renders of
the home page at once after each import, 450-690 ms each on two cores, and no request answered
meanwhile. Here the first worker to miss a page takes a lock on it and renders it; the others wait
for that lock (asking for it every few milliseconds, not rendering) and read the page it wrote, so a
page is rendered once per revision per machine, not once per worker.

A page is a file named by its cache key in a folder named by its generation: the code's version,
the league's revision token and the date, the parts of the key that change for every page at once.
A write (or a deploy, a change of settings, midnight) makes every old page unreachable at once, as in
the cache itself. The first worker to make a new generation's folder removes the generations' folders
untouched for a minute: not the ones still in use, since a request that read the revision just before
a write lands still renders and stores its page under the old generation (removing those would
break the locks of the workers waiting in them). Only folders named like a generation are removed;
the folder must be this user's own and writable by nobody else, or it is not used; that is checked
again at every use (one lstat), and a folder found otherwise is dropped by the worker for good, the
pages being rendered without it. Files hold the status, headers, length and body (no pickle: nothing
read back from the folder is run). With Redis the cache itself is shared and this folder is not used.
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from league import revision

# How long a worker waits for another one rendering the same page before rendering it itself.
WAIT_SECONDS = 10.0
_POLL_SECONDS = 0.003
# A generation's folder untouched for this long is no longer in use by any request.
IDLE_SECONDS = 60.0
_GENERATION = re.compile(r"[0-9a-f]{16}-([0-9a-f]+|none)-[0-9]{8}")
# Folders found open to others, another's or not a folder: never used again by this worker, since
# whatever was put in them meanwhile may still be there when they look right again.
_refused: set[Path] = set()
_log = logging.getLogger(__name__)


def folder() -> Path | None:
    """Where the pages are shared: PAGE_CACHE_SHARED_DIR, or beside a SQLite database file when the
    cache is each worker's own memory; None when there is nothing to share through ("off", Redis,
    PostgreSQL without a folder set, an in-memory database)."""
    chosen = settings.PAGE_CACHE_SHARED_DIR
    if chosen == "off" or "locmem" not in settings.CACHES["default"]["BACKEND"].lower():
        return None
    if chosen:
        root = Path(chosen)
    elif database := revision.sqlite_path():
        root = Path(database + "-pages")
    else:
        return None
    return root if _own(root) else None


def _own(path: Path) -> bool:
    """The folder is ours alone (or not made yet): another user who could write in it could have
    their files served as pages. Asked at every use, of the folder itself (a symbolic link put in its
    place is refused), so a folder that changes hands or opens to others is dropped at once."""
    if path in _refused:
        return False
    try:
        found = path.lstat()
    except FileNotFoundError:
        return True  # made by the first page stored, for this user only
    except OSError:
        found = None
    if found and stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and not found.st_mode & 0o022:
        return True
    _refused.add(path)
    _log.warning("Pages are no longer shared through %s: it is not a folder of this user's alone.", path)
    return False


def _safe(text: str) -> str:
    # Tokens and keys are hex made by the project; anything else must not reach the file system.
    if not text or not all(c.isalnum() or c in "-_:" for c in text):
        raise ValueError(f"not a page name: {text!r}")
    return text.replace(":", "-")


class SharedPages:
    def __init__(self, root: Path):
        self.root = root

    def _page(self, generation: str, key: str) -> Path:
        return self.root / _safe(generation or "none") / _safe(key)

    def _usable(self, page: Path) -> bool:
        """The folder and the generation's folder holding `page` are still ours alone."""
        return _own(self.root) and _own(page.parent)

    def get(self, generation: str, key: str) -> tuple[int, tuple[tuple[str, str], ...], bytes] | None:
        """The status, headers and body stored for this page, or None (also for a file cut short)."""
        try:
            page = self._page(generation, key)
            if not self._usable(page):
                return None
            data = page.read_bytes()
            head, _, body = data.partition(b"\n")
            meta = json.loads(head)
            if int(meta["length"]) != len(body):
                return None
            return int(meta["status"]), tuple((str(k), str(v)) for k, v in meta["headers"]), body
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, generation: str, key: str, status: int, headers, body: bytes) -> None:
        """Store a page (written whole under a temporary name, then renamed: a reader never sees half)."""
        try:
            path = self._page(generation, key)
            if not self._usable(path) or not path.parent.is_dir():
                return  # not ours alone, or an older generation's folder, gone: its pages are no longer wanted
            head = json.dumps({"status": status, "headers": list(headers), "length": len(body)}).encode()
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(handle, "wb") as out:
                out.write(head + b"\n" + body)
            os.replace(temporary, path)
        except (OSError, ValueError):
            pass  # a full or read-only disk: the page was served, only not shared

    def _made(self, generation_folder: Path) -> None:
        """Make the generation's folder; the first worker to make it removes the folders of the
        generations no request has used for IDLE_SECONDS."""
        if generation_folder.is_dir():
            return
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            generation_folder.mkdir(mode=0o700)
        except FileExistsError:
            return
        idle_since = time.time() - IDLE_SECONDS
        for name in os.listdir(self.root):
            folder = self.root / name
            if name != generation_folder.name and _GENERATION.fullmatch(name) and _untouched(folder, idle_since):
                shutil.rmtree(folder, ignore_errors=True)

    @contextmanager
    def turn(self, generation: str, key: str) -> Iterator[None]:
        """Hold this page's lock while the block runs; wait up to WAIT_SECONDS for a worker that holds
        it (then run the block anyway: a lost lock only costs a second render)."""
        handle = None
        try:
            lock = self._page(generation, key).with_suffix(".lock")
            if not _own(self.root):
                raise ValueError("not our folder")
            self._made(lock.parent)
            if not _own(lock.parent):
                raise ValueError("not our folder")
            handle = os.open(lock, os.O_CREAT | os.O_RDWR, 0o600)
            os.utime(handle)  # in use: the folder is not removed while requests wait in it
            deadline = time.monotonic() + WAIT_SECONDS
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as error:
                    if error.errno not in (errno.EAGAIN, errno.EACCES) or time.monotonic() > deadline:
                        break
                    time.sleep(_POLL_SECONDS)
        except (OSError, ValueError):
            pass
        try:
            yield
        finally:
            if handle is not None:
                os.close(handle)  # closing releases the lock

    def clear(self) -> None:
        """Remove every generation's folder (and nothing else in the folder)."""
        if not _own(self.root):
            return
        try:
            names = os.listdir(self.root)
        except OSError:
            return
        for name in names:
            if _GENERATION.fullmatch(name):
                shutil.rmtree(self.root / name, ignore_errors=True)


def _untouched(folder: Path, since: float) -> bool:
    """No page in the folder was written, and no lock in it asked for, since `since`."""
    try:
        times = [folder.stat().st_mtime] + [entry.stat().st_mtime for entry in os.scandir(folder)]
    except OSError:
        return False
    return max(times) < since


def shared_pages() -> SharedPages | None:
    root = folder()
    return SharedPages(root) if root else None
