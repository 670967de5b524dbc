"""Fast settings for the test suite: the project's settings with a cheap password hasher."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Django's test client.login() authenticates without a request, which django-axes refuses; the
# lockout tests (test_admin_security.py) switch it on with the `settings` fixture.
AXES_ENABLED = False
