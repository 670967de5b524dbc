"""In the admin, a matchday's change is previewed with what saving changes in every table (the save
run and rolled back) before Save, and its delete page shows what deleting changes."""

import re

from django.urls import reverse

from league.models import Matchday, Player, Write
from ratings.models import Standing
from tests.conftest import change_url, form_data


def standings() -> dict:
    return {(s.table_id, s.player_id): s.rating for s in Standing.objects.all()}


def test_a_change_is_previewed_with_what_it_moves_then_saved(admin_client, club):
    matchday = Matchday.objects.get(number=2)
    rows = [(r.player.short_name, r.placing, None) for r in matchday.results.select_related("player")]
    turned = [(name, len(rows) + 1 - placing, None) for name, placing, _ in rows]
    data = form_data(2, str(matchday.date), matchday.rounds, turned, matchday=matchday)
    was, writes = standings(), Write.objects.count()
    html = admin_client.post(change_url(matchday), {**data, "_preview": "1"}).content.decode()
    assert "What saving changes" in html and "4 later matchdays will be rated again." in html
    assert "Preview: nothing was saved." in html
    assert standings() == was and Write.objects.count() == writes
    shown = {name.strip() for name in re.findall(r'<th scope="row">([^<]+)</th>', html)}
    assert admin_client.post(change_url(matchday), data).status_code == 302
    now = standings()
    names = {p.pk: p.short_name for p in Player.objects.all()}
    assert {names[p] for (t, p) in now if now[(t, p)] != was.get((t, p))} == shown


def test_the_delete_page_shows_what_deleting_changes(admin_client, club):
    matchday = Matchday.objects.get(number=5)
    html = admin_client.get(reverse("admin:league_matchday_delete", args=[matchday.pk])).content.decode()
    assert "What deleting changes" in html and "1 later matchday will be rated again." in html
    assert Matchday.objects.filter(number=5).exists()


def test_the_reason_typed_at_save_is_kept_in_the_history(admin_client, club):
    matchday = Matchday.objects.get(number=3)
    rows = [(r.player.short_name, r.placing, None) for r in matchday.results.select_related("player")]
    data = form_data(3, str(matchday.date), matchday.rounds + 1, rows, matchday=matchday)
    assert (
        admin_client.post(change_url(matchday), {**data, "reason": "The sheet said 3 rounds more"}).status_code == 302
    )
    write = Write.objects.order_by("-pk").first()
    assert (write.way, write.reason) == ("admin", "The sheet said 3 rounds more")
