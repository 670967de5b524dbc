"""Names of players and games: compared after NFKC, case folding and trimming, unique by that key in
the database, and refused when they hold control or format characters or nothing visible; the same in
the admin, the import and the services."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from league import services as league_services
from league.checked import Refused
from league.models import Game, Matchday, Player, Result
from league.results import Play, TypedResult
from league.validation import name_key, name_problem
from ratings.services.catalogue import save_game
from ratings.services.checks import check_matchday
from ratings.services.imports import ImportedMatchday, import_matchdays
from tests.conftest import NO_FORMER_NAMES
from tests.test_import import HEADER, counts, csv, failure
from web.importing import import_results

# Each is the same name as "GL" once compared.
LOOK_ALIKES = [
    "gl",  # case
    "Gl",
    "ＧＬ",  # full width
    " GL ",  # spaces around
    "GL\u3164",  # a Hangul filler, which shows as nothing
    "G\ufe0fL",  # a variation selector
]
# Refused wherever a name comes in: control and format characters.
INVISIBLE = [
    "G\u200bL",  # zero-width space
    "G\u200dL",  # zero-width joiner
    "\u202eLG",  # right-to-left override
    "G\u2066L\u2069",  # a bidirectional isolate
    "G\nL",  # newline
    "G\x1b[31mL",  # an escape sequence
    "G\x00L",  # NUL
    "G\u00adL",  # soft hyphen
    "G\u2028L",  # line separator
]
EMPTY = ["\u200b", "\u3164", "\u2800\u2800", " \ufe0f "]


# The key, without a database


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alike_names_have_the_same_key(name):
    assert name_key(name) == name_key("GL") == "gl"


def test_a_decomposed_accent_is_the_same_as_a_composed_one():
    assert name_key("Ze\u0301") == name_key("Z\u00e9") == name_key("ZÉ")


def test_inner_spaces_count_as_one_but_are_not_nothing():
    assert name_key("Jan  K") == name_key("Jan\u00a0K") == name_key("jan k")
    assert name_key("JK") != name_key("J K")


def test_case_folding_goes_beyond_lowercase():
    assert name_key("STRASSE") == name_key("straße")


@pytest.mark.parametrize("name", INVISIBLE)
def test_names_holding_control_or_format_characters_are_refused_naming_the_character(name):
    problem = name_problem(name, "player", 12)
    assert problem.startswith("player ")
    assert "invisible or control character, U+" in problem


@pytest.mark.parametrize("name", EMPTY)
def test_names_that_show_nothing_are_refused(name):
    problem = name_problem(name, "player", 12)
    assert problem is not None
    assert "empty" in problem or "invisible" in problem


def test_ordinary_names_pass():
    for name in ("GL", "Zoë", "Jan K", "李", "O'Neill", "Magic: The Gathering"):
        assert name_problem(name, "name", 100) is None


def test_a_name_that_grows_too_long_when_written_out_is_refused():
    assert "too long once written out" in name_problem("\ufdfa" * 12, "player", 12)


# The database


def test_two_players_whose_names_compare_equal_cannot_both_be_stored(db):
    Player.objects.create(name="GL", short_name="GL")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="gl", short_name="ＧＬ")
    assert Player.objects.count() == 1


def test_two_games_whose_names_compare_equal_cannot_both_be_stored(db):
    Game.objects.create(name="Hearts", slug="hearts")
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(name="HEARTS", slug="hearts-2")


def test_the_key_is_kept_by_every_save(db):
    player = Player.objects.create(name="Zoë", short_name="Ze\u0301")
    assert Player.objects.get(pk=player.pk).short_name_key == "zé"
    player.short_name = "ZZ"
    player.save()
    assert Player.objects.get(pk=player.pk).short_name_key == "zz"


# The services


@pytest.mark.parametrize("name", LOOK_ALIKES[:3])
def test_the_player_service_refuses_a_look_alike_on_the_short_name(db, name):
    Player.objects.create(name="GL", short_name="GL")
    with pytest.raises(ValidationError) as raised:
        league_services.save_player(Player(name="Other", short_name=name))
    assert "short_name" in raised.value.message_dict
    assert "is the same player as 'GL'" in raised.value.message_dict["short_name"][0]
    assert Player.objects.count() == 1


def test_the_player_service_trims_the_names_it_stores(db):
    player = Player(name="  Gerald L  ", short_name=" GL ")
    league_services.save_player(player)
    assert Player.objects.values_list("name", "short_name").get() == ("Gerald L", "GL")


@pytest.mark.parametrize("name", INVISIBLE + EMPTY)
def test_the_player_service_refuses_invisible_characters(db, name):
    with pytest.raises(ValidationError) as raised:
        league_services.save_player(Player(name="Someone", short_name=name))
    assert "short_name" in raised.value.message_dict
    assert not Player.objects.exists()


def test_the_game_service_refuses_a_look_alike_game(db):
    save_game(Game(name="Hearts", slug="hearts"))
    with pytest.raises(ValidationError) as raised:
        save_game(Game(name="ＨＥＡＲＴＳ", slug="hearts-wide"))
    assert "is the same game as 'Hearts'" in raised.value.message_dict["name"][0]


def test_a_new_player_in_a_saved_matchday_is_checked_too(db, hearts):
    Player.objects.create(name="GL", short_name="GL")
    matchday = Matchday(number=1, date=date(2025, 11, 3), game=hearts, rounds=1)
    results = [TypedResult(Play(1), "GL"), TypedResult(Play(2), "G\u200bL")]
    with pytest.raises(Refused) as raised:
        check_matchday(matchday, hearts, results)
    assert "invisible or control character" in " ".join(raised.value.problems)
    assert not Matchday.objects.exists() and Player.objects.count() == 1


# The admin


def player_form(short_name, name="Someone"):
    return {"short_name": short_name, "name": name, **NO_FORMER_NAMES}


@pytest.mark.parametrize("name", ["gl", "ＧＬ", "GL\u3164"])
def test_the_admin_refuses_a_player_whose_short_name_compares_equal_naming_the_field(admin_client, name):
    Player.objects.create(name="GL", short_name="GL")
    response = admin_client.post("/admin/league/player/add/", player_form(name))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "is the same player as 'GL'" in errors["short_name"][0]
    assert Player.objects.count() == 1


@pytest.mark.parametrize("name", INVISIBLE + EMPTY)
def test_the_admin_refuses_invisible_characters_in_a_short_name(admin_client, name):
    response = admin_client.post("/admin/league/player/add/", player_form(name))
    assert response.status_code == 200
    assert "short_name" in response.context["adminform"].form.errors
    assert not Player.objects.exists()


def test_the_admin_refuses_control_characters_in_a_full_name(admin_client):
    response = admin_client.post("/admin/league/player/add/", player_form("GL", "Gerald\u202eL"))
    assert "invisible or control character" in response.context["adminform"].form.errors["name"][0]


def test_the_admin_refuses_a_look_alike_game(admin_client):
    Game.objects.create(name="Hearts", slug="hearts")
    response = admin_client.post(
        "/admin/league/game/add/", {"name": "hearts", "slug": "hearts-2", "official": "on", "scoring": "placings"}
    )
    assert response.status_code == 200
    assert "is the same game as 'Hearts'" in response.context["adminform"].form.errors["name"][0]
    assert Game.objects.count() == 1


def test_the_admin_may_rename_a_player_to_another_spelling_of_their_own_name(admin_client):
    player = Player.objects.create(name="GL", short_name="GL")
    response = admin_client.post(f"/admin/league/player/{player.pk}/change/", player_form("Gl", "GL"))
    assert response.status_code == 302
    assert Player.objects.get().short_name == "Gl"


# The import


def test_an_import_records_a_look_alike_for_the_stored_player(db):
    import_results(csv("1,2025-11-03,Hearts,1,GL,1,", "1,2025-11-03,Hearts,1,I,2,"))
    summary = import_results(csv("2,2025-11-04,hearts,1,ＧＬ,1,", "2,2025-11-04,HEARTS,1,i,2,"))
    assert summary.players_created == [] and summary.games_created == []
    assert Player.objects.count() == 2 and Game.objects.count() == 1
    assert set(Result.objects.filter(matchday__number=2).values_list("player__short_name", flat=True)) == {"GL", "I"}


def test_look_alikes_within_one_file_are_one_new_player_spelt_as_first_seen(db):
    summary = import_results(
        csv(
            "1,2025-11-03,Hearts,1,Ze\u0301,1,",
            "1,2025-11-03,Hearts,1,I,2,",
            "2,2025-11-04,Hearts,1,ZÉ,1,",
            "2,2025-11-04,Hearts,1,i,2,",
        )
    )
    assert summary.players_created == ["Ze\u0301", "I"]
    assert Result.objects.filter(player__short_name="Ze\u0301").count() == 2


@pytest.mark.parametrize("name", ["gl", "ＧＬ", "GL\u3164", " Gl"])
def test_look_alikes_within_one_matchday_are_one_player_entered_twice(db, name):
    errors = failure(csv("1,2025-11-03,Hearts,1,GL,1,", f"1,2025-11-03,Hearts,1,{name},2,"))
    assert errors == ["Line 3: GL is entered twice (also in Line 2)."]  # under the name GL goes by
    assert counts()["Player"] == 0


@pytest.mark.parametrize("name", INVISIBLE)
def test_an_import_refuses_invisible_characters_naming_the_line(db, name):
    line = '1,2025-11-03,Hearts,1,"' + name + '",2,'
    errors = failure(csv("1,2025-11-03,Hearts,1,I,1,", line))
    assert errors[0].startswith("Line 3: player ") and "invisible or control character" in errors[0]
    assert counts()["Player"] == 0


@pytest.mark.parametrize("name", EMPTY)
def test_an_import_refuses_a_name_that_shows_nothing(db, name):
    errors = failure(csv("1,2025-11-03,Hearts,1,I,1,", f"1,2025-11-03,Hearts,1,{name},2,"))
    assert errors[0].startswith("Line 3: player")


def test_an_import_refuses_invisible_characters_in_a_game_name(db):
    errors = failure(csv("1,2025-11-03,Hea\u200brts,1,I,1,", "1,2025-11-03,Hearts,1,R,2,"))
    assert errors[0].startswith("Line 2: game 'Hea\\u200brts' holds an invisible or control character, U+200B")


def test_the_rows_of_one_matchday_may_spell_its_game_differently(db):
    import_results(csv("1,2025-11-03,Hearts,1,I,1,", "1,2025-11-03,hearts,1,R,2,"))
    assert Game.objects.get().name == "Hearts"


def test_the_import_service_checks_names_for_any_caller(db):
    results = [TypedResult(Play(1), "I", "Line 2"), TypedResult(Play(2), "\x00", "Line 3")]
    imported = [ImportedMatchday(1, date(2025, 11, 3), "Hearts", 1, results)]
    with pytest.raises(ValidationError) as raised:
        import_matchdays(imported)
    assert raised.value.messages[0].startswith("Line 3: player '\\x00' holds an invisible or control character")
    assert counts()["Player"] == 0


def test_the_header_of_the_import_format_is_unchanged():
    assert HEADER == "matchday,date,game,rounds,player,placing,rated_placing"
