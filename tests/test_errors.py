"""Bad input on URLs gets a page that says what happened, changes nothing, and names with HTML in
them are shown as text everywhere."""

import pytest
from django.test import Client

from league.models import Matchday, Player, Result
from ratings.models import RatingEntry
from tests.conftest import add_url, form_data

HTML_SHORT_NAME = "<script>"  # short names hold 12 characters
HTML_NAME = '<script>alert("pwned")</script><img src=x onerror=alert(1)>'


def counts():
    return [m.objects.count() for m in (Player, Matchday, Result, RatingEntry)]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/card-games/players/999/", "There is no player number 999."),
        ("/card-games/games/poker/", "There is no game “poker”."),
        ("/card-games/matchdays/999/", "There is no matchday 999."),
        ("/card-games/pages/nothing/", "There is no page “nothing”."),
        ("/nowhere/", "There is no page at <code>/nowhere/</code>."),
    ],
)
def test_an_unknown_address_gets_a_404_page_saying_what_is_missing(client, club, path, message):
    before = counts()
    response = client.get(path)
    assert response.status_code == 404
    text = response.content.decode()
    assert "<h1>Page not found</h1>" in text and message in text
    assert 'class="site-header"' in text  # the site's own layout, with its navigation
    assert counts() == before


def test_a_bad_download_request_gets_a_400_page_naming_the_choices(client, club):
    before = counts()
    for query, message in [
        ("export=xlsx&table=overall", "export must be one of csv, json."),
        ("export=csv&table=nope", "table must be one of overall, "),
    ]:
        response = client.get("/card-games/?" + query)
        assert response.status_code == 400
        text = response.content.decode()
        assert "<h1>Bad request</h1>" in text and message in text and "Nothing was changed." in text
    assert counts() == before


def test_a_request_for_an_unknown_host_name_gets_the_400_page(client, db):
    response = client.get("/card-games/", HTTP_HOST="elsewhere.example")
    assert response.status_code == 400 and b"<h1>Bad request</h1>" in response.content


def test_a_failure_inside_the_site_gets_a_plain_500_page_without_details(club, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("secret detail of the failure")

    monkeypatch.setattr("web.pages.grid_table.grids.rating_grid", broken)
    response = Client(raise_request_exception=False).get("/card-games/")
    assert response.status_code == 500
    text = response.content.decode()
    assert "<h1>Something went wrong</h1>" in text and "nothing was changed" in text
    assert "secret detail" not in text and "Traceback" not in text


@pytest.fixture
def html_player(club, make_matchday):
    Player.objects.create(short_name=HTML_SHORT_NAME, name=HTML_NAME)
    make_matchday(7, "2025-11-20", {HTML_SHORT_NAME: 1, "GL": 2, "I": 3}, rounds=2)
    return Player.objects.get(short_name=HTML_SHORT_NAME)


def assert_shown_as_text(text):
    assert "<script" not in text and "<img" not in text  # the site's pages have no script of their own
    assert "&lt;script&gt;" in text


def test_a_player_name_with_html_in_it_is_shown_as_text_on_every_page(client, html_player):
    for path in (
        "/card-games/",
        "/card-games/standings/",
        "/card-games/games/hearts/",
        f"/card-games/players/{html_player.pk}/",
        "/card-games/matchdays/7/",
    ):
        text = client.get(path).content.decode()
        assert_shown_as_text(text)
        # The tooltip shows the full name, escaped.
        assert "&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&lt;img src=x" in text, path


def test_a_player_name_with_html_in_it_is_text_in_the_admins_message_after_saving(admin_client, club):
    Player.objects.create(short_name=HTML_SHORT_NAME, name=HTML_NAME)
    rows = [(HTML_SHORT_NAME, 1, None), ("GL", 2, None), ("I", 3, None)]
    response = admin_client.post(add_url(), form_data(7, "2025-11-20", 3, rows), follow=True)
    text = response.content.decode()
    message = text[text.index('<ul class="messagelist">') : text.index("</ul>", text.index("messagelist"))]
    assert "Ratings updated" in message and "&lt;script&gt; 1500 →" in message
    assert "<script" not in message
    changelist = admin_client.get("/admin/league/matchday/").content.decode()
    assert "<script>" not in changelist and "&lt;script&gt; 1" in changelist
