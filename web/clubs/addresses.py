"""Which club a request is for. A club's pages are under /<slug>/: the middleware finds the club by
its address's first segment, gives the request that club's URL configuration (so that every
`reverse` and `{% url %}` of the page names the club's own addresses, and the site's, such as the
admin's, stay where they are) and reads only that club's rows while it answers (django-scopes).
"""

from __future__ import annotations

import functools
from types import ModuleType

from django.urls import Resolver404, resolve, set_urlconf
from django_scopes import scope, scopes_disabled

from league import revision
from league.models import Club, answering
from league.models.clubs import RESERVED_SLUGS

_known: list = [None, {}]  # the clubs' revision token, and the clubs by slug as they were at it


def clubs_by_slug() -> dict[str, Club]:
    """Every club by slug, read again whenever a club was made, renamed or deleted (the `CLUBS`
    revision)."""
    return _known[1] if _known[0] == revision.current(revision.CLUBS) else _read_clubs()


def _read_clubs() -> dict[str, Club]:
    token = revision.current(revision.CLUBS)
    _known[:] = [token, {club.slug: club for club in Club.objects.all()}]
    return _known[1]


def forget() -> None:
    """Read the clubs again at the next request (tests: a fresh database may reuse a token)."""
    _known[:] = [None, {}]


def club_and_token(slug: str) -> tuple[Club | None, str | None]:
    """The club at /<slug>/ and its pages' revision token (read with the clubs' own, in one query),
    or (None, None) for an address of the site's own."""
    if not slug or slug in RESERVED_SLUGS:
        return None, None
    club = _known[1].get(slug)
    scopes = (revision.CLUBS, revision.of_club(club.pk)) if club is not None else (revision.CLUBS,)
    tokens = revision.current_of(*scopes)
    if tokens[0] != _known[0]:  # a club was made, renamed or deleted since
        club = _read_clubs().get(slug)
        return (club, revision.current(revision.of_club(club.pk))) if club is not None else (None, None)
    if club is None and (club := _known[1].get(slug)) is not None:
        # Another thread of this worker read the clubs between our two looks: its reading holds them.
        return club, revision.current(revision.of_club(club.pk))
    return (club, tokens[1]) if club is not None else (None, None)


@functools.lru_cache(maxsize=1024)
def urlconf(slug: str, club_id: int | None = None) -> ModuleType:
    """The site's addresses with one club's pages under /<slug>/ (built once per club and process):
    a module as Django's resolvers take one, and cache by. `club_id` tells `club_reverse` whose."""
    from web import urls

    module = ModuleType(f"web.urls[{slug}]")
    module.club_id = club_id
    module.urlpatterns = urls.site_patterns(slug)
    for name, handler in urls.HANDLERS.items():
        setattr(module, name, handler)
    return module


CATCH_ALLS = ("old_address", "not_an_api_address")  # the names of the patterns that match what no page has


def is_page(path: str, conf=None) -> bool:
    """Whether a page (not a catch-all) has the address, in the addresses `conf` (the site's)."""
    try:
        return resolve(path, urlconf=conf).url_name not in CATCH_ALLS
    except Resolver404:
        return False


def club_slug(path: str) -> str:
    """The club an address is for: its first segment, or for the API's club addresses
    (/api/<slug>/..., web/api/) its second, so that an API read is cached, scoped and renewed as the
    club's pages are."""
    if not path.startswith("/"):  # a request for "*" or "x": no page's, nobody's
        return ""
    parts = path.split("/", 4)
    if parts[1] == "api" and len(parts) > 3 and parts[3]:
        return parts[2]
    return parts[1]


class ClubMiddleware:
    """Sets `request.club` (None for the site's own pages: the list of clubs, the admin, old
    addresses), its pages' revision token and, for a club's page, its addresses: before the page
    cache, whose keys and versions are the club's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        club, request.revision_token = club_and_token(club_slug(request.path_info))
        request.club, request.several_clubs = club, len(_known[1]) > 1
        if club is not None:  # set as the thread's by ClubScopeMiddleware: a stored page reverses nothing
            request.urlconf = urlconf(club.slug, club.pk)
        return self.get_response(request)


class ClubScopeMiddleware:
    """After the page cache (a stored page reads nothing): the rest of a club's request reads and
    writes that club's rows only (django-scopes) and its settings; the site's own requests read the
    whole site (a secretary's admin is narrowed to their clubs by web.clubs.secretaries)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        club = getattr(request, "club", None)
        if club is None:
            with scopes_disabled():
                return self.get_response(request)
        set_urlconf(request.urlconf)  # for the middleware after this one; the view's is set by Django's handler
        with scope(club=club.pk), answering(club):
            return self.get_response(request)
