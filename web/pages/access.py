"""Who may do what: which clubs a staff user works on (the admin, the upload, the entry page), and
who may use the entry page (the shared sections' ETag, the navigation and the entry page itself ask
the same question), and from which address a request came (`client_address`: the API's limit and
the login lockout)."""

from __future__ import annotations

import ipaddress

from django.conf import settings

from league.models import Club

# What staff need to use the entry page, as the admin needs them to add a matchday with its results.
ENTRY_PERMISSIONS = ("league.add_matchday", "league.add_result")


def clubs_of(user) -> list[int] | None:
    """The ids of the clubs `user` works on: None for a superuser (every club, the site's own work);
    a staff user's clubs they are a secretary of. Staff of a site of one club who are no club's
    secretary work on that club, as every staff user did before there were clubs; with several
    clubs they work on none until a club names them."""
    if user.is_superuser and user.is_active:
        return None
    if not (user.is_active and user.is_staff):
        return []
    cached = getattr(user, "_secretary_of", None)
    if cached is None:
        cached = list(user.clubs.values_list("pk", flat=True))
        if not cached:
            only = list(Club.objects.values_list("pk", flat=True)[:2])
            cached = only if len(only) == 1 else []
        user._secretary_of = cached  # a request asks several times (middleware, navigation, view)
    return cached


def works_on(user, club_id: int) -> bool:
    """Whether `user` may enter and change the club's data."""
    clubs = clubs_of(user)
    return clubs is None or club_id in clubs


def may_enter(request) -> bool:
    """Whether the site's navigation offers this request the entry page: the club's secretaries (and
    superusers) who may use it. Asked only with a session cookie, so a visitor's page (the one the
    page cache stores for everyone) never reads the session and never holds the link."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES or not hasattr(request, "user"):
        return False
    user, club = request.user, getattr(request, "club", None)
    if not (user.is_active and user.is_staff and user.has_perms(ENTRY_PERMISSIONS)):
        return False
    return club is not None and works_on(user, club.pk)


def client_address(request) -> str:
    """The connection's address, or, behind `TRUSTED_PROXIES` proxies that each add the address they
    were sent from to `X-Forwarded-For`, the address the outermost of them saw. Entries a client
    wrote itself stand to the left of those and are never read."""
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRUSTED_PROXIES
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if len(forwarded) < proxies:  # not sent through every proxy: the left-most is the nearest to the client
        candidate = forwarded[0] if forwarded else remote
    else:
        candidate = forwarded[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:  # not an address: the proxy's own
        return remote
