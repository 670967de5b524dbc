"""The commands on a site of several clubs: each works in the club its --club names and leaves every
other club's rows as they were; the flag is required once there are several clubs; a site without a
club starts one at its first write; create_club starts an empty club with its secretary, and
delete_club removes one with everything it holds."""

import csv
import io
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from league.models import Attempt, Club, DealSeed, DealSession, Game, Matchday, Player, Result
from ratings.models import RatingEntry, RatingTable, Standing
from tests.conftest import CLUB_CSV, CLUB_SLUG, PLAYERS

pytestmark = [pytest.mark.no_club, pytest.mark.django_db]  # each test makes the clubs it needs

# South plays the first three of the November matchdays, with a GL of its own and the others renamed.
SOUTH_NAMES = {"I": "SI", "R": "SR", "K": "SK", "J": "SJ"}
ATTEMPTS = """\
date,game,variant,level,deal,player,won
2025-11-03,Solitaire,8x4,5,11982,GL,W
2025-11-04,Solitaire,8x4,5,11982,SK,L
"""
SEEDS = """\
game,variant,level,deal,plays,wins
Solitaire,8x4,5,11982,100,10
Solitaire,8x4,5,12,400,310
"""


def south_csv() -> str:
    rows = list(csv.reader(io.StringIO(CLUB_CSV.read_text())))
    kept = [rows[0]] + [[*row[:4], SOUTH_NAMES.get(row[4], row[4]), *row[5:]] for row in rows[1:] if int(row[0]) <= 3]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(kept)
    return out.getvalue()


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def figures_of(club: Club) -> dict:
    """Every stored figure of the club's tables, with the row's id: a rewrite shows as well as a change."""
    return {
        "rows": sorted(
            RatingEntry.objects.filter(table__club=club).values_list("pk", "table__slug", "player__short_name", "delta")
        ),
        "standings": sorted(
            Standing.objects.filter(table__club=club).values_list("pk", "table__slug", "player__short_name", "rating")
        ),
    }


@pytest.fixture
def north_and_south(tmp_path):
    """Two clubs; north holds the November matchdays, south nothing yet."""
    north = Club.objects.create(slug="north", name="North Card Club")
    south = Club.objects.create(slug="south", name="South Card Club")
    run("import_results", str(CLUB_CSV), "--club", "north")
    (tmp_path / "south.csv").write_text(south_csv())
    (tmp_path / "attempts.csv").write_text(ATTEMPTS)
    (tmp_path / "seeds.csv").write_text(SEEDS)
    return north, south


def test_an_import_into_south_is_souths_and_leaves_norths_ratings_untouched(north_and_south, tmp_path):
    north, south = north_and_south
    before = figures_of(north)
    assert before["rows"] and before["standings"]

    assert "Imported 3 matchdays" in run("import_results", str(tmp_path / "south.csv"), "--club", "south")

    assert figures_of(north) == before
    assert sorted(Player.objects.filter(club=south).values_list("short_name", flat=True)) == [
        "GL",
        "SI",
        "SJ",
        "SK",
        "SR",
    ]
    assert sorted(Player.objects.filter(club=north).values_list("short_name", flat=True)) == sorted(PLAYERS)
    assert set(Result.objects.filter(matchday__club=south).values_list("player__club", flat=True)) == {south.pk}
    assert Matchday.objects.filter(club=south).count() == 3 and Matchday.objects.filter(club=north).count() == 6


def test_an_export_of_north_has_none_of_souths_players_and_souths_has_none_of_norths(north_and_south, tmp_path):
    run("import_results", str(tmp_path / "south.csv"), "--club", "south")

    def players(club):
        return {row["player"] for row in csv.DictReader(io.StringIO(run("export_ratings", "--club", club)))}

    assert players("north") == set(PLAYERS)
    assert players("south") == {"GL", *SOUTH_NAMES.values()}


def test_recomputing_south_leaves_norths_rows_and_standings_where_they_were(north_and_south, tmp_path):
    north, south = north_and_south
    run("import_results", str(tmp_path / "south.csv"), "--club", "south")
    before, souths = figures_of(north), figures_of(south)

    assert run("recompute_ratings", "--club", "south").startswith("Recomputed 2 rating tables")

    assert figures_of(north) == before
    assert [row[1:] for row in figures_of(south)["rows"]] == [row[1:] for row in souths["rows"]]
    assert "agree" in run("recompute_ratings", "--check", "--club", "north")


def test_the_check_of_one_club_compares_that_club_only(north_and_south):
    north, _ = north_and_south
    Standing.objects.filter(table__club=north, player__short_name="GL", table__slug="overall").update(rating=1)

    assert "agree" in run("recompute_ratings", "--check", "--club", "south")
    with pytest.raises(CommandError, match=r"standing north overall GL: stored \(1\.0,"):
        run("recompute_ratings", "--check", "--club", "north")


def test_attempts_and_seeds_go_into_the_club_named(north_and_south, tmp_path):
    north, south = north_and_south
    before = figures_of(north)

    run("import_attempts", str(tmp_path / "attempts.csv"), "--club", "south")
    run("seed_deals", str(tmp_path / "seeds.csv"), "--club", "south")

    solitaire = Game.objects.get(name="Solitaire")
    assert solitaire.club == south and solitaire.rating_table.club == south
    assert DealSession.objects.filter(game__club=south).count() == 2
    assert set(Attempt.objects.values_list("player__club", flat=True)) == {south.pk}
    assert DealSeed.objects.filter(deal__level__game=solitaire).count() == 2
    assert not Player.objects.filter(club=north, short_name="SK").exists()
    assert figures_of(north) == before


def test_the_demo_loads_as_its_own_club_once_beside_the_others(north_and_south):
    north, _ = north_and_south
    before = figures_of(north)

    assert "Loaded the club's demo data: 6 matchdays." in run("load_demo", "--club", "demo")
    assert "demo data not loaded" in run("load_demo", "--club", "demo")

    demo = Club.objects.get(slug="demo")
    assert demo.name == "Demo club"
    assert Matchday.objects.filter(club=demo).count() == 6
    assert set(Game.objects.filter(club=demo).values_list("slug", flat=True)) == {"hearts", "magic", "pokemon"}
    assert figures_of(north) == before


def test_the_demo_into_a_club_whose_hearts_is_played_against_deals_is_refused_in_one_line(north_and_south, tmp_path):
    (tmp_path / "hearts.csv").write_text(ATTEMPTS.replace("Solitaire", "Hearts"))
    run("import_attempts", str(tmp_path / "hearts.csv"), "--club", "south")
    with pytest.raises(CommandError) as refused:  # was a traceback ending in ImportFailed
        run("load_demo", "--club", "south")
    assert str(refused.value) == (
        "The demo data was not loaded: Matchday 1: Hearts is played against deals; "
        "import its attempts with import_attempts instead."
    )
    assert not Matchday.objects.filter(club__slug="south").exists()
    assert not Game.objects.filter(club__slug="south").exclude(name="Hearts").exists()


def test_make_runs_demo_comes_once_on_a_site_without_clubs_and_stays_deleted():
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    assert "manage.py load_demo --club demo --if-no-clubs\n" in makefile
    assert "Loaded the club's demo data: 6 matchdays." in run("load_demo", "--club", "demo", "--if-no-clubs")
    run("create_club", "north", "North Card Club")
    run("delete_club", "demo", "--no-input")
    assert "The site has clubs already; demo data not loaded." in run("load_demo", "--club", "demo", "--if-no-clubs")
    assert list(Club.objects.values_list("slug", flat=True)) == ["north"]
    assert not Matchday.objects.exists()


COMMANDS = [
    ("import_results", "south.csv"),
    ("import_attempts", "attempts.csv"),
    ("seed_deals", "seeds.csv"),
    ("export_ratings", None),
    ("recompute_ratings", None),
    ("load_demo", None),
]


@pytest.mark.parametrize(("command", "file"), COMMANDS)
def test_with_several_clubs_every_command_asks_which_naming_them_and_changes_nothing(
    north_and_south, tmp_path, command, file
):
    north, _ = north_and_south
    before = figures_of(north)
    args = [str(tmp_path / file)] if file else []
    with pytest.raises(CommandError, match=r"^The site holds several clubs: pass --club with one of north, south\.$"):
        run(command, *args)
    if command != "load_demo":  # which starts the demo club at the address it is given
        with pytest.raises(CommandError, match=r"^No club has the address 'east'; the clubs are: north, south\.$"):
            run(command, *args, "--club", "east")
    assert figures_of(north) == before
    assert Matchday.objects.count() == 6 and Club.objects.count() == 2


def test_with_one_club_a_command_works_in_it_without_being_told(tmp_path):
    south = Club.objects.create(slug="south", name="South Card Club")
    (tmp_path / "south.csv").write_text(south_csv())
    run("import_results", str(tmp_path / "south.csv"))
    assert Club.objects.count() == 1 and Matchday.objects.filter(club=south).count() == 3


def test_on_a_site_without_a_club_the_first_import_starts_one_named_after_the_league(settings):
    assert "Imported 6 matchdays" in run("import_results", str(CLUB_CSV))
    club = Club.objects.get()
    assert (club.slug, club.name) == (CLUB_SLUG, settings.LEAGUE_NAME)
    assert Matchday.objects.filter(club=club).count() == 6


@pytest.mark.parametrize(
    ("command", "text", "made"),
    [
        ("seed_deals", SEEDS, lambda club: DealSeed.objects.filter(deal__level__game__club=club).count() == 2),
        ("import_attempts", ATTEMPTS, lambda club: Attempt.objects.filter(session__game__club=club).count() == 2),
        ("load_demo", None, lambda club: Matchday.objects.filter(club=club).count() == 6),
    ],
)
def test_on_a_site_without_a_club_every_writing_command_starts_one(settings, tmp_path, command, text, made):
    args = []
    if text:
        (tmp_path / "file.csv").write_text(text)
        args = [str(tmp_path / "file.csv")]
    run(command, *args)
    club = Club.objects.get()
    assert (club.slug, club.name) == (CLUB_SLUG, settings.LEAGUE_NAME)
    assert made(club)


def test_create_club_starts_an_empty_club():
    assert "Started North Card Club at /north/" in run("create_club", "north", "North Card Club")
    club = Club.objects.get(slug="north")
    assert club.name == "North Card Club"
    assert not Player.objects.filter(club=club).exists() and not RatingTable.every.filter(club=club).exists()


@pytest.mark.parametrize("slug", ["admin", "Admin", "static"])
def test_create_club_refuses_an_address_of_the_site_itself(slug):
    with pytest.raises(CommandError, match=rf"^No club was made: .*'{slug}' is a path of the site itself"):
        run("create_club", slug, "Admins")
    assert not Club.objects.exists()


def test_create_club_refuses_a_taken_address_naming_its_club():
    Club.objects.create(slug="north", name="North Card Club")
    with pytest.raises(CommandError, match=r"^No club was made: /north/ is the address of North Card Club already"):
        run("create_club", "north", "Another North")
    assert list(Club.objects.values_list("name", flat=True)) == ["North Card Club"]


def test_create_club_refuses_an_address_that_is_no_slug_saying_which():
    with pytest.raises(CommandError, match=r"^No club was made: the address 'north club': "):
        run("create_club", "north club", "North Card Club")


def test_a_secretary_made_by_create_club_is_staff_and_enters_the_clubs_results(client):
    alice = User.objects.create_user("alice", password="not-staff-yet")
    run("create_club", "north", "North Card Club", "--secretary", "alice")

    alice.refresh_from_db()
    club = Club.objects.get(slug="north")
    assert alice.is_staff and not alice.is_superuser
    assert list(club.secretaries.all()) == [alice]
    assert alice.has_perms(["league.add_matchday", "league.add_result", "league.change_player"])
    assert not alice.has_perm("league.delete_club")
    client.force_login(alice)
    response = client.get("/north/enter/")
    assert response.status_code == 200 and b'value="preview">Preview</button>' in response.content


def test_a_new_secretary_is_created_with_the_password_typed_twice(monkeypatch):
    typed = iter(["short", "short", "a-long-pass-phrase", "a-long-pass-phrase"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(typed))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    out = io.StringIO()
    err = io.StringIO()
    call_command("create_club", "north", "North Card Club", "--secretary", "bob", stdout=out, stderr=err)

    bob = User.objects.get(username="bob")
    assert bob.check_password("a-long-pass-phrase") and bob.is_staff
    assert "This password is too short" in err.getvalue()
    assert list(Club.objects.get(slug="north").secretaries.all()) == [bob]


@pytest.mark.parametrize("username", ["Anna Berg", " bob", "x" * 151])
def test_a_new_secretarys_name_that_no_user_may_have_is_refused_before_the_password(monkeypatch, username):
    monkeypatch.setattr("getpass.getpass", lambda prompt="": pytest.fail("asked for a password"))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    with pytest.raises(CommandError, match=r"^No club was made: the user name '.*': (Enter a valid|.* at most 150)"):
        run("create_club", "north", "North Card Club", "--secretary", username)
    assert not Club.objects.exists() and not User.objects.exists()


def test_with_no_input_a_secretary_who_is_no_user_is_refused_and_nothing_is_made():
    with pytest.raises(CommandError, match=r"^No club was made: there is no user 'bob', and with --no-input"):
        run("create_club", "north", "North Card Club", "--secretary", "bob", "--no-input")
    assert not Club.objects.exists() and not User.objects.exists()


def test_delete_club_removes_a_club_with_everything_it_holds_and_leaves_the_others(north_and_south, tmp_path):
    north, south = north_and_south
    run("import_results", str(tmp_path / "south.csv"), "--club", "south")
    run("import_attempts", str(tmp_path / "attempts.csv"), "--club", "south")
    before = figures_of(north)

    assert "Deleted South Card Club (/south/): 3 matchdays" in run("delete_club", "south", "--no-input")

    assert list(Club.objects.values_list("slug", flat=True)) == ["north"]
    assert not DealSession.objects.exists() and not Attempt.objects.exists()
    assert figures_of(north) == before
    assert "agree" in run("recompute_ratings", "--check")  # one club left: no --club needed


def test_delete_club_asks_first_and_refuses_without_a_terminal(north_and_south):
    with pytest.raises(CommandError, match="no terminal to ask for confirmation on"):
        run("delete_club", "north")
    with pytest.raises(CommandError, match=r"^No club has the address 'east'; the clubs are: north, south\.$"):
        run("delete_club", "east", "--no-input")
    assert Club.objects.count() == 2
