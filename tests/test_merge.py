"""One person entered twice, merged: in the admin (an action on the players' list, with the impact
first) and as `manage.py merge_players KEEP DROP [--dry-run]`; refused, naming the matchday, when
both played in one; the dropped names found as the kept player's; in the history, and reverted whole."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from league.models import FormerName, Matchday, Player, Result, Write
from league.services import delete_players, save_player
from ratings.models import Standing
from ratings.services.imports import players_by_name
from ratings.services.players import merge_players, merge_problems
from ratings.services.recompute import rebuild_all
from ratings.services.revert import revert
from tests.test_revert import ratings_now


@pytest.fixture
def twice(club, make_matchday):
    """GL entered a second time as "Gerd", who played two late matchdays GL did not."""
    make_matchday(7, "2025-11-21", {"Gerd": 1, "K": 2, "I": 3})
    make_matchday(8, "2025-11-22", {"J": 1, "Gerd": 2})
    Player.objects.filter(short_name="Gerd").update(name="Gerd Lund")
    return Player.objects.get(short_name="GL"), Player.objects.get(short_name="Gerd")


def standings() -> list:
    return sorted(Standing.objects.values_list("table_id", "player_id", "rating", "played"))


def test_the_dropped_players_results_and_names_become_the_kept_players(twice):
    keep, drop = twice
    played = Result.objects.filter(player=keep).count()
    merge_players(keep, drop)
    assert not Player.objects.filter(pk=drop.pk).exists()
    assert Result.objects.filter(player=keep).count() == played + 2
    assert set(keep.former_names.values_list("name", flat=True)) == {"Gerd", "Gerd Lund"}
    assert players_by_name(["gerd"])["gerd"] == keep  # the entry page and the import find GL by it
    merged = standings()
    rebuild_all()
    assert standings() == merged  # rated as if GL had been entered both times
    write = Write.objects.order_by("-pk").first()
    assert write.summary.startswith("2 matchdays changed") and "1 player deleted" in write.summary


def test_a_merge_is_refused_when_both_played_in_one_matchday(twice, make_matchday):
    keep, drop = twice
    make_matchday(9, "2025-11-23", {"GL": 1, "Gerd": 2})
    before = ratings_now()
    problems = merge_problems(keep, drop)
    assert problems == [
        "Matchday 9 (2025-11-23): GL and Gerd both played in it, and a player plays once in a matchday. "
        "Correct that matchday first."
    ]
    assert merge_problems(keep, keep) == ["GL cannot be merged into themselves."]
    with pytest.raises(CommandError, match="Matchday 9"):
        call_command("merge_players", "GL", "Gerd", stdout=io.StringIO())
    assert ratings_now() == before and Player.objects.filter(pk=drop.pk).exists()


def test_a_merge_and_its_revert_round_trip(twice):
    keep, drop = twice
    before = ratings_now()
    merge_players(keep, drop)
    revert(Write.objects.order_by("-pk").first())
    back = Player.objects.get(short_name="Gerd")
    assert back.pk == drop.pk and back.name == "Gerd Lund"
    assert sorted(Result.objects.filter(player=back).values_list("matchday__number", flat=True)) == [7, 8]
    assert not keep.former_names.exists()
    assert ratings_now() == before


def test_the_command_previews_with_dry_run_then_merges(twice):
    keep, drop = twice
    before = ratings_now()
    out = io.StringIO()
    call_command("merge_players", "gl", "GERD", "--dry-run", stdout=out)
    assert "Merging Gerd into GL would rate" in out.getvalue() and "Nothing was changed (--dry-run)." in out.getvalue()
    assert "GL " in out.getvalue() and "→" in out.getvalue()
    assert ratings_now() == before
    out = io.StringIO()
    call_command("merge_players", "GL", "Gerd", stdout=out)
    assert "Merged Gerd into GL" in out.getvalue() and not Player.objects.filter(pk=drop.pk).exists()
    with pytest.raises(CommandError, match="No player goes by 'Nobody'"):
        call_command("merge_players", "GL", "Nobody", stdout=io.StringIO())


def test_the_admin_action_shows_what_merging_changes_then_merges(admin_client, twice):
    keep, drop = twice
    url = reverse("admin:league_player_changelist")
    chosen = {"action": "merge", "_selected_action": [str(keep.pk), str(drop.pk)]}
    html = admin_client.post(url, chosen).content.decode()
    assert "What merging changes" in html and "Merge Gerd into GL" in html
    assert Player.objects.filter(pk=drop.pk).exists()
    response = admin_client.post(url, {**chosen, "keep": str(keep.pk), "confirm": "merge"})
    assert response.status_code == 302 and not Player.objects.filter(pk=drop.pk).exists()
    write = Write.objects.order_by("-pk").first()
    assert (write.way, write.who) == ("admin", "admin")
    one = admin_client.post(url, {"action": "merge", "_selected_action": [str(keep.pk)]}, follow=True)
    assert "Select exactly two players to merge." in one.content.decode()


def test_a_merge_in_the_mixed_league_with_solitaire_round_trips(mixed_league, make_matchday):
    from web.deals.importing import ATTEMPT_COLUMNS, import_attempts

    keep = Player.objects.get(short_name="GL")
    last = Matchday.objects.order_by("-date", "-number").first()
    make_matchday(last.number + 1, "2026-07-02", {"Twin": 1, "K": 2})
    from league.models import Game

    game = Game.objects.filter(against_deals=True).first()
    level = game.deal_levels.first()
    import_attempts(
        f"{','.join(ATTEMPT_COLUMNS)}\n2026-07-02,{game.name},{level.variant},{level.level},1,Twin,yes\n".encode()
    )
    drop = Player.objects.get(short_name="Twin")
    before = ratings_now()
    merge_players(keep, drop)
    assert not Player.objects.filter(pk=drop.pk).exists() and keep.attempts.filter(session__date="2026-07-02").exists()
    revert(Write.objects.order_by("-pk").first())
    assert ratings_now() == before


def test_a_merge_redone_by_reverting_its_revert_then_reverted_again_gives_back_the_dropped_players_former_names(
    twice,
):
    keep, drop = twice
    drop.short_name = "Gerdo"
    save_player(drop)  # "Gerd" is his former name
    before, names = ratings_now(), sorted(FormerName.objects.values_list("player_id", "name"))
    merge_players(Player.objects.get(pk=keep.pk), Player.objects.get(pk=drop.pk))
    revert(Write.objects.order_by("-pk").first())
    revert(Write.objects.order_by("-pk").first())  # merged again: his former names went with him, unkept
    revert(Write.objects.order_by("-pk").first())
    assert sorted(FormerName.objects.values_list("player_id", "name")) == names == [(drop.pk, "Gerd")]
    assert ratings_now() == before


def test_a_deleted_players_former_names_come_back_with_the_revert(db):
    zed = Player(name="Zed Zimmer", short_name="Zed")
    save_player(zed)
    zed.short_name = "Zee"
    save_player(zed)
    delete_players([zed])
    revert(Write.objects.order_by("-pk").first())
    assert list(FormerName.objects.values_list("player_id", "name")) == [(zed.pk, "Zed")]
