"""Gunicorn settings for `make serve` (gunicorn -c gunicorn.conf.py), read from the environment.

BIND               where to listen; default 127.0.0.1:$PORT behind a proxy that terminates HTTPS
WEB_CONCURRENCY    worker processes; default 2 x the cores this process may use + 1
GUNICORN_TIMEOUT   seconds before a stuck worker is restarted; default 30
ACCESS_LOG         where to log each request; default - (standard output); empty: no access log
"""

import os


def usable_cores() -> int:
    """Cores this process may run on (a container's or taskset's limit, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


wsgi_app = "config.wsgi:application"
bind = os.environ.get("BIND") or f"127.0.0.1:{os.environ.get('PORT') or '8000'}"
# Sync workers: each serves one request at a time, and a page spends most of its time in Python.
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * usable_cores() + 1)
timeout = int(os.environ.get("GUNICORN_TIMEOUT") or 30)
graceful_timeout = timeout
# Replace each worker after a while, so a slow leak never grows without bound; not so often that
# its cached pages (kept in its own memory without REDIS_URL) are lost every few seconds under load.
max_requests = 20000
max_requests_jitter = 2000
accesslog = os.environ.get("ACCESS_LOG", "-") or None
errorlog = "-"
# The proxy in front sets X-Forwarded-Proto; only trust it from the proxy's own address.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1,::1"
