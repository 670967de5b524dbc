"""A matchday's numbers have one range whichever way they come in (the admin, the import, the
services), written once in league.validation and kept by named database constraints; numbers are read
as people write them; the same inputs get the same answers on SQLite and PostgreSQL."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from league.checked import Refused
from league.models import Game, Matchday, Page, Result
from league.results import Play, TypedResult
from league.validation import MATCHDAY_NUMBERS, PLACINGS, ROUNDS, SEDMA_COUNTS, WINNER_SCORES, whole_number
from ratings.models import RatingEntry, RatingTable
from ratings.services.catalogue import save_game
from ratings.services.checks import check_matchday
from ratings.services.imports import ImportedMatchday, import_matchdays
from tests.conftest import add_url, form_data
from tests.test_import import counts, csv, failure
from web.importing import import_results

# Numbers that Python's int() reads but nobody writes in a results file or a form.
NOT_WRITTEN_BY_PEOPLE = ["1_0", "²", "１２", "٣", "+3", "1 2", "0x10", "1e3", "3.0", "Ⅻ", "9" * 5000]


# Reading numbers, without a database


@pytest.mark.parametrize("text", NOT_WRITTEN_BY_PEOPLE)
def test_numbers_only_int_would_read_are_refused(text):
    with pytest.raises(ValueError) as raised:
        whole_number(text, "rounds", ROUNDS)
    message = str(raised.value)
    assert message.startswith("rounds must be")
    assert len(message) < 120  # thousands of digits are not repeated back


def test_numbers_people_write_are_read():
    assert whole_number("7", "rounds", ROUNDS) == 7
    assert whole_number("007", "rounds", ROUNDS) == 7
    assert whole_number("100", "rounds", ROUNDS) == 100


def test_a_number_too_long_for_its_range_is_refused_without_reading_it():
    most = "matchday must be at most 1,000,000,000, not a 5000-digit number"
    assert str(_refusal("9" * 5000, MATCHDAY_NUMBERS)) == most
    least = "matchday must be at least 1, not a negative 5000-digit number"
    assert str(_refusal("-" + "9" * 5000, MATCHDAY_NUMBERS)) == least
    assert str(_refusal("1000000001", MATCHDAY_NUMBERS)) == "matchday must be at most 1,000,000,000, not 1,000,000,001"


def _refusal(text, span):
    with pytest.raises(ValueError) as raised:
        whole_number(text, "matchday", span)
    return raised.value


# The import


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("0,2025-11-03,Hearts,2,B,2,", "Line 3: matchday must be at least 1, not 0."),
        ("1000000001,2025-11-03,Hearts,2,B,2,", "Line 3: matchday must be at most 1,000,000,000, not 1,000,000,001."),
        ("1,2025-11-03,Hearts,101,B,2,", "Line 3: rounds must be at most 100, not 101."),
        ("1,2025-11-03,Hearts,40000,B,2,", "Line 3: rounds must be at most 100, not 40,000."),
        ("1,2025-11-03,Hearts,99999999999,B,2,", "Line 3: rounds must be at most 100, not 99,999,999,999."),
        ("1,2025-11-03,Hearts," + "9" * 19 + ",B,2,", "Line 3: rounds must be at most 100, not a 19-digit number."),
        ("1,2025-11-03,Hearts,2,B,501,", "Line 3: placing must be at most 500, not 501."),
        ("1,2025-11-03,Hearts,2,B,2,40000", "Line 3: rated_placing must be at most 500, not 40,000."),
        ("1,2025-11-03,Hearts,1_0,B,2,", "Line 3: rounds must be a whole number, not '1_0'."),
        ("1,2025-11-03,Hearts,²,B,2,", "Line 3: rounds must be a whole number, not '²'."),
        ("1,2025-11-03,Hearts,１２,B,2,", "Line 3: rounds must be a whole number, not '１２'."),
        ("1,2025-11-03,Hearts,+2,B,2,", "Line 3: rounds must be a whole number, not '+2'."),
        ("1,2025-11-03,Hearts,2,B,2 ,", None),  # spaces around a value are trimmed
        ('1,2025-11-03,Hearts,2,B,"1 2",', "Line 3: placing must be a whole number, not '1 2'."),
        ("²,2025-11-03,Hearts,2,B,2,", "Line 3: matchday must be a whole number, not '²'."),
        ("1,２０２５-11-03,Hearts,2,B,2,", "Line 3: date '２０２５-11-03' is not a date like 2025-11-03."),
        ("1,20251103,Hearts,2,B,2,", "Line 3: date '20251103' is not a date like 2025-11-03."),
        ("1,2025-W45-1,Hearts,2,B,2,", "Line 3: date '2025-W45-1' is not a date like 2025-11-03."),
    ],
)
def test_the_import_keeps_the_ranges_and_reads_numbers_as_people_write_them(db, line, message):
    data = csv("1,2025-11-03,Hearts,2,A,1,", line)
    if message is None:
        import_results(data)
        assert counts()["Result"] == 2
        return
    errors = failure(data)
    assert errors[0] == message
    assert counts() == {"Player": 0, "Game": 0, "Matchday": 0, "Result": 0, "RatingEntry": 0}


def test_thousands_of_digits_are_refused_quickly_and_shortly(db):
    errors = failure(csv("1,2025-11-03,Hearts,2,A,1,", "1,2025-11-03,Hearts,2,B," + "9" * 100_000 + ","))
    assert errors == ["Line 3: placing must be at most 500, not a 100000-digit number."]


def test_a_matchday_at_the_largest_number_and_rounds_is_imported_and_rated(db):
    import_results(csv("1000000000,2025-11-03,Hearts,100,A,1,", "1000000000,2025-11-03,Hearts,100,B,2,"))
    import_results(csv("1,2025-11-04,Hearts,100,A,2,", "1,2025-11-04,Hearts,100,B,1,"))
    after = dict(RatingEntry.objects.filter(matchday__number=1).values_list("player__short_name", "rating_after"))
    assert after == {"A": 1003, "B": 1997}  # 2000 and 1000 after the first (K = 1,000), then no overflow


# The admin: the same rules, as form errors on the field


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("number", "0", "The matchday number must be at least 1."),
        ("number", "1000000001", "The matchday number must be at most 1,000,000,000."),
        ("rounds", "0", "Rounds must be at least 1."),
        ("rounds", "101", "Rounds must be at most 100."),
        ("rounds", "40000", "Rounds must be at most 100."),
        ("rounds", "99999999999", "Rounds must be at most 100."),
        ("rounds", "9" * 5000, "Rounds must be a whole number of at most 18 digits, not 5000."),
        ("rounds", "1_0", "Rounds must be a whole number, not '1_0'."),
        ("rounds", "１２", "Rounds must be a whole number, not '１２'."),
        ("rounds", "²", "Rounds must be a whole number, not '²'."),
        ("rounds", "٣", "Rounds must be a whole number, not '٣'."),
        ("rounds", "2.0", "Rounds must be a whole number, not '2.0'."),
        ("winner_score", "1001", "The winner's score must be at most 1,000."),
        ("winner_score", "0", "The winner's score must be at least 1."),
        ("date", "17.11.2025", "Date '17.11.2025' is not a date like 2025-11-03."),
        ("notes", "late\x00start", "Null characters are not allowed."),
    ],
)
def test_the_admin_refuses_a_matchday_field_out_of_range_naming_the_field(admin_client, club, field, value, message):
    data = form_data(7, "2025-11-20", 3, [("I", 1, None), ("R", 2, None)])
    data[field] = value
    before = counts()
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    assert message in response.context["adminform"].form.errors[field]
    assert counts() == before


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("placing", "501", "A placing is at most 500, the most players a matchday has."),
        ("placing", "1_0", "Placing must be a whole number, not '1_0'."),
        ("placing", "５", "Placing must be a whole number, not '５'."),
        ("placing", "99999999999", "A placing is at most 500, the most players a matchday has."),
        ("rated_placing", "40000", "A placing is at most 500, the most players a matchday has."),
        ("note", "x\x00", "Null characters are not allowed."),
    ],
)
def test_the_admin_refuses_a_result_field_out_of_range_naming_the_row(admin_client, club, field, value, message):
    data = form_data(7, "2025-11-20", 3, [("I", 1, None), ("R", 2, None)])
    data[f"results-1-{field}"] = value
    before = counts()
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    (formset,) = response.context["inline_admin_formsets"]
    assert message in formset.formset.forms[1].errors[field]
    assert counts() == before


def test_the_admin_and_the_import_refuse_the_same_rounds(admin_client, club):
    for rounds in ("0", "101", "1_0"):
        data = form_data(7, "2025-11-20", 3, [("I", 1, None), ("R", 2, None)])
        data["rounds"] = rounds
        assert admin_client.post(add_url(), data).status_code == 200
        with pytest.raises(Exception, match="rounds"):
            import_results(csv(f"7,2025-11-20,Hearts,{rounds},I,1,", f"7,2025-11-20,Hearts,{rounds},R,2,"))
    assert not Matchday.objects.filter(number=7).exists()


def test_the_admin_accepts_the_largest_rounds(admin_client, club):
    response = admin_client.post(add_url(), form_data(7, "2025-11-20", 100, [("I", 1, None), ("R", 2, None)]))
    assert response.status_code == 302
    assert Matchday.objects.get(number=7).rounds == 100


# The services, for any caller


def test_the_matchday_check_refuses_numbers_out_of_range(db, hearts):
    a, b = TypedResult(Play(1), "A"), TypedResult(Play(2), "B")
    for values, said in (
        ({"number": 0}, "The matchday number must be at least 1, not 0."),
        ({"rounds": 101}, "Rounds must be at most 100, not 101."),
        ({"winner_score": 1001}, "The winner's score must be at most 1,000, not 1,001."),
    ):
        matchday = Matchday(**{"number": 1, "date": date(2025, 11, 3), "game": hearts, "rounds": 1, **values})
        with pytest.raises(Refused) as raised:
            check_matchday(matchday, hearts, [a, b])
        assert raised.value.problems == [said]
    matchday = Matchday(number=1, date=date(2025, 11, 3), game=hearts, rounds=1)
    with pytest.raises(Refused) as raised:
        check_matchday(matchday, hearts, [a.changed(bad_moves=101), b])
    assert raised.value.problems == ["A: Bad moves must be at most 100, not 101."]
    with pytest.raises(Refused) as raised:
        check_matchday(matchday, hearts, [TypedResult(Play(1), "A", note="\x00"), b])
    assert raised.value.problems == ["A: The note holds a NUL character (U+0000); type it again without it."]
    assert not Matchday.objects.exists()


def test_the_import_service_refuses_numbers_out_of_range_for_any_caller(db):
    from datetime import date

    results = [TypedResult(Play(1), "A", "Line 2"), TypedResult(Play(2), "B", "Line 3")]
    for number, rounds in ((0, 1), (1, 101), (1, 40_000)):
        with pytest.raises(ValidationError) as raised:
            import_matchdays([ImportedMatchday(number, date(2025, 11, 3), "Hearts", rounds, results)])
        assert raised.value.messages[0].startswith(f"Matchday {number}: ")
    assert counts()["Matchday"] == 0


def test_the_page_service_refuses_a_nul_byte(db):
    with pytest.raises(ValidationError):
        from league import services as league_services

        league_services.save_page(Page(slug="laws", title="Laws", body="a\x00b"))
    assert not Page.objects.exists()


# The database keeps the same ranges, whatever writes to it


CONSTRAINED = [
    (Matchday, "number", 0, "league_matchday_number_range"),
    (Matchday, "number", MATCHDAY_NUMBERS.highest + 1, "league_matchday_number_range"),
    (Matchday, "rounds", 0, "league_matchday_rounds_range"),
    (Matchday, "rounds", ROUNDS.highest + 1, "league_matchday_rounds_range"),
    (Matchday, "winner_score", WINNER_SCORES.highest + 1, "league_matchday_winner_score_range"),
    (Result, "placing", PLACINGS.highest + 1, "league_result_placing_range"),
    (Result, "rated_placing", 0, "league_result_rated_placing_range"),
    (Result, "bad_moves", SEDMA_COUNTS.highest + 1, "league_result_bad_moves_range"),
    (Result, "won_by_16", SEDMA_COUNTS.highest + 1, "league_result_won_by_16_range"),
]


@pytest.mark.parametrize(("model", "field", "value", "constraint"), CONSTRAINED)
def test_a_named_check_constraint_refuses_values_out_of_range(club, model, field, value, constraint):
    assert constraint in {c.name for c in model._meta.constraints}
    row = model.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.filter(pk=row.pk).update(**{field: value})


# Slugs made from names always fit their columns (PostgreSQL refused them with a DataError)


def test_games_whose_long_names_share_a_slug_get_slugs_that_fit(db):
    ligatures = "\ufb00" * 100  # "ﬀ": slugify writes each as "ff", 200 characters in all
    plain = "f" * 100
    import_results(csv(f"1,2025-11-03,{ligatures},1,A,1,", f"1,2025-11-03,{ligatures},1,B,2,"))
    import_results(csv(f"2,2025-11-04,{plain},1,A,1,", f"2,2025-11-04,{plain},1,B,2,"))
    slugs = sorted(Game.objects.values_list("slug", flat=True))
    assert slugs == ["f" * 98 + "-2", "f" * 100]
    assert all(len(slug) <= 100 for slug in RatingTable.objects.values_list("slug", flat=True))
    assert RatingTable.objects.filter(scope="game").count() == 2


def test_a_table_slug_taken_by_another_table_is_cut_to_fit(db):
    from league.models import Category

    long = "x" * 100
    category = Category.objects.create(name="Trading card games", slug=long)
    save_game(Game(name="Pokemon", slug="pokemon", category=category, official=False))
    save_game(Game(name="X" * 100, slug=long))  # its table wants the category table's slug
    assert RatingTable.objects.get(game__slug=long).slug == "x" * 98 + "-2"
