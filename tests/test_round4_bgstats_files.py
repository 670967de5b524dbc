"""Faults round four, class 8: files from apps. A BG Stats file that is not an export, too large,
too deeply nested, of the wrong types or missing keys is refused whole, each problem naming its
play; so are uuids repeated within the file, a play dated in the future, plays of 0 or of 1,000
players, and names holding control or format characters."""

import json
from datetime import date

import pytest

from league.bgstats import ExportRefused, read_export

TODAY = date(2026, 11, 29)


def export(plays, players=None, games=None) -> bytes:
    players = players or [{"id": 1, "name": "Ada", "isAnonymous": False}, {"id": 2, "name": "Bo"}]
    games = games or [{"id": 7, "name": "Azul", "highestWins": True, "noPoints": False, "cooperative": False,
                       "usesTeams": False}]  # fmt: skip
    return json.dumps({"players": players, "games": games, "plays": plays}).encode()


def play(uuid="U-1", day="2021-08-08 15:33:50", seats=None, **more):
    seats = seats if seats is not None else [
        {"playerRefId": 1, "winner": True, "score": "30", "rank": 0},
        {"playerRefId": 2, "winner": False, "score": "20", "rank": 0},
    ]  # fmt: skip
    return {"uuid": uuid, "playDate": day, "gameRefId": 7, "ignored": False, "playerScores": seats, **more}


def problems(data: bytes) -> list[str]:
    found = read_export(data, TODAY)
    assert not found.plays or found.problems  # a refused file is refused whole by the writer
    return found.problems


def test_a_good_play_is_read():
    found = read_export(export([play()]), TODAY)
    assert (len(found.plays), found.problems) == (1, [])


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\x89PNG\r\n", "not text"),
        (b"not json at all", "not JSON"),
        (b"[1, 2, 3]", "no object with plays"),
        (b'{"plays": [], "games": [], "players": [], "plays": []}', "given twice"),
        (b'{"plays": [], "games": [], "players": [{"id": 1, "name": "A", "x": NaN}]}', "NaN is not a number"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"games": [], "players": []}', "no list of plays"),
        (b'{"plays": [], "players": []}', "no list of games"),
    ],
)
def test_a_file_that_is_no_export_is_refused_saying_why(data, words):
    with pytest.raises(ExportRefused, match=words):
        read_export(data, TODAY)


def test_a_file_of_50_mb_is_refused_unread():
    with pytest.raises(ExportRefused, match="50 MB"):
        read_export(b" " * 50_000_000, TODAY)


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        (play(uuid=None), "Play 1: its uuid is missing"),
        (play(uuid=17), "Play 1: its uuid is missing"),
        (play(day=None), "Play 1 (U-1): its playDate is missing"),
        (play(day="yesterday"), "its playDate 'yesterday' is not a date"),
        # Read as a results file's date is: date.fromisoformat alone took these for 2021-08-08 and 2021-11-08.
        (play(day="20210808"), "its playDate '20210808' is not a date (YYYY-MM-DD hh:mm:ss)"),
        (play(day="2021-W45-1 10:00:00"), "its playDate '2021-W45-1 10:00:00' is not a date"),
        (play(day="2031-01-01 10:00:00"), "2031-01-01 is after today; enter the date the play was played."),
        (play(day="0205-11-30 10:00:00"), "0205-11-30 is before 1900; enter the date the play was played."),
        (play(seats=[]), "Play 1 (U-1): it has no players"),
        (play(seats="Ada and Bo"), "it has no players"),
        (play(seats=[{"playerRefId": 1, "score": "3"}] * 1000), "it has 1000 players; a play has at most 500"),
        (play(seats=[{"playerRefId": 9}]), "its player 1 ('9') is not among the file's players"),
        (play(seats=[{"playerRefId": 1, "score": [1]}]), "Ada's score"),
        (play(seats=[{"playerRefId": 1, "score": "1e999"}]), "Ada's score '1e999' is not a number from"),
        (play(seats=[{"playerRefId": 1, "winner": "yes"}]), "winner must be true or false"),
        (play(seats=[{"playerRefId": 1, "rank": -1}]), "Ada's rank '-1' is not a whole number"),
        (play(seats=[{"playerRefId": 1}, {"playerRefId": 1}]), "Ada is listed twice"),
        (play(gameRefId=99), "its game '99' is not among the file's games"),
        (play(gameRefId=[]), "its game '[]' is not among the file's games"),
        (play(gameRefId={}), "its game '{}' is not among the file's games"),
        (play(gameRefId=True), "its game 'True' is not among the file's games"),  # not game 1
        (play(seats=[{"playerRefId": {}}]), "its player 1 ('{}') is not among the file's players"),
        (play(seats=[{"playerRefId": [1]}]), "its player 1 ('[1]') is not among the file's players"),
        (play(seats=[{"playerRefId": True}]), "its player 1 ('True') is not among the file's players"),
        ("a play", "Play 1: it is not an object"),
    ],
)
def test_a_bad_play_is_refused_naming_it(bad, words):
    found = problems(export([bad]))
    assert len(found) == 1 and words in found[0], found


def test_uuids_repeated_within_the_file_are_refused():
    found = problems(export([play(), play(day="2021-08-09 10:00:00")]))
    assert found == ["Play 2 (2021-08-09, Azul, U-1): the same uuid as play 1; a play is listed once."]


@pytest.mark.parametrize("name", ["Ada\u0000", "Ada\u200e", "A\u202eda", "Bo\nBo"])
def test_names_holding_control_or_format_characters_are_refused(name):
    players = [{"id": 1, "name": name}, {"id": 2, "name": "Bo"}]
    found = problems(export([play()], players=players))
    assert any("invisible or control character" in p for p in found), found


TEAMS = [{"id": 7, "name": "Azul", "highestWins": True, "noPoints": False, "cooperative": False, "usesTeams": True}]
FOUR = [{"id": n, "name": name} for n, name in enumerate(["Ada", "Bo", "Cy", "Di"], start=1)]


def teamed(*teams: str) -> bytes:
    """A play of four in two teams of two, the first team winning on points."""
    seats = [{"playerRefId": n, "score": "3" if n < 3 else "1", "team": team} for n, team in enumerate(teams, start=1)]
    return export([play(seats=seats)], players=FOUR, games=TEAMS)


def test_a_team_is_read_as_a_side_is_by_every_way_in():
    """A team's label went past the side reader: a zero-width space was a team the check then met
    as a side of one each, refused for points the reader itself had placed."""
    found = problems(teamed("\u200b", "\u200b", "Blue", "Blue"))
    assert found == [
        "Play 1 (U-1): Ada's team: side '\\u200b' holds an invisible or control character, U+200B ZERO WIDTH "
        "SPACE, at position 1; type the name again without it"
    ]


def test_teams_whose_labels_differ_only_in_case_are_one_team_as_sides_are():
    (read,) = read_export(teamed("red", "Red", "Blue", "Blue"), TODAY).plays
    assert [seat.placing for seat in read.seats] == [1, 1, 2, 2]  # was 1, 1, 3, 3: "red" and "Red" apart


def test_a_game_missing_its_flags_is_refused_naming_it():
    found = problems(export([play()], games=[{"id": 7, "name": "Azul"}]))
    assert found[0].startswith("Game 1 of the file ('Azul'): highestWins must be true or false")


def test_an_ignored_play_is_counted_not_read():
    found = read_export(export([play(ignored=True), play(uuid="U-2")]), TODAY)
    assert (found.ignored, len(found.plays), found.problems) == (1, 1, [])


@pytest.mark.django_db
def test_a_refused_file_imports_nothing_by_the_command(tmp_path):
    from django.core.management import CommandError, call_command

    from league.models import Game, Matchday, Player, Write

    bad = tmp_path / "export.json"
    bad.write_bytes(export([play(), play(uuid="U-2", day="2031-01-01 10:00:00")]))
    with pytest.raises(CommandError, match=r"Play 2 \(U-2\): 2031-01-01 is after today"):
        call_command("import_bgstats", str(bad))
    assert not (Matchday.objects.exists() or Game.objects.exists() or Player.objects.exists() or Write.objects.exists())


@pytest.mark.django_db
def test_a_uuid_imported_into_another_club_is_a_new_play_of_this_one(tmp_path):
    from django_scopes import scope

    from league.models import Club, Matchday
    from ratings.services.bgstats import import_bgstats

    data = export([play()])
    for slug in ("north", "south"):
        club = Club.objects.create(slug=slug, name=slug.title())
        with scope(club=club.pk):
            report = import_bgstats(read_export(data, TODAY))
            assert (len(report.added), report.already) == (1, 0)
    assert sorted(Matchday.objects.values_list("club__slug", "source")) == [
        ("north", "bgstats:U-1"),
        ("south", "bgstats:U-1"),
    ]
