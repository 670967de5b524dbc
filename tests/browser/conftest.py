"""Browser tests: the real site in a real Chromium, as a member or the secretary uses it.

The site runs as its own process (`manage.py runserver`) on a free loopback port with its own SQLite
database holding the club's demo data; Playwright drives Debian's Chromium (never a downloaded browser).
Without Chromium the tests skip locally, but fail in CI, where `.ci/run` installs it.
"""

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

import pytest

from tests.score_play import SCORE_COLUMNS, score_matchdays
from tests.team_play import TEAM_COLUMNS, TEAM_MATCHDAYS, team_matchdays
from tools.generate import people

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _site_env(folder: Path) -> dict:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "DEMO_ADMIN_PASSWORD": "secretary-pass-1",
        "DEBUG": "1",
        "LEAGUE_PRODUCTION": "",
        "LEAGUE_INACTIVE_DAYS": "0",  # the leagues' dates are fixed and age: leaderboards show everyone
    }


def pytest_collection_modifyitems(items):
    """Every test in this folder drives Chromium: `make test` leaves them to `make test-all`."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.slow)


MANAGE = [sys.executable, str(ROOT / "manage.py")]
GUNICORN = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]


def production_env(folder: Path, port: int, workers: int, *commands: list[str], drop=(), **env: str) -> dict:
    """The environment of a site with production settings in `folder`, served by gunicorn's
    `workers` on `port` over plain HTTP on loopback (no redirect to HTTPS), without the variables
    in `drop`; migrated, with its static files collected and the demo data loaded, then `commands` run."""
    env = {
        **{name: value for name, value in os.environ.items() if name not in drop},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LEAGUE_PRODUCTION": "1",
        "DEBUG": "",
        "SECRET_KEY": "a-production-key-of-fifty-characters-0123456789xyz",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "STATIC_ROOT": str(folder / "static"),
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": str(workers),
        **env,
    }
    for command in (["migrate", "--no-input", "-v0"], ["collectstatic", "--no-input", "-v0"], ["load_demo"], *commands):
        subprocess.run([*MANAGE, *command], env=env, check=True, cwd=ROOT, capture_output=True)
    return env


@contextmanager
def _running_site(folder: Path, env: dict):
    port = _free_port()
    runserver = [*MANAGE, "runserver", "--noreload", f"127.0.0.1:{port}"]
    with serving(runserver, env, folder / "server.log", port) as url:
        yield url


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The URL of a freshly set-up site with the club's demo data and the demo admin login."""
    folder = tmp_path_factory.mktemp("site")
    env = _site_env(folder)
    subprocess.run([*MANAGE, "migrate", "--no-input", "-v0"], env=env, check=True, cwd=ROOT)
    subprocess.run([*MANAGE, "load_demo"], env=env, check=True, cwd=ROOT, capture_output=True)
    with _running_site(folder, env) as url:
        yield url


# The generated league: 45 players, 600 matchdays, eight a day from December 1, 2025 (so it crosses
# into 2026 and its dates carry their year, and its last matchday, February 13, 2026, is past).
LEAGUE_PLAYERS, LEAGUE_MATCHDAYS, LEAGUE_START = 45, 600, "2025-12-01"


@pytest.fixture(scope="session")
def league_site(tmp_path_factory):
    """The URL of a site holding the generated league of a club after years (see league_setup.py),
    shared by every test that needs it: it takes a few seconds to build."""
    folder = tmp_path_factory.mktemp("league")
    env = _site_env(folder)
    league = folder / "league.csv"
    subprocess.run([*MANAGE, "migrate", "--no-input", "-v0"], env=env, check=True, cwd=ROOT)
    generate = ["generate_league", "--players", str(LEAGUE_PLAYERS), "--matchdays", str(LEAGUE_MATCHDAYS)]
    subprocess.run(
        [*MANAGE, *generate, "--start", LEAGUE_START, str(league)], env=env, check=True, cwd=ROOT, capture_output=True
    )
    build = f"from tests.browser.league_setup import build; build({str(league)!r})"
    subprocess.run([*MANAGE, "shell", "-c", build], env=env, check=True, cwd=ROOT, capture_output=True)
    with _running_site(folder, env) as url:
        yield url


# The mixed league: the demo, then seven months of official and unofficial games by 15 members who
# also play solitaire (generate_league --people --attempts-out), as a real club's site holds.
MIXED_START, MIXED_END = "2025-12-01", "2026-06-30"
MIXED_TEAMS_FROM = 7 + 120  # the first team matchday's number: after the generated ones
MIXED_SCORES_FROM = MIXED_TEAMS_FROM + TEAM_MATCHDAYS  # then Rummy's score sheets (tests/score_play.py)


@pytest.fixture(scope="session")
def mixed_site(tmp_path_factory):
    """The URL of a site holding the demo and a mixed league played by the same members."""
    folder = tmp_path_factory.mktemp("mixed")
    env = _site_env(folder)
    results, attempts = folder / "league.csv", folder / "attempts.csv"
    generate = ["generate_league", str(results), "--players", "15", "--matchdays", "120", "--first", "7"]
    generate += ["--start", MIXED_START, "--end", MIXED_END, "--people", "--attempts-out", str(attempts)]
    generate += ["--attempts", "600"]
    steps = [["migrate", "--no-input", "-v0"], ["load_demo"], generate]
    steps += [["import_results", str(results)], ["import_attempts", str(attempts)]]
    # Then the same members play in sides (tests/team_play.py), in tables rated by the libraries' teams.
    teams = folder / "teams.csv"
    team_rows = team_matchdays(MIXED_TEAMS_FROM, date.fromisoformat(MIXED_END) + timedelta(days=1), people(15))
    teams.write_text("\n".join(",".join(map(str, row)) for row in [TEAM_COLUMNS, *team_rows]) + "\n")
    setup = "from tests.team_play import setup_team_tables; setup_team_tables()"
    steps += [["shell", "-c", setup], ["import_results", str(teams)]]
    # And Rummy, won with the most points, entered as score sheets: the placings follow from the points.
    scores = folder / "scores.csv"
    score_rows = score_matchdays(MIXED_SCORES_FROM, date.fromisoformat(MIXED_END) + timedelta(days=10), people(15))
    scores.write_text("\n".join(",".join(map(str, row)) for row in [SCORE_COLUMNS, *score_rows]) + "\n")
    setup = "from tests.score_play import setup_score_sheets; setup_score_sheets()"
    steps += [["shell", "-c", setup], ["import_results", str(scores)]]
    for step in steps:
        subprocess.run([*MANAGE, *step], env=env, check=True, cwd=ROOT, capture_output=True)
    with _running_site(folder, env) as url:
        yield url


@contextmanager
def serving(command: list[str], env: dict, log_path: Path, port: int):
    """Run a server process listening on 127.0.0.1:`port` until the block ends; yields its URL once
    it answers."""
    url = f"http://127.0.0.1:{port}"
    with open(log_path, "w") as log:
        server = subprocess.Popen(command, env=env, cwd=ROOT, stdout=log, stderr=log)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    # A refused connection fails at once; a first page of a large league may take a while.
                    urllib.request.urlopen(url, timeout=20)  # noqa: S310 - our own loopback server
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(log_path.read_text()) from None
                    time.sleep(0.2)
            yield url
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"Chromium not found at {CHROMIUM}: install Debian's chromium package (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message + "; in CI the browser tests must run.")
        pytest.skip(message)
    from playwright.sync_api import Locator, Page, sync_playwright

    with sync_playwright() as playwright, pytest.MonkeyPatch.context() as patch:
        for kind in (Page, Locator):
            patch.setattr(kind, "click", _then_loaded(kind.click))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


def _then_loaded(click):
    """Playwright's click returns once the page it opens has started loading, maybe before its
    stylesheet has arrived, and a layout measured then is the unstyled page's (CI failed three times
    so, under load). Here a click also waits for the page's load event: at once if it opened none."""

    def click_then_loaded(self, *args, **kwargs):
        click(self, *args, **kwargs)
        (self.page if hasattr(self, "page") else self).wait_for_load_state("load")

    return click_then_loaded


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    yield page
    context.close()


def screenshot(page, name: str, *, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


@pytest.fixture
def phone(browser):
    """A page in a 375 px wide phone with a touch screen."""
    context = browser.new_context(
        viewport={"width": 375, "height": 800}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    yield page
    context.close()
