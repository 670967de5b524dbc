"""Gunicorn settings for `make serve` (gunicorn -c gunicorn.conf.py), read from the environment.

BIND               where to listen; default 127.0.0.1:$PORT behind a proxy that terminates HTTPS
WEB_CONCURRENCY    worker processes; default 2 x the cores this process may use + 1
GUNICORN_TIMEOUT   seconds before a stuck worker is restarted; default 30
MAX_REQUESTS       replace each worker after this many requests; default 0 (never)
ACCESS_LOG         where to log each request; default - (standard output); empty: no access log
CONTROL_SOCKET     gunicorn's control socket (for `gunicornc`); default gunicorn-<BIND>.ctl in gunicorn's
                   own folder ($XDG_RUNTIME_DIR, else ~/.gunicorn), so every server on a machine has its
                   own; empty: none
"""

import os
import re


def usable_cores() -> int:
    """Cores this process may run on (a container's or taskset's limit, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def control_socket_for(address: str) -> str:
    """A control socket of this server's own, named by its address: gunicorn's default is one path
    per user, so a second server on the machine would take over (and on stopping, remove) the first's."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    folder = runtime if runtime and os.path.isdir(runtime) else os.path.join(os.path.expanduser("~"), ".gunicorn")
    return os.path.join(folder, f"gunicorn-{re.sub(r'[^A-Za-z0-9.-]+', '_', address)}.ctl")


wsgi_app = "config.wsgi:application"
bind = os.environ.get("BIND") or f"127.0.0.1:{os.environ.get('PORT') or '8000'}"
control_socket = os.environ.get("CONTROL_SOCKET", control_socket_for(bind))
control_socket_disable = not control_socket
# Sync workers: each serves one request at a time, and a page spends most of its time in Python.
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * usable_cores() + 1)
timeout = int(os.environ.get("GUNICORN_TIMEOUT") or 30)
graceful_timeout = timeout
# Workers are not replaced after a number of requests: a new worker starts with an empty page cache
# and boots Django while requests wait, which under load made requests time out (wrk -c8 on a player
# page, a worker replaced every 300 requests: 16 timeouts in 10 s, and 342 req/s instead of 1,096).
# Memory is bounded without it (PAGE_CACHE_ENTRIES pages per worker); set MAX_REQUESTS to replace them.
max_requests = int(os.environ.get("MAX_REQUESTS") or 0)
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("ACCESS_LOG", "-") or None
errorlog = "-"
# The proxy in front sets X-Forwarded-Proto; only trust it from the proxy's own address.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1,::1"
