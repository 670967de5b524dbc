"""The admin: a club picks each table's method and parameters; results take the methods' fields."""

import pytest
from django.urls import reverse

from league.models import Game, Matchday, Result
from ratings.models import RatingEntry, RatingTable
from ratings.services.catalogue import save_game
from ratings.services.rating_tables import save_rating_table
from tests.conftest import add_url, form_data


def table_form(table, **changes):
    data = {
        "name": table.name,
        "slug": table.slug,
        "description": table.description,
        "method": table.method,
        "start_rating": str(table.start_rating),
        "k_per_round": str(table.k_per_round),
    }
    if table.whole_numbers:
        data["whole_numbers"] = "on"
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def change(admin_client, table, **changes):
    return admin_client.post(reverse("admin:ratings_ratingtable_change", args=[table.pk]), table_form(table, **changes))


def test_the_table_form_shows_every_methods_parameters_with_the_current_one_open(admin_client, club):
    table = RatingTable.objects.get(slug="hearts")
    html = admin_client.get(reverse("admin:ratings_ratingtable_change", args=[table.pk])).content.decode()
    assert 'name="pairwise_placing__k"' in html and 'name="openskill__sigma"' in html
    assert 'value="pairwise-winner"' in html and 'value="openskill"' in html


def test_choosing_a_method_with_its_k_recomputes_the_table(admin_client, club):
    table = RatingTable.objects.get(slug="hearts")
    response = change(admin_client, table, method="pairwise-placing", pairwise_placing__k="16", whole_numbers=None)
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.method, table.parameters) == ("pairwise-placing", {"k": 16.0})
    entry = table.entries.get(matchday__number=1, player__short_name="I")
    assert (entry.k, entry.rating_after) == (16, 1524)  # 1500 + 16 * (3 - 1.5)
    messages = admin_client.get(reverse("admin:ratings_ratingtable_changelist")).content.decode()
    assert "Pairwise by placing" in messages


def test_a_new_method_brings_its_own_start_rating_unless_the_club_sets_one(admin_client, club):
    table = RatingTable.objects.get(slug="hearts")
    assert change(admin_client, table, method="table-size").status_code == 302
    table.refresh_from_db()
    assert (table.start_rating, table.whole_numbers) == (1000, False)
    assert table.entries.get(matchday__number=1, player__short_name="I").rating_before == 1000
    assert change(admin_client, table, method="rating-band", start_rating="1400").status_code == 302
    table.refresh_from_db()
    assert table.start_rating == 1400


def test_a_bad_parameter_is_a_form_error_on_its_field_and_nothing_changes(admin_client, club):
    table = RatingTable.objects.get(slug="hearts")
    before = list(RatingEntry.objects.values_list("pk", "rating_after"))
    response = change(admin_client, table, method="pairwise-placing", pairwise_placing__k="fast")
    assert response.status_code == 200
    assert "must be a number, not &#x27;fast&#x27;" in response.content.decode()
    table.refresh_from_db()
    assert table.method == "club"
    assert list(RatingEntry.objects.values_list("pk", "rating_after")) == before


def test_a_method_that_cannot_rate_the_tables_matchdays_is_refused_naming_them(admin_client, club):
    table = RatingTable.objects.get(slug="hearts")
    response = change(admin_client, table, method="sedma")
    assert response.status_code == 200
    assert "cannot rate this table: Matchday 1 (2025-11-03): Sedma: rating bands with bonuses rates two-player" in (
        response.content.decode().replace("&#x27;", "'")
    )
    table.refresh_from_db()
    assert table.method == "club"


def test_the_sedma_counts_appear_only_for_games_rated_by_sedma(admin_client, club, make_matchday):
    hearts_day = Matchday.objects.get(number=1)
    url = reverse("admin:league_matchday_change", args=[hearts_day.pk])
    assert 'name="results-0-bad_moves"' not in admin_client.get(url).content.decode()
    sedma = Game.objects.create(name="Sedma", slug="sedma", official=False)
    md = make_matchday(7, "2025-11-20", {"I": 1, "R": 2}, game=sedma)
    RatingTable.objects.filter(slug="sedma").update(method="sedma")
    html = admin_client.get(reverse("admin:league_matchday_change", args=[md.pk])).content.decode()
    assert 'name="results-0-bad_moves"' in html and 'name="results-0-won_by_4_and_last"' in html
    assert 'name="results-0-bad_moves"' not in admin_client.get(url).content.decode()
    assert 'name="winner_score"' in html and 'name="results-0-left_early"' in html


def test_a_matchday_its_tables_methods_cannot_rate_is_refused(admin_client, club):
    sedma = Game(name="Sedma", slug="sedma", official=False)
    save_game(sedma)
    table = RatingTable.objects.get(slug="sedma")
    table.method = "sedma"
    save_rating_table(table)
    rows = [("I", 1, None), ("R", 2, None), ("GL", 3, None)]
    response = admin_client.post(add_url(), form_data(7, "2025-11-20", 1, rows, game=sedma))
    assert response.status_code == 200
    assert "The Sedma rating uses Sedma: rating bands with bonuses: " in response.content.decode()
    assert not Matchday.objects.filter(number=7).exists()
    data = form_data(7, "2025-11-20", 1, rows[:2], game=sedma) | {"results-0-won_by_24": "1"}
    response = admin_client.post(add_url(), data)
    assert response.status_code == 302
    counts = Result.objects.filter(matchday__number=7).values_list("player__short_name", "won_by_24", "bad_moves")
    assert sorted(counts) == [("I", 1, 0), ("R", 0, 0)]
    assert RatingEntry.objects.filter(table__slug="sedma").count() == 2


def test_the_new_methods_and_k_scale_are_chosen_with_their_parameters(admin_client, club):
    table = RatingTable.objects.get(slug="hearts")
    html = admin_client.get(reverse("admin:ratings_ratingtable_change", args=[table.pk])).content.decode()
    assert 'name="trueskill__draw_probability"' in html and 'name="glicko2__volatility"' in html
    assert "Range: 0.001 to 0.99." in html
    assert '<option value="multielo">multielo</option>' in html
    response = change(admin_client, table, method="pairwise-placing", pairwise_placing__k_scale="multielo")
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.parameters == {"k_scale": "multielo"}
    assert table.entries.get(matchday__number=1, player__short_name="I").k == 16  # 2K / n, four players
    response = change(admin_client, table, method="glicko2", glicko2__tau="0.3")
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.method, table.start_rating, table.parameters) == ("glicko2", 1500, {"tau": 0.3})
    assert set(table.entries.first().state) == {"rd", "vol"}


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"method": "pairwise-placing", "pairwise_placing__k": "1e308"},
            "pairwise_placing__k",
            "must be above 0, at most 10,000, not 1e+308",
        ),
        (
            {"method": "trueskill", "trueskill__sigma": "1e-300"},
            "trueskill__sigma",
            "must be 0.01 to 10,000, not 1e-300",
        ),
        (
            {"method": "trueskill", "trueskill__draw_probability": "NaN"},
            "trueskill__draw_probability",
            "must be a number, not &#x27;NaN&#x27;",
        ),
        ({"method": "glicko2", "glicko2__tau": "1e-320"}, "glicko2__tau", "must be 0.01 to 10, not 9.99989e-321"),
        ({"method": "elo-mmr", "elo_mmr__sigma_limit": "0"}, "elo_mmr__sigma_limit", "must be 1 to 500, not 0"),
        ({"method": "openskill", "openskill__mu": "1_000"}, "openskill__mu", "must be a number, not &#x27;1_000&#x27;"),
        ({"start_rating": "1e308"}, "start_rating", "Start rating: must be -100,000 to 100,000, not 1e+308."),
        ({"k_per_round": "1e300"}, "k_per_round", "K per round: must be above 0, at most 1,000, not 1e+300."),
        ({"k_per_round": "0"}, "k_per_round", "K per round: must be above 0, at most 1,000, not 0."),
    ],
)
def test_an_extreme_parameter_is_a_form_error_naming_it_and_nothing_changes(
    admin_client, club, changes, field, message
):
    table = RatingTable.objects.get(slug="hearts")
    before = list(RatingEntry.objects.values_list("pk", "rating_after"))
    response = change(admin_client, table, **changes)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert field in response.context["adminform"].form.errors
    table.refresh_from_db()
    assert (table.method, table.k_per_round, table.start_rating) == ("club", 10, 1500)
    assert list(RatingEntry.objects.values_list("pk", "rating_after")) == before


def test_a_method_that_fails_on_the_tables_numbers_saves_nothing_and_says_so(admin_client, club, monkeypatch):
    from ratings.methods import METHODS, MethodError

    def refuse(*args, **kwargs):
        raise MethodError("the players' skills lie too far apart", "ratings")

    monkeypatch.setattr(METHODS["openskill"], "compute", refuse)
    table = RatingTable.objects.get(slug="hearts")
    before = list(RatingEntry.objects.values_list("pk", "rating_after"))
    response = change(admin_client, table, method="openskill")
    assert response.status_code == 302
    page = admin_client.get(response.url).content.decode().replace("&#x27;", "'")
    assert "Nothing was saved: Hearts: Matchday 1 (2025-11-03): the players' skills lie too far apart" in page
    table.refresh_from_db()
    assert table.method == "club"
    assert list(RatingEntry.objects.values_list("pk", "rating_after")) == before
