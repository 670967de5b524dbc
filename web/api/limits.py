"""The API's rate limits: so many requests a window per token and per address, counted in Django's
cache (Redis when REDIS_URL is set, so the count holds across workers and servers), answered over
the limit with a 429 and `Retry-After`. A middleware before the page cache, so that a stored answer
counts as well. Settings: API_RATE_PER_TOKEN, API_RATE_PER_ADDRESS, API_RATE_WINDOW."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.http import JsonResponse

from league.models.tokens import digest
from web.pages.access import client_address

log = logging.getLogger(__name__)
PREFIX = "/api/"


def _count(key: str, window: int) -> int:
    """This window's requests under `key`, this one included (a fixed window: the key names it)."""
    cache.add(key, 0, timeout=window + 1)
    try:
        return cache.incr(key)
    except ValueError:  # expired between the two calls: this is the window's first
        cache.add(key, 1, timeout=window + 1)
        return 1


def over_limit(request, now: float | None = None) -> int | None:
    """The seconds until the request may be made again, if it is over a limit; else None."""
    window = settings.API_RATE_WINDOW
    now = time.time() if now is None else now
    start = int(now // window)
    checks = [("address", client_address(request), settings.API_RATE_PER_ADDRESS)]
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if header[:7].lower() == "bearer ":  # counted by the digest: the token never goes to the cache
        checks.append(("token", digest(header[7:].strip()), settings.API_RATE_PER_TOKEN))
    for kind, who, limit in checks:
        if limit > 0 and _count(f"api-rate:{kind}:{who}:{start}", window) > limit:
            return max(1, int((start + 1) * window - now + 0.999))
    return None


class RateLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path_info.startswith(PREFIX):
            return self.get_response(request)
        try:
            wait = over_limit(request)
        except Exception:  # the cache is down: the API answers unlimited, as the pages do uncached
            log.warning("API rate limits not counted: the cache is unreachable", exc_info=True)
            wait = None
        if wait is None:
            return self.get_response(request)
        response = JsonResponse({"detail": f"Too many requests: try again in {wait} seconds."}, status=429)
        response["Retry-After"] = str(wait)
        return response
