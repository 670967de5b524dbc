"""Who posts: a secretary's token (`Authorization: Bearer <token>`), found by its SHA-256 in the
database at every request (no cache, so a revoked token stops at once on every server), compared in
constant time, and good only for its user's clubs. The token itself is never stored or logged."""

from __future__ import annotations

from django.utils.crypto import constant_time_compare
from ninja.errors import HttpError
from ninja.security import HttpBearer

from league.models import ApiToken
from league.models.tokens import digest
from web.pages.access import ENTRY_PERMISSIONS, works_on

TOKEN_LENGTH = 100  # ours are 46 characters; anything much longer is not one


def found(token: str) -> ApiToken | None:
    """The live token row for `token`, or None (unknown, revoked, or its user no longer staff)."""
    if not token or len(token) > TOKEN_LENGTH:
        return None
    wanted = digest(token)
    row = ApiToken.objects.select_related("user").filter(key_hash=wanted, revoked__isnull=True).first()
    if row is None or not constant_time_compare(row.key_hash, wanted):
        return None
    return row if row.user.is_active and row.user.is_staff else None


class SecretaryToken(HttpBearer):
    """Ninja's bearer scheme (so the schema documents it), with our look-up."""

    def authenticate(self, request, token):
        return found(token)


def allowed(token: ApiToken, club) -> None:
    """Refuse a token for a club its user keeps no league of (404: the club's data is not theirs to
    see exist), or whose user may not enter results (403, as the entry page)."""
    if club is None or not works_on(token.user, club.pk):
        raise HttpError(404, "No club has this address for this token.")
    if not token.user.has_perms(ENTRY_PERMISSIONS):
        raise HttpError(403, "This token's user may not enter results (they need to add matchdays and results).")
