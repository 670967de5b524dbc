"""The API itself (django-ninja): its reads and its write under /api/, the OpenAPI schema at
/api/openapi.json and a docs page of our own at /api/docs, rendered from that schema on the server
(ninja's Swagger page loads a script bundle, and the site's Content-Security-Policy and an offline
server are better served by plain HTML). Every read is a cached page (web/page_cache/params.py),
declaring the query parameters it reads."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import render
from django.urls import URLPattern
from ninja import NinjaAPI
from ninja.errors import HttpError
from ninja.errors import ValidationError as NinjaValidationError

from web.api import reads, writes  # noqa: F401 (writes adds its operation to the reads' router)
from web.clubs.addresses import club_slug, is_page
from web.page_cache.params import PageParams, cached_page
from web.pages.as_at import AS_AT

api = NinjaAPI(
    title="League API",
    version="1",
    description="The club's tables, standings, players and matchdays as JSON, and a matchday entered with a "
    "secretary's token. See docs/api.md.",
    urls_namespace="api",
    docs_url=None,
    openapi_url="/openapi.json",
)
api.add_router("", reads.router)  # with the write, which shares an address with a read


@api.exception_handler(NinjaValidationError)
def invalid(request: HttpRequest, error: NinjaValidationError):
    """Ninja's 422 for a path or query value of the wrong type, as the API's 400 naming it."""
    problems = []
    for e in error.errors:
        where = [str(part) for part in e.get("loc", ()) if part not in ("query", "path", "body")]
        problems.append({"field": ".".join(where) or "request", "line": None, "message": e.get("msg", "")})
    return api.create_response(request, {"detail": "Nothing was read.", "problems": problems}, status=400)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, error: Http404):
    return api.create_response(request, {"detail": str(error) or "Not found."}, status=404)


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, error: HttpError):
    return api.create_response(request, {"detail": str(error)}, status=error.status_code)


@dataclass(frozen=True)
class ApiParams(PageParams):
    """A read's parameters: the pages' (as_at, all), and `page` for a list the API pages itself."""

    paged: bool = False

    def pages(self, table_slugs) -> set[str]:
        return {"page"} if self.paged else set()


READS = {  # url name -> what the read takes from its query
    "clubs": ApiParams(),
    "tables": ApiParams(),
    "standings": ApiParams(choices={"all": frozenset({"1"})}, dates=(AS_AT,)),
    "players": ApiParams(dates=(AS_AT,)),
    "player": ApiParams(dates=(AS_AT,)),
    "matchdays": ApiParams(paged=True),
    "matchday": ApiParams(),
    "games": ApiParams(),
}


def _as_page(pattern: URLPattern) -> URLPattern:
    """A read's address, its GET answered as a cached page (a POST to the same address is not)."""
    params = READS.get(pattern.name)
    if params is None:
        return pattern
    view = pattern.callback
    cached = cached_page(params)(view)

    def answer(request, *args, **kwargs):
        return (cached if request.method == "GET" else view)(request, *args, **kwargs)

    answer.csrf_exempt, answer.page_params = True, params
    return URLPattern(pattern.pattern, answer, pattern.default_args, pattern.name)


def docs(request):
    """The endpoints, their parameters and bodies, read from the schema."""
    schema = api.get_openapi_schema(path_prefix="/api/")
    operations = [
        {"method": method.upper(), "path": path, **operation}
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]
    return render(request, "api/docs.html", {"schema": schema, "operations": operations})


def _urls():
    patterns, app_name, namespace = api.urls
    return [_as_page(p) for p in patterns], app_name, namespace


URLS = _urls()


def index(request):
    """/api/: where to start."""
    return JsonResponse({"docs": "/api/docs", "schema": "/api/openapi.json", "clubs": "/api/clubs/"})


def not_an_api_address(request, rest: str = ""):
    """Any other address under /api/: a 404 in JSON, not a page, naming the address meant when only
    its last slash is missing (a redirect would drop a write's body)."""
    detail = "No API address is this; see /api/docs."
    meant = f"/api/{rest}/"
    of_a_club = club_slug(meant) != "api"  # /api/<slug>/...: only an existing club's
    if (
        not rest.endswith("/")
        and (getattr(request, "club", None) is not None or not of_a_club)
        and is_page(meant, getattr(request, "urlconf", None))
    ):
        detail = f"No API address is this; did you mean {meant} (see /api/docs)?"
    return JsonResponse({"detail": detail}, status=404)
