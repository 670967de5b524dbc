"""The limit the load benchmark measures the site against: the same Django under the same gunicorn,
serving the very bytes captured from the site's pages from memory, with no middleware, no database
and no template. `manage.py loadtest` runs it; nothing else does."""

import os

SECRET_KEY = os.environ.get("SECRET_KEY", "limit-only")
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "tools.limit.urls"
INSTALLED_APPS: list[str] = []
MIDDLEWARE: list[str] = []
DATABASES: dict = {}
USE_TZ = True
