"""Production footing: Django's deployment check, gunicorn's settings, the Content Security Policy.

(The site served by gunicorn and driven in Chromium is in tests/browser/test_production.py.)
"""

import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The environment docs/operations.md documents for production.
PRODUCTION_ENV = {
    "LEAGUE_PRODUCTION": "1",
    "SECRET_KEY": "a-production-key-of-fifty-characters-0123456789xyz",
    "ALLOWED_HOSTS": "club.example",
    "CSRF_TRUSTED_ORIGINS": "https://club.example",
}


def test_the_deployment_check_finds_nothing_in_the_documented_production_environment(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SECURE_", "DEBUG"))}
    env.update(
        PRODUCTION_ENV,
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."
    assert result.stderr == ""


def gunicorn_settings(monkeypatch, **env):
    for name in ("BIND", "PORT", "WEB_CONCURRENCY", "GUNICORN_TIMEOUT", "ACCESS_LOG", "CONTROL_SOCKET"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_gunicorn_runs_two_workers_per_core_plus_one_on_loopback_by_default(monkeypatch):
    conf = gunicorn_settings(monkeypatch)
    assert conf["workers"] == 2 * len(os.sched_getaffinity(0)) + 1
    assert conf["bind"] == "127.0.0.1:8000"
    assert conf["wsgi_app"] == "config.wsgi:application"


def test_gunicorn_takes_its_address_and_workers_from_the_environment(monkeypatch):
    conf = gunicorn_settings(monkeypatch, BIND="0.0.0.0:9000", WEB_CONCURRENCY="3", ACCESS_LOG="")
    assert (conf["bind"], conf["workers"], conf["accesslog"]) == ("0.0.0.0:9000", 3, None)
    assert gunicorn_settings(monkeypatch, PORT="8123")["bind"] == "127.0.0.1:8123"


def test_each_server_on_a_machine_gets_its_own_control_socket(monkeypatch, tmp_path):
    """Class 7 of issue 29: gunicorn's default control socket is one path per user, so a second
    server would take over the first's (tests/test_two_servers.py asks each server's socket)."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    first, second = gunicorn_settings(monkeypatch, PORT="8001"), gunicorn_settings(monkeypatch, PORT="8002")
    assert first["control_socket"] == str(tmp_path / "gunicorn-127.0.0.1_8001.ctl")
    assert second["control_socket"] == str(tmp_path / "gunicorn-127.0.0.1_8002.ctl")
    assert not first["control_socket_disable"]
    unix = gunicorn_settings(monkeypatch, BIND="unix:/run/league/web.sock")["control_socket"]
    assert unix == str(tmp_path / "gunicorn-unix_run_league_web.sock.ctl")


def test_the_control_socket_can_be_chosen_or_turned_off(monkeypatch):
    chosen = gunicorn_settings(monkeypatch, CONTROL_SOCKET="/run/league/a.ctl")
    assert (chosen["control_socket"], chosen["control_socket_disable"]) == ("/run/league/a.ctl", False)
    assert gunicorn_settings(monkeypatch, CONTROL_SOCKET="")["control_socket_disable"] is True


def test_every_page_carries_a_content_security_policy_without_inline_code(client, club):
    for path in (
        "/card-games/",
        "/card-games/standings/",
        "/card-games/players/1/",
        "/card-games/matchdays/1/",
        "/admin/login/",
        "/no-such-page/",
    ):
        policy = client.get(path).headers["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == directives["style-src"] == "'self'", path
        assert directives["object-src"] == directives["frame-ancestors"] == "'none'"


def test_the_sites_templates_have_no_inline_script_or_style():
    """The policy refuses inline code, so the templates must not need any (the admin's are checked
    in Chromium by the browser tests)."""
    inline = re.compile(r"<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=", re.IGNORECASE)
    sources = [*(ROOT / "templates").rglob("*.html"), *(ROOT / "league").glob("*.py")]
    offenders = [
        f"{path.relative_to(ROOT)}: {m.group()}" for path in sources for m in inline.finditer(path.read_text())
    ]
    assert offenders == []
