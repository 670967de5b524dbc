"""Sides and partial play through every way in: the library numbers come through /calculator.json,
and one 2-against-2 Spades matchday entered on /enter/, in the admin and by import is stored and
rated alike."""

from operator import attrgetter

import pytest
import trueskill
from django.urls import reverse

from league.models import Game, Matchday, Result
from ratings.models import RatingEntry, RatingTable
from ratings.services.matchdays import delete_matchdays
from ratings.services.rating_tables import save_rating_table
from tests.conftest import add_url, form_data
from tests.test_enter import preview_fields
from web.entry import parse_results, side_label
from web.importing import ImportFailed, import_results

JSON = reverse("ratings:calculator_json")


def players(client, **query) -> list[dict]:
    response = client.get(JSON, query)
    assert response.status_code == 200, response.content
    return response.json()["players"]


def mu_sigma(rows: list[dict]) -> list[tuple[float, float]]:
    """TrueSkill's mu and sigma after the game, as the JSON gives them beside the rating (mu - 3 sigma)."""
    return [(round(row["mu"], 3), round(row["sigma"], 3)) for row in rows]


# The entry page's lines: partners joined by `+`, tied sides by `=`, a weight after a name


SHOWN = ("placing", "rated_placing", "left_early", "side", "weight")
PLACED = ("placing", "rated_placing")


def typed(lines: list[str]) -> list[tuple]:
    results, problems = parse_results(lines)
    assert problems == []
    return [(r.player, *attrgetter(*SHOWN)(r.play), r.line) for r in results]


def test_partners_share_their_line_and_each_side_of_two_or_more_gets_a_label_in_line_order():
    assert typed(["GL + K = I + J", "R", "N+M"]) == [
        ("GL", 1, None, False, "A", 1.0, "Line 1"),
        ("K", 1, None, False, "A", 1.0, "Line 1"),
        ("I", 1, None, False, "B", 1.0, "Line 1"),
        ("J", 1, None, False, "B", 1.0, "Line 1"),
        ("R", 3, None, False, "", 1.0, "Line 2"),  # the placings rank the sides: two tied 1st, R 3rd
        ("N", 4, None, False, "C", 1.0, "Line 3"),
        ("M", 4, None, False, "C", 1.0, "Line 3"),
    ]


def test_a_weight_follows_a_name_and_a_sides_penalty_is_written_once():
    assert typed(["GL*1 1", "I + J*0.5 left early 2", "R * .25 3"]) == [
        ("GL", 1, None, False, "", 1.0, "Line 1"),
        ("I", 2, None, True, "A", 1.0, "Line 2"),
        ("J", 2, None, True, "A", 0.5, "Line 2"),
        ("R", 3, None, False, "", 0.25, "Line 3"),
    ]


def test_explicit_placings_rated_placings_and_sedma_counts_still_read_with_partners():
    results, problems = parse_results(["Jan Novak won16=2 + K bad = 1 2", "I + J rated 2 1"])
    assert problems == []
    assert [(r.player, *attrgetter(*PLACED, "side", "won_by_16", "bad_moves")(r.play)) for r in results] == [
        ("Jan Novak", 2, None, "A", 2, 0),
        ("K", 2, None, "A", 0, 1),
        ("I", 1, 2, "B", 0, 0),
        ("J", 1, 2, "B", 0, 0),
    ]


def test_lines_without_partners_read_as_they_always_did():
    assert typed(["GL", "K = I", "J", "R left early"]) == [
        ("GL", 1, None, False, "", 1.0, "Line 1"),
        ("K", 2, None, False, "", 1.0, "Line 2"),
        ("I", 2, None, False, "", 1.0, "Line 2"),
        ("J", 4, None, False, "", 1.0, "Line 3"),
        ("R", 5, None, True, "", 1.0, "Line 4"),
    ]


@pytest.mark.parametrize(
    ("lines", "problem"),
    [
        (["GL +2", "K 2"], "Line 1: placing must be a whole number, not '+2'."),
        (["GL + ", "K"], "Line 1: a name is missing."),
        (["GL + K*2", "I + J"], "Line 1: weight must be at most 1, not 2.0."),
        (["GL + K", "I + J*x"], "Line 2: weight must be a number, not 'x'."),
    ],
)
def test_the_entry_pages_side_mistakes_name_the_line(lines, problem):
    assert parse_results(lines) == ([], [problem])


def test_side_labels_go_on_past_z_as_spreadsheet_columns_do():
    assert [side_label(i) for i in (0, 1, 25, 26, 27, 701, 702)] == ["A", "B", "Z", "AA", "AB", "ZZ", "AAA"]


# The library numbers through /calculator.json. A TrueSkill or openskill rating is mu - 3 sigma, so
# ratings of 0 at the default sigma (25/3) are the defaults' mu of 25.


def test_trueskill_two_against_two_at_the_defaults_through_the_json(client, db):
    rows = players(client, method="trueskill", ratings="0,0,0,0", placings="1,1,2,2", sides="A,A,B,B")
    assert mu_sigma(rows) == [(28.108, 7.774), (28.108, 7.774), (21.892, 7.774), (21.892, 7.774)]
    assert [(row["side"], row["weight"]) for row in rows] == [("A", 1.0), ("A", 1.0), ("B", 1.0), ("B", 1.0)]
    assert all(row["rating_after"] == pytest.approx(row["mu"] - 3 * row["sigma"]) for row in rows)


@pytest.mark.parametrize("sides", [",B,B", "A,B,B", "A B B"])
def test_trueskill_one_against_two_through_the_json(client, db, sides):
    rows = players(client, method="trueskill", ratings="0,0,0", placings="1,2,2", sides=sides)
    assert mu_sigma(rows) == [(33.731, 7.317), (16.269, 7.317), (16.269, 7.317)]


def test_trueskill_partial_play_one_against_a_half_and_a_whole_through_the_json(client, db):
    rows = players(client, method="trueskill", ratings="0,0,0", placings="1,2,2", sides=",B,B", weights="1,0.5,1")
    assert mu_sigma(rows) == [(32.417, 7.056), (21.291, 8.033), (17.583, 7.056)]
    assert [row["weight"] for row in rows] == [1.0, 0.5, 1.0]


def test_openskill_two_against_two_at_the_defaults_through_the_json(client, db):
    rows = players(client, method="openskill", ratings="0,0,0,0", placings="1,1,2,2", sides="A,A,B,B")
    assert [(row["mu"], row["sigma"]) for row in rows[:2]] == [(26.964294621803063, 8.177962604389991)] * 2
    assert rows[2]["mu"] == rows[3]["mu"] < 25 < rows[0]["mu"]


def test_blank_sides_and_sides_of_one_rate_everyone_alone_as_before(client, db):
    query = {"method": "club", "ratings": "1600,1500,1450,1400", "placings": "1,2,2,4"}
    alone = players(client, **query)
    assert players(client, **query, sides="") == alone
    labelled = players(client, **query, sides="A,B,C,D")
    assert [row["rating_after"] for row in labelled] == [row["rating_after"] for row in alone]


def test_the_calculator_page_takes_sides_and_weights_and_names_the_players_by_them(client, db):
    query = {"method": "club", "ratings": "1600,1400,1550,1450", "placings": "1,1,2,2"}
    response = client.get(reverse("ratings:calculator"), {**query, "sides": "A,A,B,B", "weights": "1,0.5,1,1"})
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="sides" value="A,A,B,B"' in html and 'name="weights" value="1,0.5,1,1"' in html
    assert "2, side A, weight 0.5" in html and "3, side B" in html


@pytest.mark.parametrize(
    ("query", "parameter", "message"),
    [
        ({"sides": "A,A,B"}, "sides", "needs one value per player (4), not 3"),
        ({"weights": "1,1,1"}, "weights", "needs one value per player (4), not 3"),
        ({"weights": "1,,0.5,1"}, "weights", "needs one value per player (4), not 3"),
        ({"sides": "A,A,B,B", "weights": "0,0,1,1"}, "weights", "side A played no part of the game (every weight"),
        ({"sides": "A,A,B,B", "placings": "1,1,3,3"}, "placings", "placing 3 for side B is outside 1..2 (2 sides"),
        ({"sides": "A,A,B,B", "placings": "2,2,2,2"}, "placings", "The placings 2, 2 are not a ranking of the sides"),
    ],
)
def test_the_calculator_names_the_parameter_at_fault(client, db, query, parameter, message):
    base = {"method": "club", "ratings": "1500,1500,1500,1500", "placings": "1,1,2,2"}
    response = client.get(JSON, {**base, **query})
    assert response.status_code == 400
    answer = response.json()
    assert answer["parameter"] == parameter and answer["error"].startswith(f"{parameter}: {message}")


# One 2-against-2 Spades matchday (K played half of it) through each way in

LINES = ["GL + K*0.5", "I + J"]
ROWS = [("GL", 1, "A", ""), ("K", 1, "A", "0.5"), ("I", 2, "B", ""), ("J", 2, "B", "")]
CSV = "matchday,date,game,rounds,player,placing,rated_placing,side,weight\n" + "".join(
    f"7,2025-11-20,Spades,3,{player},{placing},,{side},{weight}\n" for player, placing, side, weight in ROWS
)


@pytest.fixture
def spades(club):
    """Spades, counted in the overall table (the club formula) and in a table of its own rated by TrueSkill."""
    game = Game.objects.create(name="Spades", slug="spades")
    save_rating_table(RatingTable(name="Spades", slug="spades", scope="game", game=game, method="trueskill"))
    return game


def entered(admin_client, game):
    data = {"date": "2025-11-20", "game": str(game.pk), "rounds": "3", "winner_score": ""}
    data.update({f"line-{n}": text for n, text in enumerate(LINES, start=1)})
    preview = admin_client.post(reverse("league:enter"), {**data, "action": "preview"})
    html = preview.content.decode()
    assert "<th>Side</th>" in html and "<th>Weight</th>" in html
    assert "<td>A, with K</td>" in html and "<td>B, with J</td>" in html and '<td class="num">0.5</td>' in html
    response = admin_client.post(reverse("league:enter"), {**data, **preview_fields(preview), "action": "save"})
    assert response.status_code == 302


def added_in_the_admin(admin_client, game):
    data = form_data(7, "2025-11-20", 3, [(player, placing, None) for player, placing, _, _ in ROWS], game=game)
    for i, (_, _, side, weight) in enumerate(ROWS):
        data.update({f"results-{i}-side": side, f"results-{i}-weight": weight})
    data.update({f"results-{len(ROWS)}-side": "", f"results-{len(ROWS)}-weight": ""})
    response = admin_client.post(add_url(), data)
    assert response.status_code == 302, response.content.decode()


def imported(admin_client, game):
    import_results(CSV.encode())


def stored() -> tuple[dict, dict]:
    """Matchday 7's results and rating changes, by player (and table)."""
    results = {
        r.player.short_name: (r.placing, r.rated_placing, r.left_early, r.side, r.weight)
        for r in Result.objects.filter(matchday__number=7).select_related("player")
    }
    changes = {
        (e.table.slug, e.player.short_name): (
            e.rating_before,
            e.expected,
            e.score,
            e.k,
            e.delta,
            e.rating_after,
            e.state,
        )
        for e in RatingEntry.objects.filter(matchday__number=7).select_related("table", "player")
    }
    return results, changes


def test_a_two_against_two_matchday_is_stored_and_rated_alike_whichever_way_it_comes_in(admin_client, spades):
    seen = []
    for way in (entered, added_in_the_admin, imported):
        way(admin_client, spades)
        seen.append(stored())
        delete_matchdays(list(Matchday.objects.filter(number=7)))
    results, changes = seen[0]
    assert seen[1] == seen[0] and seen[2] == seen[0]
    assert results == {
        "GL": (1, None, False, "A", 1.0),
        "K": (1, None, False, "A", 0.5),
        "I": (2, None, False, "B", 1.0),
        "J": (2, None, False, "B", 1.0),
    }
    assert {table for table, _ in changes} == {"overall", "spades"}
    # The TrueSkill table rates the sides as the library's own team rate() does, weights and all.
    env = trueskill.TrueSkill()
    start = env.create_rating()
    (gl, k), (i, j) = env.rate([(start, start), (start, start)], ranks=[1, 2], weights=[(1, 0.5), (1, 1)])
    for name, rating in {"GL": gl, "K": k, "I": i, "J": j}.items():
        assert changes["spades", name][-1] == {
            "mu": pytest.approx(rating.mu, abs=1e-9),
            "sigma": pytest.approx(rating.sigma, abs=1e-9),
        }


def test_the_import_ranks_the_sides_and_partners_carry_their_sides_placing(spades):
    ranked_as_players = CSV.replace(",I,2,", ",I,3,").replace(",J,2,", ",J,3,")
    with pytest.raises(ImportFailed) as failed:
        import_results(ranked_as_players.encode())
    assert failed.value.errors == ["Line 4: placing 3 for side B is outside 1..2 (2 sides took part)."]
    import_results(CSV.encode())
    assert Result.objects.filter(matchday__number=7, side="B", placing=2).count() == 2


def test_the_admin_shows_a_stored_team_matchday_and_saves_it_back_unchanged(admin_client, spades):
    from tests.conftest import change_url

    import_results(CSV.encode())
    matchday = Matchday.objects.get(number=7)
    before = stored()
    html = admin_client.get(change_url(matchday)).content.decode()
    assert 'name="results-0-side" value="A"' in html and 'value="0.5"' in html
    rows = [(r.player.short_name, r.placing, None) for r in matchday.results.select_related("player")]
    data = form_data(7, "2025-11-20", 3, rows, game=spades, matchday=matchday)
    for i, result in enumerate(matchday.results.all()):
        data.update({f"results-{i}-side": result.side, f"results-{i}-weight": str(result.weight)})
    data.update({f"results-{len(rows)}-side": "", f"results-{len(rows)}-weight": ""})
    response = admin_client.post(change_url(matchday), data)
    assert response.status_code == 302, response.content.decode()
    assert stored() == before


def test_an_edit_in_the_admin_keeps_the_order_the_results_were_entered_in(admin_client, spades):
    """A matchday's results are rated in the order they were entered, which moves a team's TrueSkill
    rating in its last bit: saved back from the admin (whose rows go by placing), nothing moves."""
    from tests.conftest import change_url

    entered = [ROWS[3], ROWS[2], ROWS[1], ROWS[0]]  # J, I, K, GL
    import_results(
        (
            CSV.splitlines()[0]
            + "\n"
            + "".join(f"7,2025-11-20,Spades,3,{p},{placing},,{side},{weight}\n" for p, placing, side, weight in entered)
        ).encode()
    )
    matchday = Matchday.objects.get(number=7)
    before = stored()
    shown = sorted(matchday.results.select_related("player"), key=lambda r: (r.placing, r.player.short_name))
    data = form_data(
        7, "2025-11-20", 3, [(r.player.short_name, r.placing, None) for r in shown], game=spades, matchday=matchday
    )
    for i, result in enumerate(shown):
        data.update({f"results-{i}-side": result.side, f"results-{i}-weight": str(result.weight)})
    data.update({f"results-{len(shown)}-side": "", f"results-{len(shown)}-weight": ""})
    assert admin_client.post(change_url(matchday), data).status_code == 302
    assert stored() == before
    order = list(Result.objects.filter(matchday=matchday).order_by("pk").values_list("player__short_name", flat=True))
    assert order == ["J", "I", "K", "GL"]
