"""The Methods page, and every rating table naming its method with a link to it."""

from django.urls import reverse

from ratings.methods import METHODS
from ratings.models import RatingTable
from ratings.services.rating_tables import save_rating_table


def test_the_methods_page_explains_every_method_with_a_worked_example(client, club, django_assert_num_queries):
    # The revision (for the page cache; a file database answers it without a query), the tables,
    # the navigation's games and pages.
    with django_assert_num_queries(4):
        html = client.get(reverse("ratings:methods")).content.decode()
    for slug in METHODS:
        assert f'id="{slug}"' in html
    assert html.count("Worked example") == len(METHODS)
    assert "Used here by: Overall, Hearts." in html
    # The club's matchday 1 (1535) and Sedma's 1200 beats 1000 (1208 and 991), computed live.
    assert "<b>1535</b>" in html and "<b>1208</b>" in html and "<b>991</b>" in html


def test_every_rating_table_names_its_method_and_links_to_it(client, club):
    table = RatingTable.objects.get(slug="hearts")
    table.method, table.parameters = "pairwise-placing", {"k": 24}
    save_rating_table(table)
    html = client.get(reverse("league:game", args=["hearts"])).content.decode()
    assert (
        'href="/card-games/methods/#pairwise-placing">Pairwise by placing: Start rating 1500, K 24, whole numbers</a>'
        in html
    )
    home = client.get(reverse("league:home")).content.decode()
    assert 'href="/card-games/methods/#club">Club formula: Start rating 1500, K per round 10, whole numbers</a>' in home
    standings = client.get(reverse("league:standings")).content.decode()
    assert standings.count('href="/card-games/methods/#') == 2


def test_the_navigation_links_the_calculator_methods_and_comparison(client, db):
    html = client.get(reverse("ratings:methods")).content.decode()
    for url in ("/card-games/calculator/", "/card-games/methods/", "/card-games/compare/"):
        assert f'href="{url}"' in html
