"""The secretary's results page: type a game night's results, preview every change, save."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Game, Matchday, Player, Result
from ratings.models import RatingEntry
from ratings.services.catalogue import save_game
from tests.conftest import section, table_rows
from tests.test_method_tables import use

URL = reverse("league:enter")


def post(client, lines, *, action="preview", day="2025-11-20", rounds="3", extra=None):
    """Post the form; a Save is made as the secretary makes it, from the preview's own form (its
    one-time token and number), unless `extra` gives them."""
    data = {"date": day, "game": str(Game.objects.get(name="Hearts").pk), "rounds": rounds, "winner_score": ""}
    data.update({f"line-{n}": text for n, text in enumerate(lines, start=1)})
    data.update(extra or {})
    if action == "save" and "token" not in data:
        preview = client.post(URL, {**data, "action": "preview"})
        data.update(preview_fields(preview))
    data["action"] = action
    return client.post(URL, data)


def preview_fields(response) -> dict:
    """The one-time token and matchday number a preview's Save carries (none if it showed no preview)."""
    html = response.content.decode()
    return {name: m[1] for name in ("token", "number") if (m := re.search(f'name="{name}" value="([^"]*)"', html))}


def test_only_staff_may_enter_results(client, club):
    response = client.get(URL)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_the_form_starts_from_today_and_the_last_game_with_the_players_to_choose_from(admin_client, club):
    html = admin_client.get(URL).content.decode()
    assert f'value="{timezone.localdate():%Y-%m-%d}"' in html
    hearts = Game.objects.get(name="Hearts")
    assert f'<option value="{hearts.pk}" data-facts="rounds" selected>Hearts</option>' in html
    assert '<datalist id="players">' in html and '<option value="GL">' in html
    assert 'list="players"' in html and "autofocus" in html


def test_the_preview_shows_every_change_and_saving_stores_exactly_that(admin_client, club):
    lines = ["GL", "K = I", "J", "R left early"]
    html = post(admin_client, lines).content.decode()
    assert "Matchday 7: check, then save" in html
    assert "Overall rating" in html and "Hearts rating" in html
    assert Matchday.objects.count() == 6  # nothing saved by a preview
    preview = RatingEntry.objects.none()
    response = post(admin_client, lines, action="save")
    assert response.status_code == 302 and response["Location"] == "/card-games/enter/?saved=7"
    results = {r.player.short_name: r for r in Result.objects.filter(matchday__number=7).select_related("player")}
    assert {n: (r.placing, r.rated_placing, r.left_early) for n, r in results.items()} == {
        "GL": (1, None, False),
        "K": (2, None, False),
        "I": (2, None, False),
        "J": (4, None, False),
        "R": (5, None, True),  # last anyway: rated 5th, as they finished
    }
    for entry in RatingEntry.objects.filter(matchday__number=7, table__slug="overall").select_related("player"):
        change = f"{entry.rating_before:.0f}</td>"
        assert change in html, entry.player.short_name
    assert not preview


def test_a_player_who_left_early_while_tied_is_rated_after_everyone_who_stayed(admin_client, club):
    post(admin_client, ["GL", "K = I left early", "J"], action="save")
    stored = {
        r.player.short_name: (r.placing, r.rated_placing, r.display_placing)
        for r in Result.objects.filter(matchday__number=7).select_related("player")
    }
    # Placings 1, 2, 2, 4; I left early: J moves up to 3rd, I is rated 4th.
    assert stored == {"GL": (1, None, "1"), "K": (2, None, "2"), "I": (2, 4, "4(2)"), "J": (4, 3, "3(4)")}


def test_explicit_placings_and_the_clubs_notation_are_understood(admin_client, club):
    response = post(admin_client, ["GL 1", "K 2", "I 2", "R 3(4)", "J 4"], action="save")
    assert response.status_code == 200
    assert "The rated placings do not rank the players: R should be rated 4." in response.content.decode()
    response = post(admin_client, ["GL 1", "K 2", "I 2", "R 5(4)", "J 4"], action="save")
    assert response.status_code == 302
    r = Result.objects.get(matchday__number=7, player__short_name="R")
    assert (r.placing, r.rated_placing) == (4, 5)


def test_a_misspelt_name_gets_the_closest_player_and_new_ones_are_added_with_one_tick(admin_client, club):
    html = post(admin_client, ["GL", "Kk", "Zed"]).content.decode()
    assert "check, then save" in html  # previewed at once, the new players marked new
    assert "Kk is not a player yet. Did you mean K?" in html
    assert "Zed is not a player yet." in html
    assert html.count('type="checkbox" name="add-new"') == 1 and "Add these 2 as new players" in html
    response = post(admin_client, ["GL", "Kk", "Zed"], action="save")  # Save without the tick
    assert "Nothing was saved: tick the box to add Kk, Zed as new players" in response.content.decode()
    assert not Player.objects.filter(short_name__in=["Kk", "Zed"]).exists()
    extra = {"new-0-short": "Kk", "new-1-short": "Zed", "new-1-name": "Zed Zimmer"}
    html = post(admin_client, ["GL", "K", "Zed"], extra=extra).content.decode()
    assert "check, then save" in html and 'value="Zed Zimmer"' in html and "Add Zed as a new player" in html
    response = post(admin_client, ["GL", "K", "Zed"], action="save", extra={**extra, "add-new": "on"})
    assert response.status_code == 302
    assert Player.objects.get(short_name="Zed").name == "Zed Zimmer"


def test_names_match_full_names_and_any_case(admin_client, club):
    Player.objects.filter(short_name="GL").update(name="Gerda Lund")
    response = post(admin_client, ["gerda lund", "k"], action="save")
    assert response.status_code == 302
    assert set(Result.objects.filter(matchday__number=7).values_list("player__short_name", flat=True)) == {"GL", "K"}


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["GL 1", "K"], "Give every line a placing, or none"),
        (["GL", "GL"], "GL is entered twice"),
        (["GL"], "at least two players"),
        (["GL 1", "K 4(2)", "I 3 left early"], "rated placing 4 for K is outside 1..3"),
        (["GL", "K = I left early rated 2"], "I left early, which already rates them after everyone who stayed"),
    ],
)
def test_mistakes_are_named_and_nothing_is_saved(admin_client, club, lines, message):
    html = post(admin_client, lines, action="save").content.decode()
    assert message in html
    assert Matchday.objects.count() == 6


def test_a_date_after_today_is_refused_and_the_format_is_shown(admin_client, club):
    tomorrow = timezone.localdate() + timedelta(days=1)
    html = post(admin_client, ["GL", "K"], action="save", day=f"{tomorrow:%Y-%m-%d}").content.decode()
    assert "is after today" in html
    html = post(admin_client, ["GL", "K"], action="save", day="17.11.2025").content.decode()
    assert "Date &#x27;17.11.2025&#x27; is not a date like 2025-11-03." in html  # as the imports say
    assert Matchday.objects.count() == 6


def test_a_back_dated_matchday_says_how_many_later_ones_are_recomputed(admin_client, club):
    html = post(admin_client, ["GL", "K"], day="2025-11-07").content.decode()
    assert "played before 4 matchdays already entered: saving recomputes them as well" in html


def test_more_lines_keeps_what_was_typed(admin_client, club):
    html = post(admin_client, ["GL", "K"], action="more").content.decode()
    assert 'name="line-20"' in html and 'value="GL"' in html
    assert "not a player" not in html


def test_the_date_is_a_box_written_as_its_hint_says(admin_client, club):
    html = admin_client.get(URL).content.decode()
    field = re.search(r'<input [^>]*name="date"[^>]*>', html).group(0)
    # Not a date picker, which a browser shows in its locale's order (11/25/2026) beside "YYYY-MM-DD".
    assert 'type="text"' in field and 'placeholder="YYYY-MM-DD"' in field
    assert f'value="{timezone.localdate():%Y-%m-%d}"' in field
    assert '<span class="hint">YYYY-MM-DD;' in html


def skat_and_spades():
    """Skat, unofficial and in no category, counts only in its own table, rated by table-size (which
    reads the winner's score); Spades, official, counts in the overall table too (the club formula,
    which reads the rounds)."""
    save_game(Game(name="Skat", slug="skat", official=False))
    use("skat", "table-size")
    save_game(Game(name="Spades", slug="spades"))
    return Game.objects.get(slug="skat"), Game.objects.get(slug="spades")


def test_each_game_names_the_facts_its_tables_read_and_the_fields_say_which_they_are(admin_client, club):
    skat, spades = skat_and_spades()
    html = admin_client.get(URL).content.decode()
    hearts = Game.objects.get(name="Hearts")
    assert f'<option value="{hearts.pk}" data-facts="rounds" selected>Hearts</option>' in html
    assert f'<option value="{spades.pk}" data-facts="rounds">Spades</option>' in html
    assert f'<option value="{skat.pk}" data-facts="winner_score">Skat</option>' in html
    assert '<p class="fact fact-rounds">' in html and '<p class="fact fact-winner_score">' in html


def test_a_fact_the_games_tables_do_not_read_is_not_needed_nor_kept(admin_client, club):
    skat, spades = skat_and_spades()
    html = post(admin_client, ["GL", "K"], rounds="").content.decode()
    assert "Hearts · 5 rounds" in html  # blank: as Hearts' last matchday (the club formula's K reads them)
    extra = {"game": str(skat.pk), "winner_score": "20"}
    assert post(admin_client, ["GL", "K", "I"], rounds="", action="save", extra=extra).status_code == 302
    assert Matchday.objects.values_list("rounds", "winner_score").get(number=7) == (1, 20)
    extra = {"game": str(spades.pk), "winner_score": "20"}
    assert post(admin_client, ["GL", "K"], action="save", extra=extra).status_code == 302
    assert Matchday.objects.values_list("rounds", "winner_score").get(number=8) == (3, None)
    # The last game played is Spades, so the form starts with its rounds; after Skat's, on line 1.
    assert re.search(r'<input [^>]*name="rounds"[^>]*autofocus', admin_client.get(URL).content.decode())
    another = {"game": str(skat.pk), "another": "on"}  # a second game of Skat that night, by the same three
    post(admin_client, ["GL", "K", "I"], rounds="", action="save", extra=another)
    html = admin_client.get(URL).content.decode()
    assert re.search(r'<input [^>]*name="line-1"[^>]*autofocus', html)
    assert not re.search(r'<input [^>]*name="rounds"[^>]*autofocus', html)


def test_the_saved_matchday_page_shows_who_left_early(admin_client, client, club):
    post(admin_client, ["GL", "K = I", "J", "R left early"], action="save")
    rows = table_rows(section(client.get("/card-games/matchdays/7/").content.decode(), "results-heading"))
    assert rows[0][-2:] == ["Left early", "Note"]
    assert {row[1]: row[-2] for row in rows[1:]} == {"GL": "", "K": "", "I": "", "J": "", "R": "yes"}
    header = table_rows(section(client.get("/card-games/matchdays/6/").content.decode(), "results-heading"))[0]
    assert "Left early" not in header  # nobody left early there
    download = client.get("/card-games/matchdays/7/", {"export": "csv", "table": "results"}).content.decode()
    assert download.splitlines()[0].endswith("Left early,Note") and ",1," in download


def arrows(client, number: int) -> tuple[str | None, str | None]:
    html = client.get(f"/card-games/matchdays/{number}/").content.decode()
    back, on = re.search(r'rel="prev">← Matchday (\d+)', html), re.search(r'rel="next">Matchday (\d+) →', html)
    return (back and back.group(1)), (on and on.group(1))


def test_a_back_dated_matchdays_arrows_follow_the_order_of_play(admin_client, client, club):
    post(admin_client, ["GL", "K"], day="2025-11-07", action="save")  # between matchdays 2 (11-06) and 3 (11-08)
    assert arrows(client, 7) == ("2", "3")
    assert arrows(client, 2) == ("1", "7") and arrows(client, 3) == ("7", "4")
    assert arrows(client, 6) == ("5", None) and arrows(client, 1) == (None, "2")
    post(admin_client, ["I", "J"], day="2025-11-07", action="save")  # the same day: by number
    assert arrows(client, 7) == ("2", "8") and arrows(client, 8) == ("7", "3")
