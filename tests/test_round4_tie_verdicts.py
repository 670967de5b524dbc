"""Faults round four, class 3: the same facts get the same verdict from every way in. In a game
scored by points, a tie typed by the secretary (`K 10 = I 12`) that the points do not give is
refused by the entry page, as the admin and the CSV import refuse it, in the same words; a tie
that the points do give is taken by all three."""

import pytest
from django.urls import reverse

from league.models import Matchday, Result
from tests.conftest import add_url, form_data
from tests.test_enter import preview_fields
from tests.test_score_sheets import scored_hearts  # noqa: F401 (a fixture)
from web.importing import ImportFailed, import_results

HEADER = "matchday,date,game,rounds,player,placing,rated_placing,left_early,score\n"
TIE_REFUSED = (
    "The placings given (I 2) do not follow from the points (the lowest score wins, equal points share a place)"
)


def entry_page(client, hearts, lines):
    data = {"date": "2025-11-20", "game": str(hearts.pk), "rounds": "3", "action": "preview"}
    data.update({f"line-{n}": text for n, text in enumerate(lines, start=1)})
    response = client.post(reverse("league:enter"), data)
    html = response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')
    if not preview_fields(response):
        return html
    saved = client.post(reverse("league:enter"), {**data, **preview_fields(response), "action": "save"})
    assert saved.status_code == 302
    return ""


def admin(client, hearts, placings, points):
    rows = [(name, placings.get(name, ""), None) for name in points]
    data = form_data(7, "2025-11-20", 3, rows, game=hearts)
    for i, name in enumerate(points):
        data[f"results-{i}-score"] = str(points[name])
    response = client.post(add_url(), data)
    return response.content.decode().replace("&#x27;", "'") if response.status_code == 200 else ""


def imported(placings, points):
    rows = "".join(f"7,2025-11-20,Hearts,3,{n},{placings.get(n, '')},,0,{p}\n" for n, p in points.items())
    try:
        import_results((HEADER + rows).encode())
    except ImportFailed as failed:
        return " ".join(failed.value.errors if hasattr(failed, "value") else failed.errors)
    return ""


def test_a_tie_the_points_do_not_give_is_refused_every_way_in(admin_client, scored_hearts):  # noqa: F811
    assert TIE_REFUSED in entry_page(admin_client, scored_hearts, ["GL 3", "K 10 = I 12"])
    assert TIE_REFUSED in admin(admin_client, scored_hearts, {"K": 2, "I": 2}, {"GL": 3, "K": 10, "I": 12})
    assert TIE_REFUSED in imported({"GL": 1, "K": 2, "I": 2}, {"GL": 3, "K": 10, "I": 12})
    assert not Matchday.objects.filter(date="2025-11-20").exists()


def test_a_tie_the_points_give_is_taken_every_way_in(admin_client, scored_hearts):  # noqa: F811
    ways = [
        lambda: entry_page(admin_client, scored_hearts, ["GL 3", "K 10 = I 10"]),
        lambda: admin(admin_client, scored_hearts, {"K": 2, "I": 2}, {"GL": 3, "K": 10, "I": 10}),
        lambda: imported({"GL": 1, "K": 2, "I": 2}, {"GL": 3, "K": 10, "I": 10}),
    ]
    for way in ways:
        assert way() == ""
        matchday = Matchday.objects.get(date="2025-11-20")
        placed = dict(Result.objects.filter(matchday=matchday).values_list("player__short_name", "placing"))
        assert placed == {"GL": 1, "K": 2, "I": 2}
        from ratings.services.matchdays import delete_matchdays

        delete_matchdays([matchday])


@pytest.mark.parametrize("lines", [["GL 3", "K 10 = I 12"], ["K 10 = I 12", "GL 3"], ["GL 3 = K 10", "I 12"]])
def test_the_entry_page_never_drops_a_typed_tie(admin_client, scored_hearts, lines):  # noqa: F811
    html = entry_page(admin_client, scored_hearts, lines)
    assert "do not follow from the points" in html
    assert not Matchday.objects.filter(date="2025-11-20").exists()
