"""A lean install: `make run` and `make serve` install requirements.txt, what the site needs; the test
tools are in requirements-test.txt, which `make test` and `make test-all` add."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_layout import imports_of, modules

ROOT = Path(__file__).resolve().parent.parent
# Each test tool's distribution and the module it is imported as.
TEST_TOOLS = {
    "pytest": "pytest",
    "pytest-django": "pytest_django",
    "pytest-xdist": "xdist",
    "hypothesis": "hypothesis",
    "playwright": "playwright",
    "axe-playwright-python": "axe_playwright_python",
    "ruff": "ruff",
    "elo-mmr-py": "elo_mmr_py",
}


def _names(path: Path) -> set[str]:
    lines = (line.split("#")[0].strip() for line in path.read_text().splitlines())
    return {re.split(r"[=<>\[ ]", line)[0].lower() for line in lines if line and not line.startswith("-")}


def test_the_site_requirements_hold_no_test_tool_and_the_test_file_holds_them_all():
    site = _names(ROOT / "requirements.txt")
    assert "django" in site and "gunicorn" in site
    assert not site & set(TEST_TOOLS)
    test_file = ROOT / "requirements-test.txt"
    assert "-r requirements.txt" in test_file.read_text().splitlines()
    assert _names(test_file) == set(TEST_TOOLS)


def test_no_module_of_the_site_imports_a_test_tool():
    """What the site runs must not need what only requirements-test.txt installs."""
    tools = set(TEST_TOOLS.values())
    found = {
        (name, imported)
        for name, path in modules().items()
        for imported in imports_of(name, path)
        if imported.split(".")[0] in tools
    }
    assert found == set()


def _dry_run(target: str, tmp_path: Path) -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    venv = tmp_path / "venv"
    done = subprocess.run(["make", "-n", target, f"VENV={venv}"], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout


def test_make_run_and_serve_install_the_site_requirements_only(tmp_path):
    for target in ("run", "serve"):
        commands = _dry_run(target, tmp_path)
        assert "pip install" in commands and "-r requirements.txt" in commands
        assert "requirements-test.txt" not in commands


def test_make_test_and_test_all_install_the_test_tools(tmp_path):
    for target in ("test", "test-all"):
        commands = _dry_run(target, tmp_path)
        assert "-r requirements-test.txt" in commands
