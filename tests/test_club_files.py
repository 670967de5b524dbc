"""One club's file (`backup_database --club`): the mixed league written out and restored beside the
site's other clubs, at its own address or another, with every rating it had; a file that is not a
club's, of another version, or whose rows reach outside it is refused with nothing written."""

import codecs
import io
import json
import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django_scopes import scope

from league import revision
from league.bgstats import read_export
from league.models import Club, FormerName, Matchday, Page, Player, Revision, Season
from ratings.models import AttemptRating, RatingEntry, RatingTable, Standing
from ratings.services.bgstats import import_bgstats
from ratings.services.seasons import save_season
from tests.conftest import CLUB_SLUG, MIXED_MEMBERS
from tests.test_against_the_game_mixed_league import export
from web.importing import import_results

NORTH_CSV = b"""matchday,date,game,rounds,player,placing,rated_placing
1,2026-01-05,Hearts,3,GL,1,
1,2026-01-05,Hearts,3,Ann,2,
1,2026-01-05,Hearts,3,Bo,3,
"""


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def numbers(club: Club) -> dict:
    """What the club's pages show, by names and numbers alone (a restored club's rows have new keys)."""
    mine = {"table__club": club}
    return {
        "rows": sorted(
            RatingEntry.objects.filter(**mine).values_list(
                "table__slug", "matchday__number", "player__short_name", "rating_before", "rating_after"
            )
        ),
        "standings": sorted(
            Standing.objects.filter(**mine).values_list("table__slug", "player__short_name", "rating", "played")
        ),
        "attempts": sorted(
            AttemptRating.objects.filter(**mine).values_list(
                "table__slug", "attempt__session__date", "attempt__player__short_name", "player_after", "deal_after"
            )
        ),
        "tables": sorted(RatingTable.every.filter(club=club).values_list("slug", "method", "season__slug")),
        "players": sorted(Player.objects.filter(club=club).values_list("short_name", "name")),
        "former names": FormerName.objects.filter(player__club=club).count(),
        "pages": sorted(Page.objects.filter(club=club).values_list("slug", "title")),
        "seasons": sorted(Season.objects.filter(club=club).values_list("slug", "start", "first_day", "last_day")),
    }


@pytest.fixture
def two_clubs(mixed_league):
    """The mixed league in the tests' club, with a season and a secretary; North beside it."""
    club = Club.objects.get(slug=CLUB_SLUG)
    with scope(club=club.pk):
        spring = Season(club=club, slug="spring", name="Spring 2026", first_day="2026-03-01", last_day="2026-05-31")
        save_season(spring)
    club.secretaries.add(User.objects.create_user("sec", is_staff=True))
    north = Club.objects.create(slug="north", name="North")
    with scope(club=north.pk):
        import_results(NORTH_CSV)
    return club, north


@pytest.mark.django_db
def test_a_club_restored_at_another_address_has_every_number_and_the_other_clubs_are_untouched(two_clubs, tmp_path):
    club, north = two_clubs
    run("backup_database", str(tmp_path / "club.json"), "--club", CLUB_SLUG)
    before, north_before = numbers(club), numbers(north)
    north_token = Revision.objects.get(scope=revision.of_club(north.pk)).token

    out = run("restore_database", str(tmp_path / "club.json"), "--club", "copy")

    copy = Club.objects.get(slug="copy")
    assert f"Restored the club {club.name} at /copy/ ({Matchday.objects.filter(club=club).count()} matchdays)" in out
    assert numbers(copy) == before and before["attempts"] and before["rows"]
    assert numbers(north) == north_before
    assert Revision.objects.get(scope=revision.of_club(north.pk)).token == north_token
    assert list(copy.secretaries.values_list("username", flat=True)) == ["sec"]
    assert numbers(club) == before  # the original is still there, beside its copy


@pytest.mark.django_db
def test_a_deleted_club_comes_back_from_its_file_at_its_own_address(two_clubs, tmp_path, client):
    club, _ = two_clubs
    run("backup_database", str(tmp_path / "club.json"), "--club", CLUB_SLUG)
    before = numbers(club)
    run("delete_club", CLUB_SLUG, "--no-input")
    assert not Club.objects.filter(slug=CLUB_SLUG).exists()

    run("restore_database", str(tmp_path / "club.json"))

    assert numbers(Club.objects.get(slug=CLUB_SLUG)) == before
    assert client.get(f"/{CLUB_SLUG}/standings/").status_code == 200


@pytest.mark.django_db
def test_a_club_at_the_address_already_is_replaced_only_when_asked(two_clubs, tmp_path):
    club, _ = two_clubs
    run("backup_database", str(tmp_path / "club.json"), "--club", CLUB_SLUG)
    before = numbers(club)
    with pytest.raises(CommandError, match=r"the site has a club at /card-games/ already"):
        run("restore_database", str(tmp_path / "club.json"))
    assert Club.objects.count() == 2

    Matchday.objects.filter(club=club).order_by("-number").first().delete()  # a mistake, to be undone
    run("restore_database", str(tmp_path / "club.json"), "--replace", "--no-input")

    assert numbers(Club.objects.get(slug=CLUB_SLUG)) == before
    assert Club.objects.count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize("games_after_players", [False, True], ids=["as-written", "as-written-before"])
def test_a_club_with_plays_against_the_game_comes_back_with_its_stand_ins(two_clubs, tmp_path, games_after_players):
    """A co-op or solo game's own rating is a player standing for the game: restored after its game,
    also from a file written when players came first."""
    club, _ = two_clubs
    with scope(club=club.pk):
        import_bgstats(read_export(export(MIXED_MEMBERS[:4]), date(2026, 11, 29)))
    path = tmp_path / "club.json"
    run("backup_database", str(path), "--club", CLUB_SLUG)
    if games_after_players:
        edited(path, lambda c: c["objects"].sort(key=lambda item: item["model"] == "league.game"))
    before = numbers(club)

    run("restore_database", str(path), "--club", "copy")

    copy = Club.objects.get(slug="copy")
    assert numbers(copy) == before
    assert Player.objects.filter(club=copy, stands_for__club=copy).count() == 2  # Pandemic's and Azul's


@pytest.mark.django_db
def test_a_club_file_saved_by_an_editor_with_a_byte_order_mark_is_restored(two_clubs, tmp_path):
    club, _ = two_clubs
    path = tmp_path / "club.json"
    run("backup_database", str(path), "--club", CLUB_SLUG)
    path.write_bytes(codecs.BOM_UTF8 + path.read_bytes())  # Notepad's or PowerShell's "UTF-8"
    before = numbers(club)

    run("restore_database", str(path), "--club", "copy")  # was taken for a whole-database backup

    assert numbers(Club.objects.get(slug="copy")) == before


def edited(path, change) -> None:
    content = json.loads(path.read_text())
    change(content)
    path.write_text(json.dumps(content))


def _reach_into_north(content):
    result = next(item for item in content["objects"] if item["model"] == "league.result")
    result["fields"]["player"] = Player.objects.get(club__slug="north", short_name="Ann").pk


def _too_long_name(content):
    player = next(item for item in content["objects"] if item["model"] == "league.player")
    player["fields"]["short_name"] = "X" * 40


def _no_name(content):
    player = next(item for item in content["objects"] if item["model"] == "league.player")
    player["fields"]["name"] = None


def _bad_parameter(content):
    table = next(item for item in content["objects"] if item["model"] == "ratings.ratingtable")
    table["fields"]["method"], table["fields"]["parameters"] = "pairwise-placing", {"k": "many"}


def _a_user(content):
    content["objects"].append({"model": "auth.user", "pk": 1, "fields": {"username": "root", "is_superuser": True}})


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_reach_into_north, r"row \d+ \(league.result \d+\): its player is not a row written before it in the file"),
        (_too_long_name, r"row \d+ \(league.player \d+\) is refused: short_name: Ensure this value has at most"),
        (_a_user, r"it holds rows that are not a club's \(auth.user\)"),
        (lambda c: c["schema"].update(league="0001_initial"), r"it was written by another version of the site"),
        (lambda c: c.update(format="other"), r"it is not a club's file"),
        (_no_name, r"row \d+ \(league.player \d+\) is refused: name: This field cannot be (null|blank)"),
        (_bad_parameter, r"its ratings cannot be computed: .*"),
        (lambda c: c.update(schema="0001"), r"it was written by another version of the site \(none given;"),
        (lambda c: c["objects"].append({"model": ["league.club"]}), r"its rows do not start with the club itself"),
        (lambda c: c.update(secretaries="sec"), r"its club's address or secretaries are not names"),
    ],
    ids=[
        "another-clubs-player",
        "too-long",
        "a-user",
        "another-version",
        "not-a-club-file",
        "no-name",
        "a-parameter-no-method-takes",
        "a-version-that-is-no-list",
        "a-row-named-by-a-list",
        "secretaries-as-a-string",
    ],
)
def test_a_file_that_cannot_be_restored_says_why_and_writes_nothing(two_clubs, tmp_path, change, message):
    _, north = two_clubs
    path = tmp_path / "club.json"
    run("backup_database", str(path), "--club", CLUB_SLUG)
    edited(path, change)
    counts = [model.objects.count() for model in (Club, Player, Matchday, RatingEntry)]
    north_before = numbers(north)

    with pytest.raises(CommandError, match=r"^Nothing was restored from .*club.json: " + message):
        run("restore_database", str(path), "--club", "copy")

    assert [model.objects.count() for model in (Club, Player, Matchday, RatingEntry)] == counts
    assert numbers(north) == north_before


@pytest.mark.django_db
def test_a_club_file_is_never_written_over_an_existing_file(two_clubs, tmp_path):
    path = tmp_path / "club.json"
    path.write_text("kept")
    with pytest.raises(CommandError, match="exists already"):
        run("backup_database", str(path), "--club", CLUB_SLUG)
    assert path.read_text() == "kept"


@pytest.mark.django_db
def test_a_club_file_into_a_folder_that_does_not_exist_names_the_folder(two_clubs, tmp_path):
    folder = tmp_path / "nowhere"
    with pytest.raises(CommandError) as refused:
        run("backup_database", str(folder / "club.json"), "--club", CLUB_SLUG)
    assert str(refused.value) == (  # was "No such file or directory (.../club.json.partial)"
        f"No backup was written: the folder {folder} does not exist; create it first or choose another."
    )
    assert not folder.exists()


@pytest.mark.django_db
def test_a_number_json_allows_but_no_rating_can_hold_is_refused(two_clubs, tmp_path):
    path = tmp_path / "club.json"
    run("backup_database", str(path), "--club", CLUB_SLUG)
    text = re.sub(r'"start_rating": [0-9.]+', '"start_rating": Infinity', path.read_text(), count=1)
    assert "Infinity" in text
    path.write_text(text)
    with pytest.raises(CommandError, match=r"not JSON: Infinity is not a number a club's file holds"):
        run("restore_database", str(path), "--club", "copy")
    assert not Club.objects.filter(slug="copy").exists()


@pytest.mark.django_db
def test_a_whole_database_backup_is_not_restored_with_a_clubs_options(two_clubs, tmp_path):
    path = tmp_path / "site.sqlite3"
    path.write_bytes(b"SQLite format 3\x00")
    with pytest.raises(CommandError, match=r"is not a club's file, so --club and --replace mean nothing"):
        run("restore_database", str(path), "--club", "copy", "--no-input")


@pytest.mark.django_db
def test_a_club_file_that_is_not_there_is_said_to_be_missing(two_clubs, tmp_path):
    with pytest.raises(CommandError, match=r"^Nothing was restored: .*north.json is not a file\.$"):
        run("restore_database", str(tmp_path / "north.json"), "--club", "copy")  # was "not a club's file"
