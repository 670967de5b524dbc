"""Who may use the entry page: the shared sections (the ETag), the navigation and the entry page
itself ask the same question."""

from django.conf import settings

# What staff need to use the entry page, as the admin needs them to add a matchday with its results.
ENTRY_PERMISSIONS = ("league.add_matchday", "league.add_result")


def may_enter(request) -> bool:
    """Whether the site's navigation offers this request the entry page: staff who may use it. Asked
    only with a session cookie, so a visitor's page (the one the page cache stores for everyone) never
    reads the session and never holds the link."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES or not hasattr(request, "user"):
        return False
    user = request.user
    return user.is_active and user.is_staff and user.has_perms(ENTRY_PERMISSIONS)
