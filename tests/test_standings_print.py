"""The standings to print: every player of every table on one page (`?print=1`), linked from the
paged standings; the print stylesheet leaves the link, the navigation and the pagers out."""

from django.urls import reverse

from tests.conftest import section, table_rows

URL = reverse("league:standings")


def test_the_paged_standings_link_to_every_player_on_one_page(client, club, settings):
    settings.LEAGUE_STANDINGS_PAGE_SIZE = 2
    html = client.get(URL).content.decode()
    assert len(table_rows(section(html, "overall-heading"))) == 1 + 2
    assert '<a href="?print=1">Every player on one page</a>' in html
    whole = client.get(URL, {"print": "1"}).content.decode()
    assert [row[1] for row in table_rows(section(whole, "overall-heading"))[1:]] == ["J", "I", "K", "R", "GL"]
    assert 'class="pager"' not in whole and "Every player on one page" not in whole


def test_printing_the_whole_keeps_the_choices_and_lets_the_page_numbers_go(client, club, settings):
    settings.LEAGUE_STANDINGS_PAGE_SIZE = 2
    html = client.get(URL, {"all": "1", "overall-page": "2"}).content.decode()
    assert '<a href="?all=1&amp;print=1">Every player on one page</a>' in html
    whole = client.get(URL, {"all": "1", "print": "1", "overall-page": "3"})
    assert whole.status_code == 200
    assert len(table_rows(section(whole.content.decode(), "overall-heading"))) == 1 + 5


def test_a_table_on_one_page_needs_no_link(client, club):
    assert "Every player on one page" not in client.get(URL).content.decode()


def test_a_print_value_the_page_does_not_know_is_not_a_500(client, club):
    assert client.get(URL, {"print": "yes"}).status_code == 200
