"""Pages that say what went wrong: a 404 with a message for the visitor (`NotFound`), Django's error
handlers and django-axes' lockout."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template import loader


class NotFound(Http404):
    """A 404 whose message is written for the visitor; the 404 page shows it."""


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer to a login refused after too many failures (AXES_LOCKOUT_CALLABLE)."""
    from django.contrib import admin

    username = (credentials or {}).get("username") or request.POST.get("username", "")
    ctx = {
        **admin.site.each_context(request),
        "username": username,
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }
    return render(request, "admin/locked_out.html", ctx, status=429)


def not_found(request, exception):
    """handler404: our own message for a NotFound, a plain one for any other missing page."""
    message = str(exception) if isinstance(exception, NotFound) else ""
    return render(request, "404.html", {"message": message, "request_path": request.path}, status=404)


def _without_request(template: str, status: int):
    # No request context: the database or a context processor may be what failed.
    html = loader.get_template(template).render({"league_name": settings.LEAGUE_NAME})
    return HttpResponse(html, status=status)


def server_error(request):
    """handler500."""
    return _without_request("500.html", 500)


def request_refused(request, exception):
    """handler400, for a request Django refuses (e.g. a host name not in ALLOWED_HOSTS)."""
    return _without_request("400.html", 400)
