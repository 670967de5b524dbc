"""Hostile bodies: a body that is not JSON, huge, deeply nested, holds `NaN` or `Infinity`, repeats
a key, is not an object or has values of the wrong types is a 400 naming the problem, never a 500,
and saves nothing (the rate limits: tests/test_api_limits.py)."""

import json

import pytest

from league.models import Matchday, Write
from tests.api_client import NIGHT, post, secretary_token
from tests.conftest import CLUB_SLUG


@pytest.fixture
def token(club):
    return secretary_token()[1]


def refused(client, token, raw, words: str, *, field: str | None = None):
    response = post(client, None, token, raw=raw)
    assert response.status_code == 400, response.content
    answer = response.json()
    said = " ".join([answer["detail"], *(p["message"] for p in answer.get("problems", []))])
    assert words in said, answer
    if field is not None:
        assert field in [p["field"] for p in answer["problems"]], answer
    assert Matchday.objects.count() == 6 and not Write.objects.filter(way=Write.Way.API).exists()
    return answer


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"date=2025-11-20&game=hearts", "The body is not JSON: Expecting value at line 1, column 1"),
        (b'{"date": "2025-11-20",', "The body is not JSON"),
        (b"", "The body is not JSON"),
        (b"\xff\xfe{}", "The body is not UTF-8"),
        (b"[1, 2]", "The body is a JSON list; send an object."),
        (b'"text"', "The body is a JSON str; send an object."),
        (b"null", "The body is a JSON NoneType; send an object."),
    ],
)
def test_a_body_that_is_not_a_json_object_is_refused(client, token, raw, words):
    refused(client, token, raw, words)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_by_name(client, token, constant):
    raw = json.dumps(NIGHT)[:-1] + f', "winner_score": {constant}}}'
    refused(client, token, raw, f"The body holds {constant}, which is not a number in JSON")


def test_numbers_too_large_to_read_are_refused(client, token):
    huge = json.dumps(NIGHT)[:-1] + ', "winner_score": 1e400}'
    refused(client, token, huge, "The body holds 1e400, a number too large.")
    digits = "1" * 5000
    refused(client, token, json.dumps(NIGHT)[:-1] + f', "rounds": {digits}}}', "a number that cannot be read")


def test_a_key_given_twice_is_refused_by_name(client, token):
    raw = '{"date": "2025-11-20", "game": "hearts", "game": "spades", "rounds": 3, "lines": ["GL", "K"]}'
    refused(client, token, raw, 'The body gives "game" more than once')
    nested = '{"date": "2025-11-20", "game": "hearts", "rounds": 3, "lines": [{"a": 1, "a": 2}]}'
    refused(client, token, nested, 'gives "a" more than once')


def test_a_body_of_thousands_of_keys_is_read_quickly(client, token):
    import time

    many = json.dumps({**NIGHT, **{f"k{n}": 0 for n in range(5000)}, "game": "hearts"})
    started = time.perf_counter()
    refused(client, token, many, "Extra inputs are not permitted", field="k1")
    assert time.perf_counter() - started < 2


def test_an_unclosed_string_of_escaped_quotes_is_refused_in_plain_words(client, token):
    """64 kB of escaped quotes after an opening one: the nesting check reads it in one pass (it took
    12 s of CPU backtracking from every quote) and the refusal says "at" once."""
    body = '"' + '\\"' * 31_000
    refused(client, token, body, "The body is not JSON: Unterminated string starting at line 1, column 1.")


@pytest.mark.parametrize(
    ("reason", "words"),
    [("a\u0000b", "Why holds a NUL character (U+0000)"), ("x" * 301, "Why is 301 characters long; keep it to 300.")],
)
def test_a_reason_the_history_cannot_keep_is_refused_naming_it(client, token, reason, words):
    refused(client, token, json.dumps({**NIGHT, "reason": reason}), words, field="reason")


def test_a_reason_and_a_date_are_read_in_the_entry_pages_words_not_pydantics(client, token):
    """The schema's own length caps answered first: a reason of 300 characters and a space was refused
    ("String should have at most 300 characters"), where the entry page keeps it trimmed."""
    refused(client, token, json.dumps({**NIGHT, "date": "10000-01-01"}), "Date '10000-01-01' is not a date like")
    saved = post(client, {**NIGHT, "reason": "x" * 300 + " "}, token)
    assert saved.status_code == 201, saved.content
    assert Write.objects.get(way=Write.Way.API).reason == "x" * 300


def test_a_deeply_nested_body_is_refused_before_it_is_parsed(client, token):
    refused(client, token, "[" * 5000 + "]" * 5000, "The body nests 5000 deep; the API's bodies nest at most 4.")
    deep = json.dumps({**NIGHT, "lines": [[[[["GL"]]]]]})
    refused(client, token, deep, "nests 6 deep")
    # Brackets inside strings are text, not nesting.
    brackets = post(client, {**NIGHT, "reason": "[[[[[[{{{{{{"}, token)
    assert brackets.status_code == 201


def test_a_huge_body_is_refused_unread(client, token, settings):
    settings.API_BODY_LIMIT = 1000
    refused(client, token, json.dumps({**NIGHT, "reason": "x" * 2000}), "the API takes at most 1000")
    response = client.post(
        f"/api/{CLUB_SLUG}/matchdays/",
        "{}",
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
        CONTENT_LENGTH="5000000000",
    )
    assert response.status_code == 400 and "5000000000 bytes" in response.json()["detail"]


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"date": 20251120}, "date", "valid string"),
        ({"game": ["hearts"]}, "game", "valid string"),
        ({"rounds": "3"}, "rounds", "valid integer"),
        ({"rounds": 3.5}, "rounds", "valid integer"),
        ({"rounds": True}, "rounds", "valid integer"),
        ({"rounds": 10**30}, "rounds", ""),
        ({"lines": "GL, K"}, "lines", "valid list"),
        ({"lines": ["GL", 7]}, "lines", "valid string"),
        ({"lines": ["GL"] * 1000}, "lines", "at most"),
        ({"another": "yes"}, "another", "valid boolean"),
        ({"reason": "x" * 301}, "reason", "keep it to 300"),
        ({"colour": "red"}, "colour", "Extra inputs are not permitted"),
        ({"date": "2025-11-20\x00"}, "date", ""),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_naming_its_field(client, token, change, field, words):
    refused(client, token, json.dumps({**NIGHT, **change}), words, field=field)


def test_a_missing_field_is_named(client, token):
    body = {k: v for k, v in NIGHT.items() if k != "lines"}
    answer = refused(client, token, json.dumps(body), "Field required", field="lines")
    assert answer["problems"][0]["line"] is None


def test_a_wrong_type_on_a_line_names_the_line(client, token):
    answer = refused(client, token, json.dumps({**NIGHT, "lines": ["GL", "K", None]}), "valid string")
    assert answer["problems"][0] == {"field": "lines", "line": 3, "message": "Input should be a valid string"}


def test_control_characters_in_a_line_are_refused_naming_it(client, token):
    answer = refused(client, token, json.dumps({**NIGHT, "lines": ["GL", "K\x00"]}), "Line 2")
    assert answer["problems"][0]["line"] == 2


def test_a_get_or_other_method_of_the_write_is_no_500(client, token):
    assert client.put(f"/api/{CLUB_SLUG}/matchdays/", "{}", content_type="application/json").status_code == 405
    assert client.delete(f"/api/{CLUB_SLUG}/matchdays/").status_code == 405
    assert client.post(f"/api/{CLUB_SLUG}/standings/", "{}", content_type="application/json").status_code == 405


@pytest.mark.parametrize(
    ("address", "status"),
    [
        ("players/99999999999999999999999/", 404),
        ("matchdays/99999999999999999999999/", 404),
        ("matchdays/-1/", 404),
        ("matchdays/?page=99999999999999999999999", 404),
        ("matchdays/?page=-3", 404),
        ("matchdays/?page=1e3", 400),
        ("standings/?as_at=" + "9" * 5000, 400),
        ("standings/?as_at=2999-01-01", 400),
        ("players/1/?as_at=1900-01-01", 400),
        ("standings/?as_at=%00", 400),
    ],
)
def test_a_hostile_read_is_a_404_or_a_400_in_json(client, club, address, status):
    response = client.get(f"/api/{CLUB_SLUG}/{address}")
    assert response.status_code == status and response.json()["detail"]
