"""More than one server (issue 29, class 7): two production gunicorn servers of two workers each on
one PostgreSQL and one Redis, as a club that outgrows one machine runs them, driven over plain HTTP.

A save through either server (the admin, `/enter/`) is on the other's next page, for visitors served
from the page cache; two saves at the same moment through the two servers are both kept, or the
second secretary gets a clear answer: never a 500, never a save lost; each server answers on its
own gunicorn control socket.
"""

import html
import os
import re
import shutil
import threading
from contextlib import ExitStack, contextmanager
from datetime import date, timedelta
from functools import partial
from pathlib import Path

import pytest

from tests.browser.conftest import GUNICORN, _free_port, production_env, serving
from tests.conftest import fresh_postgres_database
from tools.site_client import SiteClient

pytestmark = pytest.mark.slow  # two gunicorn servers, set up in other processes

PASSWORD = "secretary-pass-1"
DAY = date(2025, 11, 20)


def played_on(number: int) -> str:
    """Matchday `number`'s date: later numbers later, so the newest is always on the home page."""
    return (DAY + timedelta(days=number)).isoformat()


def _backends() -> tuple[str, str]:
    """DATABASE_URL (PostgreSQL) and REDIS_URL, as .ci/run's PostgreSQL run sets them."""
    database, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not database.startswith("postgres"):
        pytest.skip("DATABASE_URL is not PostgreSQL: servers on several machines need one database they all reach")
    if not redis_url:
        if os.environ.get("CI"):
            pytest.fail("REDIS_URL is not set: in CI the PostgreSQL run must test two servers on one Redis")
        pytest.skip("REDIS_URL is not set: no Redis for the servers to share pages and the revision through")
    return database, redis_url


def _scratch_database(url: str, purpose: str = "two_servers") -> str:
    """A fresh database of its own beside DATABASE_URL's, named after it (and the xdist worker)."""
    return fresh_postgres_database(url, purpose)[1]


def secretary_on(url: str) -> SiteClient:
    """The secretary, logged in on the server at `url`."""
    return SiteClient(url).log_in("admin", PASSWORD)


@contextmanager
def two_servers(folder: Path, database_url: str, redis_url: str):
    """Two gunicorn servers of two workers each on one machine, one PostgreSQL database and one Redis,
    with the demo data and a secretary; their environments differ only in the address they bind."""
    first, second = _free_port(), _free_port()
    env = production_env(
        folder,
        first,
        2,
        ["createsuperuser", "--no-input", "--username", "admin", "--email", "admin@club.example"],
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        SECURE_COOKIES="0",  # the secretary logs in over plain HTTP on loopback
        DJANGO_SUPERUSER_PASSWORD=PASSWORD,
        ACCESS_LOG="",
        XDG_RUNTIME_DIR=str(folder),  # where gunicorn puts its control sockets by default
    )
    with ExitStack() as stack:
        urls = [
            stack.enter_context(serving(GUNICORN, {**env, "BIND": f"127.0.0.1:{port}"}, folder / f"{port}.log", port))
            for port in (first, second)
        ]
        yield {"urls": urls, "env": env, "folder": folder, "ports": (first, second)}


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """The two servers on DATABASE_URL's PostgreSQL and REDIS_URL's Redis, as CI runs them."""
    database, redis_url = _backends()
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    with two_servers(tmp_path_factory.mktemp("two-servers"), _scratch_database(database), redis_url) as running:
        yield running


def _stored(env: dict) -> dict[int, list[str]]:
    """Every matchday in the database: its number -> its players' short names, best placed first."""
    import psycopg

    with psycopg.connect(env["DATABASE_URL"]) as db:
        rows = db.execute(
            "SELECT m.number, p.short_name FROM league_matchday m JOIN league_result r ON r.matchday_id = m.id"
            " JOIN league_player p ON p.id = r.player_id ORDER BY m.number, r.placing, p.short_name"
        ).fetchall()
    stored: dict[int, list[str]] = {}
    for number, player in rows:
        stored.setdefault(number, []).append(player)
    return stored


def _ids(env: dict) -> tuple[int, dict[str, int]]:
    """Hearts' id and the players' ids by short name."""
    import psycopg

    with psycopg.connect(env["DATABASE_URL"]) as db:
        game = db.execute("SELECT id FROM league_game WHERE name = 'Hearts'").fetchone()[0]
        players = dict(db.execute("SELECT short_name, id FROM league_player").fetchall())
    return game, players


def admin_form(env: dict, number: int, players: list[str]) -> dict:
    """The admin's add form for matchday `number`, the players placed in the order given."""
    game, ids = _ids(env)
    data = {"number": str(number), "date": played_on(number), "game": str(game)}
    data.update({"rounds": "2", "winner_score": "", "notes": "", "results-TOTAL_FORMS": str(len(players))})
    data.update({"results-INITIAL_FORMS": "0", "results-MIN_NUM_FORMS": "0", "results-MAX_NUM_FORMS": "1000"})
    for i, short_name in enumerate(players):
        data.update({f"results-{i}-player": str(ids[short_name]), f"results-{i}-placing": str(i + 1)})
        data.update({f"results-{i}-rated_placing": "", f"results-{i}-note": ""})
    return data


def preview(secretary: SiteClient, env: dict, number: int, players: list[str]) -> tuple[dict, str]:
    """A preview on `/enter/` of the players in the order given, played on matchday `number`'s day:
    the Save's fields, and the page."""
    game, _ = _ids(env)
    data = {"date": played_on(number), "game": str(game), "rounds": "2", "winner_score": "", "action": "preview"}
    data.update({f"line-{n}": name for n, name in enumerate(players, start=1)})
    status, page = secretary.post("/card-games/enter/", data)
    assert status == 200 and "check, then save" in page, page
    fields = {name: html.unescape(re.search(f'name="{name}" value="([^"]*)"', page)[1]) for name in ("token", "number")}
    return {**data, **fields, "action": "save"}, page


def at_once(*calls) -> list:
    """Run the calls at the same moment, each in its own thread; their answers, in order."""
    start, answers = threading.Barrier(len(calls)), [None] * len(calls)

    def run(i, call):
        start.wait()
        answers[i] = call()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return answers


def posted_at_once(secretaries, path: str, forms) -> list[tuple[int, str]]:
    """Each secretary posts their form to `path` on their server, at the same moment."""
    return at_once(*(partial(secretary.post, path, form) for secretary, form in zip(secretaries, forms, strict=True)))


def _visitors_see(url: str, number: int) -> bool:
    """Whether a visitor (no cookie: the cached pages) finds matchday `number` on the home page."""
    status, page = SiteClient(url).get("/card-games/")
    assert status == 200
    return f'href="/card-games/matchdays/{number}/"' in page


def test_a_save_through_either_server_is_on_the_others_next_page(servers):
    (one, two), env = servers["urls"], servers["env"]
    number = max(_stored(env)) + 1
    for saving, reading in ((one, two), (two, one)):
        for _ in range(8):  # both workers of both servers serve the page from the cache
            assert not _visitors_see(reading, number) and not _visitors_see(saving, number)
        if saving == one:
            status, where = secretary_on(saving).post(
                "/admin/league/matchday/add/", admin_form(env, number, ["GL", "K"])
            )
            assert (status, where) == (302, "/admin/league/matchday/"), "the admin saved it"
        else:
            secretary = secretary_on(saving)
            status, where = secretary.post("/card-games/enter/", preview(secretary, env, number, ["K", "GL", "I"])[0])
            # the entry page goes on to the night's next game
            assert (status, where) == (302, f"/card-games/enter/?saved={number}"), "/card-games/enter/ saved it"
        assert all(_visitors_see(reading, number) for _ in range(8)), "no worker of the other server is stale"
        status, page = SiteClient(reading).get(f"/card-games/matchdays/{number}/")
        assert status == 200 and "GL" in page
        number += 1


def test_two_admin_saves_of_different_matchdays_at_once_are_both_kept(servers):
    (one, two), env = servers["urls"], servers["env"]
    secretaries = secretary_on(one), secretary_on(two)
    for _ in range(3):  # a few rounds, so that the two saves overlap in the database at least once
        number = max(_stored(env)) + 1
        forms = admin_form(env, number, ["I", "R"]), admin_form(env, number + 1, ["J", "K"])
        answers = posted_at_once(secretaries, "/admin/league/matchday/add/", forms)
        assert answers == [(302, "/admin/league/matchday/")] * 2
        stored = _stored(env)
        assert (stored[number], stored[number + 1]) == (["I", "R"], ["J", "K"])
        assert _visitors_see(one, number + 1) and _visitors_see(two, number)


def test_two_admin_saves_of_one_number_at_once_keep_one_and_tell_the_other(servers):
    (one, two), env = servers["urls"], servers["env"]
    secretaries = secretary_on(one), secretary_on(two)
    for _ in range(3):
        number = max(_stored(env)) + 1
        forms = admin_form(env, number, ["I", "R"]), admin_form(env, number, ["J", "K"])
        answers = posted_at_once(secretaries, "/admin/league/matchday/add/", forms)
        statuses = sorted(status for status, _ in answers)
        assert statuses == [200, 302], statuses  # never a 500
        kept = _stored(env)[number]
        refused = next(page for status, page in answers if status == 200)
        assert "Matchday with this Number already exists." in refused
        assert kept == (["I", "R"] if answers[0][0] == 302 else ["J", "K"])
        assert number + 1 not in _stored(env)


def test_two_enter_saves_at_once_are_both_kept_or_the_second_is_told(servers):
    """Both secretaries previewed the same next matchday; the one whose save comes second saves
    nothing and is shown their preview again under the next number, which they then save."""
    (one, two), env = servers["urls"], servers["env"]
    secretaries = secretary_on(one), secretary_on(two)
    for _ in range(3):
        number = max(_stored(env)) + 1
        lineups = ["GL", "R", "J"], ["K", "I"]
        saves = [
            preview(secretary, env, number, players)[0] for secretary, players in zip(secretaries, lineups, strict=True)
        ]
        assert {save["number"] for save in saves} == {str(number)}
        answers = posted_at_once(secretaries, "/card-games/enter/", saves)
        statuses = [status for status, _ in answers]
        assert sorted(statuses) == [200, 302], statuses  # never a 500
        first = statuses.index(302)
        assert answers[first][1] == f"/card-games/enter/?saved={number}"
        told = answers[1 - first][1]
        assert f"Matchday {number} was saved meanwhile, so nothing was saved" in told
        assert f"Save matchday {number + 1}" in told, "the preview is shown again under the next number"
        stored = _stored(env)
        assert stored[number] == lineups[first] and number + 1 not in stored
        second = {**saves[1 - first], "number": str(number + 1)}
        second["token"] = html.unescape(re.search(r'name="token" value="([^"]*)"', told)[1])
        assert secretaries[1 - first].post("/card-games/enter/", second) == (
            302,
            f"/card-games/enter/?saved={number + 1}",
        )
        assert _stored(env)[number + 1] == lineups[1 - first]
        assert _visitors_see(one, number + 1) and _visitors_see(two, number + 1)


def test_each_server_answers_on_its_own_control_socket(servers):
    from gunicorn.ctl.client import ControlClient

    sockets = sorted(servers["folder"].glob("*.ctl"))
    assert len(sockets) == 2, sockets
    addresses = set()
    for path in sockets:
        with ControlClient(str(path), timeout=10) as control:
            (listener,) = control.send_command("show listeners")["listeners"]
            addresses.add(listener["address"])
    assert addresses == {f"http://127.0.0.1:{port}" for port in servers["ports"]}


def test_with_redis_stopped_both_servers_serve_pages_and_a_save_says_it_was_saved(tmp_path):
    """With a Redis of its own, stopped while the servers run: every page is still served (rendered
    without the cache, or a plain 503), an admin save commits and says so (the admin's redirect),
    and once Redis is back, empty, that save is on both servers' next page."""
    database, _ = _backends()
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is not installed: in CI the Redis outage must be tested")
        pytest.skip("redis-server is not installed: no Redis of the test's own to stop")
    from tools.redis_outage import RedisServer

    redis_server = RedisServer(_free_port())
    redis_server.start()
    try:
        url = f"redis://127.0.0.1:{redis_server.port}/0"
        with two_servers(tmp_path, _scratch_database(database, "redis_outage"), url) as running:
            (one, two), env = running["urls"], running["env"]
            secretary = secretary_on(one)
            number = max(_stored(env)) + 1
            assert not _visitors_see(one, number) and not _visitors_see(two, number)
            redis_server.stop()
            pages = [
                SiteClient(server).get(path)[0]
                for server in (one, two)
                for path in ("/card-games/", "/card-games/standings/")
            ]
            assert set(pages) <= {200, 503}, pages
            answer = secretary.post("/admin/league/matchday/add/", admin_form(env, number, ["GL", "K"]))
            assert answer == (302, "/admin/league/matchday/"), answer[0]
            assert _stored(env)[number] == ["GL", "K"]
            redis_server.start()
            assert _visitors_see(one, number) and _visitors_see(two, number)
    finally:
        redis_server.stop()
