"""A game night typed twice: a new matchday with a saved one's date, game and players is named on
the entry page's preview, and saved only when ticked as another game; the import says the same, per
matchday."""

import io

from django.core.management import call_command
from django.urls import reverse

from league.models import Matchday, Player
from ratings.services.matchdays import look_alikes
from tests.test_enter import post, preview_fields

FIRST = ["I", "K", "R", "GL"]  # matchday 1 of the club's November, 2025-11-03, Hearts
CSV = b"matchday,date,game,rounds,player,placing,rated_placing\n"


def test_the_entry_page_names_the_matchday_it_looks_like_and_saves_it_only_when_ticked(admin_client, club):
    html = post(admin_client, FIRST, day="2025-11-03").content.decode()
    assert "This looks like" in html and "matchday 1</a>, already saved" in html and 'name="another"' in html
    fields = preview_fields(post(admin_client, FIRST, day="2025-11-03"))
    html = post(admin_client, FIRST, action="save", day="2025-11-03", extra=fields).content.decode()
    assert "Nothing was saved: this looks like matchday 1." in html
    assert Matchday.objects.count() == 6
    fields = preview_fields(post(admin_client, FIRST, day="2025-11-03"))
    response = post(admin_client, FIRST, action="save", day="2025-11-03", extra={**fields, "another": "on"})
    assert response.status_code == 302 and Matchday.objects.count() == 7


def test_another_day_or_other_players_is_no_look_alike(admin_client, club):
    assert "This looks like" not in post(admin_client, FIRST, day="2025-11-04").content.decode()
    assert "This looks like" not in post(admin_client, FIRST[:3], day="2025-11-03").content.decode()
    assert "This looks like" not in post(admin_client, [*FIRST, "J"], day="2025-11-03").content.decode()


def test_the_import_names_each_new_matchday_that_looks_like_a_saved_one(tmp_path, admin_client, club):
    rows = b"".join(b"7,2025-11-03,Hearts,7,%s,%d,\n" % (name.encode(), i) for i, name in enumerate(FIRST, start=1))
    path = tmp_path / "again.csv"
    path.write_bytes(CSV + rows + b"8,2025-11-21,Hearts,3,GL,1,\n8,2025-11-21,Hearts,3,K,2,\n")
    out = io.StringIO()
    call_command("import_results", str(path), stdout=out)
    assert "Check: Matchday 7 looks like matchday 1 (the same date, game and players)." in out.getvalue()
    assert "Matchday 8" not in out.getvalue()
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("again.csv", CSV + rows.replace(b"7,", b"9,"))
    html = admin_client.post(reverse("admin:league_matchday_import"), {"file": upload}).content.decode()
    assert "Matchday 9 looks like matchday 1 (the same date, game and players)" in html


def test_look_alikes_read_every_wanted_matchday_at_once(club):
    first = Matchday.objects.get(number=1)
    who = frozenset(first.results.values_list("player", flat=True))
    found = look_alikes([(first.date, first.game_id, who), (first.date, first.game_id, frozenset())])
    assert found == {0: first}
    assert look_alikes([(first.date, first.game_id, who)], exclude=[first.pk]) == {}
    assert Player.objects.count() == 5
