"""Rendered public pages, cached per league revision for visitors who are not logged in.

A league changes only when results are entered, yet every view builds its page anew; so a public
page is stored in Django's cache framework under a key made of

- the code's version (a deploy never serves pages of the old templates),
- the league's revision token (league.revision: any write makes every old entry unreachable),
- today's date (pages that hide inactive players change at midnight),
- the path and the canonical values of the query parameters the view reads (each view declares
  them beside itself with `web.page_params.cached_page`; parameters it does not read neither change
  the key nor fill the cache).

The middleware stands early in the stack, right after Django's checks of the request (the Host, the
HTTPS redirect), which a hit must pass as a rendered page does: a hit skips sessions,
authentication, CSRF, messages and the login throttle, and costs one cheap revision check and one
cache read. Anyone with a session
cookie (staff, the admin) and every request that is not a GET of a declared page goes through the
whole stack as before, and is never stored.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date
from importlib import metadata
from pathlib import Path, PurePath

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.cache import get_conditional_response

from league import revision
from web.shared_pages import SharedPages, shared_pages


def _code_version() -> str:
    """A digest of what a page is made with as deployed: the code and templates (names, sizes and
    modification times), the settings (a page's title, page sizes, time zone...; the pages shared
    through a folder outlive a restart) and the versions of the packages that render pages."""
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


@dataclass(frozen=True)
class Shape:
    """What the league's pages are made of at one revision: the tables, whose slugs name the page
    parameters of their grids. Read once per revision per worker."""

    table_slugs: frozenset[str]


_shapes: dict[str, Shape] = {}


def shape(token: str) -> Shape:
    found = _shapes.get(token)
    if found is None:
        from ratings.models import RatingTable

        found = Shape(frozenset(RatingTable.objects.values_list("slug", flat=True)))
        _shapes.clear()  # only the current revision's shape is worth keeping
        _shapes[token] = found
    return found


def clear() -> None:
    """Forget every stored page: this worker's cache and the pages shared with the others."""
    cache.clear()
    shared = shared_pages()
    if shared is not None:
        shared.clear()


def request_revision(request: HttpRequest) -> revision.Current:
    """The league's revision as this request sees it, read once per request."""
    if not hasattr(request, "league_revision"):
        request.league_revision = revision.current()
    return request.league_revision


def request_table_slugs(request: HttpRequest) -> frozenset[str]:
    """The slugs of the league's rating tables at this request's revision (a page's grids page by them)."""
    return shape(request_revision(request).token).table_slugs


def cache_key(code_version: str, token: str | None, today: date, path: str, params: dict[str, str]) -> str:
    """The key of a stored page: everything its content depends on, with the declared parameters'
    canonical values (`params`) in one order. Written as JSON, so no value (a `table` holding "&" or a
    path holding a line break) can make one page's parts read as another's."""
    parts = [code_version, token, today.isoformat(), path, sorted(params.items())]
    return "page:" + hashlib.sha256(json.dumps(parts).encode()).hexdigest()


@dataclass(frozen=True)
class Entry:
    status: int
    headers: tuple[tuple[str, str], ...]
    content: bytes


class PageCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        key = self.key(request)
        if key is None:
            return self.get_response(request)
        entry = cache.get(key)
        if entry is not None:
            return self.replay(request, entry)
        shared = shared_pages()
        if shared is None:
            return self.render(request, key)
        generation = request.page_cache_generation
        found = shared.get(generation, key)
        if found is None:
            with shared.turn(generation, key):  # one worker renders, the others wait for its page
                found = shared.get(generation, key)
                if found is None:
                    return self.render(request, key, shared, generation)
        entry = Entry(*found)
        cache.set(key, entry, settings.PAGE_CACHE_SECONDS)
        return self.replay(request, entry)

    def render(self, request: HttpRequest, key: str, shared: SharedPages | None = None, generation: str = ""):
        response = self.get_response(request)
        if self.storable(response):
            entry = Entry(response.status_code, tuple((k, v) for k, v in response.items()), response.content)
            cache.set(key, entry, settings.PAGE_CACHE_SECONDS)
            if shared is not None:
                shared.put(generation, key, entry.status, entry.headers, entry.content)
        return response

    @staticmethod
    def key(request: HttpRequest) -> str | None:
        """The cache key of this request's page; None when it is not to be cached."""
        if settings.PAGE_CACHE_SECONDS <= 0:  # off (the load benchmark's cold runs)
            return None
        if request.method != "GET" or settings.SESSION_COOKIE_NAME in request.COOKIES:
            return None
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        declared = getattr(match.func, "page_params", None)
        if declared is None:
            return None
        params = declared.read(request.GET, lambda: request_table_slugs(request))
        if params is None:
            return None
        # The view (web/page_params.py: cached_page) sees only these values, so a page stored for one
        # request is the page of every request with its key: no link on it carries a parameter left out.
        token, today = request_revision(request).token, timezone.localdate()
        # What changes for every page at once: the shared folder keeps the pages of one generation.
        request.page_cache_generation = f"{CODE_VERSION}-{token or 'none'}-{today:%Y%m%d}"
        return cache_key(CODE_VERSION, token, today, request.path_info, params)

    @staticmethod
    def storable(response: HttpResponse) -> bool:
        """A complete 200 answer that sets no cookie and does not vary with the visitor."""
        vary = response.get("Vary", "").lower()
        return response.status_code == 200 and not response.streaming and not response.cookies and "cookie" not in vary

    @staticmethod
    def replay(request: HttpRequest, entry: Entry) -> HttpResponse:
        response = HttpResponse(entry.content, status=entry.status)
        for name, value in entry.headers:
            response[name] = value
        response = get_conditional_response(request, etag=response.get("ETag"), response=response)
        response.page_cache = "hit"  # for tests and the benchmark; not sent
        return response
