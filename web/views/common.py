"""What the public pages share: conditional responses from the league's revision, the 404 lookups,
the downloads of a page's tables, their pagers, and the names with rating tooltips."""

from __future__ import annotations

from collections.abc import Callable

from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import condition
from django_tables2.export import TableExport

from ratings import selectors
from web.errors import NotFound
from web.names import PlainNames, PlayerNames
from web.page_cache import CODE_VERSION, request_revision
from web.render import table_html

EXPORT_FORMATS = ("csv", "json")


def get_or_404(queryset, message: str, **lookup):
    try:
        return queryset.get(**lookup)
    except queryset.model.DoesNotExist:
        raise NotFound(message) from None


def bad_request(request, message: str):
    """A 400 page that says what was wrong with the request (nothing is changed by it)."""
    return render(request, "400.html", {"message": message}, status=400)


def _etag(request, *args, **kwargs) -> str:
    # The league's revision, the code's version and the date (who counts as inactive changes
    # with it): what the cached copy of a page is keyed by, too.
    return f'"{request_revision(request).token}-{CODE_VERSION[:8]}-{timezone.localdate():%Y%m%d}"'


def _last_modified(request, *args, **kwargs):
    midnight = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    return max(request_revision(request).changed_at, midnight)


# Every public page depends on the league's data only, so one revision stands for all of them: a
# conditional request for an unchanged page is answered 304 without building it.
public_page = condition(etag_func=_etag, last_modified_func=_last_modified)


def player_names(players) -> PlayerNames:
    """A renderer of player names with rating tooltips for the players a page shows (one query)."""
    return PlayerNames(selectors.current_ratings({p.pk for p in players}))


class Exports:
    """The tables a page offers for download, each built on demand with plain-text names."""

    def __init__(self, request):
        self.request = request
        self.builders: dict[str, Callable] = {}
        self.names: PlayerNames | None = None  # set by the view once it knows who the page shows

    def add(self, key: str, build: Callable, page=None, param: str | None = None) -> dict:
        """Register `build(names)` under `key`; returns the section's download key, its pager and
        its table's HTML, built when the template renders it (after the view knows the names)."""
        self.builders[key] = build
        return {
            "key": key,
            "pager": pager(self.request, param or page_param(key), page),
            "html": lambda: table_html(build(self.names)),
        }

    @property
    def wanted(self) -> bool:
        return "export" in self.request.GET

    def response(self):
        """The download asked for, or None when the page itself was asked for."""
        if not self.wanted:
            return None
        export_format, key = self.request.GET.get("export"), self.request.GET.get("table")
        if export_format not in EXPORT_FORMATS:
            return bad_request(self.request, f"export must be one of {', '.join(EXPORT_FORMATS)}.")
        if key not in self.builders:
            return bad_request(self.request, f"table must be one of {', '.join(self.builders)}.")
        return TableExport(export_format, self.builders[key](PlainNames())).response(f"{key}.{export_format}")


def page_param(table_or_key) -> str:
    """The query parameter that holds the page number of one table of a page."""
    return f"{getattr(table_or_key, 'slug', table_or_key)}-page"


def pager(request, param: str, page) -> dict | None:
    """Links to the neighbouring pages of one table, keeping the page numbers of the page's other
    tables; None when everything fits on one page."""
    if page is None or page.paginator.num_pages < 2:
        return None

    def url(number):
        query = request.GET.copy()
        query[param] = number
        query.pop("export", None)
        return "?" + query.urlencode()

    return {
        "page": page,
        "previous": url(page.previous_page_number()) if page.has_previous() else None,
        "next": url(page.next_page_number()) if page.has_next() else None,
    }
