"""Every way in refuses the same mistakes: the entry page, the admin, the results, attempts and seeds
imports, and the calculators with their JSON. Each reads its values with league.validation's readers
(an invisible character in a name, digits of another script or width, a decimal for a whole number, a
winner's score of 0; partners with different placings, a player on two sides, a weight outside 0..1,
one side only), and names the line, field or player at fault."""

import re
from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league import validation
from league.models import Attempt, DealSeed, Game, Matchday, Player, Result
from ratings import calculator
from ratings.deals import calculator as deal_calculator
from ratings.methods import ParamError
from tests.conftest import NO_FORMER_NAMES
from web.deals.importing import import_attempts, import_seeds
from web.importing import ImportFailed, import_results

INVISIBLE = "holds an invisible or control character, U+200B ZERO WIDTH SPACE, at position 2"
NOT_WHOLE = ["５", "٣", "2.0", "1_0", "+2"]
RESULTS_HEADER = "matchday,date,game,rounds,player,placing,rated_placing\n"
ATTEMPTS_HEADER = "date,game,variant,level,deal,player,won\n"
SEEDS_HEADER = "game,variant,level,deal,plays,wins\n"
ENTER = reverse("league:enter")


def refusal(import_function, text: str) -> list[str]:
    with pytest.raises(ImportFailed) as failed:
        import_function(text.encode())
    return failed.value.errors


def enter(client, rows, **fields):
    data = {"date": "2025-11-20", "game": str(Game.objects.get(name="Hearts").pk), "rounds": "3"}
    data.update({f"line-{n}": text for n, text in enumerate(rows, start=1)}, action="preview", **fields)
    return client.post(ENTER, data)


def page(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


# The readers themselves


@pytest.mark.parametrize("text", NOT_WHOLE + ["", " 2", "2 ", "²", "x"])
def test_the_whole_number_reader_takes_only_the_digits_0_to_9(text):
    with pytest.raises(ValueError, match="^rounds must be a whole number, not "):
        validation.whole_number(text, "rounds", validation.ROUNDS)


@pytest.mark.parametrize("value", ["inf", "nan", "1_000", "１５００", 1e309, True, "1e99999"])
def test_the_number_reader_takes_finite_numbers_as_people_write_them(value):
    with pytest.raises(ValueError, match="^rating must be a (finite )?number, not "):
        validation.finite_number(value, "rating")


def test_the_calculators_ranges_are_the_leagues():
    for param in (calculator.ROUNDS, calculator.WINNER_SCORE, *calculator.PER_PLAYER[1:]):
        span = validation.RANGES[param.name]
        assert (param.minimum, param.maximum) == (span.lowest, span.highest), param.name
    assert calculator.MAX_PLAYERS == validation.PLAYERS.highest


# A name with an invisible character


def test_the_results_import_refuses_an_invisible_character_in_a_name(club):
    errors = refusal(import_results, RESULTS_HEADER + "7,2025-11-20,Hearts,3,Z\u200bZ,1,\n7,2025-11-20,Hearts,3,K,2,\n")
    assert errors == [f"Line 2: player 'Z\\u200bZ' {INVISIBLE}; type the name again without it."]


def test_an_invisible_character_in_a_known_players_name_is_refused_by_the_import_as_on_the_entry_page(
    admin_client, club
):
    """K with a zero-width space after it has K's key: the import took it for K, where the entry page refused it."""
    said = "player 'K\\u200b' holds an invisible or control character, U+200B ZERO WIDTH SPACE, at position 2; "
    said += "type the name again without it."
    errors = refusal(import_results, RESULTS_HEADER + "7,2025-11-20,Hearts,3,GL,1,\n7,2025-11-20,Hearts,3,K\u200b,2,\n")
    assert errors == [f"Line 3: {said}"]
    assert not Matchday.objects.filter(number=7).exists()
    assert f"Line 2: {said}" in page(enter(admin_client, ["GL", "K\u200b"]))


@pytest.mark.parametrize(
    ("player", "message"),
    [
        ("Z\u200bZ", f"Line 2: player 'Z\\u200bZ' {INVISIBLE}; type the name again without it."),
        ("\u200b", "Line 2: player '\\u200b' holds an invisible or control character, U+200B ZERO WIDTH SPACE"),
        ("\u3164", "Line 2: player is empty once spaces and invisible characters are left out."),
    ],
)
def test_the_attempts_import_refuses_an_invisible_character_in_a_name(db, player, message):
    errors = refusal(import_attempts, ATTEMPTS_HEADER + f"2025-11-03,Solitaire,8x4,5,1,{player},W\n")
    assert len(errors) == 1 and errors[0].startswith(message)
    assert not Player.objects.exists() and not Attempt.objects.exists()


def test_the_seeds_import_refuses_an_invisible_character_in_a_games_name(db):
    errors = refusal(import_seeds, SEEDS_HEADER + "Z\u200bZ,8x4,5,1,10,5\n")
    assert errors == [f"Line 2: game 'Z\\u200bZ' {INVISIBLE}; type the name again without it."]
    assert not DealSeed.objects.exists()


def test_the_entry_page_refuses_an_invisible_character_in_a_name(admin_client, club):
    html = page(enter(admin_client, ["Z\u200bZ", "K"]))
    assert f"Line 1: player 'Z\\u200bZ' {INVISIBLE}; type the name again without it." in html
    assert "check, then save" not in html


def test_the_admin_refuses_an_invisible_character_in_a_name(admin_client, db):
    data = {"short_name": "Z\u200bZ", "name": "Zed", **NO_FORMER_NAMES}
    response = admin_client.post(reverse("admin:league_player_add"), data)
    assert response.status_code == 200 and INVISIBLE in page(response)
    assert not Player.objects.exists()


def test_the_calculator_refuses_an_invisible_character_in_a_name():
    with pytest.raises(ParamError, match=re.escape(f"games: line 1: player 'Z\\u200bZ' {INVISIBLE}")):
        calculator.series({"method": "club"}, "", "Z\u200bZ:1 K:2")


# Whole numbers in another script, another width, or with decimals


@pytest.mark.parametrize("value", NOT_WHOLE)
def test_the_results_import_refuses_a_whole_number_not_written_0_to_9(club, value):
    errors = refusal(
        import_results, RESULTS_HEADER + f"7,2025-11-20,Hearts,{value},GL,1,\n7,2025-11-20,Hearts,3,K,2,\n"
    )
    assert errors == [f"Line 2: rounds must be a whole number, not '{value}'."]


@pytest.mark.parametrize("value", NOT_WHOLE)
def test_the_attempts_import_refuses_a_whole_number_not_written_0_to_9(db, value):
    errors = refusal(import_attempts, ATTEMPTS_HEADER + f"2025-11-03,Solitaire,8x4,{value},1,GL,W\n")
    assert errors == [f"Line 2: level must be a whole number, not '{value}'."]


@pytest.mark.parametrize("value", NOT_WHOLE)
def test_the_seeds_import_refuses_a_whole_number_not_written_0_to_9(db, value):
    errors = refusal(import_seeds, SEEDS_HEADER + f"Solitaire,8x4,5,1,{value},1\n")
    assert errors == [f"Line 2: plays must be a whole number, not '{value}'."]


@pytest.mark.parametrize("value", NOT_WHOLE)
def test_the_entry_page_refuses_a_whole_number_not_written_0_to_9(admin_client, club, value):
    assert f"Rounds must be a whole number, not '{value}'." in page(enter(admin_client, ["GL", "K"], rounds=value))
    html = page(enter(admin_client, [f"GL {value}", "K 2"]))
    assert f"Line 1: placing must be a whole number, not '{value}'." in html
    html = page(enter(admin_client, [f"GL won16={value}", "K"]))
    assert f"Line 1: won16 must be a whole number, not '{value}'." in html
    assert Matchday.objects.count() == 6


@pytest.mark.parametrize("value", NOT_WHOLE)
def test_the_calculator_and_its_json_refuse_a_whole_number_not_written_0_to_9(client, db, value):
    query = {"method": "club", "ratings": "1500,1500", "placings": "1,2", "rounds": value}
    with pytest.raises(ParamError, match=re.escape(f"rounds: must be a whole number, not '{value}'")):
        calculator.game_from_query(query)
    response = client.get(reverse("ratings:calculator_json"), query)
    assert response.status_code == 400
    assert response.json() == {"error": f"rounds: must be a whole number, not '{value}'", "parameter": "rounds"}
    with pytest.raises(ParamError, match="^games: line 1: placing: must be a whole number"):
        calculator.series({"method": "club"}, "", f"A:1 B:{value}")


@pytest.mark.parametrize("value", ["１５００", "1_500", "inf"])
def test_the_attempts_calculator_refuses_a_rating_not_written_0_to_9(value):
    with pytest.raises(ParamError, match="^attempts: line 1: the player's rating must be a number"):
        deal_calculator.what_happened(f"{value}, 1500, W")


# A winner's score of 0: a winner scores (the table-size seed's games go to 12, 19 or 25); blank is
# a full game.


def test_the_model_refuses_a_winners_score_of_0(hearts):
    matchday = Matchday(number=1, date=date(2025, 11, 3), game=hearts, rounds=1, winner_score=0)
    with pytest.raises(ValidationError) as refused:
        matchday.full_clean()
    assert refused.value.message_dict == {"winner_score": ["The winner's score must be at least 1."]}


def test_the_entry_page_refuses_a_winners_score_of_0(admin_client, club):
    html = page(enter(admin_client, ["GL", "K"], winner_score="0"))
    assert "Winner&#x27;s score must be at least 1, not 0." in html.replace("'", "&#x27;")
    assert "check, then save" not in html


def test_the_calculator_refuses_a_winners_score_of_0(client, db):
    query = {"method": "table-size", "ratings": "1000,1000", "placings": "1,2", "winner_score": "0"}
    response = client.get(reverse("ratings:calculator_json"), query)
    assert response.status_code == 400
    assert response.json()["error"] == "winner_score: must be 1 to 1,000, not 0"


# The entry page's other fields: never a 500


@pytest.mark.parametrize("lines", ["x", "٣", "2.0", "-5", "100000"])
def test_a_malformed_lines_field_on_the_entry_page_is_a_form_error_naming_it(admin_client, club, lines):
    response = enter(admin_client, ["GL", "K"], lines=lines)
    assert response.status_code == 200
    assert "Lines must be " in page(response)
    assert Matchday.objects.count() == 6


def test_the_sedma_counts_on_the_entry_page_are_counts_not_ties(admin_client, club):
    html = page(enter(admin_client, ["GL won16=2 bad = 1", "K won24=1", "I"]))
    assert "Matchday 7: check, then save" in html
    assert "Line 1: tied players" not in html and "is not a player yet" not in html
    form_lines = {"line-1": "GL won16=2 bad = 1", "line-2": "K won24=1", "line-3": "I"}
    from tests.test_enter import preview_fields

    data = {"date": "2025-11-20", "game": str(Game.objects.get(name="Hearts").pk), "rounds": "3", **form_lines}
    data.update(preview_fields(admin_client.post(ENTER, {**data, "action": "preview"})), action="save")
    assert admin_client.post(ENTER, data).status_code == 302
    stored = {
        r.player.short_name: (r.placing, r.won_by_16, r.won_by_24, r.bad_moves)
        for r in Result.objects.filter(matchday__number=7).select_related("player")
    }
    assert stored == {"GL": (1, 2, 0, 1), "K": (2, 0, 1, 0), "I": (3, 0, 0, 0)}


def test_a_tie_with_a_player_named_like_a_count_is_still_a_tie(admin_client, club):
    Player.objects.create(short_name="bad", name="Bad")
    html = page(enter(admin_client, ["GL = bad", "K"]))
    assert "Matchday 7: check, then save" in html


# Sides and partial play: a weight outside 0..1 or not a number, a side's label that is not a name,
# read as every way in reads them. Each way in refuses them and names the line (the admin: the field;
# the calculator: the parameter). The matchday's own problems (partners placed apart, a player on two
# sides, one side only...) are tests/test_one_check.py's.

SIDES_HEADER = "matchday,date,game,rounds,player,placing,rated_placing,side,weight\n"


def sides_file(rows) -> str:
    """A results file of matchday 7: rows are (player, placing, side, weight) as typed."""
    return SIDES_HEADER + "".join(f"7,2025-11-20,Hearts,3,{p},{placing},,{s},{w}\n" for p, placing, s, w in rows)


def admin_refusal(admin_client, rows) -> str:
    """The admin's add form of matchday 7, rows (player, placing, side, weight); nothing may be saved."""
    from tests.conftest import add_url, form_data

    data = form_data(7, "2025-11-20", 3, [(p, placing, None) for p, placing, _, _ in rows])
    for i, (_, _, side, weight) in enumerate(rows):
        data.update({f"results-{i}-side": side, f"results-{i}-weight": weight})
    data.update({f"results-{len(rows)}-side": "", f"results-{len(rows)}-weight": ""})
    before = Matchday.objects.count(), Result.objects.count()
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    assert (Matchday.objects.count(), Result.objects.count()) == before
    return page(response)


def json_refusal(client, **query) -> dict:
    response = client.get(reverse("ratings:calculator_json"), {"method": "club", **query})
    assert response.status_code == 400
    return response.json()


TWO_SIDES = [("GL", 1, "A", ""), ("K", 1, "A", ""), ("I", 2, "B", ""), ("J", 2, "B", "")]


@pytest.mark.parametrize(
    ("weight", "message"),
    [
        ("1.5", "weight must be at most 1, not 1.5"),
        ("-0.5", "weight must be at least 0, not -0.5"),
        ("٣", "weight must be a number, not '٣'"),
        ("０.５", "weight must be a number, not '０.５'"),
        ("nan", "weight must be a number, not 'nan'"),
        ("1e999", "weight must be a finite number, not '1e999'"),
    ],
)
def test_a_weight_outside_0_to_1_or_not_a_number_is_refused_by_every_way_in(
    admin_client, client, club, weight, message
):
    rows = [*TWO_SIDES[:3], ("J", 2, "B", weight)]
    assert refusal(import_results, sides_file(rows)) == [f"Line 5: {message}."]
    assert f"{message[0].upper()}{message[1:]}." in admin_refusal(admin_client, rows)
    assert f"Line 2: {message}." in page(enter(admin_client, ["GL + K", f"I + J*{weight}"]))
    answer = json_refusal(client, ratings="1500,1500,1500,1500", placings="1,1,2,2", weights=f"1,1,1,{weight}")
    assert answer == {"error": f"weights: value 4: {message}", "parameter": "weights"}
    assert Matchday.objects.count() == 6


def test_a_weight_left_out_after_its_star_is_refused_on_the_entry_page(admin_client, club):
    html = page(enter(admin_client, ["GL + K*", "I + J"]))
    assert "Line 1: weight must be a number from 0 to 1 after the `*`, not nothing." in html


def test_a_sides_label_that_is_not_a_name_is_refused_by_every_way_in(admin_client, client, club):
    said = f"side 'Z\\u200bZ' {INVISIBLE}; type the name again without it"
    rows = [*TWO_SIDES[:3], ("J", 2, "Z\u200bZ", "")]
    assert refusal(import_results, sides_file(rows)) == [f"Line 5: {said}."]
    assert f"S{said[1:]}." in admin_refusal(admin_client, rows)
    answer = json_refusal(client, ratings="1500,1500,1500,1500", placings="1,1,2,2", sides="A,A,B,Z\u200bZ")
    assert answer == {"error": f"sides: value 4: {said}", "parameter": "sides"}
    # The entry page gives the labels itself (A, B ... in line order): none is typed.
