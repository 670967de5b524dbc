"""`manage.py loadtest`: the public pages' throughput under gunicorn against the limit (see
tools/loadtest.py). Needs wrk (apt-get install wrk); only ever targets 127.0.0.1. With
`--redis-outage SECONDS`, instead, what stopping Redis costs in pages and writes (tools/redis_outage.py)."""

import os
import shutil
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tools import loadtest, redis_outage


class Command(BaseCommand):
    help = (
        "Each public page warm and cold under gunicorn against the same bytes served from memory by the "
        "same gunicorn, alone and while an import writes; prints req/s, the ratio, p50, p99, errors and "
        f"whether each page meets its targets (warm and during imports: ratio >= {loadtest.TARGET_RATIO}, "
        f"p99 <= {loadtest.TARGET_P99_MS:.0f} ms)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--matchdays", type=int, default=2000)
        parser.add_argument("--players", type=int, default=40)
        parser.add_argument("--seconds", type=int, default=10, help="per wrk run")
        parser.add_argument("--connections", type=int, default=8)
        parser.add_argument("--threads", type=int, default=2)
        parser.add_argument("--runs", type=int, default=3, help="runs per page and side; the median is shown")
        parser.add_argument("--workers", type=int, default=5, help="gunicorn workers, the same on both sides")
        parser.add_argument(
            "--clubs",
            type=int,
            default=1,
            help="spread --matchdays and --players over this many clubs; each page is asked for in every club "
            "in turn, and the imports write into one club in four",
        )
        parser.add_argument(
            "--servers", type=int, default=1, help="gunicorn servers on each side, each with --workers workers"
        )
        parser.add_argument(
            "--database-url", default="", help="PostgreSQL to run the site on instead of SQLite (it is emptied!)"
        )
        parser.add_argument("--redis-url", default="", help="a Redis the servers share their pages through")
        parser.add_argument(
            "--redis-outage",
            type=float,
            metavar="SECONDS",
            help="instead: with a Redis of its own, stop it for SECONDS while pages are read and matchdays saved, "
            "then start it again; counts the pages that failed and the writes lost (needs redis-server)",
        )

    def handle(self, matchdays, players, seconds, connections, threads, runs, workers, redis_outage, clubs, **options):
        servers, database, redis = options["servers"], options["database_url"], options["redis_url"]
        if redis_outage is not None:
            return self.outage(matchdays, players, redis_outage, workers)
        if shutil.which("wrk") is None:
            raise CommandError("wrk not found: apt-get install wrk")
        if connections > 64 or threads > 4 or seconds > 120 or runs > 10:
            raise CommandError(
                "Refusing an unbounded run: connections <= 64, threads <= 4, seconds <= 120, runs <= 10."
            )
        if not 1 <= clubs <= min(100, matchdays // 3):
            raise CommandError("--clubs must be between 1 and 100, with at least 3 matchdays a club.")
        if not 1 <= servers <= 4:
            raise CommandError("--servers must be between 1 and 4.")
        if servers > 1 and not (database and redis):
            raise CommandError(
                "Several servers share one database and one Redis: give --database-url (PostgreSQL) and --redis-url."
            )
        if database and not database.startswith(("postgres://", "postgresql://")):
            raise CommandError("--database-url must point at PostgreSQL (postgres://...).")
        opts = {
            "servers": servers,
            "seconds": seconds,
            "connections": connections,
            "threads": threads,
            "runs": runs,
            "workers": workers,
        }

        os.environ["WEB_CONCURRENCY"] = str(workers)
        results = loadtest.run(matchdays, players, opts, self.stderr.write, clubs, database, redis)
        self.stdout.write(loadtest.report(results, opts, workers))

    def outage(self, matchdays, players, seconds, workers):
        if shutil.which("redis-server") is None:
            raise CommandError("redis-server not found: apt-get install redis-server")
        if not 0 < seconds <= 120:
            raise CommandError("Refusing an unbounded run: 0 < --redis-outage <= 120 seconds.")
        with tempfile.TemporaryDirectory(prefix="league-outage-") as folder:
            outage = redis_outage.run(matchdays, players, seconds, workers, Path(folder), log=self.stderr.write)
        self.stdout.write(redis_outage.report(outage))
