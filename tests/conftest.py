"""A small fixed cast for the tests: the club's demo data and its published numbers, helpers to build
matchdays, to post the admin's matchday form and to read tables out of pages."""

import csv
import io
import os
import re
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.urls import reverse

from league.models import Game, Matchday, Player
from league.results import Play, TypedResult
from league.validation import name_key
from ratings.services.checks import check_matchday
from ratings.services.matchdays import save_matchday
from tools.generate import people
from web.importing import import_results

CLUB_CSV = Path(__file__).resolve().parent.parent / "web" / "demo" / "club-november.csv"

# Copied from the club's page (rows: matchday 1-6; columns: I, R, GL, K, J).
CLUB_PAGE = [
    [1535, 1488, 1465, 1512, 1500],
    [1535, 1478, 1463, 1515, 1510],
    [1501, 1490, 1497, 1503, 1510],
    [1489, 1503, 1462, 1503, 1544],
    [1496, 1483, 1485, 1503, 1534],
    [1521, 1492, 1461, 1494, 1534],
]
PLAYERS = ["I", "R", "GL", "K", "J"]
CLUB_SLUG = "card-games"  # the club of a one-club test database, named after LEAGUE_NAME


def _club_addresses_while_collecting():
    """Test modules that name an address at import (ENTER = reverse("league:enter")) get the
    club's, as the tests themselves do (`club_addresses`)."""
    from django.urls import set_urlconf

    from web.clubs.addresses import urlconf

    set_urlconf(urlconf(CLUB_SLUG))


_club_addresses_while_collecting()


def per_worker(name: str) -> str:
    """`name` made this pytest-xdist worker's own (unchanged without xdist), for what the tests make
    outside their temporary folders and test database, such as PostgreSQL scratch databases."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"{name}_{worker}" if worker else name


def drop_postgres_database(admin, name: str) -> None:
    """Drop database `name` through `admin` (an autocommit connection to another database), first
    ending this role's sessions on it. Not `WITH (FORCE)`: that refuses when an autovacuum worker,
    which runs as no role, is analysing the freshly filled database; a plain DROP stops the worker."""
    admin.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND usename = current_user"
        " AND pid <> pg_backend_pid()",
        [name],
    )
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


def fresh_postgres_database(url: str, purpose: str, template: str | None = None) -> tuple[str, str]:
    """A new, empty database beside PostgreSQL `url`'s, named after it, `purpose` and this xdist
    worker (one a killed run left is dropped first), optionally a copy of `template`: its name and
    URL."""
    import psycopg

    scratch = per_worker(f"{urlsplit(url).path.strip('/')}_{purpose}")
    with psycopg.connect(beside(url, "postgres"), autocommit=True) as admin:
        drop_postgres_database(admin, scratch)
        admin.execute(f'CREATE DATABASE "{scratch}"' + (f' TEMPLATE "{template}"' if template else ""))
    return scratch, beside(url, scratch)


def beside(url: str, name: str) -> str:
    """PostgreSQL `url` with database `name` instead of its own (its options kept)."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def drop_postgres_databases(url: str, *names: str) -> None:
    """Drop the databases `names` beside PostgreSQL `url`'s."""
    import psycopg

    with psycopg.connect(beside(url, "postgres"), autocommit=True) as admin:
        for name in names:
            drop_postgres_database(admin, name)


@contextmanager
def scratch_postgres_database(purpose: str):
    """On the PostgreSQL run of the suite (.ci/run), a scratch database beside the test database,
    this worker's own, dropped afterwards: its URL and a function that makes it empty again. Skips
    the test on SQLite."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("the suite runs on SQLite; this runs when DATABASE_URL is PostgreSQL")
    scratch, scratch_url = fresh_postgres_database(url, purpose)

    def empty_again() -> None:
        fresh_postgres_database(url, purpose)

    try:
        yield scratch_url, empty_again
    finally:
        drop_postgres_databases(url, scratch)


def pytest_configure(config):
    """Each xdist worker gets its own Redis database (REDIS_URL's number plus the worker's), so one
    worker's cache.clear() (a FLUSHDB) never empties another's; subprocesses inherit it."""
    worker, url = os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get("REDIS_URL")
    if worker and url:
        parts = urlsplit(url)
        number = int(parts.path.strip("/") or 0) + int(worker.removeprefix("gw"))
        os.environ["REDIS_URL"] = urlunsplit(parts._replace(path=f"/{number}"))


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """The test database, and at its end every worker thread's own PostgreSQL connection closed:
    the database cannot be dropped while one is open (league.revision)."""
    from league import revision

    yield
    revision.close_connections()


@pytest.fixture(autouse=True)
def empty_page_cache():
    """Each test starts with no cached pages nor what they keep beside them in the default cache
    (they live in the process, not in the test database), and reads the clubs and the revisions
    afresh: the test before may have emptied the database, which no write's wait covers."""
    from league import revision
    from web import page_cache
    from web.clubs import addresses

    page_cache.clear()
    addresses.forget()
    revision.forget()


@pytest.fixture(autouse=True)
def one_club(request):
    """A test with a database has the club whose pages it reads, as a site has once its secretary
    started it (`create_club`, or the first write): empty, named after LEAGUE_NAME."""
    if request.node.get_closest_marker("no_club"):
        return
    databases = ("transactional_db", "db", "django_db_reset_sequences")
    wanted = next((name for name in databases if name in request.fixturenames), None)
    if wanted is None and request.node.get_closest_marker("django_db"):
        wanted = "transactional_db" if request.node.get_closest_marker("django_db").kwargs.get("transaction") else "db"
    if wanted is None:
        return
    request.getfixturevalue(wanted)
    from league.models import Club, default_club

    if not Club.objects.exists():
        default_club()
    from web.clubs.addresses import clubs_by_slug

    clubs_by_slug()  # as a running site knows its clubs before its first request


@pytest.fixture(autouse=True)
def club_addresses():
    """`reverse` in a test names the addresses of the club a one-club test database has (made from
    LEAGUE_NAME at its first write), as it does inside a request for that club's pages."""
    from django.core.signals import request_finished
    from django.urls import set_urlconf

    from web.clubs.addresses import urlconf

    def again(**kwargs):  # after each request, which puts the site's own back
        set_urlconf(urlconf(CLUB_SLUG))

    again()
    request_finished.connect(again, dispatch_uid="club_addresses")
    yield
    request_finished.disconnect(dispatch_uid="club_addresses")
    set_urlconf(None)


@pytest.fixture
def club(db):
    """The club's six November matchdays, imported as a secretary would."""
    import_results(CLUB_CSV.read_bytes())


@pytest.fixture
def hearts(db):
    return Game.objects.get_or_create(slug="hearts", defaults={"name": "Hearts"})[0]


@pytest.fixture
def make_matchday(db, hearts):
    """make_matchday(7, "2025-11-20", {"I": 1, "R": 2}, rounds=3, game=None, rated={"R": 4})"""

    def make(number, day, placings, *, rounds=1, game=None, rated=None):
        matchday = Matchday(number=number, date=date.fromisoformat(day), game=game or hearts, rounds=rounds)
        results = []
        for short_name, placing in placings.items():
            results.append(TypedResult(Play(placing, (rated or {}).get(short_name)), short_name))
        store(matchday, results)
        return matchday

    return make


def section(html, heading_id):
    """The HTML of one <section>, found by its heading's id."""
    start = html.index(f'id="{heading_id}"')
    return html[start : html.index("</section>", start)]


def cell_texts(row_html):
    cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row_html, flags=re.S)
    # A header cell holds the name and its tooltip; the name is the text before the tooltip.
    return [re.sub(r"<span class=\"tip\".*", "", c, flags=re.S) for c in cells]


def table_rows(section_html):
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", section_html, flags=re.S)
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in cell_texts(r)] for r in rows]


def form_data(number, day, rounds, rows, *, game=None, matchday=None, notes="", delete=()):
    """The admin add/change form as the browser posts it.

    `rows` are (player, placing, rated_placing) with player a short name; on a change form pass the
    `matchday` so that its current results are posted as the formset's initial forms, in `rows` order.
    One empty extra row is added, as the admin shows spare rows that the secretary leaves blank.
    """
    game = game or Game.objects.get(name="Hearts")
    existing = {r.player.short_name: r for r in matchday.results.select_related("player")} if matchday else {}
    data = {
        "number": str(number),
        "date": day,
        "game": str(game.pk),
        "rounds": str(rounds),
        "notes": notes,
        "results-TOTAL_FORMS": str(len(rows) + 1),
        "results-INITIAL_FORMS": str(len(existing)),
        "results-MIN_NUM_FORMS": "0",
        "results-MAX_NUM_FORMS": "1000",
    }
    for i, (short_name, placing, rated) in enumerate(rows):
        player, _ = Player.objects.get_or_create(short_name=short_name, defaults={"name": short_name})
        prefix = f"results-{i}-"
        data[prefix + "player"] = str(player.pk)
        data[prefix + "placing"] = str(placing)
        data[prefix + "rated_placing"] = "" if rated is None else str(rated)
        data[prefix + "note"] = ""
        if matchday is not None:
            data[prefix + "matchday"] = str(matchday.pk)
            result = existing.get(short_name)
            data[prefix + "id"] = str(result.pk) if result else ""
        if short_name in delete:
            data[prefix + "DELETE"] = "on"
    blank = f"results-{len(rows)}-"
    for name in ("player", "placing", "rated_placing", "note"):
        data[blank + name] = ""
    if matchday is not None:
        data[blank + "matchday"] = str(matchday.pk)
        data[blank + "id"] = ""
    return data


# The player admin's inline of former names, posted empty as the browser posts it when none is changed.
NO_FORMER_NAMES = {
    "former_names-TOTAL_FORMS": "0",
    "former_names-INITIAL_FORMS": "0",
    "former_names-MIN_NUM_FORMS": "0",
    "former_names-MAX_NUM_FORMS": "1000",
}


def add_url():
    return reverse("admin:league_matchday_add")


def change_url(matchday):
    return reverse("admin:league_matchday_change", args=[matchday.pk])


def store(matchday, results, game=None):
    """Check a matchday and its results as typed (`TypedResult`s, each under a player's short name)
    and store it, as every way in does; players not stored yet are new. Its rating changes."""
    names = [result.player for result in results]
    players = {name_key(p.short_name): p for p in Player.objects.filter(short_name__in=names)}
    for name in names:
        players.setdefault(name_key(name), Player(name=name, short_name=name))
    return save_matchday(check_matchday(matchday, game or matchday.game, results), players)


def results_of(matchday) -> dict:
    """A stored matchday's results as typed (the rated placings as the admin shows them), by short
    name, to edit and store."""
    from league.placings import typed_rated_placings

    stored = list(matchday.results.select_related("player"))
    typed = typed_rated_placings([r.play() for r in stored])
    return {
        r.player.short_name: TypedResult(r.play(), r.player.short_name, note=r.note).changed(rated_placing=rated)
        for r, rated in zip(stored, typed, strict=True)
    }


def save_results(matchday, placings: dict) -> None:
    """Give some of a stored matchday's players new placings and save it."""
    results = results_of(matchday)
    for short_name, placing in placings.items():
        results[short_name] = results[short_name].changed(placing=placing)
    store(matchday, list(results.values()))


def grid_page(table, number=1, *, size=None):
    """A table's rating grid as a game's page pages it."""
    from django.conf import settings
    from django.core.paginator import Paginator

    from ratings.selectors import grids, standings

    span = standings.spans([table]).of(table)
    paginator = Paginator(grids.grid_matchdays(table, span), size or settings.LEAGUE_GRID_PAGE_SIZE)
    return grids.rating_grid(table, paginator.page(number))


MIXED_MEMBERS = [*PLAYERS, *people(10)]  # the club's five and ten more, named as people are


_BUILT: dict[str, dict] = {}  # by fixture: the tables its build changed, once built in this test process


def built_once(name: str, build):
    """`build()`'s league, built by the first test of this process that asks and, for each later one
    whose database it would have started from alike (as many rows in each table it changed), copied
    in: the tables the build changed, row for row, and what `build()` returned. PostgreSQL's rows come
    back typed (JSON, dates), so there it builds each time."""
    from django.db import connection

    if connection.vendor != "sqlite":
        return build()
    built = _BUILT.get(name)
    if built and all(_count(table) == rows for table, rows in built["counts"].items()):
        _copy_in(built)
        return built["value"]
    before = _rows()
    value = build()
    after = _rows()
    changed = [table for table in after if table != "sqlite_sequence" and after[table] != before[table]]
    sequences = after["sqlite_sequence"]
    _BUILT[name] = {
        "tables": {table: after[table] for table in changed},
        "counts": {table: len(before[table][1]) for table in changed},
        "sequences": [sequences[0], [row for row in sequences[1] if row[0] in changed]],
        "value": value,
    }
    return value


@pytest.fixture
def mixed_league(db):
    """The league a real club keeps: the demo (the club's November, its pages, an unofficial category),
    then seven months of official and unofficial games played by the same members, who also play
    solitaire against deals, then in sides (tests/team_play.py: Spades two against two, Codenames
    five against four, some at weight 0.5), and Rummy entered as score sheets (tests/score_play.py).
    Built once per test process (`built_once`): it takes 5 s."""
    built_once("mixed_league", _build_mixed_league)


def _count(table: str) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f'SELECT COUNT(*) FROM "{table}"')  # noqa: S608 - the database's own table names
        return cursor.fetchone()[0]


def _rows() -> dict[str, list]:
    from django.db import connection

    tables = [*connection.introspection.django_table_names(only_existing=True), "sqlite_sequence"]
    with connection.cursor() as cursor:
        rows = {}
        for table in tables:
            cursor.execute(f'SELECT * FROM "{table}"')  # noqa: S608
            rows[table] = [[column[0] for column in cursor.description], cursor.fetchall()]
    return rows


def _copy_in(built: dict) -> None:
    """The changed tables as the build left them, inside the test's transaction (SQLite checks the
    foreign keys at its end, which a test that rolls back never reaches), and their sequences."""
    from django.db import connection

    def insert(cursor, table, columns, rows):
        names, marks = ", ".join(f'"{name}"' for name in columns), ", ".join(["%s"] * len(columns))
        cursor.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', rows)  # noqa: S608

    with connection.cursor() as cursor:
        for table, (columns, rows) in built["tables"].items():
            cursor.execute(f'DELETE FROM "{table}"')  # noqa: S608
            cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
            insert(cursor, table, columns, rows)
        insert(cursor, "sqlite_sequence", *built["sequences"])


def _build_mixed_league() -> None:
    from django.core.management import call_command

    from tests.score_play import SCORE_COLUMNS, score_matchdays, setup_score_sheets
    from tests.team_play import TEAM_COLUMNS, setup_team_tables, team_matchdays
    from tools.generate import generate
    from tools.generate_deals import generate_attempts
    from web.deals.importing import ATTEMPT_COLUMNS, ATTEMPT_OPTIONAL, import_attempts
    from web.importing import COLUMNS

    call_command("load_demo", stdout=io.StringIO())
    start, end = date(2025, 12, 1), date(2026, 6, 30)
    matchdays = list(generate(0, 60, seed=11, first=7, start=start, end=end, names=MIXED_MEMBERS))
    import_results(csv_bytes(COLUMNS, matchdays))
    attempts = generate_attempts(0, 300, seed=11, start=start, end=end, names=MIXED_MEMBERS)
    import_attempts(csv_bytes([*ATTEMPT_COLUMNS, *ATTEMPT_OPTIONAL], attempts))
    setup_team_tables()
    first = max(int(row[0]) for row in matchdays) + 1
    import_results(csv_bytes(TEAM_COLUMNS, team_matchdays(first, end + timedelta(days=1), MIXED_MEMBERS)))
    setup_score_sheets()  # Rummy, scored by points (tests/score_play.py)
    first = Matchday.objects.order_by("-number").values_list("number", flat=True)[0] + 1
    import_results(csv_bytes(SCORE_COLUMNS, score_matchdays(first, end + timedelta(days=10), MIXED_MEMBERS)))


def csv_bytes(header, rows) -> bytes:
    """Rows as a UTF-8 CSV file with `header`, as the imports read them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode()
