"""`generate_league` writes a mixed league: matchdays and solitaire attempts by the same members,
named as people are, spread over the dates asked for."""

import csv
from datetime import date

import pytest
from django.core.management import CommandError, call_command

from tools.generate import people


def rows(path):
    with open(path, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_it_writes_matchdays_and_attempts_by_the_same_members_over_the_dates_given(tmp_path):
    results, attempts = tmp_path / "league.csv", tmp_path / "attempts.csv"
    call_command(
        "generate_league", str(results), "--players", "12", "--matchdays", "50", "--start", "2025-01-01",
        "--end", "2025-03-31", "--people", "--attempts-out", str(attempts), "--attempts", "200",
    )  # fmt: skip
    played, solitaire = rows(results), rows(attempts)
    assert len({r["matchday"] for r in played}) == 50 and len(solitaire) == 200
    for found in (played, solitaire):
        days = sorted(date.fromisoformat(r["date"]) for r in found)
        assert days[0] == date(2025, 1, 1) and date(2025, 3, 20) <= days[-1] <= date(2025, 3, 31)
    members = set(people(12))
    assert {r["player"] for r in played} <= members and {r["player"] for r in solitaire} <= members
    assert len({r["player"] for r in played} & {r["player"] for r in solitaire}) >= 6


def test_member_names_are_all_different_and_fit_a_short_name():
    names = people(140)
    assert len(set(names)) == 140 and names[0] == "Ada N." and names[-1] == "P00140"
    assert max(len(n) for n in names) <= 12


@pytest.mark.parametrize(
    "dates, message",
    [
        (["--start", "2025-03-01", "--end", "2025-01-01"], "--end needs a --start on or before it"),
        (["--end", "2025-01-01"], "--end needs a --start on or before it"),
        (["--start", "2025-01-01", "--end", "2999-01-01"], "after today"),
    ],
)
def test_dates_that_cannot_be_are_refused(tmp_path, dates, message):
    with pytest.raises(CommandError, match=message):
        call_command("generate_league", str(tmp_path / "x.csv"), "--matchdays", "10", *dates)


@pytest.mark.parametrize("option", ["", "--solitaire", "--attempts-out"])
def test_a_file_in_a_folder_that_does_not_exist_is_refused_in_one_line(tmp_path, option):
    missing = tmp_path / "nowhere" / "x.csv"
    args = [str(missing)] if option != "--attempts-out" else [str(tmp_path / "league.csv"), option, str(missing)]
    if option == "--solitaire":
        args.append(option)
    with pytest.raises(CommandError) as refused:  # was a traceback ending in FileNotFoundError
        call_command("generate_league", *args, "--players", "5", "--matchdays", "3", "--attempts", "3")
    assert str(refused.value) == f"Nothing was written: no such file or folder ({missing})."


def test_with_sides_a_third_of_the_matchdays_are_played_in_sides_and_import_back(tmp_path, db):
    from league.models import Result
    from web.importing import import_results

    results = tmp_path / "league.csv"
    call_command("generate_league", str(results), "--players", "20", "--matchdays", "60", "--sides")
    played = rows(results)
    in_sides = {r["matchday"] for r in played if r["side"]}
    assert len(in_sides) == 20
    sizes = {}
    for r in played:
        if r["side"]:
            sizes.setdefault((r["matchday"], r["side"]), []).append(r["placing"])
    assert {len(placings) for placings in sizes.values()} == {2, 4, 5}
    assert all(len(set(placings)) == 1 for placings in sizes.values())  # partners share their placing
    import_results(results.read_bytes())
    assert Result.objects.exclude(side="").values("matchday").distinct().count() == 20


def test_with_a_club_the_league_continues_its_numbers_and_imports_into_it(tmp_path, db):
    from league.models import Matchday
    from tests.conftest import CLUB_CSV, CLUB_SLUG
    from web.importing import import_results

    import_results(CLUB_CSV.read_bytes())  # matchdays 1 to 6, in November 2025
    results = tmp_path / "more.csv"
    call_command("generate_league", str(results), "--players", "8", "--matchdays", "16", "--club", CLUB_SLUG)
    assert sorted({int(r["matchday"]) for r in rows(results)}) == list(range(7, 23))
    import_results(results.read_bytes())
    assert Matchday.objects.count() == 22
    with pytest.raises(CommandError, match="No club has the address 'east'"):
        call_command("generate_league", str(tmp_path / "x.csv"), "--matchdays", "4", "--club", "east")
