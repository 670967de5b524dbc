"""`manage.py benchmark` runs end to end on a small league and prints every figure (timings are
reported, never asserted: see docs/performance.md)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a benchmark

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("sides", [[], ["--sides"]], ids=["players", "sides"])
def test_the_benchmark_prints_every_figure_on_a_small_league(tmp_path, sides):
    """With --sides, one matchday in three is played in sides, and the baselines, which rate sides
    by hand, still agree with the engine to the last rating."""
    env = {**os.environ, "DEBUG": "1"}
    done = subprocess.run(
        [sys.executable, "manage.py", "benchmark", "--matchdays", "300", "--players", "30", "--runs", "1", *sides],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "League: 300 matchdays" in out
    assert "DEBUG off" in out  # measured as the site runs, whatever the caller's environment
    for figure in (
        "import of the whole file",
        "full recompute of all tables",
        "sqlite3 baseline, project tables (same ratings)",
        "bare sqlite3 baseline (same ratings)",
        "ratio project / baseline with indexes",
        "ratio project / bare baseline",
        "add one matchday at the end",
        "the same, its pages rendered ahead",
        "edit a matchday in the middle",
        "preview that edit (what it changes)",
        "cold home page",
        "cold standings page",
        "cold as-at standings page",
        "ratio as-at / current standings",
        "cold player page",
        "cold game page",
        "home page, first after a write (warm)",
        "game page, first after a write (warm)",
        "player page, first after a write (warm)",
        "peak memory (RSS) of a full recompute",
    ):
        assert figure in out, figure
    # The targets, each printed beside its figure (the cold home and player pages have none).
    for target in ("<= 2.5x", "<= 50 ms", "<= 150 ms", "<= 100 ms", "<= 2000 ms", "<= 300 MB", "<= 500 ms"):
        assert target in out, target
    assert not [line for line in out.splitlines() if line.startswith(("cold home", "cold player")) and "<=" in line]
    assert "(0 queries)" not in out
    assert "STATUS" not in out  # every page measured answered 200
    assert ("in sides (2 against 2, 5 against 4)" in out) == bool(sides)


def test_the_benchmark_of_clubs_prints_every_figure_and_keeps_the_other_clubs_pages():
    """`--clubs`: the same matchdays as one league and spread over clubs. Whether a write in one club
    leaves every other club's cached pages served is a fact, not a timing, so it is asserted."""
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "benchmark",
            "--clubs",
            "3",
            "--matchdays",
            "90",
            "--players",
            "18",
            "--runs",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Site: 3 clubs; 90 matchdays" in out and "the one league: 90 matchdays of 18 players" in out
    for figure, target in (
        ("add one matchday at the end of one club", "<= 20 ms"),
        ("... the first in this new process (not timed above)", " ms"),
        ("recompute one club (30 matchdays)", "<= 1 s"),
        ("full recompute, the one league", ""),
        ("full recompute, the whole site of clubs", ""),
        ("ratio site of clubs / one league", "<= 1x"),
    ):
        line = next((line for line in out.splitlines() if line.startswith(figure)), None)
        assert line is not None and target in line, (figure, out)
    # Two other clubs, four pages each: stored before the write and every one still a hit after it;
    # none of the writing club's, which must show its new matchday.
    assert re.search(r"other clubs pages cached before the write\s+8 of 8\s+all\s+ok", out), out
    assert re.search(r"still served from the cache after it\s+8 of 8\s+all\s+ok", out), out
    assert re.search(r"the writing club pages served from the cache\s+0 of 4\s+none\s+ok", out), out
    assert "STATUS" not in out
