"""Rendered pages shared by the workers of one machine, through a folder beside the SQLite database.

Each worker keeps its pages in its own memory, so after every write each worker rendered each page
again, all of them at the same moment: measured in the load test while imports ran, five renders of
the home page at once after each import, 450-690 ms each on two cores, and no request answered
meanwhile. Here the first worker to miss a page takes a lock on it and renders it; the others wait
for that lock (without using the processor) and read the page it wrote, so a page is rendered once
per revision per machine, not once per worker.

A page is a file named by its cache key in a folder named by its generation: the code's version,
the league's revision token and the date, the parts of the key that change for every page at once.
A write (or a deploy, or midnight) makes every old page unreachable at once, as in the cache itself,
and the first worker to make the new generation's folder removes the older ones, so the folder
never holds more than one generation's pages. Files hold the status, headers and body (no pickle:
nothing read back from the folder is run). With Redis the cache itself is shared and this folder is
not used.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

# How long a worker waits for another one rendering the same page before rendering it itself.
WAIT_SECONDS = 10.0
_POLL_SECONDS = 0.003


def folder() -> Path | None:
    """Where the pages are shared: PAGE_CACHE_SHARED_DIR, or beside a SQLite database file when the
    cache is each worker's own memory; None when there is nothing to share through ("off", Redis,
    PostgreSQL without a folder set, an in-memory database)."""
    chosen = settings.PAGE_CACHE_SHARED_DIR
    if chosen == "off" or "locmem" not in settings.CACHES["default"]["BACKEND"].lower():
        return None
    if chosen:
        return Path(chosen)
    if connection.vendor != "sqlite":
        return None
    name = str(connection.settings_dict["NAME"])
    if name == ":memory:" or "mode=memory" in name:
        return None
    return Path(name + "-pages")


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

    def get(self, generation: str, key: str) -> tuple[int, tuple[tuple[str, str], ...], bytes] | None:
        """The status, headers and body stored for this page, or None."""
        try:
            data = self._page(generation, key).read_bytes()
            head, _, body = data.partition(b"\n")
            meta = json.loads(head)
            return int(meta["status"]), tuple((str(k), str(v)) for k, v in meta["headers"]), body
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, generation: str, key: str, status: int, headers, body: bytes) -> None:
        """Store a page (written whole under a temporary name, then renamed: a reader never sees half)."""
        path = self._page(generation, key)
        try:
            self._made(path.parent)
            head = json.dumps({"status": status, "headers": list(headers)}).encode()
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(handle, "wb") as out:
                out.write(head + b"\n" + body)
            os.replace(temporary, path)
        except OSError:
            pass  # a full or read-only disk: the page was served, only not shared

    def _made(self, generation_folder: Path) -> None:
        """Make the generation's folder; the first worker to make it removes the older generations' folders."""
        if generation_folder.is_dir():
            return
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            generation_folder.mkdir(mode=0o700)
        except FileExistsError:
            return
        for name in os.listdir(self.root):
            if name != generation_folder.name:
                shutil.rmtree(self.root / name, ignore_errors=True)

    @contextmanager
    def turn(self, generation: str, key: str) -> Iterator[None]:
        """Hold this page's lock while the block runs; wait up to WAIT_SECONDS for a worker that holds
        it (then run the block anyway: a lost lock only costs a second render)."""
        lock = self._page(generation, key).with_suffix(".lock")
        handle = None
        try:
            self._made(lock.parent)
            handle = os.open(lock, os.O_CREAT | os.O_RDWR, 0o600)
            deadline = time.monotonic() + WAIT_SECONDS
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as error:
                    if error.errno not in (errno.EAGAIN, errno.EACCES) or time.monotonic() > deadline:
                        break
                    time.sleep(_POLL_SECONDS)
        except OSError:
            pass
        try:
            yield
        finally:
            if handle is not None:
                os.close(handle)  # closing releases the lock

    def clear(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def shared_pages() -> SharedPages | None:
    root = folder()
    return SharedPages(root) if root else None
