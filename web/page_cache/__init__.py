"""Public pages, cached with Django's cache framework for visitors without a session.

A page is stored under its path and the canonical values of the query parameters its view declares
(web/page_cache/params.py: parameters it does not read neither change the key nor fill the cache), with
its scope's **generation** as the cache's `version`: the scope's revision token (league.revision:
any write makes every older entry unreachable), the code's version (a deploy never serves pages of
the old templates) and today's date (pages that hide inactive players change at midnight). The
pages' ETag is the generation too (web/pages/sections.py: `public_page`).

The middleware stands right after Django's checks of the request (the Host, the HTTPS redirect),
which a hit passes as a rendered page does, and before sessions, authentication, CSRF and the rest,
which a hit skips. A hit of a page asked for without parameters does not even resolve its view.
Anyone with a session cookie (staff, the admin), and every request that is not a GET of a declared
page, goes through the whole stack and is never stored.

The workers share their pages through Redis (every server's), or without it through a folder
(web/page_cache/shared.py, one machine's): in both, the first worker to miss a page renders it while
the others wait for its copy (the store's `lock`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from contextlib import nullcontext
from datetime import date, datetime, timedelta
from importlib import metadata
from pathlib import Path, PurePath
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.http import urlencode

from league import revision, shared_cache
from web.page_cache.shared import SharedPages

# What makes a request conditional: only such a request needs its stored page compared.
CONDITIONS = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_UNMODIFIED_SINCE")


def _code_version() -> str:
    """A digest of what a page is made with as deployed: the code and templates (names, sizes and
    modification times), the settings (a page's title, page sizes, time zone...; pages in Redis or
    the shared folder outlive a restart) and the versions of the packages that render pages."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for folder in ("config", "league", "ratings", "web", "templates", "static"):
        for path in sorted((base / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".css", ".js", ".txt"):
                stat = path.stat()
                digest.update(f"{path.relative_to(base)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    for name in sorted(n for n in dir(settings) if n.isupper() and n != "SECRET_KEY"):
        digest.update(f"{name}={_plain(getattr(settings, name))}".encode())
    for package in ("django", "django-tables2", "Jinja2"):
        digest.update(f"{package}={metadata.version(package)}".encode())
    return digest.hexdigest()[:16]


def _plain(value) -> str:
    """A setting written the same way in every worker: objects (lazy ones change their repr once
    used, functions have addresses) by their type's name, sets sorted."""

    def other(thing):
        if isinstance(thing, (set, frozenset)):
            return sorted(map(str, thing))
        return str(thing) if isinstance(thing, PurePath) else type(thing).__qualname__

    try:
        return json.dumps(value, sort_keys=True, default=other)
    except (TypeError, ValueError):
        return type(value).__qualname__


CODE_VERSION = _code_version()


def scope(request: HttpRequest) -> str:
    """Whose revision the page asked for depends on: the club its address names; the site's own
    pages (the list of clubs), the site's, which every write renews."""
    club = getattr(request, "club", None)
    return revision.of_club(club.pk) if club is not None else revision.LEAGUE


_day: list = [None, 0.0]  # today's date in the site's time zone, and the time.time() it ends at


def today() -> date:
    """Today's date in the site's time zone (timezone.localdate()), worked out once a day."""
    day, ends = _day
    if time.time() >= ends:
        now = timezone.localtime()
        day, midnight = now.date(), datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), now.tzinfo)
        _day[:] = day, midnight.timestamp()
    return day


@functools.lru_cache(maxsize=1)
def day_stamp(day: date) -> str:
    """A day as a page's version holds it ("20261130"): formatted once a day, not at each hit (2 µs)."""
    return f"{day:%Y%m%d}"


def generation(request: HttpRequest) -> str:
    """The version of the request's scope's pages in the cache, and their ETag: read once per request."""
    found = request.__dict__.get("page_generation")
    if found is None:
        token = getattr(request, "revision_token", None)  # read with the request's club
        token = (token if token is not None else revision.current(scope(request))) or "none"
        found = request.page_generation = f"{token}.{CODE_VERSION}.{day_stamp(today())}"
    return found


def table_slugs(request: HttpRequest) -> frozenset[str]:
    """The slugs of the rating tables of the request's scope (a page's grids page by them), read once
    per generation."""

    def read():
        from ratings.models import RatingTable

        club = getattr(request, "club", None)  # read before the club's scope is set: say whose
        tables = RatingTable.objects.filter(club=club) if club is not None else RatingTable.objects.all()
        return frozenset(tables.values_list("slug", flat=True))

    return cache.get_or_set(f"table-slugs:{scope(request)}", read, version=generation(request))


def page_key(path: str, params: dict[str, str]) -> str:
    """The key of a stored page: its path and the declared parameters' canonical values, in one order
    and URL-encoded (so no value, a `table` holding "&", reads as two), as a digest: paths may hold
    what cache keys may not (spaces, line breaks, any length)."""
    page = f"{path}?{urlencode(sorted(params.items()))}" if params else f"{path}?"
    return "page:" + hashlib.md5(page.encode(), usedforsecurity=False).hexdigest()


class Stored(NamedTuple):
    """A page as stored: what a hit answers with (always a 200)."""

    headers: tuple[tuple[str, str], ...]
    body: bytes


class PageMemory(LocMemCache):
    """Django's local-memory cache, keeping each value as it is instead of pickled: a stored page
    (immutable) is answered without copying its body, which unpickling did at every hit (a fifth of
    a hit of the home page: docs/cache.md). For immutable values only."""

    def make_and_validate_key(self, key, version=None):
        # Not checked for memcached's rules, a twentieth of a hit: page_key() makes every key a digest.
        return self.make_key(key, version=version)

    def get(self, key, default=None, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._delete(key)
                return default
            self._cache.move_to_end(key, last=False)
            return self._cache[key]

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            self._set(key, value, timeout)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if not self._has_expired(key):
                return False
            self._set(key, value, timeout)
            return True

    def incr(self, key, delta=1, version=None):
        raise NotImplementedError("PageMemory keeps pages, not counts")


_memory: list[PageMemory] = []


def memory() -> PageMemory:
    """This worker's own pages. Not one of the CACHES: Django's handler visits each of those at the
    end of every request, which costs a hit a few microseconds per cache (docs/cache.md)."""
    if not _memory:
        _memory.append(PageMemory("pages", {"OPTIONS": {"MAX_ENTRIES": settings.PAGE_CACHE_ENTRIES}}))
    return _memory[0]


def shared_pages():
    """The pages shared with the other workers: Redis (the default cache), else the folder
    (web/page_cache/shared.py), else None."""
    if shared_cache.configured():
        return cache
    folder = settings.PAGE_CACHE_SHARED_DIR
    return SharedPages(folder, {"OPTIONS": {"MAX_ENTRIES": settings.PAGE_CACHE_SHARED_ENTRIES}}) if folder else None


def clear() -> None:
    """Forget every stored page, this worker's and the ones shared with the others, and what pages
    keep under their generation in the default cache (the comparison's figures, the tables' slugs)."""
    memory().clear()
    cache.clear()
    shared = shared_pages()
    if shared is not None and shared is not cache:
        shared.clear()


def declared(request: HttpRequest):
    """The parameters the view at the request's path declares (web/page_cache/params.py), or None when
    it is not a cached page."""
    try:
        return getattr(resolve(request.path_info, getattr(request, "urlconf", None)).func, "page_params", None)
    except Resolver404:
        return None


class PageCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        if request.method != "GET" or settings.PAGE_CACHE_SECONDS <= 0:  # off: the load test's cold runs
            return self.get_response(request)
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            return self.get_response(request)
        params, page = {}, None
        if request.META.get("QUERY_STRING"):
            page = declared(request)
            params = page.read(request.GET, lambda: table_slugs(request)) if page else None
            if params is None:
                return self.get_response(request)
        key, version = page_key(request.path_info, params), generation(request)
        found = memory().get(key, version=version)
        if found is not None:
            return self.replay(request, found)
        if page is None and declared(request) is None:
            return self.get_response(request)
        return self.miss(request, key, version)

    def miss(self, request: HttpRequest, key: str, version: str) -> HttpResponse:
        """The page from the cache shared with the other workers, else rendered (and stored in both)."""
        shared = shared_pages()
        found = shared.get(key, version=version) if shared else None
        if found is None:
            lock = getattr(shared, "lock", None)  # one worker renders, the others wait for its copy
            with lock(key, version) if lock else nullcontext():
                found = shared.get(key, version=version) if lock else None
                if found is None:
                    return self.render(request, key, version, shared)
        memory().set(key, found, settings.PAGE_CACHE_SECONDS, version=version)
        return self.replay(request, found)

    def render(self, request: HttpRequest, key: str, version: str, shared) -> HttpResponse:
        response = self.get_response(request)
        if self.storable(response):
            response["Content-Length"] = str(len(response.content))  # what CommonMiddleware adds to every hit
            stored = Stored(tuple(response.items()), response.content)
            for store in (memory(), shared) if shared else (memory(),):
                store.set(key, stored, settings.PAGE_CACHE_SECONDS, version=version)
        return response

    @staticmethod
    def storable(response: HttpResponse) -> bool:
        """A complete 200 answer that sets no cookie and does not vary with the visitor."""
        vary = response.get("Vary", "").lower()
        return response.status_code == 200 and not response.streaming and not response.cookies and "cookie" not in vary

    @staticmethod
    def replay(request: HttpRequest, stored: Stored) -> HttpResponse:
        """The stored page as it was rendered (a 304 when the request's copy is current)."""
        response = HttpResponse(stored.body, headers=stored.headers)
        if any(name in request.META for name in CONDITIONS):
            response = get_conditional_response(request, etag=response.get("ETag"), response=response)
        response.page_cache = "hit"  # for tests and the benchmark; not sent
        return response
