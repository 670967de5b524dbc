"""Writes in two clubs do not wait for each other. Every write renews the site's revision (which keys
the list of clubs), and on PostgreSQL its row stays locked from that renewal to the commit: a write
made through `rendered_ahead()` renews it last, after its recompute and its pages rendered ahead, so
a write in another club waits for its last moments, not for all of it (league.revision)."""

import threading
import time

import pytest
from django.db import connection, transaction

from league import revision
from league.models import Club, Revision
from web.page_cache.ahead import rendered_ahead


@pytest.fixture(autouse=True)
def ahead_on(settings):
    settings.PAGES_AHEAD, settings.PAGE_CACHE_SECONDS = True, 3600


def test_inside_a_write_the_clubs_revision_is_renewed_at_once_and_the_sites_at_its_end(db):
    north = Club.objects.create(slug="north", name="North")
    site, club = revision.LEAGUE, revision.of_club(north.pk)
    before = revision.current_of(site, club)
    with rendered_ahead():
        Revision.bump(north)
        during = revision.current_of(site, club)
        Revision.bump(north)
    after = revision.current_of(site, club)
    assert during[0] == before[0] and during[1] != before[1]  # the site's waits for the end
    assert after[0] != before[0] and after[1] != during[1]


def test_a_write_that_fails_renews_nothing(db):
    north = Club.objects.create(slug="north", name="North")
    before = revision.current_of(revision.LEAGUE, revision.of_club(north.pk))
    with pytest.raises(RuntimeError), rendered_ahead():
        Revision.bump(north)
        raise RuntimeError("refused")
    assert revision.current_of(revision.LEAGUE, revision.of_club(north.pk)) == before


def test_outside_a_write_through_rendered_ahead_the_site_is_renewed_at_once(db):
    north = Club.objects.create(slug="north", name="North")
    before = revision.current_of(revision.LEAGUE)
    with transaction.atomic():
        Revision.bump(north)
        assert revision.current_of(revision.LEAGUE) != before


def test_on_postgresql_a_write_in_another_club_does_not_wait_for_a_long_one(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite lets one write at a time, whichever its club")
    north, south = Club.objects.create(slug="north", name="North"), Club.objects.create(slug="south", name="South")
    Revision.bump(north, south)
    started, done = threading.Event(), threading.Event()

    def long_write():
        try:
            with rendered_ahead():
                Revision.bump(north)
                started.set()
                done.wait(10)  # the rest of a long write: its recompute, its pages rendered ahead
        finally:
            connection.close()

    other = threading.Thread(target=long_write)
    other.start()
    started.wait(10)
    waited = time.monotonic()
    with rendered_ahead():
        Revision.bump(south)
    waited = time.monotonic() - waited
    done.set()
    other.join(10)
    assert waited < 5  # before: until the long write committed (10 s here)
