"""Issue 29, the page cache (classes 1, 2 and 4), each test named for its class:

- class 1, `test_checks_...`: a cached answer is exactly what the view would answer after every check
  Django makes (the Host, refused user agents, redirects, page numbers below 1);
- class 2, `test_ask_again_...`: browsers and proxies are told to ask again, and no conditional request
  after a change is told that its old copy is current;
- class 4, `test_shared_folder_...`: the folder the workers share pages through stops being used as
  soon as it is no longer this user's alone.
"""

import json
import os

import pytest
from django.core.cache import cache

from web import shared_pages


# Class 4: the shared pages' folder is checked once per worker.


@pytest.fixture
def shared(settings, tmp_path):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    root = tmp_path / "pages"
    root.mkdir(mode=0o700)
    settings.PAGE_CACHE_SHARED_DIR = str(root)
    cache.clear()
    return root


def _plant(root) -> None:
    """Put a page of another's in place of every page the folder holds."""
    body = b"<p>planted</p>"
    head = json.dumps({"status": 200, "headers": [["Content-Type", "text/html"]], "length": len(body)})
    pages = [p for p in root.glob("*/*") if not p.name.endswith(".lock")]
    assert pages
    for page in pages:
        page.write_bytes(head.encode() + b"\n" + body)


def _served_without_the_folder(client, root) -> None:
    cache.clear()  # another worker: nothing in its own memory
    before = sorted(p.name for p in root.rglob("*")) if root.is_dir() and not root.is_symlink() else None
    for _ in range(2):
        response = client.get("/standings/")
        assert response.status_code == 200 and b"planted" not in response.content
        assert b"Standings" in response.content
        cache.clear()
    assert shared_pages.folder() is None
    if before is not None:
        assert sorted(p.name for p in root.rglob("*")) == before  # nothing written there either


def test_shared_folder_that_becomes_writable_by_others_is_no_longer_read(shared, client, club):
    assert client.get("/standings/").status_code == 200
    _plant(shared)
    shared.chmod(0o777)
    _served_without_the_folder(client, shared)
    shared.chmod(0o700)  # looks right again, but what was put there meanwhile may still be there
    _served_without_the_folder(client, shared)


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_shared_folder_that_changes_owner_is_no_longer_read(shared, client, club):
    assert client.get("/standings/").status_code == 200
    _plant(shared)
    os.chown(shared, 4242, -1)
    _served_without_the_folder(client, shared)


def test_shared_folder_replaced_by_a_symbolic_link_is_no_longer_read(shared, client, club, tmp_path):
    assert client.get("/standings/").status_code == 200
    elsewhere = tmp_path / "elsewhere"
    shared.rename(elsewhere)
    _plant(elsewhere)
    shared.symlink_to(elsewhere)
    _served_without_the_folder(client, shared)


def test_shared_folder_pages_in_hand_are_neither_read_nor_written_once_it_opens(tmp_path):
    root = tmp_path / "pages"
    pages = shared_pages.SharedPages(root)
    generation = "0123456789abcdef-aa11-20261124"
    with pages.turn(generation, "page:a"):
        pages.put(generation, "page:a", 200, (), b"mine")
    assert pages.get(generation, "page:a")[2] == b"mine"
    root.chmod(0o757)  # a worker that was handed the folder before it opened
    assert pages.get(generation, "page:a") is None
    with pages.turn(generation, "page:b"):
        pages.put(generation, "page:b", 200, (), b"not stored")
    assert not (root / generation / "page-b").exists()
    pages.clear()
    assert (root / generation / "page-a").exists()  # nor emptied: it may not be ours to empty
