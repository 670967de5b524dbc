"""Redis stopped and started again under load (issue 29): a throwaway production site on Redis, its
public pages asked for without pause by a few clients while matchdays are imported one after the
other; Redis is stopped part-way and started again. It counts every answer that is not a 200, the
imports that failed or did not say they committed, the matchdays missing at the end, and the pages
that still lack the last matchday once Redis is back. Run by hand (docs/cache.md has a run):

    python -m tools.redis_outage --redis-port 6402 --seconds 30
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from datetime import date
from pathlib import Path

from tools.loadtest import MANAGE, ROOT, Site

HEADER = "matchday,date,game,rounds,player,placing,rated_placing\n"


class Redis:
    def __init__(self, port: int, folder: Path):
        self.port, self.folder, self.process = port, folder, None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, cwd=self.folder, stdout=subprocess.DEVNULL)
        time.sleep(0.3)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def ask(url: str, paths: list[str], until: float, answers: Counter, slowest: list[float], phase) -> None:
    """Ask for each page in turn until `until`, counting the answers per phase (up, down, back)."""
    while time.monotonic() < until:
        for path in paths:
            started = time.monotonic()
            try:
                with urllib.request.urlopen(url + path, timeout=30) as response:  # noqa: S310 - our own server
                    response.read()
                    status = response.status
            except urllib.error.HTTPError as exc:
                status = exc.code
            except OSError:
                status = "no answer"
            answers[(phase(), status)] += 1
            slowest.append(time.monotonic() - started)


def write(site: Site, first: tuple[int, date], until: float, outcomes: Counter, numbers: list[int], phase) -> None:
    """Import one new matchday (on the last one's day: none may be in the future) after another until
    `until`; an import must say it committed. Counted by the phases it started and ended in."""
    number, day = first
    while time.monotonic() < until:
        path = site.folder / f"more-{number}.csv"
        path.write_text(HEADER + "".join(f"{number},{day},Hearts,2,{p},{i},\n" for i, p in enumerate(["GL", "K"], 1)))
        started = phase()
        done = subprocess.run(
            [*MANAGE, "import_results", str(path)], env=site.env, cwd=ROOT, capture_output=True, text=True
        )
        saved = done.returncode == 0 and "Imported" in done.stdout
        lost = "not published" in done.stderr  # committed while Redis was away: logged, not raised
        outcomes[(started, phase(), "reported saved" if saved else "failed", "publication lost" if lost else "")] += 1
        numbers.append(number)
        number += 1


def outage(site: Site, redis: Redis, seconds: int, clients: int) -> dict:
    """Clients and the importer for `seconds`, Redis away for the middle third; what they saw."""
    paths = list(site.pages().values())
    db = sqlite3.connect(site.folder / "db.sqlite3")
    number, day = db.execute("SELECT MAX(number), MAX(date) FROM league_matchday").fetchone()
    answers, outcomes, slowest, numbers = Counter(), Counter(), [], []
    state = ["up"]
    with site.serving() as url:
        until = time.monotonic() + seconds
        threads = [
            threading.Thread(target=ask, args=(url, paths, until, answers, slowest, lambda: state[0]))
            for _ in range(clients)
        ]
        first = (number + 1, date.fromisoformat(day))
        threads.append(threading.Thread(target=write, args=(site, first, until, outcomes, numbers, lambda: state[0])))
        for thread in threads:
            thread.start()
        time.sleep(seconds / 3)
        redis.stop()
        state[0] = "down"
        time.sleep(seconds / 3)
        redis.start()
        state[0] = "back"
        for thread in threads:
            thread.join()
        stale = f'href="/matchdays/{numbers[-1]}/"' not in fetch(url + "/")
    saved = {n for (n,) in db.execute("SELECT number FROM league_matchday WHERE number > ?", (number,))}
    db.close()
    return {
        "answers by phase and status": dict(sorted(answers.items(), key=str)),
        "slowest answer (s)": round(max(slowest), 3),
        "imports by phases (started, ended)": dict(outcomes),
        "matchdays imported": len(numbers),
        "missing from the database": sorted(set(numbers) - saved),
        "home page without the last matchday once Redis was back": stale,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-port", type=int, required=True, help="a free port for this run's own Redis")
    parser.add_argument("--seconds", type=int, default=60, help="the whole run; Redis is away for its middle third")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--matchdays", type=int, default=60, help="of the generated league")
    args = parser.parse_args()
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is not installed")
    with tempfile.TemporaryDirectory(prefix="league-outage-") as folder:
        redis = Redis(args.redis_port, Path(folder))
        redis.start()
        try:
            site = Site(Path(folder), args.matchdays, 30)
            site.env["REDIS_URL"] = f"redis://127.0.0.1:{args.redis_port}/0"
            found = outage(site, redis, args.seconds, args.clients)
        finally:
            redis.stop()
    for name, value in found.items():
        print(f"{name}: {value}")


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 - our own server
        return response.read().decode()


if __name__ == "__main__":
    main()
