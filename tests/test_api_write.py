"""The API's one write: a matchday posted in the entry page's notation is saved by the one writer,
with the entry page's checks and refusals (as JSON, naming the field, the line, the player), in the
history as the API's, and read at once by the cached reads."""

import pytest
from django.db import IntegrityError
from django.test import Client

from league.models import IdempotentPost, Matchday, Player, Result, Write
from ratings.models import RatingEntry
from ratings.services.matchdays import save_matchday
from tests.api_client import NIGHT, post, secretary_token
from tests.conftest import CLUB_SLUG
from web.api import writes


@pytest.fixture
def token(club):
    return secretary_token()[1]


def test_a_posted_matchday_is_saved_as_the_entry_page_saves_it(client, token):
    response = post(client, NIGHT, token)
    assert response.status_code == 201, response.content
    answer = response.json()
    assert answer["number"] == 7 and answer["url"] == f"/{CLUB_SLUG}/matchdays/7/"
    results = Result.objects.filter(matchday__number=7).select_related("player")
    stored = {r.player.short_name: (r.placing, r.left_early) for r in results}
    assert stored == {"GL": (1, False), "K": (2, False), "I": (2, False), "J": (4, False), "R": (5, True)}
    overall = next(t for t in answer["changes"] if t["table"] == "overall")
    entries = RatingEntry.objects.filter(matchday__number=7, table__slug="overall")
    assert {c["player"]: c["change"] for c in overall["changes"]} == {e.player.short_name: e.delta for e in entries}


def test_the_write_is_in_the_history_as_the_apis_with_the_tokens_user(client, token):
    post(client, {**NIGHT, "reason": "from the club's bot"}, token)
    write = Write.objects.order_by("-pk").first()
    assert (write.way, write.user.username, write.reason) == (Write.Way.API, "sec", "from the club's bot")
    assert "7" in write.summary


def test_a_write_renews_the_cached_reads(client, token):
    before = client.get(f"/api/{CLUB_SLUG}/matchdays/")
    assert getattr(client.get(f"/api/{CLUB_SLUG}/matchdays/"), "page_cache", None) == "hit"
    post(client, NIGHT, token)
    after = client.get(f"/api/{CLUB_SLUG}/matchdays/")
    assert getattr(after, "page_cache", None) is None
    assert after.json()["count"] == before.json()["count"] + 1
    standings = client.get(f"/api/{CLUB_SLUG}/standings/?all=1").json()
    assert next(r for r in standings["tables"][0]["rows"] if r["player"] == "GL")["last_played"] == "2025-11-20"


def test_rounds_left_out_are_the_games_last_matchdays_as_on_the_entry_page(client, token):
    last = Matchday.objects.filter(game__name="Hearts").order_by("-date", "-number").first()
    response = post(client, {**NIGHT, "rounds": None}, token)
    assert response.status_code == 201, response.content
    assert Matchday.objects.get(number=response.json()["number"]).rounds == last.rounds


def test_the_game_is_named_by_its_slug_or_its_name_in_any_case(client, token):
    assert post(client, {**NIGHT, "game": "HEARTS"}, token).status_code == 201
    assert post(client, {**NIGHT, "game": "Hearts", "date": "2025-11-21"}, token).status_code == 201


@pytest.mark.parametrize(
    ("change", "field", "line", "words"),
    [
        ({"date": "20.11.2025"}, "date", None, "is not a date like 2025-11-03"),
        ({"date": "2999-01-01"}, "date", None, "is after today"),
        ({"date": "0205-01-01"}, "date", None, "is before 1900"),
        ({"rounds": 0}, "rounds", None, ""),
        ({"game": "chess"}, "game", None, "There is no game “chess”."),
        ({"lines": []}, "lines", None, "Enter the results"),
        ({"lines": ["GL", "GL"]}, "lines", 2, "GL"),
        ({"lines": ["GL 1", "K"]}, "lines", None, "Give every line a placing, or none"),
        ({"lines": ["GL", "K won16=two"]}, "lines", 2, "Line 2: "),
        ({"lines": ["GL", "x" * 201]}, "lines", 2, "Line 2 is longer than 200 characters"),
        ({"lines": ["GL", "Line 9: Zed"]}, "lines", None, "is not a player"),  # typed words name no line
        ({"lines": ["GL K", "GL"]}, "lines", 2, "Line 2: "),  # the body's line, before GL K became two
    ],
)
def test_a_refusal_names_the_field_and_line_and_saves_nothing(client, token, change, field, line, words):
    response = post(client, {**NIGHT, **change}, token)
    assert response.status_code == 400, response.content
    problems = response.json()["problems"]
    assert any(p["field"] == field and p["line"] == line and words in p["message"] for p in problems), problems
    assert Matchday.objects.count() == 6 and not Write.objects.filter(way=Write.Way.API).exists()


def test_an_unknown_player_is_refused_by_name_with_the_nearest_member(client, token):
    response = post(client, {**NIGHT, "lines": ["GL", "Kk", "Zed"]}, token)
    assert response.status_code == 400
    messages = " ".join(p["message"] for p in response.json()["problems"])
    assert "Zed is not a player" in messages and "Kk is not a player" in messages
    assert not Player.objects.filter(short_name="Zed").exists() and Matchday.objects.count() == 6


def test_a_night_already_saved_is_refused_unless_it_is_another(client, token):
    assert post(client, NIGHT, token).status_code == 201
    again = post(client, NIGHT, token)
    assert again.status_code == 400 and "looks like matchday 7" in again.json()["problems"][0]["message"]
    assert post(client, {**NIGHT, "another": True}, token).status_code == 201
    assert Matchday.objects.count() == 8


def test_the_api_takes_what_the_entry_page_takes_partners_and_points(client, token):
    response = post(client, {**NIGHT, "lines": ["GL + K", "I + J = R*0.5"]}, token)
    assert response.status_code == 201, response.content
    sides = dict(Result.objects.filter(matchday__number=7).values_list("player__short_name", "side"))
    assert sides["GL"] == sides["K"] != "" and sides["I"] == sides["J"] != sides["GL"]


def test_a_script_posts_without_a_csrf_cookie_as_production_checks_it(token):
    strict = Client(enforce_csrf_checks=True)
    assert post(strict, NIGHT, token).status_code == 201
    assert Matchday.objects.count() == 7


def test_a_number_taken_meanwhile_is_saved_under_the_next_once(client, token, monkeypatch):
    """Another save takes the next number between our read of it and our save: the database refuses
    ours (the number is unique in the club), nothing of it stays, and the post is read again and saved
    once, under the number after."""
    calls = []

    def taken_once(checked, players):
        calls.append(checked.matchday.number)
        if len(calls) == 1:
            raise IntegrityError("UNIQUE constraint failed: league_matchday.club_id, league_matchday.number")
        return save_matchday(checked, players)

    monkeypatch.setattr(writes, "save_matchday", taken_once)
    response = post(client, NIGHT, token, key="once")
    assert response.status_code == 201 and calls == [7, 7]
    assert Matchday.objects.count() == 7 and Write.objects.filter(way=Write.Way.API).count() == 1
    assert post(client, NIGHT, token, key="once").json() == response.json()


def test_a_post_that_keeps_losing_its_number_is_a_409_and_saves_nothing(client, token, monkeypatch):
    def always_taken(checked, players):
        raise IntegrityError("UNIQUE constraint failed")

    monkeypatch.setattr(writes, "save_matchday", always_taken)
    response = post(client, NIGHT, token, key="k")
    assert response.status_code == 409 and "Send it again" in response.json()["detail"]
    assert Matchday.objects.count() == 6 and not IdempotentPost.objects.exists()
