"""Pages of long tables, with a plain 404 for a page that does not exist."""

from __future__ import annotations

from django.core.paginator import InvalidPage, Page, Paginator

from web.errors import NotFound


def paginate(queryset, number, per_page: int) -> Page:
    """A page of `queryset`; a 404 that says which pages there are when `number` is not one."""
    paginator = Paginator(queryset, per_page, allow_empty_first_page=True)
    try:
        return paginator.page(number or 1)
    except InvalidPage:
        raise NotFound(f"There is no page “{number}” here: pages run from 1 to {paginator.num_pages}.") from None
