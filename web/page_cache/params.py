"""The query parameters a cached public page reads, declared on its view with `cached_page`.

A visitor's page is stored under a key holding only these parameters' canonical values
(web/page_cache/__init__.py), so a parameter the view reads without declaring it would be ignored for every
visitor. The declaration is therefore the only way in: the view is handed the canonical values, for
visitors and staff alike, and tests/test_page_params.py fails when a view reads a name it left out.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.http import QueryDict
from django.utils.cache import patch_cache_control

from league.validation import iso_date
from web.page_cache import table_slugs
from web.pages.paging import page_number

EXPORT_PARAMS = ("export", "table")  # a table's download (web/pages/sections.py)


def page_param(key: str) -> str:
    """The query parameter of a table section's page number (web/pages/sections.py: Section)."""
    return f"{key}-page"


def _is_date(text: str) -> bool:
    try:
        iso_date(text)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class PageParams:
    """What one page reads from its query: the page numbers of its table `sections` (and of one
    section per rating table when `tables`), its `choices` (each a set of values), the downloads
    when `exports`, days (`dates`, as 2025-11-03), and names whose presence (`uncached`, e.g. a
    search) makes the answer unstored."""

    sections: tuple[str, ...] = ()
    tables: bool = False
    choices: dict[str, frozenset[str]] = field(default_factory=dict)
    exports: bool = False
    uncached: tuple[str, ...] = ()
    dates: tuple[str, ...] = ()  # web/pages/as_at.py

    def pages(self, table_slugs: Iterable[str]) -> set[str]:
        keys = {*self.sections, *(table_slugs if self.tables else ())}
        # A section whose key is taken on its page (a game named "Results") gets "-2" (web/pages/sections.py).
        return {page_param(f"{key}{suffix}") for key in keys for suffix in ("", "-2")}

    def names(self, table_slugs: Iterable[str]) -> set[str]:
        """Every name the page may read, for the league whose rating tables are `table_slugs`."""
        exports = EXPORT_PARAMS if self.exports else ()
        return {*self.pages(table_slugs), *self.choices, *exports, *self.uncached, *self.dates}

    def canonical(self, query: QueryDict, table_slugs: Callable[[], Iterable[str]]) -> dict[str, str] | None:
        """The declared parameters' values written one way: page numbers as plain numbers (page 1 as
        no parameter), choices only from their set, dates as 2025-11-03 (blank: none), `export` and
        `table` for downloads. Anything else is left out. None when a value is one the page would
        refuse (page 0, a sort it does not know, a date that is none): such a request is never
        stored, and reaches the view as it came, to be refused there. `table_slugs` is called only
        for a page that pages by its tables."""
        pages = self.pages(table_slugs() if self.tables else ())
        known: dict[str, str] = {}
        for name, values in query.lists():
            value = values[-1].strip()
            if name in pages:
                number = page_number(value)  # the view's own reading (web/pages/paging.py)
                if number is None:
                    return None
                if number > 1:
                    known[name] = str(number)
            elif name in self.choices:
                if value not in self.choices[name]:
                    return None
                known[name] = value
            elif name in self.dates:
                if value and not _is_date(value):
                    return None
                if value:
                    known[name] = value
            elif self.exports and name in EXPORT_PARAMS:
                known[name] = value
        return known

    def read(self, query: QueryDict, table_slugs: Callable[[], Iterable[str]]) -> dict[str, str] | None:
        """The values that key the stored page; None when the answer is not to be stored (a value
        the page refuses, a search)."""
        if not query:
            return {}
        if any(query.get(name, "").strip() for name in self.uncached):
            return None
        return self.canonical(query, table_slugs)

    def seen(self, query: QueryDict, table_slugs: Callable[[], Iterable[str]]) -> QueryDict | None:
        """The query the view is handed: the canonical values, and the names that leave a page unstored
        (a search) as they came; None when a declared value is one the view must refuse itself."""
        values = self.canonical(query, table_slugs) if query else {}
        if values is None:
            return None
        values.update({name: query[name] for name in self.uncached if query.get(name, "").strip()})
        return query_of(values)


def query_of(params: dict[str, str]) -> QueryDict:
    """An immutable query holding exactly `params`."""
    query = QueryDict(mutable=True)
    query.update(params)
    query._mutable = False
    return query


def cached_page(params: PageParams = PageParams()):
    """Mark a view as a public page whose answer may be cached for visitors, reading `params` only.

    Whoever asks, the view sees the canonical values the cache key holds (and a search as typed), so
    that a visitor and staff get one answer to one address; a request with a value the view refuses
    (page 0, a page number that is not a number) reaches the view as it came, to be refused there.

    Browsers and proxies are told to ask again each time (the ETag makes that a cheap 304): a page
    shown to a visitor may be kept by any cache, one shown to anyone with a session by theirs only."""

    def decorate(view):
        @functools.wraps(view)
        def page(request, *args, **kwargs):
            seen = params.seen(request.GET, lambda: table_slugs(request))
            if seen is not None:
                request.GET = seen
            response = view(request, *args, **kwargs)
            # A session (staff) is the page cache's own test of who gets a page stored for all.
            audience = "private" if settings.SESSION_COOKIE_NAME in request.COOKIES else "public"
            patch_cache_control(response, no_cache=True, **{audience: True})
            return response

        page.page_params = params
        return page

    return decorate
