"""`manage.py loadtest --redis-outage SECONDS`: Redis stopped and started again while visitors read
pages and a secretary saves matchdays, on the load test's throwaway site (tools/loadtest.py) served
by gunicorn with a Redis of its own. Counts every page that failed, before, during and after the
outage, and every write lost (reported saved but not in the database) or reported failed though it
was saved (the secretary would enter it again); then checks that the last save is on the next page.
"""

from __future__ import annotations

import secrets
import subprocess
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from urllib.error import HTTPError

from tools.loadtest import MANAGE, ROOT, Site, _free_port
from tools.site_client import SiteClient

READERS = 2
ADMIN = "outage-secretary"


@dataclass
class Outage:
    seconds: float
    pages: list[tuple[float, str]] = field(default_factory=list)  # (when answered, status or error)
    writes: list[tuple[float, str, int, bool]] = field(default_factory=list)  # (when, way, number, reported saved)
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
    """Saves one new matchday after another, each on the league's last day, two ways at once: an
    import of one matchday (the command line, as a nightly job) and the admin's add form."""

    def __init__(self, site: Site, env: dict, outage: Outage):
        self.site, self.env, self.outage, self.lock = site, env, outage, threading.Lock()
        self.number, last, self.game, self.players = site.ask(
            "[*Matchday.objects.aggregate(Max('number'), Max('date')).values(),"
            " Game.objects.order_by('pk').values_list('pk', 'name').first(),"
            " list(Player.objects.order_by('pk').values_list('pk', 'short_name')[:3])]"
        )
        self.day = date.fromisoformat(last)  # today at the latest: a matchday is entered once played

    def _next(self) -> int:
        with self.lock:
            self.number += 1
            return self.number

    def _done(self, way: str, number: int, saved: bool, failure: str) -> None:
        self.outage.writes.append((time.monotonic(), way, number, saved))
        if not saved:
            self.outage.failures[f"{way}: {failure[:200]}"] += 1

    def imports(self, until: threading.Event) -> None:
        while not until.is_set():
            number = self._next()
            rows = [
                f"{number},{self.day},{self.game[1]},2,{name},{i},\n" for i, (_, name) in enumerate(self.players, 1)
            ]
            path = self.site.folder / f"write-{number}.csv"
            path.write_text("matchday,date,game,rounds,player,placing,rated_placing\n" + "".join(rows))
            done = subprocess.run(
                [*MANAGE, "import_results", str(path)], env=self.env, cwd=ROOT, capture_output=True, text=True
            )
            saved = done.returncode == 0 and "Imported 1 matchday" in done.stdout
            self._done("import", number, saved, (done.stderr.strip().splitlines() or ["(nothing)"])[-1])

    def admin(self, until: threading.Event, url: str) -> None:
        secretary = self.secretary(url)
        while not until.is_set():
            self.admin_save(secretary)

    def secretary(self, url: str) -> SiteClient:
        return SiteClient(url).log_in(ADMIN, self.env["DJANGO_SUPERUSER_PASSWORD"])

    def admin_save(self, secretary: SiteClient) -> None:
        number = self._next()
        data = {"number": number, "date": self.day, "game": self.game[0], "rounds": 2, "winner_score": ""}
        data.update({"notes": "", "results-TOTAL_FORMS": len(self.players), "results-INITIAL_FORMS": 0})
        for i, (player, _) in enumerate(self.players):
            data.update({f"results-{i}-player": player, f"results-{i}-placing": i + 1})
        try:
            status, answer = secretary.post("/admin/league/matchday/add/", data)
        except OSError as error:
            status, answer = 0, type(error).__name__
        saved = (status, answer) == (302, "/admin/league/matchday/")
        self._done("admin", number, saved, f"{status} {answer if status in (0, 302) else ''}".strip())


def run(matchdays: int, players: int, seconds: float, workers: int, folder, log=print) -> Outage:
    """The site under reads and writes for `seconds`, then Redis stopped for `seconds`, then started
    again for `seconds` more."""
    log(f"Building a site with {matchdays} generated matchdays of {players} players ...")
    site, outage = Site(folder, matchdays, players), Outage(seconds)
    redis_server = RedisServer(_free_port())
    env = {**site.env, "REDIS_URL": f"redis://127.0.0.1:{redis_server.port}/0", "WEB_CONCURRENCY": str(workers)}
    env["DJANGO_SUPERUSER_PASSWORD"] = secrets.token_urlsafe(16)
    createsuperuser = ["createsuperuser", "--no-input", "--username", ADMIN, "--email", "admin@club.example"]
    subprocess.run([*MANAGE, *createsuperuser], env=env, check=True, cwd=ROOT, capture_output=True)
    redis_server.start()
    try:
        with site.serving(**env) as url:
            paths = [path for paths in site.pages().values() for path in paths]
            writer, until = _Writer(site, env, outage), threading.Event()
            threads = [threading.Thread(target=_read, args=(url, paths, until, outage)) for _ in range(READERS)]
            threads.append(threading.Thread(target=writer.imports, args=(until,)))
            threads.append(threading.Thread(target=writer.admin, args=(until, url)))
            for thread in threads:
                thread.start()
            time.sleep(seconds)
            secretary = writer.secretary(url)
            log(f"Stopping Redis for {seconds:g} s ...")
            redis_server.stop()
            stopped = time.monotonic()
            writer.admin_save(secretary)  # one save answered while Redis is down, however slow the machine
            time.sleep(max(0.0, stopped + seconds - time.monotonic()))
            redis_server.start()
            outage.window = (stopped, time.monotonic())
            time.sleep(seconds)
            until.set()
            for thread in threads:
                thread.join(120)
            last = max((number for _, _, number, saved in outage.writes if saved), default=None)
            (home,) = site.pages()["home"]
            outage.stale = last is not None and f'href="{home}matchdays/{last}/"' not in _page(url + home)
    finally:
        redis_server.stop()
    outage.stored = set(site.ask("list(Matchday.objects.values_list('number', flat=True))"))
    return outage


def report(outage: Outage) -> str:
    start, end = outage.window
    phases = {"before": Counter(), "during": Counter(), "after": Counter()}
    for answered, status in outage.pages:
        phases["before" if answered < start else "during" if answered < end else "after"][status] += 1
    lines = [f"Redis stopped for {outage.seconds:g} s while {READERS} visitors read pages and a secretary saved"]
    lines.append("new matchdays two ways (imports, the admin), then started again, empty.")
    for phase, statuses in phases.items():
        failed = sum(n for status, n in statuses.items() if status != "200")
        detail = ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items()))
        lines.append(f"pages answered {phase:<7} {sum(statuses.values()):>6}, failed {failed:>5} ({detail})")
    for way in ("import", "admin"):
        writes = [(when, number, saved) for when, w, number, saved in outage.writes if w == way]
        reported = {number for _, number, saved in writes if saved}
        lost = sorted(reported - outage.stored)
        resaid = sorted({number for _, number, saved in writes if not saved} & outage.stored)
        during = sum(start <= when < end for when, _, _ in writes)
        lines.append(
            f"writes {way:<6} {len(writes):>4} ({during} answered during the outage), reported saved {len(reported)}, "
            f"lost {len(lost)}, reported failed though saved {len(resaid)} {resaid or ''}".rstrip()
        )
    lines += [f"  {n} x {reason}" for reason, n in outage.failures.most_common()]
    lines.append(f"the last save on the next home page: {'no (stale)' if outage.stale else 'yes'}")
    return "\n".join(lines)
