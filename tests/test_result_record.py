"""One result record (league.results.Play): the model stores its fields, the methods' seats carry
them, and every way in (the import, the entry page, the admin, the services) reads them from it."""

import csv as csv_module
import io
from dataclasses import MISSING, fields
from datetime import date

import pytest
from django.core.exceptions import ValidationError

from league.models import Game, Matchday, Player, Result
from league.results import FIELDS, RATED_AS_GIVEN, RESULT_FIELDS, SEDMA_FIELDS, Play, TypedResult, values
from ratings.methods import Seat
from ratings.models import RatingEntry, RatingTable
from ratings.services.imports import ImportedMatchday, import_matchdays
from ratings.services.matchdays import delete_matchdays
from ratings.services.rating_tables import save_rating_table
from ratings.services.recompute import rebuild_all
from tests.conftest import store
from tests.test_import import HEADER, csv, failure
from web.importing import COLUMNS, OPTIONAL_COLUMNS, import_results


def test_the_result_model_has_every_field_of_the_record_with_its_default():
    for field in fields(Play):
        column = Result._meta.get_field(field.name)
        if field.default is MISSING:
            assert not column.has_default() and not column.null, field.name
        else:
            assert column.get_default() == field.default, field.name
            assert column.null == (field.default is None), field.name


def test_the_result_model_keeps_each_field_in_the_records_range():
    for name, field in FIELDS.items():
        span = field.metadata.get("span")
        if span is None:
            continue
        limits = {type(v).__name__: v.limit_value for v in Result._meta.get_field(name).validators}
        assert (limits["MinValueValidator"], limits["MaxValueValidator"]) == tuple(span), name


def test_a_seat_carries_the_fields_a_method_reads_as_given_in_the_records_order_and_defaults():
    seat = fields(Seat)
    assert [f.name for f in seat] == ["rating", "placing", "state", *RATED_AS_GIVEN]
    assert all(f.default == FIELDS[f.name].default for f in seat[3:])


def test_a_seat_of_a_result_rates_its_rated_placing_and_keeps_the_rest():
    seat = Seat.of(Play(3, 4, True, won_by_16=2, bad_moves=1), 1450.0, {"rd": 50.0})
    assert seat == Seat(1450.0, 4, {"rd": 50.0}, True, won_by_16=2, bad_moves=1)
    assert Seat.of(Play(2)).placing == 2


def test_the_imports_columns_are_the_records_fields():
    assert {*COLUMNS, *OPTIONAL_COLUMNS} >= set(RESULT_FIELDS)


def sedma_hearts():
    Game.objects.create(name="Hearts", slug="hearts")
    rebuild_all()
    table = RatingTable.objects.get(slug="hearts")
    table.method = "sedma"
    save_rating_table(table)


def ratings(table="hearts"):
    rows = RatingEntry.objects.filter(table__slug=table).order_by("matchday__number", "player__short_name")
    return list(rows.values_list("matchday__number", "player__short_name", "rating_after"))


def exported(matchdays) -> bytes:
    """The matchdays' results as a file with every column of the record, as an export writes them."""
    out = io.StringIO()
    writer = csv_module.writer(out, lineterminator="\n")
    writer.writerow([*COLUMNS, *OPTIONAL_COLUMNS])
    for result in Result.objects.filter(matchday__in=matchdays).select_related("matchday__game", "player"):
        m = result.matchday
        record = dict(zip(RESULT_FIELDS, values(result), strict=True))
        given = ["1" if v is True else "" if v in (None, False) else v for v in record.values()]
        writer.writerow([m.number, m.date, m.game.name, m.rounds, result.player.short_name, *given])
    return out.getvalue().encode()


def test_a_sedma_matchday_exported_with_its_counts_imports_back_to_the_same_ratings(db):
    sedma_hearts()
    hearts = Game.objects.get()
    a, b = Player.objects.create(name="A", short_name="A"), Player.objects.create(name="B", short_name="B")
    for number, (first, second) in enumerate([(a, b), (b, a)], start=1):
        matchday = Matchday(number=number, date=date(2025, 11, number), game=hearts, rounds=3)
        results = [
            TypedResult(Play(1, won_by_16=2, won_by_4_and_last=1), first.short_name),
            TypedResult(Play(2, won_by_24=1, bad_moves=3), second.short_name),
        ]
        store(matchday, results)
    saved, stored = ratings(), {r.pk: values(r) for r in Result.objects.all()}
    data = exported(Matchday.objects.all())

    delete_matchdays(Matchday.objects.all())
    import_results(data)

    assert ratings() == saved
    assert sorted(values(r) for r in Result.objects.all()) == sorted(stored.values())
    assert any(values(r)[3:] != (0, 0, 0, 0) for r in Result.objects.all())


def test_the_sedma_counts_of_a_file_change_the_ratings(db):
    sedma_hearts()
    import_results(csv("1,2025-11-03,Hearts,1,A,1,", "1,2025-11-03,Hearts,1,B,2,"))
    plain = ratings()
    header = HEADER + "," + ",".join(SEDMA_FIELDS)
    import_results(
        csv("1,2025-11-03,Hearts,1,A,1,,0,0,0,5", "1,2025-11-03,Hearts,1,B,2,,3,,,", header=header), replace=True
    )
    assert ratings() != plain
    assert Result.objects.get(player__short_name="A").bad_moves == 5


def test_a_count_out_of_range_in_a_file_is_refused_naming_its_line(db):
    header = HEADER + ",bad_moves"
    errors = failure(csv("1,2025-11-03,Hearts,1,A,1,,101", "1,2025-11-03,Hearts,1,B,2,,x", header=header))
    assert errors == [
        "Line 2: bad_moves must be at most 100, not 101.",
        "Line 3: bad_moves must be a whole number, not 'x'.",
    ]
    assert not Matchday.objects.exists()


def test_the_import_service_refuses_a_count_out_of_range_for_any_caller(db):
    results = [TypedResult(Play(1, bad_moves=101), "A", "Line 2"), TypedResult(Play(2), "B", "Line 3")]
    with pytest.raises(ValidationError) as raised:
        import_matchdays([ImportedMatchday(1, date(2025, 11, 3), "Hearts", 1, results)])
    assert raised.value.messages == ["Line 2: Bad moves must be at most 100, not 101."]
    assert not Matchday.objects.exists()


def test_the_admins_upload_help_names_every_column_as_the_import_reads_it(admin_client, db):
    """The help is written from the record's declaration, so a field added to Play is in it."""
    import html

    from django.urls import reverse

    page = html.unescape(admin_client.get(reverse("admin:league_matchday_import")).content.decode())
    for column in (*COLUMNS, *OPTIONAL_COLUMNS):
        assert f"{column} (" in page, column
    for name, declared in FIELDS.items():
        span = declared.metadata.get("span")
        if span is not None:
            assert f"{name} ({span.lowest:,} to {span.highest:,}; empty: {declared.metadata['blank']})" in page
    assert "left_early (yes or no; empty: no)" in page and "side (a label of up to 20 characters" in page
