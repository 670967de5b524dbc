"""`manage.py export_ratings`: one row per player per matchday, the matchdays in play order and each
one's results as entered; every export imports back to the same ratings."""

import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command

from league.models import Game, Matchday, Player, Result
from league.placings import HIGHEST_WINS, LOWEST_WINS
from league.results import values
from ratings.models import RatingEntry, RatingTable
from ratings.services.catalogue import save_game
from ratings.services.matchdays import delete_matchdays
from ratings.services.rating_tables import save_rating_table
from web.importing import import_results


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
        "score",
        "rating_before",
        "rating_after",
        "delta",
    ]
    assert len(rows) == 24
    assert next(r for r in rows if r["player"] == "GL") == {
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
        "score": "",
        "rating_before": "1500",
        "rating_after": "1465",
        "delta": "-35",
    }
    assert [r["player"] for r in rows[:4]] == ["I", "R", "GL", "K"]  # as entered, the order they are rated in
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
            "score": None,
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


SHEETS = """matchday,date,game,rounds,player,placing,rated_placing,left_early,score
7,2025-11-20,Hearts,3,GL,,,,3
7,2025-11-20,Hearts,3,K,,,,10
7,2025-11-20,Hearts,3,I,,,,10
7,2025-11-20,Hearts,3,J,,,1,26
8,2025-11-21,Rummy,2,GL,,,,-15
8,2025-11-21,Rummy,2,R,,,,120
8,2025-11-21,Rummy,2,K,,,,40
"""


def test_an_export_of_score_sheets_imports_back_to_the_same_ratings_and_points(club):
    """Hearts (the lowest score wins) and Rummy (the highest) entered as points: the export carries
    the points and the placings they gave, and imports back to the same ratings."""
    for name, scoring in (("Hearts", LOWEST_WINS), ("Rummy", HIGHEST_WINS)):
        game = Game.objects.get_or_create(name=name, defaults={"slug": name.lower()})[0]
        game.scoring = scoring
        save_game(game)
    import_results(SHEETS.encode())
    assert Matchday.objects.get(number=8).winner_score == 120  # the table-size method's, from the points
    stored = sorted(Result.objects.values_list("matchday__number", "player__short_name", "placing", "score"))
    assert [row for row in stored if row[0] >= 7] == [
        (7, "GL", 1, 3), (7, "I", 2, 10), (7, "J", 4, 26), (7, "K", 2, 10),
        (8, "GL", 3, -15), (8, "K", 2, 40), (8, "R", 1, 120),
    ]  # fmt: skip
    ratings = sorted(RatingEntry.objects.values_list("table__slug", "matchday__number", "player__short_name", "delta"))
    exported = export()
    assert "\n7,2025-11-20,Hearts,3,J,4,,1,0,0,0,0,,1,26," in exported

    delete_matchdays(Matchday.objects.all())
    Player.objects.filter(results__isnull=True).delete()
    import_results(exported.encode())

    assert sorted(Result.objects.values_list("matchday__number", "player__short_name", "placing", "score")) == stored
    assert Matchday.objects.get(number=8).winner_score == 120
    again = sorted(RatingEntry.objects.values_list("table__slug", "matchday__number", "player__short_name", "delta"))
    assert again == ratings


def league_state() -> tuple[list, list]:
    """Every stored result (its record) and every rating row of every table, by matchday and player."""
    results = sorted(
        (r.matchday.number, r.player.short_name, *values(r))
        for r in Result.objects.select_related("matchday", "player")
    )
    rows = sorted(
        RatingEntry.objects.values_list(
            "table__slug", "matchday__number", "player__short_name", "rating_before", "rating_after", "delta", "state"
        ),
        key=lambda row: row[:3],
    )
    return results, rows


def sedma_duels() -> None:
    """Sedma, a two-player game rated by its counts (rounds won by 16, by 24, with 4 and last; bad
    moves), added to the mixed league so that its export carries every field of the record."""
    save_game(Game(name="Sedma", slug="sedma"))
    table = RatingTable.objects.get(slug="sedma")
    table.method = "sedma"
    save_rating_table(table)
    rows = [
        "901,2026-07-01,Sedma,3,GL,1,,0,2,0,1,0",
        "901,2026-07-01,Sedma,3,K,2,,0,0,1,0,3",
        "902,2026-07-02,Sedma,3,K,1,,0,1,1,0,0",
        "902,2026-07-02,Sedma,3,GL,2,,0,0,0,0,2",
    ]
    header = "matchday,date,game,rounds,player,placing,rated_placing,left_early,won_by_16,won_by_24,"
    import_results((header + "won_by_4_and_last,bad_moves\n" + "\n".join(rows) + "\n").encode())


def test_every_export_of_the_mixed_league_imports_back_to_the_same_ratings_in_every_table(mixed_league):
    """The mixed league (left early, penalties, sides, weights, points, Sedma counts) exported table
    by table, and imported into the league emptied of its matchdays: the same results, and the same
    ratings in every table. The overall table's export alone imports back to its ratings too."""
    sedma_duels()
    results, rows = league_state()
    assert {r[4] for r in results} == {False, True}  # some left early ...
    assert any(r[3] is not None and not r[4] for r in results)  # ... and some were penalised
    assert {r[9] for r in results} > {""} and {r[10] for r in results} > {1.0}  # sides, partial play
    assert any(r[11] is not None for r in results) and any(any(r[5:9]) for r in results)  # points, Sedma
    tables = list(RatingTable.objects.filter(game__against_deals=False).values_list("slug", flat=True))
    tables += list(RatingTable.objects.filter(game__isnull=True).values_list("slug", flat=True))
    exports = {slug: export("--table", slug) for slug in tables}

    delete_matchdays(Matchday.objects.all())
    import_results(exports["overall"].encode())
    overall = [row for row in rows if row[0] == "overall"]
    assert [row for row in league_state()[1] if row[0] == "overall"] == overall

    delete_matchdays(Matchday.objects.all())
    merged = {}  # each result once, as the exports of the tables it counts in write it
    for text in exports.values():
        for row in csv.DictReader(io.StringIO(text)):
            merged.setdefault((row["matchday"], row["player"]), row)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(row), lineterminator="\n")
    writer.writeheader()
    writer.writerows(merged.values())
    import_results(out.getvalue().encode())
    assert league_state() == (results, rows)  # to the last bit: rated in the order they were entered
