"""`Idempotency-Key`: a retried post saves once and gets the first answer; the same key with another
body is a 422; two posts with one key at once save once, on SQLite and PostgreSQL (tests/api_race.py),
through the key's unique constraint, taken in the transaction that saves."""

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from league.models import ApiToken, IdempotentPost, Matchday, Write
from tests.api_client import NIGHT, post, secretary_token
from tests.api_race import judged, race
from web.api import idempotency

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def token(club):
    return secretary_token()[1]


def test_a_retry_with_the_same_key_saves_once_and_gets_the_first_answer(client, token):
    first = post(client, NIGHT, token, key="abc-1")
    again = post(client, NIGHT, token, key="abc-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert Matchday.objects.count() == 7 and Write.objects.filter(way=Write.Way.API).count() == 1
    # The same JSON written another way (keys in another order, other spaces) is the same body.
    reordered = json.dumps(dict(reversed(list(NIGHT.items()))), indent=2)
    assert post(client, None, token, key="abc-1", raw=reordered).json() == first.json()
    assert Matchday.objects.count() == 7


def test_the_same_key_with_another_body_is_refused(client, token):
    post(client, NIGHT, token, key="abc-1")
    other = post(client, {**NIGHT, "rounds": 4}, token, key="abc-1")
    assert other.status_code == 422 and "another body" in other.json()["detail"]
    assert Matchday.objects.count() == 7


def test_without_a_key_a_retry_is_a_look_alike_and_a_new_key_a_new_post(client, token):
    post(client, NIGHT, token)
    assert post(client, NIGHT, token).status_code == 400  # the entry page's double-entry check
    assert post(client, {**NIGHT, "another": True}, token, key="second").status_code == 201
    assert Matchday.objects.count() == 8


def test_a_refused_post_leaves_its_key_free(client, token):
    assert post(client, {**NIGHT, "lines": ["GL", "Nobody"]}, token, key="k").status_code == 400
    assert not IdempotentPost.objects.exists()
    assert post(client, NIGHT, token, key="k").status_code == 201


def test_a_key_is_the_tokens_and_the_clubs(client, token, club):
    _, other = secretary_token(username="other")
    assert post(client, NIGHT, token, key="k").status_code == 201
    # Another token's same key is another post: here the entry page's double-entry check answers.
    assert post(client, NIGHT, other, key="k").status_code == 400
    assert IdempotentPost.objects.count() == 1


def test_a_tokens_keys_are_kept_a_week_and_then_dropped(client, token):
    post(client, NIGHT, token, key="old")
    post(client, {**NIGHT, "another": True}, token, key="recent")
    now = timezone.now()
    IdempotentPost.objects.filter(key="old").update(made=now - idempotency.KEPT - timedelta(minutes=1))
    IdempotentPost.objects.filter(key="recent").update(made=now - idempotency.KEPT + timedelta(minutes=1))
    assert post(client, {**NIGHT, "date": "2026-11-04"}, token, key="new").status_code == 201
    assert set(IdempotentPost.objects.values_list("key", flat=True)) == {"recent", "new"}
    again = post(client, {**NIGHT, "another": True}, token, key="recent")  # still replayed
    assert again.status_code == 201 and Matchday.objects.count() == 9


@pytest.mark.parametrize("key", ["", "a b", "x" * 201, "é"])
def test_a_key_that_is_not_one_is_refused(client, token, key):
    response = post(client, NIGHT, token, key=key)
    assert response.status_code == 400 and "Idempotency-Key" in response.json()["detail"]
    assert Matchday.objects.count() == 6


def test_a_key_taken_meanwhile_by_another_server_replays_its_answer(client, token, monkeypatch):
    """The race's path in one process: the key is not there when the post looks, and is there
    (committed by the other server) when it takes it: the unique constraint refuses the insert, and
    the post answers the other's answer without saving."""
    first = post(client, NIGHT, token, key="raced").json()
    monkeypatch.setattr(idempotency, "earlier", lambda *args: None)
    monkeypatch.setattr(idempotency, "replay", _replay_spy := _Spy(idempotency.replay))
    again = post(client, {**NIGHT, "another": True}, token, key="raced")
    assert again.status_code == 422 and _replay_spy.calls == 1  # another body: refused
    assert Matchday.objects.count() == 7
    row = IdempotentPost.objects.get()
    taken = idempotency.take  # the insert itself, refused by the constraint
    with pytest.raises(idempotency.KeyTaken):
        taken(ApiToken.objects.get(), row.club, "raced", row.body_hash)
    assert first["number"] == 7


class _Spy:
    def __init__(self, call):
        self.call, self.calls = call, 0

    def __call__(self, *args):
        self.calls += 1
        return self.call(*args)


RACE = """
import json, django
django.setup()
from django.test.utils import setup_test_environment
setup_test_environment()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tests.conftest import CLUB_CSV
from web.importing import import_results
import_results(CLUB_CSV.read_bytes())
from tests.api_race import race
print(json.dumps(race({same})))
"""


@pytest.mark.slow
@pytest.mark.parametrize("same_body", [True, False])
def test_on_an_sqlite_file_two_posts_with_one_key_at_once_save_once(tmp_path, same_body):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LEAGUE_PRODUCTION": "",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": "",
    }
    script = RACE.replace("{same}", str(same_body))
    command = [sys.executable, "-c", script]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    judged(json.loads(done.stdout.strip().splitlines()[-1]), same_body)


@pytest.mark.parametrize("same_body", [True, False])
def test_on_postgresql_two_posts_with_one_key_at_once_save_once(transactional_db, club, same_body):
    if connection.vendor != "postgresql":
        pytest.skip("two connections at once: the suite's SQLite database is in memory (the test above)")
    judged(race(same_body), same_body)
