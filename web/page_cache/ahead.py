"""A club's front pages rendered by the write that changes them, before it commits.

After a write, the first visitors of a page wait while one worker renders it again (the others wait
for its copy): at 2,000 matchdays the home page's 60 ms, which the load test saw as its p99 while
imports ran (docs/performance.md). So a write made through `rendered_ahead()` renders the front
pages (home, standings, the players) of every club whose revision it renewed, as a visitor would
get them, and stores them under the club's new revision inside its own transaction: the visitors
after the commit find them stored.

Never a page older than the data: the page is read inside the transaction that commits the data,
and stored under the token that transaction commits. Tokens are random, so a write rolled back
leaves only entries nobody asks for. A render that fails is logged and the write goes on: the page
is then rendered by the first visitor, as without this.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.db import transaction
from django.urls import get_urlconf, set_urlconf

from league import revision
from league.models import Club, Revision
from web.page_cache.warmup import request_environ

logger = logging.getLogger(__name__)
FRONT = ("", "standings/", "players/")  # under /<club>/: the pages a member opens every week
_handler: list[WSGIHandler] = []
_open: ContextVar[bool] = ContextVar("pages_ahead_open", default=False)  # an outer one renders


def _club_tokens() -> dict[str, str]:
    """Each club's slug and its current revision token, as this connection sees them."""
    tokens = dict(Revision.objects.filter(scope__startswith="club-").values_list("scope", "token"))
    return {slug: tokens.get(revision.of_club(pk), "") for pk, slug in Club.objects.values_list("pk", "slug")}


@contextmanager
def rendered_ahead():
    """Run the writes inside in one transaction and, before it commits, render and store the front
    pages of each club they renewed. Inside another (an admin upload's POST), the outer one renders."""
    if not settings.PAGES_AHEAD or settings.PAGE_CACHE_SECONDS <= 0 or _open.get():
        yield
        return
    opened = _open.set(True)
    try:
        with transaction.atomic():
            before = _club_tokens()
            yield
            renewed = [slug for slug, token in _club_tokens().items() if token != before.get(slug)]
            for slug in renewed:
                for page in FRONT:
                    render(f"/{slug}/{page}")
    finally:
        _open.reset(opened)


def render(path: str) -> int | None:
    """GET `path` as a visitor through the whole stack, so the page cache stores what it renders; its
    status, or None when it failed. Without Django's request signals: their handler would close the
    connection in the middle of the write's transaction."""
    if not _handler:
        _handler.append(WSGIHandler())
    urlconf = get_urlconf()  # the page's request sets its club's: the write's own goes on after it
    try:
        with transaction.atomic():  # a failure rolls back to here, not the write
            return _handler[0].get_response(WSGIRequest(request_environ(path, session=False))).status_code
    except Exception:  # noqa: BLE001 - the write goes on; the first visitor renders the page
        logger.warning("Could not render %s ahead of the write's commit", path, exc_info=True)
        return None
    finally:
        set_urlconf(urlconf)
