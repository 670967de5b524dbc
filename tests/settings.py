"""Fast settings for the test suite: the project's settings with a cheap password hasher."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Each test's writes roll back, so Redis would never hear of them: the suite caches in local
# memory, and tests/test_page_cache.py switches to REDIS_URL's server for its Redis runs.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Django's test client.login() authenticates without a request, which django-axes refuses; the
# lockout tests (test_admin_security.py) switch it on with the `settings` fixture.
AXES_ENABLED = False
# The tests' leagues are played on fixed dates that age: leaderboards show everyone unless a test
# hides inactive players itself (tests/test_standings.py).
LEAGUE_INACTIVE_DAYS = 0
# The test database is in memory: no file to share pages beside (tests/test_shared_pages.py sets one).
PAGE_CACHE_SHARED_DIR = ""
# A write renders its clubs' front pages before it commits: tests/test_pages_ahead.py switches it on, so
# that the other tests count only their own queries and renders.
PAGES_AHEAD = False
