"""A club's secretaries: staff who keep its league. Each is in the group `SECRETARIES`, which holds
the admin's permissions on a league's own data (players, games, matchdays and their results,
seasons, pages, sessions of deals, rating tables): the entry page's too (web.pages.access). Which
club's rows they may touch is the club's `secretaries` relation: outside a club's pages (the admin
above all) their requests run in the django-scopes scope of their clubs, as a club's pages run in
that club's, so that every changelist, select box, object page and delete holds their clubs' rows
only. The site itself (its clubs, their revisions, the users) is the superuser's, who reads it
whole."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.db.models import Q
from django_scopes import scope

from league.models import Club
from web.pages.access import clubs_of

SECRETARIES = "Club secretaries"

# The league's rows a secretary keeps: every model of `league` but the site's own, and the rating
# tables (their methods are chosen in the admin). The ratings' figures are the recompute's to write.
_KEPT = Q(content_type__app_label="league") & ~Q(content_type__model__in=["club", "revision"]) | Q(
    content_type__app_label="ratings", content_type__model="ratingtable"
)


def secretaries_group() -> Group:
    """The group every secretary is in, made (or given the permissions it misses) on first use; an
    administrator may give it more in the admin."""
    group, _ = Group.objects.get_or_create(name=SECRETARIES)
    group.permissions.add(*Permission.objects.filter(_KEPT))
    return group


def make_secretary(user, club: Club) -> None:
    """Make `user` a secretary of `club`: staff, in the secretaries' group, and among the club's."""
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.groups.add(secretaries_group())
    club.secretaries.add(user)


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
