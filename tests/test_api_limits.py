"""The API's rate limits: too many requests per address or per token are a 429 with `Retry-After`,
counted in the site's cache, which with Redis is shared by every worker and server: a count made by
one process holds in another."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache

from league.models import Matchday
from tests.api_client import NIGHT, post, secretary_token
from tests.conftest import CLUB_SLUG
from web.api import limits

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def token(club):
    return secretary_token()[1]


@pytest.fixture
def tight(settings):
    settings.API_RATE_PER_TOKEN, settings.API_RATE_PER_ADDRESS, settings.API_RATE_WINDOW = 3, 5, 60
    cache.clear()
    yield
    cache.clear()


def test_too_many_requests_from_one_address_are_a_429_with_retry_after(client, club, tight):
    answers = [client.get(f"/api/{CLUB_SLUG}/tables/") for _ in range(7)]
    assert [a.status_code for a in answers] == [200] * 5 + [429] * 2
    assert 1 <= int(answers[-1]["Retry-After"]) <= 60
    assert "Too many requests" in answers[-1].json()["detail"]
    # Cached reads count as well, and another address has its own count.
    assert client.get(f"/api/{CLUB_SLUG}/tables/", REMOTE_ADDR="10.0.0.9").status_code == 200
    # The pages are not the API's to limit.
    assert client.get(f"/{CLUB_SLUG}/standings/").status_code == 200


def test_too_many_posts_with_one_token_are_a_429_from_any_address(client, token, tight):
    answers = [post(client, NIGHT, token) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 400, 400]  # the second and third: a look-alike
    fourth = client.post(
        f"/api/{CLUB_SLUG}/matchdays/",
        json.dumps(NIGHT),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
        REMOTE_ADDR="10.0.0.7",
    )
    assert fourth.status_code == 429 and int(fourth["Retry-After"]) >= 1
    assert Matchday.objects.count() == 7


def test_the_count_is_kept_in_the_shared_cache_by_window_and_never_by_the_token(client, token, tight):
    post(client, NIGHT, token)
    keys = [k for k in cache._cache if "api-rate:" in k]  # the suite's local-memory cache; Redis with REDIS_URL
    assert any(":token:" in k for k in keys) and any(":address:" in k for k in keys)
    assert not any(token in k or token[3:] in k for k in keys)


def test_retry_after_is_the_rest_of_the_window(rf, settings):
    settings.API_RATE_PER_ADDRESS, settings.API_RATE_PER_TOKEN, settings.API_RATE_WINDOW = 1, 0, 60
    cache.clear()
    request = rf.get("/api/clubs/", REMOTE_ADDR="10.1.1.1")
    assert limits.over_limit(request, now=6000.0) is None
    assert limits.over_limit(request, now=6015.2) == 45
    assert limits.over_limit(request, now=6060.0) is None  # a new window
    cache.clear()


def test_a_cache_that_fails_leaves_the_api_unlimited_not_broken(client, club, tight, monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("redis is away")

    monkeypatch.setattr(limits, "_count", broken)
    assert all(client.get(f"/api/{CLUB_SLUG}/tables/").status_code == 200 for _ in range(8))


ANOTHER_SERVER = """
import django, sys
django.setup()
from django.test import RequestFactory, override_settings
from web.api import limits
caches = {"default": {"BACKEND": "league.shared_cache.SharedRedisCache", "LOCATION": sys.argv[1]}}
with override_settings(CACHES=caches, API_RATE_PER_ADDRESS=2, API_RATE_PER_TOKEN=0, API_RATE_WINDOW=3600):
    request = RequestFactory().get("/api/clubs/", REMOTE_ADDR="10.2.2.2")
    print(limits.over_limit(request, now=float(sys.argv[2])))
"""


def test_with_redis_a_count_made_by_one_server_holds_in_another(settings):
    url = os.environ.get("REDIS_URL")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("REDIS_URL is not set: in CI the rate limits must be tried against Redis too")
        pytest.skip("REDIS_URL is not set: no Redis server to test against")
    settings.CACHES = {"default": {"BACKEND": "league.shared_cache.SharedRedisCache", "LOCATION": url}}
    settings.API_RATE_PER_ADDRESS, settings.API_RATE_PER_TOKEN, settings.API_RATE_WINDOW = 2, 0, 3600
    cache.clear()
    now = 7200.0 * 1000
    from django.test import RequestFactory

    request = RequestFactory().get("/api/clubs/", REMOTE_ADDR="10.2.2.2")
    assert limits.over_limit(request, now=now) is None and limits.over_limit(request, now=now) is None
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"}
    command = [sys.executable, "-c", ANOTHER_SERVER, url, str(now + 1)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3599"  # the third request of the window, made by another process
    cache.clear()
