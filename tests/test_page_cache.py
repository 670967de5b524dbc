"""Public pages are cached per league revision for visitors who are not logged in; any write shows on
the next view; staff never get a cached page. Run against each worker's local memory and, where
REDIS_URL points at a server (CI starts one), against Redis shared by all workers."""

import contextlib
import os
import sqlite3
from datetime import datetime, time, timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from league import revision
from league import services as league_services
from league.models import Club, Page, Player
from ratings.models import RatingTable
from ratings.services.rating_tables import save_rating_table
from tests.conftest import CLUB_CSV
from web import page_cache


@pytest.fixture(params=["locmem", "redis"])
def backend(request, settings):
    """The cache to test with, and a context for writes (none: a write renews the revision in the
    database, where every request reads it)."""
    writes = contextlib.nullcontext
    if request.param == "locmem":
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    else:
        url = os.environ.get("REDIS_URL")
        if not url:
            if os.environ.get("CI"):
                pytest.fail("REDIS_URL is not set: in CI the caching tests must run against Redis too")
            pytest.skip("REDIS_URL is not set: no Redis server to test against")
        settings.CACHES = {"default": {"BACKEND": "league.shared_cache.SharedRedisCache", "LOCATION": url}}

    from django.core.cache import cache

    cache.clear()
    return writes


def served(client, url, **kwargs):
    """The response and whether it came from the cache."""
    response = client.get(url, **kwargs)
    return response, getattr(response, "page_cache", None) == "hit"


@pytest.mark.parametrize(
    "url",
    [
        "/card-games/",
        "/card-games/standings/",
        "/card-games/games/hearts/",
        "/card-games/matchdays/5/",
        "/card-games/methods/",
        "/card-games/pages/laws/",
    ],
)
def test_a_public_page_is_stored_and_then_served_from_the_cache(backend, client, club, url):
    if url == "/card-games/pages/laws/":
        league_services.save_page(Page(slug="laws", title="Laws", body="Be kind."))
    first, hit = served(client, url)
    assert first.status_code == 200 and not hit
    again, hit = served(client, url)
    assert hit and again.content == first.content
    assert again.get("ETag") == first.get("ETag") and again["Content-Type"] == first["Content-Type"]


def test_a_cached_page_is_answered_with_the_security_headers_it_was_rendered_with(backend, client, club):
    """The policy header is stored with the page (the CSP middleware comes after the page cache), so
    a hit replays it rather than building it again."""
    first, hit = served(client, "/card-games/standings/")
    again, hit = served(client, "/card-games/standings/")
    assert hit
    for header in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy"):
        assert again[header] == first[header], header
    assert "script-src 'self'" in again["Content-Security-Policy"]


def test_a_players_page_is_cached_too(backend, client, club):
    r = Player.objects.get(short_name="R")
    assert not served(client, f"/card-games/players/{r.pk}/")[1]
    assert served(client, f"/card-games/players/{r.pk}/")[1]


def _save_matchday_7(make_matchday):
    make_matchday(7, "2025-11-20", {"GL": 1, "R": 2}, rounds=3)


def _rename_gl(make_matchday):
    gl = Player.objects.get(short_name="GL")
    gl.name = "Gerda Lund"
    league_services.save_player(gl)


def _switch_method(make_matchday):
    table = RatingTable.objects.get(slug="hearts")
    table.method = "pairwise-placing"
    save_rating_table(table)


def _import(make_matchday, tmp_path=None):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "more.csv"
        path.write_text(
            CLUB_CSV.read_text().splitlines()[0] + "\n7,2025-11-20,Hearts,2,GL,1,\n7,2025-11-20,Hearts,2,K,2,\n"
        )
        call_command("import_results", str(path), stdout=open(os.devnull, "w"))


def _recompute(make_matchday):
    call_command("recompute_ratings", stdout=open(os.devnull, "w"))


@pytest.mark.parametrize(
    ("write", "url", "shows"),
    [
        (_save_matchday_7, "/card-games/", 'href="/card-games/matchdays/7/"'),
        (_rename_gl, "/card-games/", "Gerda Lund"),
        (_switch_method, "/card-games/games/hearts/", "Pairwise by placing"),
        (_import, "/card-games/standings/", "November 20"),
        (_recompute, "/card-games/", None),
    ],
)
def test_any_write_shows_on_the_next_view(backend, client, club, make_matchday, write, url, shows):
    before, _ = served(client, url)
    assert served(client, url)[1]
    with backend():
        write(make_matchday)
    after, hit = served(client, url)
    assert not hit
    assert after["ETag"] != before["ETag"]
    if shows:
        assert shows not in before.content.decode() and shows in after.content.decode()


def test_unknown_parameters_neither_change_the_key_nor_fill_the_cache(backend, client, club):
    first, hit = served(client, "/card-games/?utm_source=newsletter&x=1")
    assert not hit and b"utm_source" not in first.content and b"newsletter" not in first.content
    again, hit = served(client, "/card-games/")
    assert hit and again.content == first.content
    assert served(client, "/card-games/?another=2")[1]


def test_page_numbers_are_read_one_way(backend, client, club, settings):
    settings.LEAGUE_HOME_GRID_PAGE_SIZE = 2
    assert not served(client, "/card-games/?overall-page=2")[1]
    assert served(client, "/card-games/?overall-page=02")[1]
    assert not served(client, "/card-games/?overall-page=1")[1]
    assert served(client, "/card-games/")[1]  # page 1 is the page without a number
    response, hit = served(client, "/card-games/?overall-page=x")
    assert response.status_code == 404 and not hit
    assert not served(client, "/card-games/?overall-page=x")[1]  # an error page is not stored


def test_staff_never_get_a_cached_page_and_their_views_are_not_stored(backend, client, admin_client, club):
    assert not served(admin_client, "/card-games/")[1]
    assert not served(admin_client, "/card-games/")[1]
    assert not served(client, "/card-games/")[1]  # the visitor's first view: staff's views were not stored
    assert served(client, "/card-games/")[1]
    assert not served(admin_client, "/card-games/")[1]  # and staff do not get the visitor's copy


def test_a_conditional_request_for_a_cached_page_gets_not_modified(backend, client, club):
    first, _ = served(client, "/card-games/standings/")
    response, hit = served(client, "/card-games/standings/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert hit and response.status_code == 304
    again, hit = served(client, "/card-games/standings/")  # the stored page is answered whole again
    assert hit and again.status_code == 200 and again.content == first.content
    assert again.headers == first.headers


def test_a_deploy_never_serves_pages_of_the_old_code(backend, client, club, monkeypatch):
    served(client, "/card-games/")
    monkeypatch.setattr(page_cache, "CODE_VERSION", "another-deploy")
    assert not served(client, "/card-games/")[1]


def test_the_workers_memory_keeps_each_page_as_it_is_under_its_version_for_its_time():
    memory = page_cache.PageMemory("test-pages", {"OPTIONS": {"MAX_ENTRIES": 3}})
    page = page_cache.Stored((("Content-Type", "text/html"),), b"<p>stored</p>")
    memory.set("a", page, 60, version="v1")
    assert memory.get("a", version="v1") is page  # not a copy: nothing is pickled
    assert memory.get("a", version="v2") is None
    assert not memory.add("a", page, version="v1") and memory.add("b", page, version="v1")
    memory.set("gone", page, 0, version="v1")
    assert memory.get("gone", version="v1") is None
    for key in "cdef":
        memory.set(key, page, 60, version="v1")
    assert len(memory._cache) <= 3  # the oldest go when it is full
    memory.clear()


def test_a_new_day_never_serves_the_pages_of_the_day_before(backend, client, club, monkeypatch):
    """Who counts as inactive, and which dates need their year, change at midnight."""
    first, _ = served(client, "/card-games/")
    tomorrow = timezone.localdate() + timedelta(days=1)
    monkeypatch.setattr(page_cache, "today", lambda: tomorrow)
    again, hit = served(client, "/card-games/")
    assert not hit and again["ETag"] != first["ETag"]


def test_today_is_the_sites_date_and_turns_at_its_midnight(settings, monkeypatch):
    settings.TIME_ZONE = "Pacific/Auckland"
    page_cache._day[:] = [None, 0.0]
    now = timezone.now()
    assert page_cache.today() == timezone.localdate(now)
    midnight = datetime.combine(timezone.localdate(now) + timedelta(days=1), time(), timezone.get_current_timezone())
    monkeypatch.setattr(page_cache.time, "time", lambda: midnight.timestamp() - 0.001)
    assert page_cache.today() == timezone.localdate(now)
    monkeypatch.setattr(page_cache.time, "time", lambda: midnight.timestamp())
    monkeypatch.setattr(page_cache.timezone, "now", lambda: midnight)
    assert page_cache.today() == midnight.date()
    page_cache._day[:] = [None, 0.0]


def test_a_write_in_one_club_leaves_the_pages_of_another_cached(backend, client, club):
    """Clubs sharing a site each have their own revision: another club's pages, and their ETags, are
    still served from the cache after a write in this one, and only a write in theirs renews them."""
    ours, another = Club.objects.get(), Club.objects.create(slug="another", name="Another")
    theirs, _ = served(client, "/another/")
    assert served(client, "/another/")[1]
    with backend():
        league_services.save_player(Player(club=ours, name="Newcomer", short_name="NEW"))
    again, hit = served(client, "/another/")
    assert hit and again["ETag"] == theirs["ETag"]
    assert not served(client, "/card-games/")[1]  # ours changed
    with backend():
        league_services.save_player(Player(club=another, name="Newcomer", short_name="NEW"))
    assert not served(client, "/another/")[1]


def test_a_second_club_renews_the_firsts_pages_which_then_link_to_the_list_of_clubs(backend, client, club):
    """A club's pages link to the list of clubs only while the site holds others: the second club made
    renews the first's pages, which gain the link, and so does deleting it, which takes the link away;
    a third club leaves the others' pages cached (web.context_processors: `nav_clubs`)."""
    link = '<a href="/">Clubs</a>'
    assert link not in served(client, "/card-games/")[0].content.decode()
    assert served(client, "/card-games/")[1]
    with backend():
        another = Club.objects.create(slug="another", name="Another")
    page, hit = served(client, "/card-games/")
    assert not hit and link in page.content.decode()
    served(client, "/another/")
    with backend():
        Club.objects.create(slug="third", name="Third")
    assert served(client, "/card-games/")[1] and served(client, "/another/")[1]
    with backend():
        league_services.delete_club(Club.objects.get(slug="third"))
        league_services.delete_club(another)
    page, hit = served(client, "/card-games/")
    assert not hit and link not in page.content.decode()


def test_downloads_are_cached_per_table_and_format(backend, client, club):
    csv, _ = served(client, "/card-games/?export=csv&table=overall")
    assert csv["Content-Type"].startswith("text/csv")
    again, hit = served(client, "/card-games/?export=csv&table=overall")
    assert hit and again.content == csv.content and again["Content-Disposition"] == csv["Content-Disposition"]
    assert not served(client, "/card-games/?export=json&table=overall")[1]


def test_the_calculator_and_the_admin_are_not_cached(backend, client, admin_client, club):
    url = reverse("ratings:calculator") + "?ratings=1500,1500&placings=1,2"
    assert not served(client, url)[1] and not served(client, url)[1]
    assert not served(admin_client, "/admin/")[1] and not served(admin_client, "/admin/")[1]


def test_sqlite_workers_learn_of_a_commit_from_data_version_without_reading_the_token_each_time(tmp_path):
    """Each worker watches the database file with a read-only connection of its own: one cheap
    PRAGMA per request, and a scope's row only after another connection committed."""
    path = tmp_path / "league.sqlite3"
    writer = sqlite3.connect(path)
    writer.execute("CREATE TABLE league_revision (id INTEGER PRIMARY KEY, scope TEXT UNIQUE, token TEXT)")
    writer.execute("INSERT INTO league_revision VALUES (1, 'league', 'first'), (2, 'other', 'theirs')")
    writer.commit()
    revision._local.watch = None
    reads = []
    assert revision._from_sqlite(str(path), ["league"]) == ("first",)
    revision._local.watch.db.set_trace_callback(reads.append)
    for _ in range(3):
        assert revision._from_sqlite(str(path), ["league"]) == ("first",)
    assert [sql for sql in reads if "league_revision" in sql] == []
    writer.execute("UPDATE league_revision SET token = 'second' WHERE scope = 'league'")
    writer.commit()
    assert revision._from_sqlite(str(path), ["league"]) == ("second",)
    assert revision._from_sqlite(str(path), ["other"]) == ("theirs",)  # each scope's row is its own
    assert revision._from_sqlite(str(path), ["nobody"]) == ("",)  # a scope never written
    assert len([sql for sql in reads if "league_revision" in sql]) == 3
    reads.clear()  # a request reads the clubs' token and its club's with one PRAGMA
    assert revision._from_sqlite(str(path), ["league", "other"]) == ("second", "theirs")
    assert [sql for sql in reads if "data_version" in sql] == ["PRAGMA data_version"]
    writer.close()
    revision._local.watch = None


def test_the_players_directory_is_cached_by_sort_and_page_but_a_search_never(backend, client, club):
    assert not served(client, "/card-games/players/?sort=rating")[1]
    assert served(client, "/card-games/players/?sort=rating&utm_source=x")[1]
    assert not served(client, "/card-games/players/")[1]  # another order, another entry
    assert not served(client, "/card-games/players/?q=GL")[1]
    assert not served(client, "/card-games/players/?q=GL")[1]


def test_a_cached_page_links_only_with_the_parameters_its_key_holds(backend, client, club, settings):
    settings.LEAGUE_HOME_GRID_PAGE_SIZE = 2
    first, _ = served(client, "/card-games/?overall-page=2&ref=newsletter")
    html = first.content.decode()
    assert "overall-page=" in html and "newsletter" not in html


def test_the_results_entry_page_is_never_stored(backend, client, admin_client, club):
    assert client.get("/card-games/enter/").status_code == 302  # to the login
    assert not served(admin_client, "/card-games/enter/")[1] and not served(admin_client, "/card-games/enter/")[1]


@pytest.mark.django_db(transaction=True)
def test_postgres_workers_read_the_last_committed_token_on_a_connection_of_their_own(settings):
    """On PostgreSQL a request outside a transaction asks its worker's own autocommit connection,
    which sees every commit at once (here with no lease); a dropped or inherited connection is
    opened again, not an error; inside a transaction Django's connection answers, seeing its own
    writes."""
    from django.db import connection, transaction

    from league.models import Revision

    if connection.vendor != "postgresql":
        pytest.skip("the worker's own connection is PostgreSQL's")
    settings.REVISION_LEASE_MS = 0
    revision._local.postgres = None
    Revision.renew("league", "other")
    first = revision.current_of("league", "other")
    assert all(first) and revision._local.postgres is not None
    own = revision._local.postgres[1]
    Revision.renew("league")  # committed on Django's connection: the worker's sees it at once
    assert revision.current_of("league", "other") == (Revision.objects.get(scope="league").token, first[1])
    assert revision.current_of("nobody") == ("",)

    with connection.cursor() as cursor:  # the server drops the worker's connection
        cursor.execute("SELECT pg_terminate_backend(%s)", [own.info.backend_pid])
    assert revision.current_of("other") == (first[1],)
    assert revision._local.postgres[1] is not own and own.closed

    reopened = revision._local.postgres[1]
    revision._local.postgres = (os.getpid() + 1, reopened)  # as a forked worker would find it
    assert revision.current_of("other") == (first[1],)
    assert revision._local.postgres[1] is not reopened
    reopened.close()

    with transaction.atomic():
        Revision.renew("other")
        uncommitted = Revision.objects.get(scope="other").token
        assert revision.current_of("other") == (uncommitted,)
    revision._local.postgres[1].close()
    revision._local.postgres = None


@pytest.mark.django_db(transaction=True)
def test_postgres_workers_serve_the_tokens_they_read_for_a_lease_and_every_write_waits_it_out(settings, monkeypatch):
    """A worker asks PostgreSQL at most once a lease (every scope asked lately together); a commit
    that did not wait is seen once the lease runs out; a write answers only a lease after its commit,
    so a reader after the answer never has a token from before it."""
    from django.db import connection, transaction

    from league.models import Revision

    if connection.vendor != "postgresql":
        pytest.skip("the lease is PostgreSQL's")
    settings.REVISION_LEASE_MS = 300
    Revision.renew("league", "other", "third")
    revision.forget()
    asked = []
    ask = revision._ask_postgres
    monkeypatch.setattr(revision, "_ask_postgres", lambda scopes: asked.append(set(scopes)) or ask(scopes))

    first = revision.current_of("league", "other")
    assert revision.current_of("league", "other") == first and revision.current_of("other") == (first[1],)
    assert asked == [{"league", "other"}]
    with connection.cursor() as cursor:  # a commit that skipped the write's wait (a row changed by hand)
        cursor.execute("UPDATE league_revision SET token = 'moved' WHERE scope IN ('league', 'third')")
    # "third" was not read yet: read at once with every token held, so the tokens a request gets
    # together were read together (a club's new token never served with the clubs' old list)
    assert revision.current_of("league", "third") == ("moved", "moved")
    assert asked[-1] == {"league", "other", "third"}

    with connection.cursor() as cursor:  # a commit that skipped the write's wait
        cursor.execute("UPDATE league_revision SET token = 'unwaited' WHERE scope = 'other'")
    assert revision.current_of("other") == (first[1],)
    revision._local.lease.until = 0  # the lease ran out: every scope asked lately is read again at once
    assert revision.current_of("other") == ("unwaited",)
    assert asked[-1] == {"league", "other", "third"} and len(asked) == 3
    revision._local.asked["third"] -= revision.RECENT_SECONDS  # not asked for lately: dropped
    revision._local.lease.until = 0
    revision.current_of("league")
    assert asked[-1] == {"league", "other"} and set(revision._local.asked) == {"league", "other"}

    Revision.renew("other")  # waits the lease out after its commit, so the next read is the new token
    assert revision.current_of("other") == (Revision.objects.get(scope="other").token,)

    sleeps = []
    monkeypatch.setattr(revision.time, "sleep", sleeps.append)
    with transaction.atomic():
        Revision.renew("league")
        Revision.renew("other")
        assert sleeps == []  # nothing waits before the commit
    assert sleeps == [0.3]  # and one wait per transaction, however many renewals
    revision.forget()


@pytest.mark.django_db(transaction=True)
def test_on_sqlite_a_write_never_waits(settings, monkeypatch):
    from django.db import connection

    from league.models import Revision

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's check is exact at every request")
    sleeps = []
    monkeypatch.setattr(revision.time, "sleep", sleeps.append)
    Revision.renew("league")
    assert revision.lease_seconds() == 0 and sleeps == []
