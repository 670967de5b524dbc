"""A worker compiles the site's templates and URL tables when it starts (web/page_cache/warmup.py), so the
first page it renders after a write costs what any other render does."""

import logging
from pathlib import Path

import pytest
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.template import engines
from django.urls import NoReverseMatch, URLResolver, clear_url_caches, get_resolver, reverse

from web.page_cache import warmup


@pytest.fixture
def fresh_caches():
    engine = engines["django"].engine
    for loader in engine.template_loaders:
        loader.reset()
    clear_url_caches()
    yield engine
    for loader in engine.template_loaders:
        loader.reset()
    clear_url_caches()


def project_templates() -> set[str]:
    root = Path(settings.TEMPLATES[0]["DIRS"][0])
    return {path.relative_to(root).as_posix() for path in root.rglob("*.html")}


def test_every_template_of_the_project_is_compiled_at_start(fresh_caches):
    (loader,) = fresh_caches.template_loaders  # Django's cached loader, in development too
    assert not loader.get_template_cache
    warmup.warm_up()
    compiled = {name for name, found in loader.get_template_cache.items() if not isinstance(found, type)}
    assert "league/home.html" in compiled and "base.html" in compiled
    assert project_templates() <= compiled


def test_every_url_name_is_reversed_at_start_admin_included(fresh_caches, monkeypatch):
    names = warmup.url_names(get_resolver())  # the site's own; a club's are built by its home page
    assert {"admin:index", "admin:league_matchday_changelist", "clubs"} <= set(names)
    clear_url_caches()
    warmup.warm_up()
    built = []
    populate = URLResolver._populate
    monkeypatch.setattr(URLResolver, "_populate", lambda self: built.append(self) or populate(self))
    for name in names:  # what the pages' links ask for: nothing is left to build
        try:
            reverse(name, urlconf=settings.ROOT_URLCONF)
        except NoReverseMatch:
            pass  # takes arguments
    assert built == []


def test_a_broken_template_is_logged_and_the_worker_still_starts(fresh_caches, tmp_path, settings, caplog):
    (tmp_path / "broken.html").write_text("{% if %}")
    (tmp_path / "fine.html").write_text("fine")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    with caplog.at_level(logging.ERROR, logger="web.page_cache.warmup"):
        warmup.warm_up()
    assert "broken.html" in caplog.text


def test_the_home_page_is_rendered_once_by_the_worker_itself_and_stored_nowhere(club, client):
    from django.contrib.sessions.models import Session
    from django.core.wsgi import get_wsgi_application

    from web import page_cache

    page_cache.clear()
    # As Django's test client does: the request's signals would close the test's connection.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        assert warmup.render_home(get_wsgi_application()) == 200
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert not Session.objects.exists()
    first = client.get("/card-games/")  # a visitor's first view is rendered (nothing was stored) and stored
    assert first.status_code == 200 and getattr(first, "page_cache", None) != "hit"
    assert getattr(client.get("/card-games/"), "page_cache", None) == "hit"


def test_a_worker_whose_warm_up_fails_still_starts(caplog):
    def broken(environ, start_response):
        raise RuntimeError("no database yet")

    with caplog.at_level(logging.INFO, logger="web.page_cache.warmup"):
        assert warmup.render_home(broken) is None
    assert "warm-up request failed" in caplog.text
