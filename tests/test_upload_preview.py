"""The admin's CSV upload previews as the entry page does: each matchday with every player's change,
*Did you mean ...?* for a new player's name close to a player's, and every problem of a file at once,
each with its line."""

import html as markup

from django.urls import reverse

from league.models import Matchday, Player
from tests.conftest import section, table_rows
from tests.test_admin_secretary import _upload, text

URL = reverse("admin:league_matchday_import")
HEADER = "matchday,date,game,rounds,player,placing,rated_placing,side,weight"


def upload(client, rows: list[str], **extra):
    return client.post(URL, {"file": _upload(("\n".join([HEADER, *rows]) + "\n").encode()), **extra})


def test_each_matchday_is_previewed_with_its_changes_and_new_players_are_questioned(admin_client, club):
    rows = [
        "7,2025-11-20,Hearts,3,GL,1,,,",
        "7,2025-11-20,Hearts,3,Kk,2,,,",
        "7,2025-11-20,Hearts,3,Anonymous player,3,,,",
        "8,2025-11-21,Hearts,2,GL,1,,A,",
        "8,2025-11-21,Hearts,2,I,1,,A,",
        "8,2025-11-21,Hearts,2,J,2,,,0.5",
    ]
    response = upload(admin_client, rows)
    html, page = response.content.decode(), text(response)
    assert "Kk is not a player yet. Did you mean K?" in page
    assert "Anonymous P (Anonymous player) is not a player yet." in page
    assert "Matchday 7: Thursday, November 20, 2025 · Hearts · 3 rounds" in page
    seven = table_rows(section(html, "import-matchday-7"))
    assert seven[0][:5] == ["Player", "Placing", "Change", "After", "Before"]
    assert [row[0] for row in seven[1:4]] == ["GL", "Kk new", "Anonymous P new"]
    assert seven[1][2].startswith("+") and seven[1][4] == "1461"  # GL's change from their rating before
    eight = table_rows(section(html, "import-matchday-8"))
    assert "Side" in eight[0] and "Weight" in eight[0]
    assert eight[1][5] == "A, with I"
    assert not Matchday.objects.filter(number__in=[7, 8]).exists()  # nothing kept
    assert not Player.objects.filter(short_name__in=["Kk", "Anonymous P"]).exists()


def test_every_problem_of_a_file_is_named_at_once_each_with_its_line(admin_client, club):
    rows = [
        "6,2025-11-15,Hearts,3,GL,1,,,",  # matchday 6 exists
        "6,2025-11-15,Hearts,3,K,2,,,",
        "7,2025-11-20,Hearts,3,GL,1,,,x",  # a weight that is no number
        "7,2025-11-20,Hearts,3,K,2,,,1.5",  # and one above 1, on the same matchday
        "7,2025-11-20,Hearts,3,K,3,,,",  # K twice: found though the matchday has unreadable weights
        "8,2025-11-20,Hearts,3,GL,1,,A,",
        "8,2025-11-20,Hearts,3,I,2,,A,",  # partners' placings differ
        "8,2025-11-20,Hearts,3,J,3,,,",
        "9,2025-11-20,Hearts,y,GL,1,,,",  # rounds no number
    ]
    page = markup.unescape(text(upload(admin_client, rows)))
    assert "Nothing was imported." in page
    for problem in [
        "Line 4: weight must be a number, not 'x'.",
        "Line 5: weight must be at most 1, not 1.5.",
        "Line 10: rounds must be a whole number, not 'y'.",
        "Matchday 6 already exists",
        "Line 6: K is entered twice (also in Line 5).",
        "Line 8: I has placing 2 but their partner GL (side A) has 1",
    ]:
        assert problem in page, problem
    assert not Matchday.objects.filter(number__gte=7).exists()
