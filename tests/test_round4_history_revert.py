"""Issue 41, class 7: history and revert tried as two secretaries at one moment, a careless
secretary and a page cache would. Two reverts of one write at once, a revert racing an edit, a
revert of a revert, a revert after the player was merged or the game was changed each lose nothing
and half-apply nothing, and say what happened: a refusal naming why, or done whole and in the
history, on SQLite and on PostgreSQL. A revert after the page cache served the write shows the
reverted state on every server's next page."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

import league.history as history
from league.models import Category, Game, Matchday, Player, Write
from league.services import save_player
from ratings.services.catalogue import save_category, save_game
from ratings.services.players import merge_players
from ratings.services.recompute import rebuild_all
from ratings.services.revert import RevertRefused, plan, revert
from tests.conftest import results_of, store
from tests.history_race import CASES, judged, race
from tests.test_revert import latest, ratings_now

ROOT = Path(__file__).resolve().parent.parent


def attempted(write: Write, **options) -> str:
    """What a revert answers: "reverted", or "refused: " and its reasons."""
    try:
        revert(Write.objects.get(pk=write.pk), **options)
    except RevertRefused as refused:
        return "refused: " + " ".join(refused.problems)
    return "reverted"


def rated_as_stored() -> bool:
    """Every table is what a full recompute of what is stored gives: nothing half-applied."""
    now = ratings_now()
    rebuild_all()
    return ratings_now() == now


def everything() -> tuple:
    matchdays = history.matchdays(Matchday.objects.values_list("pk", flat=True))
    players = sorted(Player.objects.values_list("pk", "short_name", "name"))
    return ratings_now(), matchdays, players, Write.objects.count()


@pytest.fixture
def gerd(club, make_matchday):
    """Gerd, GL entered twice, played matchday 7; its edit (rounds 1 to 3) is the write reverted."""
    make_matchday(7, "2025-11-21", {"Gerd": 1, "K": 2, "I": 3})
    added = latest()
    matchday = Matchday.objects.get(number=7)
    matchday.rounds = 3
    store(matchday, list(results_of(matchday).values()))
    return {"added": added, "edit": latest(), "player": Player.objects.get(short_name="Gerd")}


# -- a revert after the player was merged ----------------------------------------------------------


def test_a_revert_of_a_merged_players_matchday_is_refused_naming_the_merge(gerd):
    merge_players(Player.objects.get(short_name="GL"), gerd["player"])
    merge = latest()
    before = everything()
    for overwrite in (False, True):
        answer = attempted(gerd["edit"], overwrite=overwrite)
        assert answer.startswith("refused: Matchday 7 (Hearts, 2025-11-21): Gerd has been deleted since by “")
        assert merge.summary in answer and answer.endswith("revert that first.")
    assert everything() == before


def test_a_merged_players_rename_is_not_put_back_alone(gerd):
    """Reverting a rename of a player merged since would bring them back without their results."""
    player = gerd["player"]
    player.name = "Gerd Lund"
    save_player(player)
    rename = latest()
    merge_players(Player.objects.get(short_name="GL"), player)
    before = everything()
    for overwrite in (False, True):
        answer = attempted(rename, overwrite=overwrite)
        assert answer.startswith("refused: Player Gerd has been deleted since by “"), answer
    assert not Player.objects.filter(pk=player.pk).exists() and everything() == before


def test_the_merge_reverted_first_then_the_edit_is_done_whole(gerd):
    before = ratings_now()
    merge_players(Player.objects.get(short_name="GL"), gerd["player"])
    assert attempted(latest()) == "reverted"
    assert attempted(gerd["edit"]) == "reverted"
    assert Matchday.objects.get(number=7).rounds == 1
    assert sorted(Matchday.objects.get(number=7).results.values_list("player__short_name", flat=True)) == [
        "Gerd",
        "I",
        "K",
    ]
    assert rated_as_stored() and ratings_now() != before  # rounds 1 again, rated again


def test_a_merge_reverted_puts_the_results_back_in_the_order_they_were_rated(gerd):
    matchday = Matchday.objects.get(number=7)
    kept = history.matchdays([matchday.pk])[matchday.pk]
    merge_players(Player.objects.get(short_name="GL"), gerd["player"])
    revert(latest())
    assert history.matchdays([matchday.pk])[matchday.pk] == kept
    assert plan(gerd["edit"]).changed_since == []  # so the edit before it reverts as it was


# -- a revert after the game was changed ---------------------------------------------------------------


def _changed(game: Game, change: str) -> None:
    if change == "renamed":
        game.name = "Black Lady"
    elif change == "unofficial":
        game.official = False
    elif change == "category":
        category = Category(name="Trick-taking", slug="trick-taking")
        save_category(category)
        game.category = category
    else:
        game.scoring = "highest"
    save_game(game)


@pytest.mark.parametrize("change", ["renamed", "unofficial", "category", "scoring"])
def test_a_matchdays_edit_reverted_after_its_game_changed_is_done_whole(gerd, change):
    _changed(Game.objects.get(slug="hearts"), change)
    game_change = latest()
    assert attempted(gerd["edit"]) == "reverted"  # a game changed has not changed the matchday
    assert Matchday.objects.get(number=7).rounds == 1 and rated_as_stored()
    assert latest().reverts_id == gerd["edit"].pk
    assert attempted(game_change) == "reverted" and rated_as_stored()
    assert attempted(latest()) == "reverted" and rated_as_stored()  # the revert of the revert


@pytest.mark.parametrize("change", ["renamed", "unofficial", "category", "scoring"])
def test_a_matchday_added_then_its_game_changed_reverts_whole(gerd, change):
    _changed(Game.objects.get(slug="hearts"), change)
    answer = attempted(gerd["added"])
    assert answer.startswith("refused: Matchday 7 (Hearts, 2025-11-21) has been changed since by “"), answer
    assert attempted(gerd["added"], overwrite=True) == "reverted"
    assert not Matchday.objects.filter(number=7).exists() and not Player.objects.filter(short_name="Gerd").exists()
    assert rated_as_stored()


def test_a_games_scoring_change_reverted_under_matchdays_with_points_is_refused(club, make_matchday):
    game = Game.objects.get(slug="hearts")
    game.scoring = "highest"
    save_game(game)
    scoring = latest()
    matchday = Matchday(number=7, date=Matchday.objects.get(number=6).date, game=game, rounds=1)
    from league.results import Play, TypedResult

    store(matchday, [TypedResult(Play(None, score=30), "GL"), TypedResult(Play(None, score=20), "K")])
    before = everything()
    assert (
        attempted(scoring)
        == "refused: Hearts has results with points, whose placings follow from its scoring; keep it."
    )
    assert everything() == before and Game.objects.get(pk=game.pk).scoring == "highest"


# -- a revert of a revert -----------------------------------------------------------------------------


def test_a_revert_reverted_and_that_reverted_again_each_done_whole_and_kept(gerd):
    edited = history.matchdays([Matchday.objects.get(number=7).pk])
    assert attempted(gerd["edit"]) == "reverted"
    first = latest()
    assert attempted(first) == "reverted"
    assert history.matchdays([Matchday.objects.get(number=7).pk]) == edited
    second = latest()
    assert attempted(second) == "reverted" and Matchday.objects.get(number=7).rounds == 1
    assert [w.reverts_id for w in Write.objects.order_by("-pk")[:3]] == [second.pk, first.pk, gerd["edit"].pk]
    # the matchday is as the first revert left it again: reverting that one again is no later change
    assert attempted(first) == "reverted" and Matchday.objects.get(number=7).rounds == 3
    assert rated_as_stored()


def test_a_write_reverted_twice_one_after_the_other_is_refused_the_second_time(gerd):
    assert attempted(gerd["edit"]) == "reverted"
    before = everything()
    assert attempted(gerd["edit"]).startswith("refused: Matchday 7 (Hearts, 2025-11-21) has been changed since by “")
    assert everything() == before


def test_a_deleted_matchday_put_back_twice_says_by_which_write_its_number_came_back(club):
    from ratings.services.matchdays import delete_matchdays

    delete_matchdays([Matchday.objects.get(number=6)])
    deleted = latest()
    assert attempted(deleted) == "reverted"
    answer = attempted(deleted)  # back under its own id: the same matchday, changed since
    assert answer.startswith("refused: Matchday 6 (Hearts, 2025-11-15) has been changed since")
    assert f"by “{latest().summary}”" in answer


# -- the page of the history and of the revert: no input is a 500 -------------------------------------


@pytest.mark.parametrize(
    "query", ["?matchday=x", "?matchday=99999999999", "?player=abc", "?player=-1", "?page=zz", "?reverted=x%00"]
)
def test_the_history_page_answers_any_query_without_an_error(admin_client, gerd, query):
    assert admin_client.get(f"/card-games/history/{query}").status_code in (200, 400)


def test_a_revert_posted_with_odd_fields_reverts_or_refuses_and_never_fails(admin_client, gerd):
    url = f"/card-games/history/{gerd['edit'].pk}/revert/"
    assert admin_client.post(url, {"action": "nope"}).status_code == 200
    too_long = admin_client.post(url, {"action": "revert", "overwrite": "x", "reason": "x" * 5000})
    assert "Why is 5,000 characters long; keep it to 300." in too_long.content.decode()  # nothing reverted
    assert admin_client.post(url, {"action": "revert", "overwrite": "x"}).status_code == 302
    assert admin_client.post(url, {"action": "revert"}).status_code == 200  # reverted by the one before: said
    assert "Nothing was reverted" in admin_client.post(url, {"action": "revert"}).content.decode()
    assert admin_client.get("/card-games/history/99999999999999999999/revert/").status_code == 404


# -- at the same moment ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
def test_on_postgresql_reverts_racing_reverts_edits_and_merges_lose_nothing(transactional_db, club, case):
    if connection.vendor != "postgresql":
        pytest.skip("two connections at once: the suite's SQLite database is in memory (the test below)")
    judged(race(case))


RACE = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tests.conftest import CLUB_CSV
from web.importing import import_results
import_results(CLUB_CSV.read_bytes())
from tests.history_race import CASES, race
print(json.dumps([race(case) for case in CASES]))
"""


@pytest.mark.slow
def test_on_an_sqlite_file_reverts_racing_reverts_edits_and_merges_lose_nothing(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LEAGUE_PRODUCTION": "",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": "",
    }
    done = subprocess.run([sys.executable, "-c", RACE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for outcome in json.loads(done.stdout.strip().splitlines()[-1]):
        judged(outcome)


# -- a revert after the page cache served the write, on two servers ---------------------------------


@pytest.mark.slow
def test_a_revert_through_one_server_is_on_both_servers_next_page(tmp_path):
    from tests.test_two_servers import (
        _backends,
        _scratch_database,
        _stored,
        _visitors_see,
        admin_form,
        secretary_on,
        two_servers,
    )

    database, redis_url = _backends()
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    with two_servers(tmp_path, _scratch_database(database, "revert_cache"), redis_url) as running:
        (one, two), env = running["urls"], running["env"]
        number = max(_stored(env)) + 1
        status, _ = secretary_on(one).post("/admin/league/matchday/add/", admin_form(env, number, ["GL", "K"]))
        assert status == 302
        for _ in range(8):  # every worker of both servers has served the write from the cache
            assert _visitors_see(one, number) and _visitors_see(two, number)
        secretary = secretary_on(two)
        status, page = secretary.get(f"/card-games/history/?matchday={number}")
        write = re.search(r'id="write-(\d+)"', page)[1]
        status, where = secretary.post(f"/card-games/history/{write}/revert/", {"action": "revert", "reason": "typo"})
        assert status == 302 and f"reverted={write}" in where
        for _ in range(8):
            assert not _visitors_see(one, number) and not _visitors_see(two, number), "a worker is stale"
        assert number not in _stored(env)
