"""Names that change: a renamed member keeps their former names, and the entry page, the import, the
odds page and the search still find them by it; their page says "formerly". A name that may mean
several members lists every one of them on its line, and is never offered as a new member."""

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league import revision
from league import services as league_services
from league.models import FormerName, Matchday, Player, Result, Revision
from tests.conftest import section, table_rows
from tests.test_enter import post
from tests.test_import import csv, failure
from web.importing import import_results
from web.pages.typed_names import resolve_players


def rename(short_name: str, new_short: str, new_full: str | None = None) -> Player:
    player = Player.objects.get(short_name=short_name)
    player.short_name = new_short
    if new_full is not None:
        player.name = new_full
    league_services.save_player(player)
    return player


def former(player: Player) -> list[str]:
    return list(player.former_names.values_list("name", flat=True))


def line_error(html: str, line: int) -> str:
    """The error shown beside a result line of the entry form."""
    item = re.search(rf'<li id="line-{line}-item">(.*?)</li>', html, flags=re.S).group(1)
    found = re.search(r'<span class="error" role="alert">(.*?)</span>', item, flags=re.S)
    return found.group(1) if found else ""


@pytest.fixture
def ada(club):
    """GL, renamed from "Ada O" to "Ada U" (full name Ada Olsen, then Ada Underwood)."""
    gl = Player.objects.get(short_name="GL")
    gl.short_name, gl.name = "Ada O", "Ada Olsen"
    league_services.save_player(gl)
    gl.former_names.all().delete()  # GL was only the fixture's name
    return rename("Ada O", "Ada U", "Ada Underwood")


@pytest.fixture
def farids(club):
    """Four members whose first name is Farid."""
    return [
        Player.objects.create(short_name=f"Farid {letter}", name=f"Farid {surname}")
        for letter, surname in (("A", "Aziz"), ("B", "Bakr"), ("C", "Chaoui"), ("D", "Daher"))
    ]


# Kept by the service


def test_a_rename_keeps_the_former_short_and_full_names(ada):
    assert sorted(former(ada)) == ["Ada O", "Ada Olsen"]
    assert FormerName.objects.get(name="Ada O").until is not None


def test_taking_a_name_back_makes_it_current_again_and_a_rename_moves_the_revision(ada):
    before = Revision.objects.get(scope=revision.of_club(ada.club_id)).token
    rename("Ada U", "Ada O")
    assert sorted(former(ada)) == ["Ada Olsen", "Ada U"]
    assert Revision.objects.get(scope=revision.of_club(ada.club_id)).token != before


def test_a_former_name_is_kept_once_per_player(ada):
    rename("Ada U", "Ada O")
    rename("Ada O", "Ada U")
    assert sorted(former(ada)) == ["Ada O", "Ada Olsen"]
    with pytest.raises(ValidationError, match="already one of this player's former names"):
        FormerName(player=ada, name="ada o").full_clean()


# The entry page


def test_the_entry_page_finds_a_renamed_member_by_their_former_name(admin_client, ada):
    html = post(admin_client, ["Ada O", "K"]).content.decode()
    assert "check, then save" in html and "not a player" not in html and 'name="new-0-add"' not in html
    assert post(admin_client, ["ada o", "K"], action="save").status_code == 302
    assert Result.objects.get(matchday__number=7, placing=1).player == ada
    assert Player.objects.count() == 5  # no second Ada


def test_a_first_name_shared_by_four_members_lists_all_four_on_its_line_and_offers_no_new_member(admin_client, farids):
    html = post(admin_client, ["GL", "Farid", "K"]).content.decode()
    shown = line_error(html, 2)
    assert shown.startswith("Farid may be any of 4 players:")
    for farid in farids:
        assert f"{farid.short_name} ({farid.name})" in shown
    assert line_error(html, 1) == "" and line_error(html, 3) == ""
    assert 'name="new-0-add"' not in html and "not a player yet" not in html
    assert "check, then save" not in html


def test_a_name_that_begins_one_members_name_is_not_taken_for_a_new_member(admin_client, farids):
    Player.objects.filter(short_name__in=["Farid B", "Farid C", "Farid D"]).delete()
    html = post(admin_client, ["GL", "Farid"]).content.decode()
    assert (
        line_error(html, 2)
        == "Farid is not a player&#x27;s name. Did you mean Farid A (Farid Aziz)? Type their short name."
    )
    assert 'name="new-0-add"' not in html


def test_a_current_name_wins_over_someone_elses_former_name_and_the_preview_says_so(admin_client, ada):
    newcomer = Player.objects.create(short_name="Ada O", name="Ada Ortiz")
    resolved = resolve_players(["Ada O"])
    assert resolved.players == {"ada o": newcomer} and resolved.also == {"Ada O": [ada]}
    html = post(admin_client, ["Ada O", "K"]).content.decode()
    assert "Ada O is taken as Ada O, whose name it is now; Ada U (Ada Underwood, formerly" in html


def test_a_former_name_of_two_members_lists_both(admin_client, ada):
    k = rename("K", "Ada O")
    rename("Ada O", "Kay")
    html = post(admin_client, ["Ada O", "I"]).content.decode()
    shown = line_error(html, 1)
    assert shown.startswith("Ada O may be any of 2 players:") and "Ada U" in shown and "Kay" in shown
    assert "formerly" in shown and k.pk
    assert 'name="new-0-add"' not in html


def test_a_member_typed_by_their_current_and_former_name_is_entered_twice(admin_client, ada):
    html = post(admin_client, ["Ada U", "Ada O", "K"]).content.decode()
    assert "entered twice" in html
    assert Matchday.objects.count() == 6


# The import, the search and the pages


def test_the_import_finds_a_renamed_member_by_their_former_short_name(ada):
    summary = import_results(csv("7,2025-11-20,Hearts,3,Ada O,1,", "7,2025-11-20,Hearts,3,K,2,"))
    assert summary.players_created == []
    assert Result.objects.get(matchday__number=7, placing=1).player == ada


def test_the_import_refuses_a_former_name_of_two_members_naming_its_line(ada):
    rename("K", "Ada O")
    rename("Ada O", "Kay")
    message = " ".join(failure(csv("7,2025-11-20,Hearts,3,I,1,", "7,2025-11-20,Hearts,3,Ada O,2,")))
    assert "Line 3: Ada O is a former name of 2 players (Ada U, Kay)" in message
    assert not Matchday.objects.filter(number=7).exists()


def test_the_import_refuses_one_member_under_two_names_in_one_matchday(ada):
    message = " ".join(failure(csv("7,2025-11-20,Hearts,3,Ada O,1,", "7,2025-11-20,Hearts,3,Ada U,2,")))
    assert "Line 3: Ada U is entered twice (also in Line 2)." in message  # under the name she goes by, as /enter/


def test_the_search_finds_a_member_by_a_former_name(client, ada):
    rows = table_rows(section(client.get("/card-games/players/", {"q": "olsen"}).content.decode(), "players-heading"))
    assert [row[:2] for row in rows[1:]] == [["Ada U", "Ada Underwood"]]


def test_the_player_page_says_formerly(client, ada):
    html = client.get(reverse("league:player", args=[ada.pk])).content.decode()
    assert re.search(r'<p class="description formerly">formerly Ada (O|Olsen), Ada (O|Olsen)</p>', html)
    assert (
        "formerly"
        not in client.get(reverse("league:player", args=[Player.objects.get(short_name="K").pk])).content.decode()
    )


def test_the_odds_page_finds_a_member_by_a_former_name(client, ada):
    html = client.get(reverse("ratings:odds"), {"game": "hearts", "tables": "Ada O, K, I"}).content.decode()
    assert "not a player" not in html and "Ada U" in html


# The admin


def test_the_admin_shows_and_edits_former_names_and_a_rename_there_keeps_the_old_one(admin_client, ada):
    url = reverse("admin:league_player_change", args=[ada.pk])
    html = admin_client.get(url).content.decode()
    assert "Former names" in html and 'value="Ada Olsen"' in html
    formers = list(ada.former_names.all())
    data = {
        "short_name": "Ada V",
        "name": "Ada Underwood",
        "former_names-TOTAL_FORMS": str(len(formers) + 1),
        "former_names-INITIAL_FORMS": str(len(formers)),
        "former_names-MIN_NUM_FORMS": "0",
        "former_names-MAX_NUM_FORMS": "1000",
    }
    for i, name in enumerate(formers):
        data.update({f"former_names-{i}-id": str(name.pk), f"former_names-{i}-player": str(ada.pk)})
        data.update({f"former_names-{i}-name": name.name, f"former_names-{i}-until": f"{name.until:%Y-%m-%d}"})
        if name.name == "Ada Olsen":
            data[f"former_names-{i}-DELETE"] = "on"
    extra = f"former_names-{len(formers)}-"
    data.update({extra + "player": str(ada.pk), extra + "name": "Addie", extra + "until": "2025-01-01"})
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert sorted(former(ada)) == ["Ada O", "Ada U", "Addie"]
    assert admin_client.get(reverse("admin:league_player_changelist"), {"q": "addie"}).content.decode().count("Ada V")
