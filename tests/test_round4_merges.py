"""Issue 41, class 9: merges tried as a careless secretary and a racing server would. A player
into themselves, a chain (A into B, B into C, then the first reverted), a merge while an import
runs and a merge across clubs are each refused with a clear message or done whole, by the service,
`manage.py merge_players` and the admin's action alike; a refused merge changes nothing, a done one
is one entry of the history."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse
from django_scopes import scope

from league.models import Club, FormerName, Matchday, Player, Result, Write
from ratings.models import Standing
from ratings.services.players import merge_players
from ratings.services.recompute import rebuild_all
from ratings.services.revert import RevertRefused, revert
from tests.merge_race import judged, race
from tests.test_revert import ratings_now
from web.importing import import_results

ROOT = Path(__file__).resolve().parent.parent
CSV = b"matchday,date,game,rounds,player,placing,rated_placing\n"


def everything() -> tuple:
    """Every rating, result, player, former name and history entry: what a refused merge leaves."""
    players = sorted(Player.objects.values_list("pk", "short_name", "name"))
    results = sorted(Result.objects.values_list("matchday_id", "player_id", "placing"))
    return (
        ratings_now(),
        players,
        results,
        sorted(FormerName.objects.values_list("player_id", "name")),
        Write.objects.count(),
    )


@pytest.fixture
def abc(club, make_matchday):
    """Three entries of one person: "A" and "B" each played a matchday of their own, "C" two."""
    make_matchday(7, "2025-11-21", {"A": 1, "K": 2, "I": 3})
    make_matchday(8, "2025-11-22", {"B": 1, "J": 2})
    make_matchday(9, "2025-11-23", {"C": 1, "R": 2})
    make_matchday(10, "2025-11-24", {"C": 2, "GL": 1})
    return {name: Player.objects.get(short_name=name) for name in "ABC"}


# -- into themselves -------------------------------------------------------------------------------


def test_a_player_merged_into_themselves_is_refused_by_every_way_and_nothing_changes(admin_client, abc):
    before = everything()
    a = abc["A"]
    with pytest.raises(ValidationError, match="A cannot be merged into themselves"):
        merge_players(a, Player.objects.get(pk=a.pk))
    for same in (("A", "A"), ("A", "a"), ("A", "Ａ")):  # one player by any case or width of the name
        with pytest.raises(CommandError, match="A cannot be merged into themselves"):
            call_command("merge_players", *same, stdout=io.StringIO())
    url = reverse("admin:league_player_changelist")
    chosen = {"action": "merge", "_selected_action": [str(a.pk), str(a.pk)], "keep": str(a.pk), "confirm": "merge"}
    response = admin_client.post(url, chosen, follow=True)
    assert response.status_code == 200 and "Select exactly two players to merge." in response.content.decode()
    assert everything() == before


def test_a_merge_whose_kept_player_is_another_chosen_is_the_two_chosen(admin_client, abc):
    """A `keep` posted that is neither of the two selected keeps the one the page offered."""
    url = reverse("admin:league_player_changelist")
    a, b, c = abc["A"], abc["B"], abc["C"]
    chosen = {"action": "merge", "_selected_action": [str(a.pk), str(b.pk)], "keep": str(c.pk), "confirm": "merge"}
    assert admin_client.post(url, chosen).status_code == 302
    assert Player.objects.filter(pk=c.pk).exists()
    assert Player.objects.filter(pk__in=[a.pk, b.pk]).count() == 1


# -- a chain ---------------------------------------------------------------------------------------


def test_a_chain_merged_then_its_first_merge_reverted_is_refused_naming_the_later_merge(abc):
    a, b, c = abc["A"], abc["B"], abc["C"]
    original = ratings_now()
    merge_players(b, a)
    first = Write.objects.order_by("-pk").first()
    merge_players(c, Player.objects.get(pk=b.pk))
    second = Write.objects.order_by("-pk").first()
    assert second.pk > first.pk and "1 player deleted" in first.summary and "1 player deleted" in second.summary
    assert sorted(Result.objects.filter(player=c).values_list("matchday__number", flat=True)) == [7, 8, 9, 10]
    assert set(c.former_names.values_list("name", flat=True)) == {"A", "B"}
    before = everything()
    with pytest.raises(RevertRefused) as refused:
        revert(first)
    assert "has been changed since" in str(refused.value) and second.summary in str(refused.value)
    assert everything() == before  # nothing half-done
    # the later merge reverted first, then the first: every result and rating as they were
    revert(second)
    revert(Write.objects.get(pk=first.pk))
    assert {p.short_name for p in Player.objects.filter(pk__in=[a.pk, b.pk, c.pk])} == {"A", "B", "C"}
    assert sorted(Result.objects.filter(player=a).values_list("matchday__number", flat=True)) == [7]
    assert sorted(Result.objects.filter(player=b).values_list("matchday__number", flat=True)) == [8]
    assert not FormerName.objects.filter(player__in=[a, b, c]).exists()
    assert ratings_now() == original
    assert Write.objects.filter(reverts__in=[first, second]).count() == 2


def test_a_chains_first_merge_reverted_over_the_later_one_is_done_whole(abc):
    a, b, c = abc["A"], abc["B"], abc["C"]
    merge_players(b, a)
    first = Write.objects.order_by("-pk").first()
    merge_players(c, Player.objects.get(pk=b.pk))
    revert(first, overwrite=True)  # asked: A comes back with their matchday; C keeps B's
    back = Player.objects.get(pk=a.pk)
    assert back.short_name == "A"
    assert sorted(Result.objects.filter(player=back).values_list("matchday__number", flat=True)) == [7]
    assert sorted(Result.objects.filter(player=c).values_list("matchday__number", flat=True)) == [8, 9, 10]
    assert not Player.objects.filter(pk=b.pk).exists()
    reverted = ratings_now()
    rebuild_all()
    assert ratings_now() == reverted  # every table as a full recompute of what is stored gives
    assert Write.objects.order_by("-pk").first().reverts_id == first.pk


def test_a_merge_into_a_player_merged_away_meanwhile_is_refused(abc):
    a, b, c = abc["A"], abc["B"], abc["C"]
    stale_b = Player.objects.get(pk=b.pk)
    merge_players(c, b)
    before = everything()
    with pytest.raises(ValidationError, match="B was merged into another player or deleted meanwhile"):
        merge_players(stale_b, a)
    assert everything() == before


# -- across clubs ----------------------------------------------------------------------------------


# GL played matchday 1 in each club, Gerd matchday 2
FILE = (
    b"1,2025-11-03,Hearts,2,GL,1,\n1,2025-11-03,Hearts,2,K,2,\n"
    b"2,2025-11-04,Hearts,1,Gerd,1,\n2,2025-11-04,Hearts,1,K,2,\n"
)


@pytest.fixture
def two_clubs(db):
    made = {}
    for slug in ("north", "south"):
        club = Club.objects.create(slug=slug, name=slug.title())
        with scope(club=club.pk):
            import_results(CSV + FILE)
        made[slug] = club
    return made


@pytest.mark.no_club
def test_a_merge_across_clubs_is_refused_by_the_service_the_command_and_the_admin(client, admin_client, two_clubs):
    north, south = two_clubs["north"], two_clubs["south"]
    keep = Player.objects.get(club=north, short_name="GL")
    drop = Player.objects.get(club=south, short_name="Gerd")
    before = everything()
    with pytest.raises(ValidationError, match="Gerd and GL are players of two clubs"):
        merge_players(keep, drop)
    with pytest.raises(CommandError, match="pass --club"):
        call_command("merge_players", "GL", "Gerd", stdout=io.StringIO())
    with pytest.raises(CommandError, match="No player goes by 'Nobody'"):
        call_command("merge_players", "GL", "Nobody", "--club", "north", stdout=io.StringIO())
    url = reverse("admin:league_player_changelist")
    chosen = {"action": "merge", "_selected_action": [str(keep.pk), str(drop.pk)]}
    html = admin_client.post(url, chosen).content.decode()
    assert "are players of two clubs" in html
    response = admin_client.post(url, {**chosen, "keep": str(keep.pk), "confirm": "merge"})
    assert response.status_code == 200 and "are players of two clubs" in response.content.decode()
    # a secretary of the north, posting the south's player: only their own is chosen
    user = User.objects.create_user("sec", password="pw-for-tests", is_staff=True, is_superuser=False)
    from django.contrib.auth.models import Permission

    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=["league", "ratings"]))
    north.secretaries.add(user)
    client.force_login(user)
    response = client.post(url, {**chosen, "keep": str(keep.pk), "confirm": "merge"}, follow=True)
    assert response.status_code == 200 and "Select exactly two players to merge." in response.content.decode()
    assert everything() == before


@pytest.mark.no_club
def test_a_merge_in_one_club_is_in_its_history_only_and_leaves_the_other_as_it_was(two_clubs):
    north, south = two_clubs["north"], two_clubs["south"]
    theirs = of_club(south)
    call_command("merge_players", "GL", "Gerd", "--club", "north", stdout=io.StringIO())
    assert Write.objects.filter(club=north).order_by("-pk").first().summary.startswith("Matchday 2")
    assert Write.objects.filter(club=south).count() == 1  # its import only
    assert of_club(south) == theirs
    assert Player.objects.filter(club=south, short_name="Gerd").exists()


def of_club(club) -> list:
    return sorted(Standing.objects.filter(table__club=club).values_list("table_id", "player_id", "rating", "played"))


# -- a merge while an import runs --------------------------------------------------------------------


@pytest.mark.parametrize("both", [False, True], ids=["gerds-next-matchday", "gl-and-gerd-in-one"])
@pytest.mark.parametrize("delay", [0.0, 0.03, -0.03])
def test_on_postgresql_a_merge_while_an_import_runs_is_refused_or_done_whole(transactional_db, club, both, delay):
    if connection.vendor != "postgresql":
        pytest.skip("two connections at once: the suite's SQLite database is in memory (the test below)")
    judged(race(7, both, delay))


RACE = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tests.conftest import CLUB_CSV
from web.importing import import_results
import_results(CLUB_CSV.read_bytes())
from tests.merge_race import race
print(json.dumps([race(number, both, delay) for number, both, delay in
                  ((7, False, 0.0), (10, True, 0.0), (13, False, 0.03), (16, True, -0.03))]))
"""


@pytest.mark.slow
def test_on_an_sqlite_file_a_merge_while_an_import_runs_is_refused_or_done_whole(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LEAGUE_PRODUCTION": "",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": "",
    }
    done = subprocess.run([sys.executable, "-c", RACE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for outcome in json.loads(done.stdout.strip().splitlines()[-1]):
        judged(outcome)


# -- a merge between the entry page's check and its save ------------------------------------------------


@pytest.fixture
def merged_at_the_save(monkeypatch, abc):
    """A: merged into C by another secretary just after the Save's check passed, before it saved."""
    from league import submissions

    real = submissions.fits

    def fits(token, content):
        found = real(token, content)
        if Player.objects.filter(pk=abc["A"].pk).exists():
            merge_players(Player.objects.get(pk=abc["C"].pk), Player.objects.get(pk=abc["A"].pk))
        return found

    monkeypatch.setattr(submissions, "fits", fits)
    return abc


def test_a_new_matchday_saved_on_the_entry_page_as_its_player_is_merged_is_refused_on_the_page(
    admin_client, merged_at_the_save
):
    from tests.test_enter import post

    response = post(admin_client, ["A", "K", "I"], action="save", day="2025-11-25")
    assert response.status_code == 200
    assert "A was merged into another player or deleted while this was being saved" in response.content.decode()
    assert not Player.objects.filter(short_name="A").exists() and not Matchday.objects.filter(number=11).exists()


def test_a_matchday_changed_on_the_entry_page_as_its_player_is_merged_is_refused_on_the_page(
    admin_client, merged_at_the_save
):
    from tests.test_enter_edit import edit

    merged = Write.objects.count()
    response = edit(admin_client, 7, ["K", "A", "I"], action="save")
    assert response.status_code == 200
    assert "A was merged into another player or deleted while this was being saved" in response.content.decode()
    assert Write.objects.count() == merged + 1  # the merge only
    assert sorted(Matchday.objects.get(number=7).results.values_list("player__short_name", flat=True)) == [
        "C",
        "I",
        "K",
    ]


# -- a merge while an import of solitaire attempts runs ---------------------------------------------------


def test_an_attempts_import_whose_player_was_merged_away_meanwhile_is_refused_by_name(abc, monkeypatch):
    """The import has read its players when A is merged into C by another secretary: the import is
    refused naming A, not met by the database as an attempt of a player who is gone; nothing of the
    file is kept."""
    import ratings.deals.services as deal_services
    from league.models import Attempt
    from web.deals.importing import ImportFailed, import_attempts

    real = deal_services.players_named

    def then_merged(names):
        found = real(names)
        merge_players(Player.objects.get(short_name="C"), Player.objects.get(short_name="A"))
        return found

    monkeypatch.setattr(deal_services, "players_named", then_merged)
    data = b"date,game,variant,level,deal,player,won\n2025-11-25,Solitaire,8x4,5,1,A,W\n"
    with pytest.raises(ImportFailed) as refused:
        import_attempts(data)
    assert refused.value.errors == [
        "A was merged into another player or deleted while this was being saved; nothing was saved. Enter it again."
    ]
    assert (
        not Attempt.objects.exists() and Player.objects.filter(short_name="A").exists()
    )  # the test's merge undone too
