"""`manage.py loadtest --redis-outage SECONDS`: Redis stopped and started again while visitors read
pages and a secretary saves matchdays, on the load test's throwaway site (tools/loadtest.py) served
by gunicorn with a Redis of its own. Counts every page that failed, before, during and after the
outage, and every write lost (reported saved but not in the database) or reported failed though it
was saved (the secretary would enter it again); then checks that the last save is on the next page.
"""

from __future__ import annotations

import sqlite3
import subprocess
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from urllib.error import HTTPError

from tools.loadtest import MANAGE, ROOT, Site, _free_port

READERS = 2


@dataclass
class Outage:
    seconds: float
    pages: list[tuple[float, str]] = field(default_factory=list)  # (when answered, status or error)
    writes: list[tuple[int, bool]] = field(default_factory=list)  # (matchday number, reported saved)
    failures: Counter = field(default_factory=Counter)  # the last line a failed write printed
    stored: set[int] = field(default_factory=set)
    window: tuple[float, float] = (0.0, 0.0)
    stale: bool = False


@dataclass
class RedisServer:
    """A redis-server of its own on loopback, in memory only, to stop and start again."""

    port: int
    process: subprocess.Popen | None = None

    def start(self) -> None:
        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        import redis

        for _ in range(100):
            try:
                redis.Redis(port=self.port).ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def _status(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - our own server
            response.read()
            return str(response.status)
    except HTTPError as error:
        return str(error.code)
    except OSError as error:
        return type(error).__name__


def _page(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - our own server
            return response.read().decode()
    except HTTPError as error:
        return f"{error.code}"


def _read(url: str, paths: list[str], until: threading.Event, outage: Outage) -> None:
    while not until.is_set():
        for path in paths:
            status = _status(url + path)
            outage.pages.append((time.monotonic(), status))


class _Writer:
    """Saves one new matchday after another (an import of one matchday, as a secretary's upload)."""

    def __init__(self, site: Site, env: dict, outage: Outage):
        self.site, self.env, self.outage = site, env, outage
        db = sqlite3.connect(site.folder / "db.sqlite3")
        try:
            self.number, last = db.execute("SELECT MAX(number), MAX(date) FROM league_matchday").fetchone()
            self.game = db.execute("SELECT name FROM league_game ORDER BY id").fetchone()[0]
            self.players = [row[0] for row in db.execute("SELECT short_name FROM league_player ORDER BY id LIMIT 3")]
        finally:
            db.close()
        self.day = date.fromisoformat(last)  # the league's last day (today at the latest): its newest matchdays

    def run(self, until: threading.Event) -> None:
        while not until.is_set():
            self.number += 1
            rows = [f"{self.number},{self.day},{self.game},2,{p},{i},\n" for i, p in enumerate(self.players, 1)]
            path = self.site.folder / f"write-{self.number}.csv"
            path.write_text("matchday,date,game,rounds,player,placing,rated_placing\n" + "".join(rows))
            done = subprocess.run(
                [*MANAGE, "import_results", str(path)], env=self.env, cwd=ROOT, capture_output=True, text=True
            )
            saved = done.returncode == 0 and "Imported 1 matchday" in done.stdout
            self.outage.writes.append((self.number, saved))
            if not saved:
                self.outage.failures[(done.stderr.strip().splitlines() or ["(nothing)"])[-1][:200]] += 1


def run(matchdays: int, players: int, seconds: float, workers: int, folder, log=print) -> Outage:
    """The site under reads and writes for `seconds`, then Redis stopped for `seconds`, then started
    again for `seconds` more."""
    log(f"Building a site with {matchdays} generated matchdays of {players} players ...")
    site, outage = Site(folder, matchdays, players), Outage(seconds)
    redis_server = RedisServer(_free_port())
    env = {**site.env, "REDIS_URL": f"redis://127.0.0.1:{redis_server.port}/0", "WEB_CONCURRENCY": str(workers)}
    redis_server.start()
    try:
        with site.serving(**env) as url:
            paths = list(site.pages().values())
            writer, until = _Writer(site, env, outage), threading.Event()
            threads = [threading.Thread(target=_read, args=(url, paths, until, outage)) for _ in range(READERS)]
            threads.append(threading.Thread(target=writer.run, args=(until,)))
            for thread in threads:
                thread.start()
            time.sleep(seconds)
            log(f"Stopping Redis for {seconds:g} s ...")
            redis_server.stop()
            stopped = time.monotonic()
            time.sleep(seconds)
            redis_server.start()
            outage.window = (stopped, time.monotonic())
            time.sleep(seconds)
            until.set()
            for thread in threads:
                thread.join(120)
            last = max((number for number, saved in outage.writes if saved), default=None)
            outage.stale = last is not None and f'href="/matchdays/{last}/"' not in _page(url + "/")
    finally:
        redis_server.stop()
    db = sqlite3.connect(folder / "db.sqlite3")
    try:
        outage.stored = {row[0] for row in db.execute("SELECT number FROM league_matchday")}
    finally:
        db.close()
    return outage


def report(outage: Outage) -> str:
    start, end = outage.window
    phases = {"before": Counter(), "during": Counter(), "after": Counter()}
    for answered, status in outage.pages:
        phases["before" if answered < start else "during" if answered < end else "after"][status] += 1
    lines = [f"Redis stopped for {outage.seconds:g} s while {READERS} visitors read pages and one import after"]
    lines.append("another saved a new matchday each; then started again, empty.")
    for phase, statuses in phases.items():
        failed = sum(n for status, n in statuses.items() if status != "200")
        detail = ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items()))
        lines.append(f"pages answered {phase:<7} {sum(statuses.values()):>6}, failed {failed:>5} ({detail})")
    reported = {number for number, saved in outage.writes if saved}
    lost = sorted(reported - outage.stored)
    resaid = sorted({number for number, saved in outage.writes if not saved} & outage.stored)
    lines.append(f"writes {len(outage.writes)}, reported saved {len(reported)}, lost {len(lost)} {lost or ''}".rstrip())
    lines.append(f"writes reported failed though saved: {len(resaid)} {resaid or ''}".rstrip())
    lines += [f"  {n} x {reason}" for reason, n in outage.failures.most_common()]
    lines.append(f"the last save on the next home page: {'no (stale)' if outage.stale else 'yes'}")
    return "\n".join(lines)
