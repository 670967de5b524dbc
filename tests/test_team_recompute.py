"""Team matchdays through the engine: stored sides and weights reach every method, and a recompute
from an edited team matchday equals a full rebuild in every method that rates sides."""

from datetime import date

import pytest
import trueskill

from league.models import Game, Matchday
from league.results import Play, TypedResult
from ratings.methods import METHODS, Method
from ratings.models import RatingTable
from ratings.services.recompute import rebuild_all
from tests.conftest import results_of, store
from tests.test_method_tables import rows, use

RATES_SIDES = [slug for slug, m in METHODS.items() if type(m).rate_sides is not Method.rate_sides]

# Spades and Codenames nights: two sides each (Sedma rates two sides only), of two to three players,
# a player alone now and then, and a guest who played half of one game.
NIGHTS = [
    {"A": ["GL", "K"], "B": ["I", "J"]},
    {"B": ["K", "J", "R"], "A": ["GL", "I"]},
    {"A": ["R"], "B": ["GL", "K*0.5", "J"]},
    {"A": ["I", "J"], "B": ["GL", "R"]},
    {"A": ["K", "R"], "B": ["GL", "I", "J"]},
    {"B": ["I", "K"], "A": ["J", "GL"]},
]


def save_night(number, sides, game):
    """The first side listed wins; a player alone has no label."""
    matchday = Matchday(number=number, date=date(2025, 12, number), game=game, rounds=1)
    results = []
    for placing, (label, names) in enumerate(sides.items(), start=1):
        for written in names:
            name, _, weight = written.partition("*")
            play = Play(placing, side=label if len(names) > 1 else "", weight=float(weight or 1))
            results.append(TypedResult(play, name))
    store(matchday, results)


@pytest.fixture
def spades(db):
    game = Game.objects.create(name="Spades", slug="spades")
    for number, sides in enumerate(NIGHTS, start=1):
        save_night(number, sides, game)
    return game


def test_the_stored_sides_reach_the_method(spades):
    table = use("spades", "trueskill")
    env = trueskill.TrueSkill(backend=None)
    first = {e.player.short_name: e for e in table.entries.filter(matchday__number=1).select_related("player")}
    new = env.create_rating
    (gl, _), (_, j) = env.rate([(new(), new()), (new(), new())])
    assert first["GL"].state["mu"] == pytest.approx(gl.mu) and first["J"].state["sigma"] == pytest.approx(j.sigma)
    third = {e.player.short_name: e for e in table.entries.filter(matchday__number=3).select_related("player")}
    assert third["R"].delta > 0 and third["K"].delta < 0


def test_a_half_time_guest_takes_half_the_change_in_the_club_formula(spades):
    table = RatingTable.objects.get(slug="spades")
    third = {e.player.short_name: e for e in table.entries.filter(matchday__number=3).select_related("player")}
    assert table.method == "club"
    before = {name: e.rating_before for name, e in third.items()}
    side = (before["GL"] + 0.5 * before["K"] + before["J"]) / 2.5
    expected = 1 / (1 + 10 ** ((before["R"] - side) / 400))
    assert third["J"].expected == pytest.approx(expected)
    assert third["K"].delta == round(before["K"] - 5 * expected) - before["K"]  # K 10, times 0.5


@pytest.mark.parametrize("method", RATES_SIDES)
def test_recomputing_from_an_edited_team_matchday_equals_a_full_rebuild(spades, method):
    table = use("spades", method)
    before = rows(table)
    fourth = Matchday.objects.get(number=4)
    results = results_of(fourth)
    for name in ("I", "J"):
        results[name] = results[name].changed(placing=2)
    for name in ("GL", "R"):
        results[name] = results[name].changed(placing=1, weight=0.75 if name == "R" else 1.0)
    store(fourth, list(results.values()))
    incremental = rows(table)
    assert incremental != before
    assert all(incremental[key] == before[key] for key in before if key[0] < 4)
    rebuild_all()
    assert rows(table) == incremental


def test_a_game_moved_into_a_table_whose_method_cannot_rate_its_team_matchdays_is_refused(spades, admin_client):
    """Making Spades unofficial moves its team matchdays into its category's table: when that table
    is rated by Elo-MMR (players alone only), the admin says so on the form and nothing changes."""
    from django.urls import reverse

    from league.models import Category
    from ratings.engine import sync_tables
    from ratings.services.rating_tables import save_rating_table

    category = Category.objects.create(name="Partnership games", slug="partnership-games")
    Game.objects.create(name="Bridge", slug="bridge", category=category, official=False)
    sync_tables(category.club_id)
    table = RatingTable.objects.get(category=category)
    table.method = "elo-mmr"
    save_rating_table(table)
    data = {"name": "Spades", "slug": "spades", "category": category.pk, "official": "", "scoring": "placings"}
    response = admin_client.post(reverse("admin:league_game_change", args=[spades.pk]), data)
    assert response.status_code == 200
    assert "The Partnership games rating uses Elo-MMR" in response.content.decode()
    assert "rates players alone, not sides or partial play" in response.content.decode()
    assert Game.objects.get(pk=spades.pk).official


def test_partners_labels_written_differently_are_stored_alike(db):
    """ "a" and "A" are one side to the rules, so they are stored as the side's first player wrote it."""
    from web.importing import import_results

    import_results(
        b"matchday,date,game,rounds,player,placing,rated_placing,side\n"
        b"1,2025-12-01,Spades,1,GL,1,,a\n1,2025-12-01,Spades,1,K,1,,A\n"
        b"1,2025-12-01,Spades,1,I,2,,North\n1,2025-12-01,Spades,1,J,2,,north \n"
    )
    stored = dict(Matchday.objects.get(number=1).results.values_list("player__short_name", "side"))
    assert stored == {"GL": "a", "K": "a", "I": "North", "J": "North"}
    matchday = Matchday.objects.get(number=1)
    results = results_of(matchday)
    results["K"] = results["K"].changed(side="A ")
    store(matchday, list(results.values()))
    assert Matchday.objects.get(number=1).results.get(player__short_name="K").side == "a"
