"""The load benchmark runs end to end: a throwaway production site under gunicorn, each public page
warm, cold and during imports, against the same bytes served from memory. A tiny run: what it
checks is that every figure is measured and printed, not the figures themselves (docs/performance.md's
come from full runs on a quiet machine)."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.browser.conftest import ROOT
from tests.conftest import scratch_postgres_database

pytestmark = pytest.mark.slow  # a load benchmark against gunicorn

PAGES = ("home", "standings", "game", "player", "matchday", "players")


def loadtest(*args: str) -> subprocess.CompletedProcess:
    """`manage.py loadtest` in a process of its own, with the site's settings rather than the tests'."""
    return subprocess.run(
        [sys.executable, "manage.py", "loadtest", *args],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        capture_output=True,
        text=True,
        timeout=600,
    )


def rows_measuring_every_page(report: str) -> list[list[str]]:
    """The report's rows, split, once it is checked that each mode (warm, cold, during imports)
    measured every page."""
    rows = [line.split() for line in report.splitlines()]
    for mode in ("warm", "cold", "during"):
        measured = {row[1] if mode != "during" else row[2] for row in rows if row and row[0] == mode}
        assert measured == set(PAGES), (mode, report)
    return rows


@pytest.mark.skipif(shutil.which("wrk") is None and not os.environ.get("CI"), reason="wrk is not installed")
def test_the_load_benchmark_measures_every_page_warm_cold_and_during_imports():
    args = ["--matchdays", "30", "--players", "8", "--seconds", "1", "--runs", "1", "--workers", "2"]
    result = loadtest(*args)
    assert result.returncode == 0, result.stderr
    rows = rows_measuring_every_page(result.stdout)
    warm = [row for row in rows if row and row[0] == "warm"]
    for row in warm:  # req/s of both sides, and no error in a warm run
        assert float(row[3].replace(",", "")) > 0 and float(row[4].replace(",", "")) > 0 and row[-1] == "0", row
    assert re.search(r"imports completed during the last runs: \d+, failed: 0", result.stdout)
    assert "targets, warm and during imports: ratio >= 0.7, p99 <= 50 ms" in result.stdout
    for row in rows:  # each page says whether it met its targets; cold pages have none
        if row and row[0] in ("warm", "during"):
            assert row[-2] == "ok" or row[-2].startswith("MISSED:"), row
        elif row and row[0] == "cold":
            assert row[-2] == "-", row


def test_the_load_benchmark_refuses_an_unbounded_run():
    result = subprocess.run(
        [sys.executable, "manage.py", "loadtest", "--connections", "1000"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "Refusing an unbounded run" in result.stderr or "wrk not found" in result.stderr


@pytest.mark.skipif(shutil.which("redis-server") is None and not os.environ.get("CI"), reason="no redis-server")
def test_redis_stopped_and_started_again_during_a_load_test_loses_no_write_and_fails_no_page():
    """Issue 29, classes 3 and 7: with Redis gone, pages are still served and a save that committed
    says so; once it is back, the last save is on the next page."""
    args = ["--matchdays", "30", "--players", "8", "--workers", "2", "--redis-outage", "4"]
    result = loadtest(*args)
    assert result.returncode == 0, result.stderr
    report = result.stdout
    answered = {
        m[1]: (int(m[2]), int(m[3])) for m in re.finditer(r"pages answered (\w+) +(\d+), failed +(\d+)", report)
    }
    assert set(answered) == {"before", "during", "after"} and all(n > 0 for n, _ in answered.values()), report
    assert [failed for _, failed in answered.values()] == [0, 0, 0], report
    writes = {
        m[1]: [int(n) for n in m.groups()[1:]]
        for m in re.finditer(
            r"writes (\w+) +(\d+) \((\d+) answered during the outage\), reported saved (\d+), "
            r"lost (\d+), reported failed though saved (\d+)",
            report,
        )
    }
    assert set(writes) == {"import", "admin"}, report
    assert writes["admin"][1] > 0, "a save was answered while Redis was down"
    for made, _, saved, lost, resaid in writes.values():
        assert made > 0 and (saved, lost, resaid) == (made, 0, 0), report
    assert "the last save on the next home page: yes" in report


@pytest.mark.skipif(shutil.which("wrk") is None and not os.environ.get("CI"), reason="wrk is not installed")
def test_the_load_benchmark_spreads_each_page_over_the_clubs_and_writes_in_some():
    args = ["--matchdays", "40", "--players", "12", "--seconds", "1", "--runs", "1", "--workers", "2", "--clubs", "5"]
    result = loadtest(*args)
    assert result.returncode == 0, result.stderr
    assert "5 clubs: each page asked for in every club in turn; imports into 2 of them" in result.stdout
    rows = rows_measuring_every_page(result.stdout)
    # Every club's page answered (the limit 404s a path it did not capture, so errors would show it).
    assert all(row[-1] == "0" for row in rows if row and row[0] == "warm"), result.stdout
    assert re.search(r"imports completed during the last runs: [1-9]\d*, failed: 0", result.stdout)


def test_several_servers_need_one_postgresql_and_one_redis():
    result = loadtest("--servers", "2")
    assert result.returncode != 0
    assert "Several servers share one database and one Redis" in result.stderr


@pytest.fixture
def scratch_postgres():
    """On the PostgreSQL run of the suite (.ci/run): a scratch database beside the test database."""
    if not os.environ.get("REDIS_URL"):
        pytest.skip("two servers need PostgreSQL and Redis: the suite's PostgreSQL run (.ci/run)")
    with scratch_postgres_database("load_test") as (url, _):
        yield url


@pytest.mark.skipif(shutil.which("wrk") is None and not os.environ.get("CI"), reason="wrk is not installed")
def test_two_servers_on_one_postgresql_and_one_redis_answer_every_clubs_pages(scratch_postgres):
    args = ["--matchdays", "30", "--players", "12", "--seconds", "1", "--runs", "1", "--workers", "2"]
    args += ["--clubs", "3", "--servers", "2", "--database-url", scratch_postgres]
    result = loadtest(*args, "--redis-url", os.environ["REDIS_URL"])
    assert result.returncode == 0, result.stderr
    assert "2 server(s) of each side, on PostgreSQL with one Redis" in result.stdout
    rows = rows_measuring_every_page(result.stdout)
    assert all(row[-1] == "0" for row in rows if row and row[0] in ("warm", "during")), result.stdout
    assert re.search(r"imports completed during the last runs: [1-9]\d*, failed: 0", result.stdout)
