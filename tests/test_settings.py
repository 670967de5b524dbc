"""Production refuses to start on unsafe settings; local use needs no settings at all."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEY = "a-production-key-of-fifty-characters-0123456789xyz"


def start(**env):
    """Load the settings in a fresh interpreter, as a server start would."""
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"}}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)",
        ],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
    )


def test_local_use_needs_no_settings():
    result = start(LEAGUE_PRODUCTION="")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_production_refuses_to_start_without_a_secret_key():
    result = start(LEAGUE_PRODUCTION="1", ALLOWED_HOSTS="club.example")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_a_short_or_repetitive_secret_key():
    for weak in ("k" * 31 + "ey", "x" * 60, "django-insecure-" + KEY):
        result = start(LEAGUE_PRODUCTION="1", SECRET_KEY=weak, ALLOWED_HOSTS="club.example")
        assert "at least 50 random characters" in result.stderr, weak


def test_production_refuses_to_start_with_debug_on():
    result = start(LEAGUE_PRODUCTION="1", DEBUG="1", SECRET_KEY=KEY, ALLOWED_HOSTS="club.example")
    assert result.returncode != 0
    assert "DEBUG must be off" in result.stderr


def test_production_needs_its_host_names():
    result = start(LEAGUE_PRODUCTION="1", SECRET_KEY=KEY)
    assert "ALLOWED_HOSTS must name" in result.stderr


def test_production_starts_with_its_settings():
    result = start(LEAGUE_PRODUCTION="1", SECRET_KEY=KEY, ALLOWED_HOSTS="club.example")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_production_refuses_a_wildcard_host():
    for hosts in ("*", "club.example,*", "*.club.example"):
        result = start(LEAGUE_PRODUCTION="1", SECRET_KEY=KEY, ALLOWED_HOSTS=hosts)
        assert result.returncode != 0, hosts
        assert "ALLOWED_HOSTS must name the site's host names, not" in result.stderr


def test_production_takes_a_domain_with_its_subdomains():
    result = start(LEAGUE_PRODUCTION="1", SECRET_KEY=KEY, ALLOWED_HOSTS=".club.example")
    assert result.returncode == 0, result.stderr
