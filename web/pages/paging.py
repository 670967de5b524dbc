"""Pages of long tables, with a plain 404 for a page that does not exist."""

from __future__ import annotations

from django.core.paginator import InvalidPage, Page, Paginator

from league.validation import Span, whole_number
from web.pages.errors import NotFound

PAGE_NUMBERS = Span(1, 9_999_999)
WHOLE = 1_000_000_000  # a page size no table reaches: the whole table on one page
WHOLE_TABLE = "whole"  # the page number a table's download asks for (`Section.page_number`)


def page_number(text: str | None) -> int | None:
    """The page `text` names: 1 when it is absent or blank, None when it is not a page number at all
    (below 1, signed, a decimal, digits of another script). The page cache's key and the view read
    page numbers with this alone, so no request the view refuses is stored, or served, as another page."""
    text = (text or "").strip()
    if not text:
        return 1
    try:
        return whole_number(text, "page", PAGE_NUMBERS)
    except ValueError:
        return None


def paginate(queryset, number: str | None, per_page: int, count: int | None = None) -> Page:
    """A page of `queryset`; a 404 that says which pages there are when `number` is not one.

    `count`, when the caller knows it already (see `ratings.selectors.standings.spans`), spares the query that
    counts the rows."""
    if number == WHOLE_TABLE:
        number, per_page = None, WHOLE
    paginator = Paginator(queryset, per_page, allow_empty_first_page=True)
    if count is not None:
        paginator.count = count  # a cached property: setting it is what Django's own code reads
    try:
        read = page_number(number)
        if read is None:
            raise InvalidPage
        return paginator.page(read)
    except InvalidPage:
        raise NotFound(f"There is no page “{number}” here: pages run from 1 to {paginator.num_pages}.") from None
