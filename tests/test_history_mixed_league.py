"""On the mixed league (official and unofficial games, solitaire, sides, score sheets), each kind of
write made through the site is in the history with its user and its way in, and a revert made on
the history page is too."""

import re

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league.models import Game, Matchday, Player, Write
from tests.conftest import NO_FORMER_NAMES, change_url, form_data
from tests.test_deal_admin import session_form
from tests.test_enter import post as enter
from tests.test_season_admin import season_form

CSV = b"matchday,date,game,rounds,player,placing,rated_placing\n"


def test_every_kind_of_write_through_the_site_is_in_the_history_with_its_user(admin_client, mixed_league):
    first = Write.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    # the entry page, the admin's matchday, its import, a season, a solitaire session, a rename
    assert enter(admin_client, ["GL", "K", "I"], action="save", day="2026-07-03").status_code == 302
    matchday = Matchday.objects.get(number=1)
    rows = [(r.player.short_name, r.placing, None) for r in matchday.results.select_related("player")]
    data = form_data(1, str(matchday.date), matchday.rounds + 1, rows, matchday=matchday)
    assert admin_client.post(change_url(matchday), data).status_code == 302
    number = Matchday.objects.order_by("-number").first().number + 1
    upload = SimpleUploadedFile(
        "night.csv", CSV + b"%d,2026-07-04,Hearts,3,J,1,\n%d,2026-07-04,Hearts,3,R,2,\n" % (number, number)
    )
    preview = admin_client.post(reverse("admin:league_matchday_import"), {"file": upload})
    assert (
        admin_client.post(
            reverse("admin:league_matchday_import"), {"confirm": preview.context["preview"]["token"]}
        ).status_code
        == 302
    )
    autumn = season_form(name="August", slug="august", first="2026-08-01", last="2026-08-31")
    assert admin_client.post(reverse("admin:league_season_add"), autumn).status_code == 302
    deals = Game.objects.filter(against_deals=True).first()
    level = deals.deal_levels.first()
    session = session_form(deals, "2026-07-05", [("GL", level.variant, level.level, 7, True, True)])
    assert admin_client.post(reverse("admin:league_dealsession_add"), session).status_code == 302
    player = Player.objects.get(short_name="J")
    renamed = {"short_name": "Jo", "name": player.name, **NO_FORMER_NAMES}
    assert admin_client.post(reverse("admin:league_player_change", args=[player.pk]), renamed).status_code == 302
    # a revert, from the history page
    edit = Write.objects.filter(pk__gt=first, way="admin", changes__kind="matchday").first()
    assert admin_client.post(reverse("league:revert", args=[edit.pk]), {"action": "revert"}).status_code == 302

    writes = list(Write.objects.filter(pk__gt=first).order_by("pk"))
    assert {w.who for w in writes} == {"admin"}
    assert [w.way for w in writes] == ["entry", "admin", "import", "admin", "admin", "admin", "revert"]
    kinds = [sorted(set(w.changes.values_list("kind", flat=True))) for w in writes]
    assert kinds == [["matchday"], ["matchday"], ["matchday"], ["season"], ["session"], ["player"], ["matchday"]]
    html = admin_client.get(reverse("league:history")).content.decode()
    assert len(re.findall(r'class="history-entry"', html)) == min(25, Write.objects.count()) and "This undid" in html
