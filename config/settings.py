"""Settings for the league site, read from environment variables.

Local use needs none of them: `make run` gets DEBUG on, a development secret key and an SQLite file in
the project folder. Set LEAGUE_PRODUCTION=1 on a server; then SECRET_KEY and ALLOWED_HOSTS are
required and DEBUG must stay off, so a forgotten variable stops the start instead of leaking.
"""

import hashlib
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envlist(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


PRODUCTION = envbool("LEAGUE_PRODUCTION", False)
DEBUG = envbool("DEBUG", not PRODUCTION)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,[::1]")

if PRODUCTION:
    if DEBUG:
        raise ImproperlyConfigured("DEBUG must be off when LEAGUE_PRODUCTION is set.")
    # Django's own deployment check (security.W009) wants 50 characters, 5 of them different.
    if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure-"):
        raise ImproperlyConfigured(
            "SECRET_KEY must be set (at least 50 random characters) when LEAGUE_PRODUCTION is set."
        )
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS must name the site's host names when LEAGUE_PRODUCTION is set.")
    # "*" answers to any Host header, which is what the Host check is there to refuse: absolute URLs
    # built from a request could point wherever a visitor chose. ".club.example" (the domain and its
    # subdomains) is fine.
    wildcards = [host for host in ALLOWED_HOSTS if "*" in host]
    if wildcards:
        raise ImproperlyConfigured(
            f"ALLOWED_HOSTS must name the site's host names, not {', '.join(wildcards)}, when LEAGUE_PRODUCTION is set."
        )
elif not SECRET_KEY:
    SECRET_KEY = "django-insecure-local-development-only"  # noqa: S105 - local use only

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "csp",
    "axes",
    # The club's data, the ratings derived from it, and the pages and admin on top of both.
    "league",
    "ratings",
    "web",
    "tools",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the page cache: a cached page is answered only after Django's checks of the request
    # (the Host in ALLOWED_HOSTS, refused user agents, PREPEND_WWW), as a rendered one is.
    "django.middleware.common.CommonMiddleware",
    # Which club the request is for, and its addresses: before the page cache, whose keys and
    # revision are the club's.
    "web.clubs.addresses.ClubMiddleware",
    # The API's rate limits (web/api/limits.py): before the page cache, so a stored answer counts too.
    "web.api.limits.RateLimitMiddleware",
    # Before sessions, authentication, CSRF and the rest: a cached public page skips them all.
    "web.page_cache.PageCacheMiddleware",
    # The scope of a club's queries, for what the page cache did not answer.
    "web.clubs.addresses.ClubScopeMiddleware",
    # After the page cache: a page is stored with its policy header, which a hit replays rather than
    # building it again (a third of a hit's time; docs/performance.md).
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A secretary's admin reads and writes their clubs' rows only (a superuser's, every club's).
    "web.clubs.secretaries.SecretaryScopeMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A locked, full or read-only database gets a 503 that says so, not a 500.
    "web.faults.DatabaseFaultMiddleware",
    # Last: turns a login refused for too many failures into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
# A club's addresses: the site's, with its pages under /<slug>/ (league.models.club_reverse).
CLUB_URLCONF = "web.clubs.addresses.urlconf"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context_processors.navigation",
            ],
        },
    },
    {
        # Only the tables' template (DJANGO_TABLES2_TEMPLATE), in web/jinja2/: see docs/performance.md.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "APP_DIRS": True,
    },
]

_database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
# PostgreSQL keeps each worker's connection (checked before reuse): a new one per request cost every
# cached page 11 ms more than the 2.5 ms of its hit (docs/performance.md). SQLite opens a file.
_postgres = _database_url.startswith(("postgres://", "postgresql://"))
DATABASES = {
    "default": dj_database_url.parse(
        _database_url,
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "600" if _postgres else "0")),
        conn_health_checks=_postgres,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Two admins, or an import and an admin, saving at once: WAL lets readers go on while one
    # writer writes; IMMEDIATE takes the write lock when a transaction starts, so a second writer
    # waits (up to the timeout) instead of failing half-way with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": int(os.environ.get("SQLITE_TIMEOUT", "20")),
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        **DATABASES["default"].get("OPTIONS", {}),
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Rendered public pages are cached per revision (web/page_cache/__init__.py). Each worker keeps the pages it
# serves in its own memory and shares them with the machine's other workers through a folder;
# REDIS_URL shares them, and the revisions, between all workers of all servers instead.
REDIS_URL = os.environ.get("REDIS_URL", "")
# Passed to redis-py's connections: a Redis stopped or out of reach must cost a page milliseconds
# (it is then rendered without the cache: league/shared_cache.py), not redis-py's default 5 s.
REDIS_OPTIONS = {
    "socket_connect_timeout": float(os.environ.get("REDIS_CONNECT_TIMEOUT", "0.2")),
    "socket_timeout": float(os.environ.get("REDIS_TIMEOUT", "0.5")),
}
# The API (web/api/, docs/api.md): requests per API_RATE_WINDOW seconds per token and per address
# (0: no limit), counted in the default cache (Redis when set: across servers); the largest body a
# post may send, in bytes.
API_RATE_PER_TOKEN = int(os.environ.get("API_RATE_PER_TOKEN", "120"))
API_RATE_PER_ADDRESS = int(os.environ.get("API_RATE_PER_ADDRESS", "300"))
API_RATE_WINDOW = max(1, int(os.environ.get("API_RATE_WINDOW", "60")))
API_BODY_LIMIT = int(os.environ.get("API_BODY_LIMIT", str(64 * 1024)))
PAGE_CACHE_SECONDS = int(os.environ.get("PAGE_CACHE_SECONDS", str(24 * 3600)))
# Each worker keeps up to this many pages in its own memory (web/page_cache/__init__.py: PageMemory):
# 500 pages of ~100 kB is ~50 MB; the least used third goes when full.
PAGE_CACHE_ENTRIES = int(os.environ.get("PAGE_CACHE_ENTRIES", "500"))
# The shared folder holds every club's pages, compressed on disk, culled at random when full.
PAGE_CACHE_SHARED_ENTRIES = int(os.environ.get("PAGE_CACHE_SHARED_ENTRIES", "20000"))
if REDIS_URL:
    # Keys are kept apart per database, so two sites sharing one Redis never see each other's
    # revision or pages (servers of one site share a database, hence a prefix).
    _database = "|".join(str(DATABASES["default"].get(k) or "") for k in ("ENGINE", "HOST", "PORT", "NAME"))
    CACHES = {
        "default": {
            "BACKEND": "league.shared_cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": REDIS_OPTIONS,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX") or hashlib.sha256(_database.encode()).hexdigest()[:12],
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Without Redis, the folder through which the machine's workers share the pages they render
# (web/page_cache/shared.py): by default beside a SQLite database file ("<file>-pages"); "off": none.
PAGE_CACHE_SHARED_DIR = os.environ.get("PAGE_CACHE_SHARED_DIR", "")
_file = str(DATABASES["default"]["NAME"]) if DATABASES["default"]["ENGINE"].endswith("sqlite3") else ""
if not PAGE_CACHE_SHARED_DIR and _file and _file != ":memory:" and "mode=memory" not in _file:
    PAGE_CACHE_SHARED_DIR = f"{_file}-pages"
if PAGE_CACHE_SHARED_DIR == "off" or REDIS_URL:
    PAGE_CACHE_SHARED_DIR = ""
# A write renders its clubs' front pages before it commits, so visitors never wait for them after
# a write (web/page_cache/ahead.py).
PAGES_AHEAD = envbool("PAGES_AHEAD", True)
# On PostgreSQL a worker serves the revisions it read for this long, and every write waits as long
# after its commit before it answers: a hit asks PostgreSQL at most once a lease (league/revision.py).
REVISION_LEASE_MS = int(os.environ.get("REVISION_LEASE_MS", "50"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Admin logins are throttled (django-axes): after LOGIN_FAILURE_LIMIT failed attempts for one user
# name from one address, that pair is refused for LOGIN_LOCKOUT_MINUTES, even with the right
# password. Behind a proxy every visitor has the proxy's address, so it is per user name there.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "web.pages.errors.locked_out"
# Behind a proxy every connection is the proxy's: the client's address is then read from the
# X-Forwarded-For that the TRUSTED_PROXIES proxies in front of the site add (docs/operations.md).
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))
AXES_CLIENT_IP_CALLABLE = "web.pages.access.client_address"
# The admin is the site's only login: after it, a `next` that is not safe (another site) is dropped
# and the secretary lands on the admin's index, not on Django's default /accounts/profile/ (a 404).
LOGIN_REDIRECT_URL = "admin:index"

# A matchday of up to 500 players is entered on one admin form of about a dozen fields a player.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 10_000

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where `collectstatic` puts the hashed, compressed files that WhiteNoise serves in production.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
# Locally WhiteNoise serves straight from static/ so no collectstatic is needed before `make run`.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

if PRODUCTION:
    SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS")

# Content Security Policy, locally too so a violation shows up before it reaches a server: only our
# own scripts, styles and images; no inline script or style, no plugins, no framing, forms post
# only to us. The site's pages need no JavaScript (the calculator's one script is a static file, as are
# the Django admin's).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

DJANGO_TABLES2_TEMPLATE = "tables/table.html"  # web/jinja2/tables/table.html

# The site's name in the header and the page titles.
LEAGUE_NAME = os.environ.get("LEAGUE_NAME", "Card Games")
# Leaderboards (home, standings, a game's) hide players with no matchday in this many days, with a
# link to show everyone (0: show everyone).
LEAGUE_INACTIVE_DAYS = int(os.environ.get("LEAGUE_INACTIVE_DAYS", "180"))
# Matchdays a page of a rating or results grid holds: on a game's page, and on the home page (where
# the grids come after the leaders and the latest matchdays).
LEAGUE_GRID_PAGE_SIZE = int(os.environ.get("LEAGUE_GRID_PAGE_SIZE", "25"))
LEAGUE_HOME_GRID_PAGE_SIZE = int(os.environ.get("LEAGUE_HOME_GRID_PAGE_SIZE", "10"))
LEAGUE_STANDINGS_PAGE_SIZE = int(os.environ.get("LEAGUE_STANDINGS_PAGE_SIZE", "25"))
# The comparison page rates this many of a table's most recent matchdays with every method (its cost
# grows with it: see docs/performance.md).
LEAGUE_COMPARE_MATCHDAYS = max(1, int(os.environ.get("LEAGUE_COMPARE_MATCHDAYS", "200")))
# Players with fewer matchdays than this in a table are marked provisional there.
LEAGUE_PROVISIONAL_MATCHDAYS = int(os.environ.get("LEAGUE_PROVISIONAL_MATCHDAYS", "3"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
