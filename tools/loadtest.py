"""`manage.py loadtest`: each public page under gunicorn, warm (cached) and cold (rendered in the
request), against the limit: the same gunicorn, the same worker count and the same Django serving
the very same bytes from memory (tools/limit), measured alternately in the same run; then the same
while an import writes. Everything runs on 127.0.0.1 in a throwaway folder.
"""

from __future__ import annotations

import csv
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from league.validation import ROUNDS

ROOT = Path(__file__).resolve().parent.parent
# The targets of every public page warm and during imports (docs/performance.md): at least this share
# of the limit's requests per second, and wrk's p99 at most this.
TARGET_RATIO = 0.7
TARGET_P99_MS = 50.0
PAGES = ("home", "standings", "game", "player", "matchday", "players")
MANAGE = [sys.executable, str(ROOT / "manage.py")]
GUNICORN = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]


@dataclass
class Figures:
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    errors: int


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def wrk(urls: list[str], options: dict, script: Path | None = None) -> Figures:
    """wrk against each of `urls` (one per server) at once: their requests per second summed, the
    slowest server's latencies, every error."""
    seconds, connections, threads = options["seconds"], options["connections"], options["threads"]
    command = [shutil.which("wrk") or "wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    command += ["-s", str(script)] if script else []
    runs = [subprocess.Popen([*command, url], stdout=subprocess.PIPE, text=True) for url in urls]
    outputs = [process.communicate()[0] for process in runs]
    if any(process.returncode for process in runs):
        raise RuntimeError(f"wrk failed: {outputs}")
    figures = [_read_wrk(out) for out in outputs]
    return Figures(
        sum(f.requests_per_second for f in figures),
        max(f.p50_ms for f in figures),
        max(f.p99_ms for f in figures),
        sum(f.errors for f in figures),
    )


def _read_wrk(out: str) -> Figures:
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])
    if not rps:  # not one answer in time: no latency to read
        return Figures(0.0, float("inf"), float("inf"), 1)
    p50 = _ms(re.search(r"\s50%\s+(\S+)", out)[1])
    p99 = _ms(re.search(r"\s99%\s+(\S+)", out)[1])
    errors = int(m[1]) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0
    if m := re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out):
        errors += sum(int(n) for n in m.groups())
    return Figures(rps, p50, p99, errors)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    """A throwaway production site: SQLite, collected static files, a generated league."""

    def __init__(self, folder: Path, matchdays: int, players: int, clubs: int = 1, database: str = "", redis: str = ""):
        self.folder = folder
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "LEAGUE_PRODUCTION": "1",
            "DEBUG": "",
            "SECRET_KEY": "load-test-only-" + secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "STATIC_ROOT": str(folder / "static"),
            "ACCESS_LOG": "",
        }
        self.env.pop("REDIS_URL", None)  # the default: each worker's own memory
        if redis:  # the pages shared by every server, under keys of this run's own
            self.env |= {"REDIS_URL": redis, "CACHE_KEY_PREFIX": "load-" + secrets.token_hex(6)}
        if database:  # PostgreSQL, emptied first
            self.env["DATABASE_URL"] = database
        for command in (["migrate", "--no-input", "-v0"], ["collectstatic", "--no-input", "-v0"]):
            self.manage(*command)
        if database:
            self.manage("flush", "--no-input")
        if clubs == 1:  # the demo and a generated league in one club, as a club that started with the demo
            self.leagues = {None: folder / "league.csv"}
            self.manage("load_demo")
        else:  # clubs side by side, each its own generated league (players and games of the same names)
            self.leagues = {f"club-{n:02d}": folder / f"club-{n:02d}.csv" for n in range(1, clubs + 1)}
        players, matchdays = (players, matchdays) if clubs == 1 else (max(players // clubs, 6), matchdays // clubs)
        for number, (club, league) in enumerate(self.leagues.items()):
            generate = ["generate_league", "--players", str(players), "--matchdays", str(matchdays), "--first", "7"]
            self.manage(*generate, "--seed", str(1 + number), str(league))
            if club:
                self.manage("create_club", club, f"Club {club[-2:]}")
            self.manage("import_results", str(league), *(["--club", club] if club else []))

    def manage(self, *command: str) -> None:
        subprocess.run([*MANAGE, *command], env=self.env, check=True, cwd=ROOT, capture_output=True)

    def ask(self, expression: str):
        """The value of a Python `expression` over the site's models, read through its own settings
        and ORM (`manage.py shell`): the site's database is not this process's."""
        imports = "import json; from league.models import *; from django.db.models import *"
        code = f"{imports}; print(json.dumps({expression}, default=str))"
        out = subprocess.run(
            [*MANAGE, "shell", "--no-imports", "-c", code], env=self.env, check=True, cwd=ROOT, capture_output=True
        )
        return json.loads(out.stdout)

    def pages(self) -> dict[str, list[str]]:
        """The public pages to measure, by name, in every club: the player is the one with the most
        matchdays, the game the most played, the matchday the latest."""
        busiest = (
            "[(c.slug,"
            " Player.objects.filter(club=c).annotate(n=Count('results'))"
            ".order_by('-n').values_list('pk', flat=True)[0],"
            " Game.objects.filter(club=c).annotate(n=Count('matchdays'))"
            ".order_by('-n').values_list('slug', flat=True)[0],"
            " Matchday.objects.filter(club=c).order_by('-date', '-number').values_list('number', flat=True)[0])"
            " for c in Club.objects.order_by('slug')]"
        )
        pages: dict[str, list[str]] = {name: [] for name in PAGES}
        for club, player, game, matchday in self.ask(busiest):
            pages["home"].append(f"/{club}/")
            pages["standings"].append(f"/{club}/standings/")
            pages["game"].append(f"/{club}/games/{game}/")
            pages["player"].append(f"/{club}/players/{player}/")
            pages["matchday"].append(f"/{club}/matchdays/{matchday}/")
            pages["players"].append(f"/{club}/players/")
        return pages

    @contextmanager
    def servers(self, count: int, app: str | None = None, **env: str):
        """`count` servers (`serving`) side by side: their addresses."""
        with ExitStack() as stack:
            yield [stack.enter_context(self.serving(app, **env)) for _ in range(count)]

    @contextmanager
    def serving(self, app: str | None = None, **env: str):
        """gunicorn with the project's settings file on a free loopback port (or another `app`)."""
        port = _free_port()
        env = {**self.env, **env, "BIND": f"127.0.0.1:{port}"}
        command = [*GUNICORN, app] if app else GUNICORN
        log = open(self.folder / f"gunicorn-{port}.log", "w")
        server = subprocess.Popen(command, env=env, cwd=ROOT, stdout=log, stderr=log)
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(150):
                try:
                    urllib.request.urlopen(url + "/robots-check", timeout=1)  # noqa: S310 - our own server
                except urllib.error.HTTPError:
                    break  # answering (404 or 400 is fine)
                except OSError:
                    if server.poll() is not None:
                        raise RuntimeError((self.folder / f"gunicorn-{port}.log").read_text()) from None
                    time.sleep(0.2)
            yield url
        finally:
            server.terminate()
            server.wait(30)
            log.close()

    @contextmanager
    def importing(self, share: int = 4):
        """`import_results --replace` of the generated league and of its other version in turn, again
        and again, until the block ends: each import changes every matchday, as a real write changes
        the ones it touches (the same file again would change nothing the history keeps). With several
        clubs, into one club in `share` (every one of them in turn)."""
        writes = [
            f'"{MANAGE[0]}" "{MANAGE[1]}" import_results --replace "{path}"' + (f" --club {club}" if club else "")
            for number, (club, league) in enumerate(self.leagues.items())
            if number % share == 0
            for path in (_played_again(league), league)
        ]
        loop = f"while true; do {'; '.join(writes)}; done"
        importer = subprocess.Popen(
            [shutil.which("bash") or "/bin/bash", "-c", loop],
            env=self.env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # so that the import running when the block ends stops too
        )
        self.writing_clubs = len(writes) // 2  # each club's two versions
        try:
            yield
        finally:
            os.killpg(importer.pid, signal.SIGTERM)
            output, _ = importer.communicate(timeout=60)
            self.imports_done = output.count("Imported ")
            self.import_failures = output.count("Nothing was imported")


def _played_again(league: Path) -> Path:
    """The league's other version, beside it: every matchday played over one more round (one fewer
    at the most a matchday may have), so that importing it changes every matchday and its ratings."""
    again = league.with_name(league.stem + "-again.csv")
    if not again.exists():
        with league.open(newline="") as source, again.open("w", newline="") as target:
            rows = csv.DictReader(source)
            writer = csv.DictWriter(target, rows.fieldnames, lineterminator="\n")
            writer.writeheader()
            for row in rows:
                rounds = int(row["rounds"])
                writer.writerow({**row, "rounds": str(rounds + 1 if rounds < ROUNDS.highest else rounds - 1)})
    return again


def _capture(url: str, pages: dict[str, list[str]]) -> dict[str, dict]:
    captured = {}
    for path in (path for paths in pages.values() for path in paths):
        with urllib.request.urlopen(url + path, timeout=30) as response:  # noqa: S310 - our own server
            captured[path] = {
                "content_type": response.headers["Content-Type"],
                "body": response.read().decode("latin-1"),
            }
    return captured


@dataclass
class Comparison:
    page: str
    paths: list[str]
    size: float
    project: Figures
    limit: Figures

    @property
    def ratio(self) -> float:
        return self.project.requests_per_second / self.limit.requests_per_second


def _median(runs: list[Figures]) -> Figures:
    return Figures(
        statistics.median(f.requests_per_second for f in runs),
        statistics.median(f.p50_ms for f in runs),
        statistics.median(f.p99_ms for f in runs),
        sum(f.errors for f in runs),
    )


def warm_up(url: str, times: int) -> None:
    """Ask for a page often enough that every worker has cached it."""
    for _ in range(times):
        urllib.request.urlopen(url, timeout=60).read()  # noqa: S310 - our own server


def compare(
    project: list[str], limit: list[str], pages: dict[str, list[str]], sizes: dict[str, int], options: dict, warm=False
) -> list[Comparison]:
    """Each page on both sides (each side one server or several), alternately, `runs` times; the
    medians. A page of several clubs is asked for in each of them in turn (a wrk script)."""
    rows = []
    for name, paths in pages.items():
        ours, theirs = [], []
        script = _spread(paths, options["folder"] / f"{name}.lua")
        for _ in range(options["runs"]):
            if warm:
                for server in project:
                    for path in paths:
                        warm_up(server + path, 4 * options["workers"])
            ours.append(wrk([server + paths[0] for server in project], options, script))
            theirs.append(wrk([server + paths[0] for server in limit], options, script))
        size = statistics.mean(sizes[path] for path in paths)
        rows.append(Comparison(name, paths, size, _median(ours), _median(theirs)))
    return rows


def _spread(paths: list[str], script: Path) -> Path | None:
    """A wrk script asking for `paths` in turn, or None for a single path."""
    if len(paths) == 1:
        return None
    listed = ", ".join(json.dumps(path) for path in paths)
    script.write_text(
        f"local paths = {{{listed}}}\nlocal i = 0\n"
        "request = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n"
    )
    return script


def run(
    matchdays: int, players: int, options: dict, log=print, clubs: int = 1, database: str = "", redis: str = ""
) -> dict[str, list[Comparison]]:
    count = options.get("servers", 1)
    with tempfile.TemporaryDirectory(prefix="league-load-") as folder:
        folder = Path(folder)
        options = {**options, "folder": folder}
        spread = f" over {clubs} clubs" if clubs > 1 else ""
        log(f"Building a site with {matchdays} generated matchdays of {players} players{spread} ...")
        site = Site(folder, matchdays, players, clubs, database, redis)
        pages = site.pages()
        results: dict[str, list[Comparison]] = {}
        with site.servers(count) as warm:
            captured = _capture(warm[0], pages)
            (folder / "pages.json").write_text(json.dumps(captured))
            sizes = {path: len(page["body"]) for path, page in captured.items()}
            limit_app = "tools.limit.wsgi:application"
            with site.servers(count, limit_app, LIMIT_PAGES=str(folder / "pages.json")) as limit:
                log("Warm: the pages as cached, against the same bytes from memory ...")
                results["warm"] = compare(warm, limit, pages, sizes, options, warm=True)
                with site.servers(count, PAGE_CACHE_SECONDS="0") as cold:
                    log("Cold: every page rendered in the request ...")
                    results["cold"] = compare(cold, limit, pages, sizes, options)
                log("Warm again, while an import writes, on both sides ...")
                with site.importing():
                    results["during imports"] = compare(warm, limit, pages, sizes, options)
        results["imports"] = (site.imports_done, site.import_failures)
        results["clubs"] = (clubs, site.writing_clubs)
        results["setup"] = (count, "PostgreSQL" if database else "SQLite", bool(redis))
        return results


def verdict(mode: str, row: Comparison) -> str:
    """Whether the row meets its targets: ok, or what it MISSED ("-" for cold pages, which have none)."""
    if mode == "cold":
        return "-"
    missed = [
        name
        for name, ok in (("ratio", row.ratio >= TARGET_RATIO), ("p99", row.project.p99_ms <= TARGET_P99_MS))
        if not ok
    ]
    return "MISSED:" + ",".join(missed) if missed else "ok"


def report(results: dict, options: dict, workers: int) -> str:
    lines = [
        f"wrk -t{options['threads']} -c{options['connections']} -d{options['seconds']}s, median of {options['runs']} "
        f"runs, the project and the limit alternated; gunicorn with {workers} workers; {os.cpu_count()} cores",
        "",
        "p50 and p99 as wrk gives them: corrected for coordinated omission (a stall counts for each request",
        "a steady stream of visitors would have sent during it, not only for the few connections waiting)",
        f"targets, warm and during imports: ratio >= {TARGET_RATIO}, p99 <= {TARGET_P99_MS:.0f} ms "
        "(cold pages are figures, not targets)",
        "",
        f"{'':<16}{'page':<10}{'size':>9}{'req/s':>10}{'limit':>10}{'ratio':>7}{'p50':>9}{'p99':>9}"
        f"{'limit p99':>11}{'target':>18}{'errors':>8}",
    ]
    for mode in ("warm", "cold", "during imports"):
        for row in results[mode]:
            lines.append(
                f"{mode:<16}{row.page:<10}{row.size / 1000:>7.0f}kB{row.project.requests_per_second:>10,.0f}"
                f"{row.limit.requests_per_second:>10,.0f}{row.ratio:>7.2f}{row.project.p50_ms:>7.1f}ms"
                f"{row.project.p99_ms:>7.1f}ms{row.limit.p99_ms:>9.1f}ms{verdict(mode, row):>18}"
                f"{row.project.errors + row.limit.errors:>8}"
            )
    done, failed = results["imports"]
    clubs, writing = results.get("clubs", (1, 1))
    if clubs > 1:
        lines.insert(1, f"{clubs} clubs: each page asked for in every club in turn; imports into {writing} of them")
    servers, database, redis = results.get("setup", (1, "SQLite", False))
    shared = "one Redis" if redis else "no Redis"
    lines.insert(
        1,
        f"{servers} server(s) of each side, on {database} with {shared}"
        + (": wrk against each at once, req/s summed, the slowest server's p50 and p99" if servers > 1 else ""),
    )
    lines.append(f"\nimports completed during the last runs: {done}, failed: {failed}")
    return "\n".join(lines)
