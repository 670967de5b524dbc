"""What a staff user reads outside a club's pages (the admin above all): the clubs they are a
secretary of, by the same django-scopes scope that a club's pages run in, so that every changelist,
select box, object page and delete of the admin holds their clubs' rows only. A superuser reads the
whole site, as every request outside a club's pages does."""

from __future__ import annotations

from django.conf import settings
from django_scopes import scope

from web.pages.access import clubs_of

CLUB_LIST = "/"  # public: every club with its latest matchday, whoever asks


class SecretaryScopeMiddleware:
    """After the authentication middleware: a staff user's request for a page of the site's own runs
    in the scope of their clubs (no club at all: nothing)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            getattr(request, "club", None) is not None  # a club's page: its own scope already
            or settings.SESSION_COOKIE_NAME not in request.COOKIES  # no session, no staff user
            or request.path_info == CLUB_LIST
        ):
            return self.get_response(request)
        clubs = clubs_of(request.user)
        if clubs is None or not request.user.is_staff:
            return self.get_response(request)
        with scope(club=clubs):
            return self.get_response(request)
