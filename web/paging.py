"""Pages of long tables, with a plain 404 for a page that does not exist."""

from __future__ import annotations

from django.core.paginator import InvalidPage, Page, Paginator

from web.errors import NotFound


def paginate(queryset, number, per_page: int, count: int | None = None) -> Page:
    """A page of `queryset`; a 404 that says which pages there are when `number` is not one.

    `count`, when the caller knows it already (see `ratings.selectors.standings.spans`), spares the query that
    counts the rows."""
    paginator = Paginator(queryset, per_page, allow_empty_first_page=True)
    if count is not None:
        paginator.count = count  # a cached property: setting it is what Django's own code reads
    try:
        return paginator.page(number or 1)
    except InvalidPage:
        raise NotFound(f"There is no page “{number}” here: pages run from 1 to {paginator.num_pages}.") from None
