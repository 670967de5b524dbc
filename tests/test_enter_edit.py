"""A saved matchday changed or deleted from the entry page (`/enter/?matchday=N`): its lines as typed,
a preview that lists exactly the ratings and ranks the save then changes, a Save that refuses to
overwrite a change made since the preview, and a delete behind the same preview."""

import re

import pytest
from django.urls import reverse

from league.models import Game, Matchday, Player, Write
from ratings.models import Standing
from tests.conftest import results_of, store
from tests.test_club_admin import secretary
from tests.test_enter import preview_fields

URL = reverse("league:enter")


def lines_of(html: str) -> list[str]:
    return [v for _, v in sorted((int(n), v) for n, v in re.findall(r'name="line-(\d+)"[^>]*value="([^"]*)"', html))]


def edit(client, number, lines, *, action="preview", rounds=None, extra=None):
    """Post the change form of matchday `number` as the page fills it, with `lines`; a Save is made
    from the preview's own form."""
    matchday = Matchday.objects.get(number=number)
    data = {
        "editing": str(number),
        "date": str(matchday.date),
        "game": str(matchday.game_id),
        "rounds": str(rounds or matchday.rounds),
        "winner_score": "",
    }
    data.update({f"line-{n}": text for n, text in enumerate(lines, start=1)})
    data.update(extra or {})
    if action == "save" and "token" not in data:
        data.update(preview_fields(client.post(URL, {**data, "action": "preview"})))
    data["action"] = action
    return client.post(URL, data)


def standings() -> dict:
    return {(s.table_id, s.player_id): s.rating for s in Standing.objects.all()}


def test_the_form_opens_with_the_matchdays_lines_date_game_and_rounds(admin_client, club):
    html = admin_client.get(URL + "?matchday=1").content.decode()
    assert "<h1>Change matchday 1</h1>" in html
    assert lines_of(html)[:4] == ["I", "K", "R", "GL"]
    assert 'value="2025-11-03"' in html and 'name="rounds"' in html and 'value="7"' in html
    assert 'name="editing" value="1"' in html and "Delete matchday 1…" in html


def test_the_preview_lists_exactly_what_the_save_then_changes_and_saves_nothing(admin_client, club):
    was = standings()
    html = edit(
        admin_client, 2, ["GL", "K", "I", "J", "R"][: Matchday.objects.get(number=2).results.count()]
    ).content.decode()
    assert "What saving changes" in html and "4 later matchdays will be rated again." in html
    assert standings() == was  # the preview was rolled back
    shown = re.findall(r'<th scope="row">([^<]+)</th>\s*<td>([^<]+)</td>', html)
    assert shown
    response = edit(
        admin_client, 2, ["GL", "K", "I", "J", "R"][: Matchday.objects.get(number=2).results.count()], action="save"
    )
    assert response.status_code == 302 and response.url.endswith("/matchdays/2/")
    now = standings()
    moved = {key for key in now.keys() | was.keys() if now.get(key) != was.get(key)}
    players = {p.pk: p.short_name for p in Player.objects.all()}
    assert {players[p] for _, p in moved} == {name for name, _ in shown}
    for name, ratings in shown:  # each shown rating after is the one saved, to the digit shown
        after = ratings.split("→")[1].strip()
        assert after == "—" or any(f"{now[key]:.1f}" == after for key in moved if players[key[1]] == name)
    write = Write.objects.order_by("-pk").first()
    assert (write.way, write.who, write.summary) == ("entry", "admin", "Matchday 2 (Hearts, 2025-11-06) changed")


def test_a_save_after_the_matchday_changed_since_the_preview_saves_nothing_and_says_so(admin_client, club):
    matchday = Matchday.objects.get(number=3)
    names = [r.player.short_name for r in matchday.results.select_related("player").order_by("placing", "pk")]
    preview = edit(admin_client, 3, list(reversed(names)))
    fields = preview_fields(preview)
    matchday.rounds += 1  # someone else's save meanwhile
    store(matchday, list(results_of(matchday).values()))
    writes = Write.objects.count()
    html = edit(admin_client, 3, list(reversed(names)), action="save", extra=fields).content.decode()
    assert "Nothing was saved: this is not what was previewed, or the matchday was changed since" in html
    assert Write.objects.count() == writes


def test_a_delete_is_previewed_then_done_and_kept_in_the_history(admin_client, club):
    html = edit(admin_client, 5, [], action="delete-preview").content.decode()
    assert (
        "Delete matchday 5?" in html
        and "What deleting changes" in html
        and "1 later matchday will be rated again." in html
    )
    assert Matchday.objects.filter(number=5).exists()
    token = re.search(r'name="token" value="([^"]+)"', html)[1]
    response = admin_client.post(URL, {"editing": "5", "action": "delete", "token": token, "reason": "Typed twice"})
    assert response.status_code == 302 and response.url.endswith("/history/?matchday=5")
    assert not Matchday.objects.filter(number=5).exists()
    write = Write.objects.order_by("-pk").first()
    assert (write.way, write.reason) == ("entry", "Typed twice") and write.summary.endswith("deleted")


def test_a_new_player_in_a_change_is_added_once_on_save(admin_client, club):
    extra = {"new-0-short": "Zed", "new-0-add": "on", "new-0-name": "Zed Zimmer"}
    count = Matchday.objects.get(number=6).results.count()
    lines = ["GL", "K", "I", "J", "R"][: count - 1] + ["Zed"]
    html = edit(admin_client, 6, lines, extra=extra).content.decode()
    assert "What saving changes" in html and not Player.objects.filter(short_name="Zed").exists()
    assert edit(admin_client, 6, lines, action="save", extra=extra).status_code == 302
    assert Player.objects.filter(short_name="Zed").count() == 1
    assert "Zed" in [r.player.short_name for r in Matchday.objects.get(number=6).results.all()]


@pytest.mark.parametrize("asked", ["999", "abc", "-1", "１"])
def test_a_matchday_that_is_not_there_or_not_a_number_gets_a_notice(admin_client, club, asked):
    response = admin_client.get(URL + f"?matchday={asked}")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'role="status"' in html and "<h1>Enter a matchday</h1>" in html


def test_only_the_clubs_secretaries_see_the_change_link_and_may_change(client, admin_client, club):
    page = reverse("league:matchday", args=[1])
    assert "Change or delete this matchday" in admin_client.get(page).content.decode()
    assert "Change or delete this matchday" not in client.get(page).content.decode()
    from league.models import Club

    other = Club.objects.create(slug="south", name="South")
    assert secretary(client, other).get(URL + "?matchday=1").status_code == 404
    assert Game.objects.exists()
