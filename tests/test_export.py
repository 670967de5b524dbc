"""`manage.py export_ratings`: one row per player per matchday, by matchday then player."""

import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command


def export(*args):
    out = io.StringIO()
    call_command("export_ratings", *args, stdout=out)
    return out.getvalue()


def test_the_overall_table_exports_as_csv_by_default(club):
    rows = list(csv.DictReader(io.StringIO(export())))
    assert list(rows[0]) == [
        "matchday",
        "date",
        "game",
        "rounds",
        "player",
        "placing",
        "rated_placing",
        "left_early",
        "won_by_16",
        "won_by_24",
        "won_by_4_and_last",
        "bad_moves",
        "side",
        "weight",
        "rating_before",
        "rating_after",
        "delta",
    ]
    assert len(rows) == 24
    assert rows[0] == {
        "matchday": "1",
        "date": "2025-11-03",
        "game": "Hearts",
        "rounds": "7",
        "player": "GL",
        "placing": "4",
        "rated_placing": "",
        "left_early": "0",
        "won_by_16": "0",
        "won_by_24": "0",
        "won_by_4_and_last": "0",
        "bad_moves": "0",
        "side": "",
        "weight": "1",
        "rating_before": "1500",
        "rating_after": "1465",
        "delta": "-35",
    }
    assert [r["player"] for r in rows[:4]] == ["GL", "I", "K", "R"]
    assert [int(r["matchday"]) for r in rows] == sorted(int(r["matchday"]) for r in rows)


def test_a_penalised_placing_exports_both_placings(club):
    rows = json.loads(export("--table", "hearts", "--format", "json"))
    penalised = [r for r in rows if r["matchday"] == 5 and r["player"] == "R"]
    assert penalised == [
        {
            "matchday": 5,
            "date": "2025-11-10",
            "game": "Hearts",
            "rounds": 4,
            "player": "R",
            "placing": 3,
            "rated_placing": 4,
            "left_early": False,
            "won_by_16": 0,
            "won_by_24": 0,
            "won_by_4_and_last": 0,
            "bad_moves": 0,
            "side": "",
            "weight": 1,
            "rating_before": 1503,
            "rating_after": 1483,
            "delta": -20,
        }
    ]


def test_an_unknown_table_names_the_known_ones(club):
    with pytest.raises(CommandError, match="No rating table 'poker'. Known tables: .*overall"):
        export("--table", "poker")


def test_recompute_ratings_rebuilds_everything(club):
    out = io.StringIO()
    call_command("recompute_ratings", stdout=out)
    assert "Recomputed 2 rating tables (48 rows)" in out.getvalue()
    assert json.loads(export("--format", "json"))[-1]["rating_after"] in {1521, 1492, 1461, 1494}
