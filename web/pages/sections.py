"""What the public pages share: conditional responses from the league's revision, the 404 lookups,
a page's table sections (each with a unique anchor, page parameter and download key, a pager and a
download), and the names with rating tooltips."""

from __future__ import annotations

import csv
from collections.abc import Callable
from urllib.parse import urlencode

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import condition, require_safe

from ratings.models import RatingTable
from ratings.selectors import standings
from web.page_cache import generation
from web.pages.access import may_enter
from web.pages.errors import NotFound
from web.pages.formatting import csv_cell
from web.pages.names import PlainNames, PlayerNames
from web.pages.paging import WHOLE_TABLE

EXPORT_FORMATS = ("csv", "json")
BASE_IDS = ("content",)  # the ids base.html gives its own elements


def get_or_404(queryset, message: str, **lookup):
    try:
        return queryset.get(**lookup)
    except queryset.model.DoesNotExist:
        raise NotFound(message) from None


def bad_request(request, message: str):
    """A 400 page that says what was wrong with the request (nothing is changed by it)."""
    return render(request, "400.html", {"message": message}, status=400)


def _etag(request, *args, **kwargs) -> str:
    # The generation the cached copy of a page is stored under: the revision, the code's version and
    # the date (who counts as inactive changes with it). Staff's copy holds the link to the entry
    # page, so a browser's copy from before a login or a logout is not taken for it.
    staff = "-enter" if may_enter(request) else ""
    return f'"{generation(request)}{staff}"'


# Every public page depends on the league's data only, so one revision stands for all of them: a
# conditional request for an unchanged page is answered 304 without building it. No Last-Modified:
# it has whole seconds, so a browser that saw a page before a second change within one second would
# be told by If-Modified-Since that its copy is current (docs/cache.md).
# A page is read, not sent anything: OPTIONS and TRACE are a 405 naming GET and HEAD (a POST meets the
# CSRF check first), not the whole page.
def public_page(view):
    return require_safe(condition(etag_func=_etag)(view))


def player_names(players, tables=None) -> PlayerNames:
    """A renderer of player names with rating tooltips for the players a page shows (one query, two
    without the rating `tables`)."""
    return PlayerNames(standings.current_ratings({p.pk for p in players}, tables))


class Section:
    """One table of a page: its anchor (`key`, also its download key), its heading's id, the query
    parameter of its page number, and once `show` is called, its pager and HTML."""

    def __init__(self, exports: Exports, key: str):
        self.exports = exports
        self.request = exports.request
        self.key = key
        self.heading_id = f"{key}-heading"
        self.param = f"{key}-page"
        self.build: Callable | None = None
        self.pager = None
        self.title = ""
        self.rating_table = None
        self.players: list = []
        self.in_sides = False  # shows a matchday played in sides: the page says how the method rates them
        self.also, self.alias = None, ""  # a category table it stands for too, and that table's anchor

    @property
    def page_number(self) -> str | None:
        """The page asked for; the whole table (`WHOLE_TABLE`) when the request downloads this
        table: a download holds the whole table, not the page shown."""
        if self.exports.wanted and self.request.GET.get("table") == self.key:
            return WHOLE_TABLE
        return self.request.GET.get(self.param)

    def show(
        self,
        build: Callable,
        page=None,
        *,
        title: str,
        newest_first: bool = False,
        rating_table=None,
        players=(),
    ) -> Section:
        """Show `build(names)`, a table (of `page` when paged), under `title` (which names its pager);
        the section is about `rating_table`, and its table names `players` (a grid's columns). The
        page renders the table with the page's names, a download reads it with plain ones."""
        self.build, self.title, self.rating_table, self.players = build, title, rating_table, list(players)
        self.exports.downloads.append(self.key)
        self.pager = pager(self.request, self, page, newest_first=newest_first)
        return self

    def html(self):
        return self.build(self.exports.names).as_html(self.request)

    def _download(self, export_format: str) -> str:
        if not self.request.GET:  # a page as first shown: nothing to keep (a copy of the query is a deep copy)
            return f"?{urlencode({'export': export_format, 'table': self.key})}"
        query = self.request.GET.copy()  # the page shown, with the other tables' pages
        query["export"], query["table"] = export_format, self.key
        return f"?{query.urlencode()}"

    @property
    def csv_url(self) -> str:
        return self._download("csv")

    @property
    def json_url(self) -> str:
        return self._download("json")


class Exports:
    """The table sections of a page. Their keys are unique within the page, and so are the anchors and
    page parameters made from them: a table whose slug is taken (a game named "Results" next to the
    results grid, or a fixed anchor of the page such as the chart's "history") gets "-2" added."""

    def __init__(self, request, reserved: tuple[str, ...] = ()):
        self.request = request
        self.sections: dict[str, Section] = {}
        self.taken: set[str] = {*BASE_IDS, *reserved}
        self.downloads: list[str] = []  # keys of the tables shown, in the order the view shows them
        self.names: PlayerNames | None = None  # set by the view once it knows who the page shows

    def section(self, wanted: str) -> Section:
        key, n = wanted, 2
        while key in self.taken or f"{key}-heading" in self.taken:
            key, n = f"{wanted}-{n}", n + 1
        self.taken.update((key, f"{key}-heading"))
        self.sections[key] = section = Section(self, key)
        return section

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
        if key not in self.downloads:
            return bad_request(self.request, f"table must be one of {', '.join(self.downloads)}.")
        return download(self.sections[key].build(PlainNames()), key, export_format)


def download(table, key: str, export_format: str) -> HttpResponse:
    """A table's plain values as CSV (text cells a spreadsheet would run as a formula neutralised,
    see `csv_cell`) or JSON (a list of objects keyed by the column headers)."""
    header, *rows = list(table.as_values())
    if export_format == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        writer = csv.writer(response, lineterminator="\r\n")
        for row in (header, *rows):
            writer.writerow([csv_cell(cell) for cell in row])
    else:
        records = [dict(zip(header, row, strict=True)) for row in rows]
        response = JsonResponse(records, safe=False, encoder=DjangoJSONEncoder)
    response["Content-Disposition"] = f'attachment; filename="{key}.{export_format}"'
    return response


def page_links(request, param: str, page, anchor: str = "", drop: tuple[str, ...] = ("export",)) -> dict | None:
    """Links to the neighbouring pages of one list (its page number in `param`), keeping the page
    numbers of the page's other lists (less the `drop` parameters) and coming back to `anchor`; None
    when everything fits."""
    if page is None or page.paginator.num_pages < 2:
        return None

    def url(number):
        query = request.GET.copy()
        query[param] = number
        for name in drop:
            query.pop(name, None)
        return f"?{query.urlencode()}{'#' + anchor if anchor else ''}"

    return {
        "page": page,
        "previous": url(page.previous_page_number()) if page.has_previous() else None,
        "next": url(page.next_page_number()) if page.has_next() else None,
    }


def pager(request, section: Section, page, *, newest_first: bool) -> dict | None:
    """A table section's page links: back to the table (its anchor), named for screen readers."""
    links = page_links(request, section.param, page, section.key, drop=("export", "table"))
    if links is None:
        return None
    return {
        **links,
        "label": f"{section.title}: pages",
        "previous_text": "Newer" if newest_first else "Previous",
        "next_text": "Older" if newest_first else "Next",
    }


def shown_with(exports: Exports, section: Section, also: RatingTable | None) -> Section:
    """`section`'s table also stands for `also`, a category table that repeats it: named beside it,
    and the category's anchor lands on it."""
    section.also, section.alias = also, exports.section(also.slug).key if also else ""
    return section
