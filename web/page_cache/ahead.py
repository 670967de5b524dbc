"""A club's front pages rendered by the write that changes them, before it commits.

After a write, the first visitors of a page wait while one worker renders it again (the others wait
for its copy): at 2,000 matchdays the home page's 60 ms, which the load test saw as its p99 while
imports ran (docs/performance.md). So a write made through `rendered_ahead()` renders the front
pages (home, standings, the players) of every club whose revision it renewed, and the pages of the
games, players and matchdays it wrote (the most recently played `GAMES` games, `PLAYERS` players and
`MATCHDAYS` matchdays of them: a game night's Save renders its matchdays and its players' pages,
which they open next), as a visitor would get them, and stores them under the club's new revision
inside its own transaction: the visitors after the commit find them stored.

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
from django.db.models import Count, F, Max
from django.urls import get_urlconf, set_urlconf
from django_scopes import scopes_disabled

from league import revision
from league.models import Club, Game, Matchday, Player
from league.models.history import Change, Write
from web.page_cache.warmup import request_environ

logger = logging.getLogger(__name__)
FRONT = ("", "standings/", "players/")  # under /<club>/: the pages a member opens every week
GAMES = 5  # a whole league's import touches every game: the most recently played are rendered
PLAYERS = 8  # a game night's table or two; of an import's players, the last to play (then the busiest)
MATCHDAYS = 5  # a game night's; of an import's, the latest
_handler: list[WSGIHandler] = []
_open: ContextVar[bool] = ContextVar("pages_ahead_open", default=False)  # an outer one renders


@contextmanager
def rendered_ahead():
    """Run the writes inside in one transaction and, before it commits, render and store the front
    pages of each club they renewed and the pages of the games, players and matchdays they wrote.
    Inside another (an admin upload's POST), the outer one renders."""
    if not settings.PAGES_AHEAD or settings.PAGE_CACHE_SECONDS <= 0 or _open.get():
        yield
        return
    opened = _open.set(True)
    try:
        # The site's revision is renewed last, after the renders: its row is every club's.
        with transaction.atomic(), revision.write_renewals() as scopes:
            with scopes_disabled():  # every club's: the write's own scope is its own affair
                last_write = Write.objects.aggregate(last=Max("pk"))["last"] or 0
            yield
            with scopes_disabled():
                clubs = Club.objects.filter(pk__in=[revision.club_of(scope) for scope in scopes])
                renewed = list(clubs.order_by("slug").values_list("slug", flat=True))
                written = _written(last_write, renewed)
            for path in [f"/{slug}/{page}" for slug in renewed for page in FRONT] + written:
                render(path)
    finally:
        _open.reset(opened)


def _written(after_write: int, clubs: list[str]) -> list[str]:
    """The addresses of what the writes after `after_write` wrote in the renewed clubs: the games and
    players whose matchdays or sessions they added, changed or deleted, and those matchdays; per club
    the `GAMES` games, `PLAYERS` players and `MATCHDAYS` matchdays most recently played."""
    changes = Change.objects.filter(write__pk__gt=after_write, kind__in=("matchday", "session"))
    game_ids, player_ids, matchday_ids = set(), set(), set()
    for kind, key, after, before, players in changes.values_list(
        "kind", "key", "after__game_id", "before__game_id", "players"
    ):
        game_ids.update(pk for pk in (after, before) if pk)
        player_ids.update(int(pk) for pk in players.split("|") if pk)
        if kind == "matchday":
            matchday_ids.add(key)
    games = (
        Game.objects.filter(pk__in=game_ids, club__slug__in=clubs)
        .annotate(last=Max("matchdays__date"))
        .order_by("club__slug", F("last").desc(nulls_last=True), "pk")
        .values_list("club__slug", "slug")
    )
    players = (
        Player.objects.filter(pk__in=player_ids, club__slug__in=clubs)
        .annotate(last=Max("results__matchday__date"), played=Count("results"))
        .order_by("club__slug", F("last").desc(nulls_last=True), "-played", "pk")
        .values_list("club__slug", "pk")
    )
    matchdays = (  # a deleted one has no page
        Matchday.objects.filter(pk__in=matchday_ids, club__slug__in=clubs)
        .order_by("club__slug", "-date", "-number")
        .values_list("club__slug", "number")
    )
    return (
        [f"/{club}/games/{game}/" for club, game in _first(games, GAMES)]
        + [f"/{club}/players/{player}/" for club, player in _first(players, PLAYERS)]
        + [f"/{club}/matchdays/{number}/" for club, number in _first(matchdays, MATCHDAYS)]
    )


def _first(rows, count: int) -> list[tuple]:
    """The first `count` (club, page) rows of each club."""
    shown: dict[str, list] = {}
    for club, page in rows:
        if len(shown.setdefault(club, [])) < count:
            shown[club].append(page)
    return [(club, page) for club, pages in shown.items() for page in pages]


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
