"""Class 6 of the hostile-input issue, solitaire's ways in: the attempts and seeds imports and the
admin read every value as the results import does (league.validation's readers), "What happened?"
and its JSON take only bounded ratings and K and answer valid JSON, and the deal tables' downloads
hold plain numbers while their pages keep their formatting."""

import csv
import io
import json
import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Attempt, Deal, DealLevel, DealSeed, DealSession, Game, Player
from tests.test_deal_admin import ADD, session_form, solitaire  # noqa: F401 - the admin's solitaire game
from tests.test_deal_pages import league, solitaire_league  # noqa: F401 - the generated solitaire league
from web.deals.importing import import_attempts, import_seeds
from web.importing import ImportFailed, import_results

ATTEMPTS_HEADER = "date,game,variant,level,deal,player,won\n"
SEEDS_HEADER = "game,variant,level,deal,plays,wins\n"
GOOD_LINE = "2025-11-03,Solitaire,8x4,5,1,GL,W\n"


def refusal(import_function, text: str) -> list[str]:
    with pytest.raises(ImportFailed) as failed:
        import_function(text.encode())
    return failed.value.errors


def nothing_saved() -> bool:
    stored = (Game, Player, DealLevel, Deal, DealSeed, DealSession, Attempt)
    return not any(model.objects.exists() for model in stored)


# The attempts import: names, numbers and dates read as the results import reads them

INVISIBLE = "holds an invisible or control character"
HOSTILE_NAMES = [
    ("Z\x00Z", "U+0000 (a control character), at position 2"),
    ("Z\u200bZ", "U+200B ZERO WIDTH SPACE, at position 2"),
    ("Z\u200fZ", "U+200F RIGHT-TO-LEFT MARK, at position 2"),
    ("Z\u202eZ", "U+202E RIGHT-TO-LEFT OVERRIDE, at position 2"),
    ("\u200b\u2060", "U+200B ZERO WIDTH SPACE, at position 1"),  # a name of format characters only
]


@pytest.mark.parametrize(("name", "said"), HOSTILE_NAMES)
def test_class_6_the_attempts_import_refuses_a_control_or_format_character_in_every_name(db, name, said):
    for column, line in (
        ("game", f"2025-11-03,{name},8x4,5,1,GL,W\n"),
        ("variant", f"2025-11-03,Solitaire,{name},5,1,GL,W\n"),
        ("player", f"2025-11-03,Solitaire,8x4,5,1,{name},W\n"),
    ):
        errors = refusal(import_attempts, ATTEMPTS_HEADER + GOOD_LINE + line)
        assert errors == [f"Line 3: {column} {name!r} {INVISIBLE}, {said}; type the name again without it."]
        assert nothing_saved()


@pytest.mark.parametrize("name", ["\u3164", "\u2800\u2800", "\ufe0f"])
def test_class_6_an_invisible_name_is_refused_naming_its_line_and_column(db, name):
    for column, line in (
        ("game", f"2025-11-03,{name},8x4,5,1,GL,W\n"),
        ("variant", f"2025-11-03,Solitaire,{name},5,1,GL,W\n"),
        ("player", f"2025-11-03,Solitaire,8x4,5,1,{name},W\n"),
    ):
        errors = refusal(import_attempts, ATTEMPTS_HEADER + GOOD_LINE + line)
        assert errors == [f"Line 3: {column} is empty once spaces and invisible characters are left out."]
        assert nothing_saved()


def test_class_6_the_seeds_import_refuses_a_variant_that_is_not_a_name(db):
    errors = refusal(import_seeds, SEEDS_HEADER + "Solitaire,8x4,5,1,10,5\nSolitaire,8\u200bx4,5,2,10,5\n")
    assert errors == [
        f"Line 3: variant '8\\u200bx4' {INVISIBLE}, U+200B ZERO WIDTH SPACE, at position 2; "
        "type the name again without it."
    ]
    assert nothing_saved()


@pytest.mark.parametrize("variant", [".", ".."])
def test_class_6_a_variant_that_cannot_name_its_deals_page_is_refused(db, variant):
    errors = refusal(import_attempts, ATTEMPTS_HEADER + GOOD_LINE + f"2025-11-03,Solitaire,{variant},5,1,GL,W\n")
    assert errors == [f"Line 3: variant {variant!r} cannot name a page; give it a letter or a digit."]
    assert nothing_saved()


@pytest.mark.parametrize("value", ["５", "٣", "2.0", "1_0", "+2", "1e3", "²"])
def test_class_6_the_attempts_import_refuses_the_numbers_the_results_import_refuses(club, value):
    results = "matchday,date,game,rounds,player,placing,rated_placing\n"
    said = refusal(import_results, results + f"7,2025-11-20,Hearts,{value},GL,1,\n7,2025-11-20,Hearts,3,K,2,\n")
    assert said == [f"Line 2: rounds must be a whole number, not {value!r}."]
    for column, line in (
        ("level", f"2025-11-03,Solitaire,8x4,{value},1,GL,W\n"),
        ("deal", f"2025-11-03,Solitaire,8x4,5,{value},GL,W\n"),
    ):
        errors = refusal(import_attempts, ATTEMPTS_HEADER + GOOD_LINE + line)
        assert errors == [f"Line 3: {column} must be a whole number, not {value!r}."]
    assert not Attempt.objects.exists() and not Game.objects.filter(against_deals=True).exists()


@pytest.mark.parametrize("day", ["２０２５-11-03", "2025-11-31", "20251103", "2025-W45-1", "03/11/2025"])
def test_class_6_the_attempts_import_refuses_a_date_not_written_like_2025_11_03(db, day):
    errors = refusal(import_attempts, ATTEMPTS_HEADER + GOOD_LINE + f"{day},Solitaire,8x4,5,1,GL,W\n")
    assert errors == [f"Line 3: date {day!r} is not a date like 2025-11-03."]
    assert nothing_saved()


def test_class_6_the_attempts_import_refuses_a_date_after_today_as_the_results_import_does(club):
    later = timezone.localdate() + timedelta(days=1)
    results = "matchday,date,game,rounds,player,placing,rated_placing\n"
    said = refusal(import_results, results + f"7,{later},Hearts,3,GL,1,\n7,{later},Hearts,3,K,2,\n")
    assert said == [f"Matchday 7 (lines 2-3): {later} is after today; enter the date the matchday was played."]
    errors = refusal(import_attempts, ATTEMPTS_HEADER + GOOD_LINE + f"{later},Solitaire,8x4,5,1,GL,W\n")
    assert errors == [f"Line 3: {later} is after today; enter the date the session was played."]
    assert not Attempt.objects.exists() and not Game.objects.filter(against_deals=True).exists()


def test_class_6_a_generated_solitaire_league_ends_by_today_so_that_it_imports():
    from tools.generate_deals import generate_attempts

    today = timezone.localdate()
    rows = list(generate_attempts(8, 3000, 1, start=today - timedelta(days=10)))
    assert len(rows) == 3000 and max(row[0] for row in rows) < today.isoformat()
    assert min(row[0] for row in generate_attempts(8, 300, 1)) == "2020-01-01"  # a small league keeps its start


def test_class_6_every_bad_line_of_a_file_is_named_and_nothing_is_half_saved(db):
    text = (
        ATTEMPTS_HEADER + GOOD_LINE + "2025-11-03,Solitaire,8x4,５,1,GL,W\n" + "2025-11-04,Solitaire,8x4,5,1,G\x00L,W\n"
    )
    errors = refusal(import_attempts, text)
    assert [error.split(":")[0] for error in errors] == ["Line 3", "Line 4"]
    assert nothing_saved()


# The admin's solitaire session: the same readers, the same refusals


@pytest.mark.parametrize(("name", "said"), HOSTILE_NAMES)
def test_class_6_the_admin_refuses_a_variant_with_a_control_or_format_character(admin_client, solitaire, name, said):  # noqa: F811
    response = admin_client.post(ADD, session_form(solitaire, "2025-11-03", [("GL", name, 5, 1, True, True)]))
    assert response.status_code == 200
    html = response.content.decode().replace("&#x27;", "'")
    assert f"Variant {name!r} {INVISIBLE}, {said}; type the name again without it." in html
    assert not DealSession.objects.exists() and not DealLevel.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"), [("level", "５"), ("level", "32768"), ("number", "2.0"), ("number", "1e9999")]
)
def test_class_6_the_admin_refuses_a_number_the_imports_refuse(admin_client, solitaire, field, value):  # noqa: F811
    row = {"level": 5, "number": 1, field: value}
    data = session_form(solitaire, "2025-11-03", [("GL", "8x4", row["level"], row["number"], True, True)])
    response = admin_client.post(ADD, data)
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not DealSession.objects.exists() and not Deal.objects.exists()


def test_class_6_the_admin_refuses_a_session_after_today(admin_client, solitaire):  # noqa: F811
    later = timezone.localdate() + timedelta(days=1)
    response = admin_client.post(ADD, session_form(solitaire, f"{later}", [("GL", "8x4", 5, 1, True, True)]))
    assert response.status_code == 200
    assert f"{later} is after today; enter the date the session was played." in response.content.decode()
    assert not DealSession.objects.exists()
    assert DealSession(game=solitaire, date=date(2025, 11, 3)).full_clean() is None


def test_class_6_the_service_refuses_what_the_admin_and_the_imports_refuse(solitaire):  # noqa: F811
    from django.core.exceptions import ValidationError

    from ratings.deals.services import AttemptInput, save_session

    gl = Player.objects.get(short_name="GL")
    for attempt, said in (
        (AttemptInput(gl, "8\u200bx4", 5, 1, True), f"Row 1: variant '8\\u200bx4' {INVISIBLE}"),
        (AttemptInput(gl, "8x4", 40_000, 1, True), "Row 1: level must be at most 32,767, not 40,000."),
        (AttemptInput(gl, "8x4", 5, -1, True), "Row 1: deal must be at least 0, not -1."),
    ):
        with pytest.raises(ValidationError) as refused:
            save_session(DealSession(game=solitaire, date=date(2025, 11, 3)), [attempt])
        assert refused.value.messages[0].startswith(said)
    later = timezone.localdate() + timedelta(days=1)
    with pytest.raises(ValidationError, match="is after today; enter the date the session was played"):
        save_session(DealSession(game=solitaire, date=later), [AttemptInput(gl, "8x4", 5, 1, True)])
    assert not DealSession.objects.exists() and not Deal.objects.exists()


# "What happened?" and its JSON: ratings and K within their declared ranges, JSON that is JSON


def strict_json(response) -> dict:
    """The answer read as strict JSON: Infinity and NaN, which JSON does not have, are refused."""

    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(response.content, parse_constant=refuse)


WHAT_HAPPENED = reverse("ratings:attempts_calculator")
WHAT_HAPPENED_JSON = reverse("ratings:attempts_calculator_json")


@pytest.mark.parametrize(
    ("query", "error"),
    [
        (
            {"attempts": "1e308, 1500, W"},
            "attempts: line 1: the player's rating must be -100,000 to 100,000, not 1e+308",
        ),
        (
            {"attempts": "1500, 1000, W\n-1.7e308, L"},
            "attempts: line 2: the deal's rating must be -100,000 to 100,000, not -1.7e+308",
        ),
        ({"attempts": "1500, 1000, W", "k": "1e308"}, "k: must be above 0, at most 1,000, not 1e+308"),
        ({"attempts": "1500, 1000, W", "k": "1001"}, "k: must be above 0, at most 1,000, not 1001"),
        ({"attempts": "1500, 1000, W", "k": "0"}, "k: must be above 0, at most 1,000, not 0"),
        ({"attempts": "1500, 1000, W", "k": "inf"}, "k: must be a number, not 'inf'"),
        ({"attempts": "1500, 1000, W", "k": "８"}, "k: must be a number, not '８'"),
    ],
)
def test_class_6_what_happened_refuses_a_rating_or_k_outside_its_range_naming_the_field(client, db, query, error):
    response = client.get(WHAT_HAPPENED_JSON, query)
    assert response.status_code == 400
    assert strict_json(response) == {"error": error, "parameter": error.split(":")[0]}
    html = client.get(WHAT_HAPPENED, query).content.decode().replace("&#x27;", "'")
    assert html.count(error) == 1
    field = "textarea" if error.startswith("attempts") else "input"
    assert re.search(f'<{field} name="{error.split(":")[0]}"[^>]*aria-invalid="true"', html)


def test_class_6_what_happened_answers_strict_json_at_the_ends_of_its_ranges(client, db):
    lines = ["100000, -100000, W", "-100000, 100000, L", *["100000, W"] * 498]
    for k in ("1000", "1e-300", "0.5"):
        response = client.get(WHAT_HAPPENED_JSON, {"attempts": "\n".join(lines), "k": k})
        assert response.status_code == 200
        answer = strict_json(response)
        assert len(answer["attempts"]) == 500 and answer["k"] == float(k)
    assert "inf" not in client.get(WHAT_HAPPENED, {"attempts": "\n".join(lines), "k": "1000"}).content.decode()


def test_class_6_what_happened_never_writes_infinity(client, db):
    response = client.get(WHAT_HAPPENED_JSON, {"attempts": "1.7e308, 1.7e308, W", "k": "1e308"})
    assert response.status_code == 400 and strict_json(response)["parameter"] in ("attempts", "k")


# The deal tables' downloads: plain numbers (the pages keep their formatting)

NUMBER_COLUMNS = {
    "standings": {"#", "Rating", "Attempts", "Last change"},
    "levels": {"5", "6", "7", "8", "9", "10", "11", "12"},
    "power-rankings": {"#", "Level", "Win %", "Average deal rating", "Power ranking"},
    "latest-session": {"#", "Deal before", "Expected", "Change", "Deal after"},
    "attempts": {"Before", "Deal before", "Expected", "Change", "After", "Deal after"},
}


def download(client, url: str, table: str, export: str):
    response = client.get(url, {"export": export, "table": table})
    assert response.status_code == 200, response.content[:200]
    if export == "json":
        return strict_json(response)
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def deal_urls(game: Game) -> dict[str, str]:
    # A deal that has attempts (PostgreSQL puts a deal without any first in a descending order).
    deal = Deal.objects.filter(level__game=game, attempts__isnull=False).order_by("-attempts__id").first()
    player = Attempt.objects.filter(rated=True).order_by("pk").first().player
    return {
        "game": reverse("league:game", args=[game.slug]),
        "deal": deal.get_absolute_url(),
        "player": reverse("league:player", args=[player.pk]),
    }


def deal_downloads(game: Game):
    """(table, its number columns, url) of every deal table a visitor can download."""
    urls = deal_urls(game)
    yield from ((key, NUMBER_COLUMNS[key], urls["game"]) for key in ("standings", "levels", "power-rankings"))
    yield "latest-session", NUMBER_COLUMNS["latest-session"], urls["game"]
    yield "attempts", NUMBER_COLUMNS["attempts"] - {"Before", "After"}, urls["deal"]
    yield game.rating_table.slug, NUMBER_COLUMNS["attempts"] - {"Deal before", "Deal after"}, urls["player"]


def test_class_6_the_deal_tables_json_downloads_hold_numbers_not_formatted_text(client, league):  # noqa: F811
    for table, columns, url in deal_downloads(league):
        records = download(client, url, table, "json")
        assert records, table
        assert columns <= set(records[0]), (table, records[0])
        for record in records:
            for column in columns:
                value = record[column]
                assert value is None or type(value) in (int, float), (table, column, value)


def test_class_6_the_deal_tables_csv_downloads_hold_plain_numbers(client, league):  # noqa: F811
    for table, columns, url in deal_downloads(league):
        for row in download(client, url, table, "csv"):
            for column in columns:
                assert row[column] == "" or re.fullmatch(r"-?[0-9]+(\.[0-9]+)?(e-?[0-9]+)?", row[column]), (
                    table,
                    column,
                    row[column],
                )


def test_class_6_the_downloaded_numbers_are_the_stored_ones_unrounded(client, league):  # noqa: F811
    from ratings.models import AttemptRating, Standing

    url = deal_urls(league)["game"]
    standings = download(client, url, "standings", "json")
    stored = {s.player.short_name: s for s in Standing.objects.filter(table=league.rating_table)}
    for record in standings:
        assert record["Rating"] == stored[record["Player"]].rating
    session = download(client, url, "latest-session", "json")
    latest = DealSession.objects.filter(game=league).order_by("-date").first()
    deltas = list(
        AttemptRating.objects.filter(attempt__session=latest)
        .order_by("attempt__position")
        .values_list("delta", flat=True)
    )
    changes = [r["Change"] for r in session if r["Change"] is not None]  # the first page's rated attempts
    assert len(changes) > 10 and changes == deltas[: len(changes)]
    html = client.get(url).content.decode()
    assert "\u2212" in html and f"{standings[0]['Rating']:.2f}" in html  # the page keeps its formatting


def test_class_6_export_ratings_of_a_solitaire_table_says_where_its_downloads_are(league):  # noqa: F811
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="Solitaire is played against deals and has no matchdays; its page"):
        call_command("export_ratings", "--table", league.rating_table.slug, stdout=io.StringIO())
