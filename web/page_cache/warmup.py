"""What a worker would otherwise do on its first request of a page, done when it starts: compile the
site's templates, build the URL resolver's tables, and render the home page once for itself (which
loads the context processors, the cache and message backends, and the lazily compiled patterns).

After a write one worker renders each page for all of them (web/page_cache/shared.py), so a worker that had
never rendered a page paid all this inside that one render while every other request waited for it:
measured in the load test during imports, 150 to 250 ms instead of 40 to 60 (docs/performance.md).
"""

from __future__ import annotations

import logging
from pathlib import Path
from wsgiref.util import setup_testing_defaults

from django.conf import settings
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import NoReverseMatch, URLResolver, get_resolver, reverse

logger = logging.getLogger(__name__)


def warm_up(application=None) -> None:
    """Compile every template of the project's folders into the cached loader, reverse every URL name
    that takes no argument, and (given the WSGI `application`) render the home page once. Never fails:
    a worker that could not warm up is only slower on its first requests."""
    for folder in settings.TEMPLATES[0]["DIRS"]:
        for path in sorted(Path(folder).rglob("*.html")):
            try:
                get_template(path.relative_to(folder).as_posix())
            except (TemplateDoesNotExist, TemplateSyntaxError):
                logger.exception("Could not compile the template %s", path)
    for name in url_names(get_resolver()):
        try:
            reverse(name, urlconf=settings.ROOT_URLCONF)
        except NoReverseMatch:
            pass  # takes arguments
    if application is not None:
        render_home(application)


def url_names(resolver: URLResolver, prefix: str = "") -> list[str]:
    """Every URL pattern's name under `resolver`, namespaced ("admin:index")."""
    names = [f"{prefix}{key}" for key in resolver.reverse_dict if isinstance(key, str)]
    for namespace, (_, inner) in resolver.namespace_dict.items():
        names.extend(url_names(inner, f"{prefix}{namespace}:"))
    return names


def home_path() -> str:
    """The first club's home page (the list of clubs while the site has none, or no database yet)."""
    from league.models import Club

    try:
        slug = Club.objects.order_by("pk").values_list("slug", flat=True).first()
    except Exception:  # noqa: BLE001 - no database yet, or none this process may reach
        return "/"
    return f"/{slug}/" if slug else "/"


def request_environ(path: str, *, session: bool) -> dict:
    """A GET of `path` over HTTPS as WSGI hands it over, for a host the site serves; with a session
    cookie (pages rendered for the request, never stored) or as a visitor (pages stored)."""
    host = next((h.lstrip(".") for h in settings.ALLOWED_HOSTS if "*" not in h), "localhost")
    environ = {
        "PATH_INFO": path,
        "SERVER_NAME": host,
        "SERVER_PORT": "443",
        "HTTP_HOST": host,
        "wsgi.url_scheme": "https",  # no redirect to HTTPS
        "REMOTE_ADDR": "127.0.0.1",
    }
    if settings.SECURE_PROXY_SSL_HEADER:  # production's proxy says HTTPS so, or the site redirects to it
        header, value = settings.SECURE_PROXY_SSL_HEADER
        environ[header] = value
    if session:
        environ["HTTP_COOKIE"] = f"{settings.SESSION_COOKIE_NAME}=warm-up"
    setup_testing_defaults(environ)  # the rest of a GET's WSGI keys
    return environ


def render_home(application) -> int | None:
    """GET a club's home page through the whole stack, as a visitor with a session cookie, whose
    pages are never taken from or put in the page cache: this worker renders it itself. The
    answer's status, or None."""
    environ = request_environ(home_path(), session=True)
    answer = []
    try:
        body = application(environ, lambda status, headers, exc_info=None: answer.append(status))
        for _ in body:
            pass
        getattr(body, "close", lambda: None)()
    except Exception:  # noqa: BLE001 - a worker starts whatever its warm-up met (no database yet...)
        logger.info("The warm-up request failed", exc_info=True)
        return None
    status = int(answer[0].split()[0]) if answer else None
    if status != 200:
        logger.info("The warm-up request answered %s", status)
    return status
