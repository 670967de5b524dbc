"""Score sheets: a game scored by points (Hearts: the lowest score wins) has its placings follow from
the points, equal points sharing a place, whichever way the matchday comes in; placings given as
well must agree, or the line is refused with the placings the points give, in the same words."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse

from league.checked import Refused
from league.models import Game, Matchday, Result
from league.placings import HIGHEST_WINS, LOWEST_WINS, placed_by_points, placings_from_points
from league.results import Play, TypedResult
from ratings.models import RatingEntry, RatingTable
from ratings.services.checks import check_matchday
from ratings.services.matchdays import delete_matchdays
from ratings.services.rating_tables import save_rating_table
from tests.conftest import CLUB_PAGE, add_url, form_data
from tests.test_club_tables import grid_numbers
from tests.test_enter import preview_fields
from web.entry import parse_results
from web.importing import ImportFailed, import_results

# The evening's sheet: GL took the fewest points, K and I tied, R left early (rated after everyone).
POINTS = {"GL": 3, "K": 10, "I": 10, "J": 26, "R": 40}
PLACINGS = {"GL": 1, "K": 2, "I": 2, "J": 4, "R": 5}
LEFT = {"R"}
HEADER = "matchday,date,game,rounds,player,placing,rated_placing,left_early,score\n"
DISAGREE = (
    "The placings given (K 4) do not follow from the points (the lowest score wins, equal points share a "
    "place): the points give GL 1 (3), K 2 (10), I 2 (10), J 4 (26), R 5 (40)."
)


def sheet_line(name: str) -> str:
    return f"{name} {POINTS[name]}" + (" left early" if name in LEFT else "")


# The rule, pure


def typed(placing, player, line="", **fields) -> TypedResult:
    return TypedResult(Play(placing, **fields), player, line)


def test_equal_points_share_a_place_and_the_next_skips_the_places_they_used():
    assert placings_from_points([3, 10, 10, 26], LOWEST_WINS) == [1, 2, 2, 4]
    assert placings_from_points([3, 10, 10, 26], HIGHEST_WINS) == [4, 2, 2, 1]
    assert placings_from_points([-5, 0], HIGHEST_WINS) == [2, 1]


def test_partners_share_their_sides_points_and_the_points_rank_the_sides():
    entries = [
        typed(None, side="A", score=30, player="GL"),
        typed(None, side="A", score=30, player="K"),
        typed(None, side="B", score=50, player="I"),
        typed(None, side="B", score=50, player="J"),
    ]
    placed, problems = placed_by_points(entries, HIGHEST_WINS)
    assert problems == [] and [e.play.placing for e in placed] == [2, 2, 1, 1]
    entries[1] = typed(1, side="A", score=30, player="K", line="Line 2")  # a partner's placing is checked too
    assert placed_by_points(entries, HIGHEST_WINS)[1] == [
        "Line 2: The placings given (side A 1) do not follow from the points (the highest score wins, equal points "
        "share a place): the points give side B 1 (50), side A 2 (30)."
    ]
    entries[1] = typed(None, side="A", score=31, player="K", line="Line 1")
    assert placed_by_points(entries, HIGHEST_WINS)[1] == [
        "Line 1: K has points 31 but their partner GL (side A) has 30: partners share their side's points."
    ]


def test_everyone_has_points_or_no_one_and_a_placing_is_needed_without_them():
    half = [typed(None, score=3, player="GL"), typed(None, player="K", line="Line 2")]
    assert placed_by_points(half, LOWEST_WINS)[1] == ["Line 2: Give everyone's points or no one's: K has none."]
    by_hand = [typed(1, player="GL"), typed(2, player="K")]
    assert placed_by_points(by_hand, LOWEST_WINS) == (by_hand, [])


def test_a_game_scored_by_placings_keeps_the_points_as_written_and_the_placings_rule():
    entries = [typed(1, score=40, player="GL"), typed(2, score=3, player="K")]
    assert placed_by_points(entries, "placings") == (entries, [])


# The entry page's lines


def test_in_a_scored_game_the_number_after_a_name_is_the_points_and_the_lines_order_does_not_matter():
    results, problems = parse_results(["J 26", "K 10 = I 10", "GL 3", "R 40 left early"], scored=True)
    assert problems == []
    assert [(r.player, r.play.placing, r.play.score, r.play.left_early) for r in results] == [
        ("J", None, 26, False),
        ("K", None, 10, False),
        ("I", None, 10, False),
        ("GL", None, 3, False),
        ("R", None, 40, True),
    ]


def test_points_by_keyword_in_any_game_and_a_placing_beside_them_in_a_scored_one():
    results, problems = parse_results(["GL score=26", "K score=-5"])
    assert problems == [] and [(r.play.placing, r.play.score) for r in results] == [(1, 26), (2, -5)]
    results, problems = parse_results(["GL 1 score=3", "K 2 score=10"], scored=True)
    assert problems == [] and [(r.play.placing, r.play.score) for r in results] == [(1, 3), (2, 10)]


def test_partners_points_are_written_once_and_must_not_differ():
    results, problems = parse_results(["GL + K 26", "I + J 10"], scored=True)
    assert problems == [] and [(r.play.side, r.play.score) for r in results] == [
        ("A", 26),
        ("A", 26),
        ("B", 10),
        ("B", 10),
    ]
    # Written twice and differing, each keeps theirs, for the matchday's check to refuse in the words
    # every way in uses (tests/test_one_check.py).
    results, problems = parse_results(["GL 20 + K 26", "I + J 10"], scored=True)
    assert problems == [] and [r.play.score for r in results] == [20, 26, 10, 10]


def test_points_out_of_range_are_refused_naming_the_line():
    assert parse_results(["GL 2000000", "K 1"], scored=True) == (
        [],
        ["Line 1: score must be at most 1,000,000, not 2,000,000."],
    )


# One Hearts matchday, lowest score wins, through each way in


@pytest.fixture
def scored_hearts(club):
    hearts = Game.objects.get(name="Hearts")
    hearts.scoring = LOWEST_WINS
    hearts.full_clean()
    hearts.save()
    return hearts


def entered(client, hearts, lines):
    data = {"date": "2025-11-20", "game": str(hearts.pk), "rounds": "3", "winner_score": ""}
    data.update({f"line-{n}": text for n, text in enumerate(lines, start=1)})
    preview = client.post(reverse("league:enter"), {**data, "action": "preview"})
    if not preview_fields(preview):
        return preview
    response = client.post(reverse("league:enter"), {**data, **preview_fields(preview), "action": "save"})
    assert response.status_code == 302
    return response


def by_hand(client, hearts):
    """The placings worked out by hand, in finishing order (a number would be points in a scored game)."""
    entered(client, hearts, ["GL", "K = I", "J", "R left early"])


def points_entered(client, hearts):
    entered(client, hearts, [sheet_line(name) for name in ("J", "K", "I", "GL", "R")])


def test_the_entry_pages_preview_shows_the_placings_the_points_give(admin_client, scored_hearts):
    data = {"date": "2025-11-20", "game": str(scored_hearts.pk), "rounds": "3", "action": "preview"}
    lines = [sheet_line(name) for name in ("J", "K", "I", "GL", "R")]
    data.update({f"line-{n}": text for n, text in enumerate(lines, start=1)})
    html = admin_client.post(reverse("league:enter"), data).content.decode()
    assert "1 · 3 pts" in html and "2 · 10 pts" in html and "4 · 26 pts" in html and "5 · 40 pts" in html


def points_in_the_admin(client, hearts, placings=None):
    rows = [(name, (placings or {}).get(name, ""), None) for name in POINTS]
    data = form_data(7, "2025-11-20", 3, rows, game=hearts)
    for i, name in enumerate(POINTS):
        data[f"results-{i}-score"] = str(POINTS[name])
        data[f"results-{i}-left_early"] = "on" if name in LEFT else ""
    return client.post(add_url(), data)


def points_imported(client, hearts, placings=None):
    rows = "".join(
        f"7,2025-11-20,Hearts,3,{name},{(placings or {}).get(name, '')},,{int(name in LEFT)},{points}\n"
        for name, points in POINTS.items()
    )
    import_results((HEADER + rows).encode())


def stored() -> tuple[dict, dict]:
    """Matchday 7's placings and rating changes, by player (and table)."""
    results = {
        r.player.short_name: (r.placing, r.rated_placing, r.left_early)
        for r in Result.objects.filter(matchday__number=7).select_related("player")
    }
    changes = {
        (e.table.slug, e.player.short_name): (e.rating_before, e.expected, e.score, e.delta, e.rating_after)
        for e in RatingEntry.objects.filter(matchday__number=7).select_related("table", "player")
    }
    return results, changes


def test_a_hearts_matchday_entered_as_points_is_placed_and_rated_as_by_hand_whichever_way_in(
    admin_client, scored_hearts
):
    seen, points = [], []
    for way in (by_hand, points_entered, points_in_the_admin, points_imported):
        way(admin_client, scored_hearts)
        seen.append(stored())
        points.append(dict(Result.objects.filter(matchday__number=7).values_list("player__short_name", "score")))
        delete_matchdays(list(Matchday.objects.filter(number=7)))
    assert seen[0][0] == {"GL": (1, None, False), "K": (2, None, False), "I": (2, None, False), "J": (4, None, False),
                          "R": (5, None, True)}  # fmt: skip
    assert seen[0][1] and all(later == seen[0] for later in seen[1:])
    assert points[0] == dict.fromkeys(POINTS) and points[1:] == [POINTS] * 3


def test_placings_that_the_points_do_not_give_are_refused_in_the_same_words_every_way_in(admin_client, scored_hearts):
    lines = [f"{name} {PLACINGS[name] + 2 * (name == 'K')} score={POINTS[name]}" for name in POINTS]
    html = entered(admin_client, scored_hearts, lines).content.decode().replace("&#x27;", "'")
    assert f"Line 2: {DISAGREE}" in html.replace("&quot;", '"')

    response = points_in_the_admin(admin_client, scored_hearts, {**PLACINGS, "K": 4})
    assert response.status_code == 200 and DISAGREE in response.content.decode().replace("&#x27;", "'")

    with pytest.raises(ImportFailed) as failed:
        points_imported(admin_client, scored_hearts, {**PLACINGS, "K": 4})
    assert failed.value.errors == [f"Line 3: {DISAGREE}"]

    assert not Matchday.objects.filter(number=7).exists()


def test_the_check_refuses_placings_the_points_do_not_give_for_any_caller(scored_hearts):
    results = [typed(PLACINGS[n] + 2 * (n == "K"), n, left_early=n in LEFT, score=POINTS[n]) for n in POINTS]
    matchday = Matchday(number=7, date=Matchday.objects.get(number=1).date, game=scored_hearts, rounds=3)
    with pytest.raises(Refused) as raised:
        check_matchday(matchday, scored_hearts, results)
    assert raised.value.problems == [DISAGREE]
    assert not Matchday.objects.filter(number=7).exists()


# The table-size method's winner's score, and the game's scoring


def test_the_winners_score_is_taken_from_the_points_where_the_highest_score_wins(admin_client, club):
    rummy = Game.objects.create(name="Rummy", slug="rummy", scoring=HIGHEST_WINS)
    save_rating_table(RatingTable(name="Rummy", slug="rummy", scope="game", game=rummy, method="table-size"))
    entered(admin_client, rummy, ["GL 15", "K 9", "I 4"])
    matchday = Matchday.objects.get(number=7)
    assert matchday.winner_score == 15
    assert list(matchday.results.order_by("placing").values_list("player__short_name", "placing")) == [
        ("GL", 1),
        ("K", 2),
        ("I", 3),
    ]
    # 3 players (K 32) two steps shorter for a game won with 15: K 16, as the method's own table says.
    assert {e.k for e in RatingEntry.objects.filter(matchday=matchday, table__slug="rummy")} == {16}


def test_a_game_whose_results_hold_points_keeps_its_scoring(admin_client, scored_hearts):
    points_entered(admin_client, scored_hearts)
    scored_hearts.scoring = HIGHEST_WINS
    with pytest.raises(ValidationError) as raised:
        scored_hearts.full_clean()
    assert raised.value.message_dict == {
        "scoring": ["Hearts has results with points, whose placings follow from its scoring; keep it."]
    }


def test_the_admin_sets_how_a_game_is_scored(admin_client, club):
    hearts = Game.objects.get(name="Hearts")
    data = {"name": "Hearts", "slug": "hearts", "official": "on", "scoring": LOWEST_WINS}
    response = admin_client.post(reverse("admin:league_game_change", args=[hearts.pk]), data)
    assert response.status_code == 302, response.content.decode()
    hearts.refresh_from_db()
    assert hearts.scoring == LOWEST_WINS


# Points on the pages and in their downloads


def test_the_matchday_page_and_its_download_show_each_players_points_beside_the_placing(admin_client, scored_hearts):
    points_imported(admin_client, scored_hearts)
    url = reverse("league:matchday", args=[7])
    html = admin_client.get(url).content.decode()
    assert '<th class="num">Points</th>' in html
    rows = admin_client.get(url, {"export": "csv", "table": "results"}).content.decode().splitlines()
    assert rows[0].startswith("Placing,Points,Player") and rows[1].startswith("1,3,GL")
    assert "Points" not in admin_client.get(reverse("league:matchday", args=[1])).content.decode()


def test_the_results_grid_shows_the_points_after_the_placing(admin_client, scored_hearts):
    points_imported(admin_client, scored_hearts)
    html = admin_client.get(reverse("league:game", args=["hearts"])).content.decode()
    assert "1 · 3 pts" in html and "5 · 40 pts" in html and "2 · 10 pts" in html


def test_the_game_page_shows_each_players_average_and_best_and_the_clubs_record_scores(admin_client, scored_hearts):
    points_imported(admin_client, scored_hearts)
    sheet = HEADER + "8,2025-11-21,Hearts,3,GL,,,,7\n8,2025-11-21,Hearts,3,K,,,,0\n8,2025-11-21,Hearts,3,J,,,,19\n"
    import_results(sheet.encode())
    url = reverse("league:game", args=["hearts"])
    response = admin_client.get(url)
    html = response.content.decode()
    assert response.status_code == 200 and 'id="points"' in html and 'id="record-scores"' in html
    averages = admin_client.get(url, {"export": "csv", "table": "points"}).content.decode().splitlines()
    # The lowest score wins: the fewest points on average first, and "best" is the fewest.
    assert averages == [
        "Player,Score sheets,Average,Best",
        "K,2,5.0,0",
        "GL,2,5.0,3",
        "I,1,10.0,10",
        "J,2,22.5,19",
        "R,1,40.0,40",
    ]
    records = admin_client.get(url, {"export": "csv", "table": "record-scores"}).content.decode().splitlines()
    assert [row.split(",")[:2] for row in records] == [["Points", "Player"], ["0", "K"], ["3", "GL"], ["7", "GL"],
                                                       ["10", "I"], ["10", "K"]]  # fmt: skip


def test_a_game_without_points_shows_no_points_sections(client, club):
    html = client.get(reverse("league:game", args=["hearts"])).content.decode()
    assert 'id="points"' not in html and "pts" not in html


def test_the_demos_hearts_is_won_with_the_fewest_points_and_its_numbers_are_the_club_pages(db):
    call_command("load_demo", stdout=io.StringIO())
    assert Game.objects.get(slug="hearts").scoring == LOWEST_WINS
    assert grid_numbers("overall") == CLUB_PAGE and grid_numbers("hearts") == CLUB_PAGE


def test_a_scored_games_page_takes_a_fixed_number_of_queries(client, scored_hearts, django_assert_num_queries):
    """Three more than a game scored by placings (tests/test_pages.py: 17): the averages, their players
    and the records; more score sheets and players cost no extra query."""
    points_imported(client, scored_hearts)
    url = reverse("league:game", args=["hearts"])
    with django_assert_num_queries(20):
        assert client.get(url).status_code == 200
    rows = "".join(f"{n},2025-11-2{n - 7},Hearts,1,{p},,,,{n * 3 + i}\n" for n in (8, 9) for i, p in enumerate("AB"))
    import_results((HEADER + rows).encode())
    with django_assert_num_queries(20):
        assert client.get(url).status_code == 200


def test_placings_that_break_a_tie_of_points_are_taken_every_way_in(admin_client, scored_hearts):
    """K and I tied on 10 points; a tiebreak puts K 3rd and I 2nd (1, 2, 3, 4, 5): taken by the
    entry page, the admin and the import alike, and kept as given."""
    broken = {**PLACINGS, "K": 3}
    ways = [
        lambda: entered(admin_client, scored_hearts, [f"{n} {broken[n]} score={POINTS[n]}" for n in POINTS]),
        lambda: points_in_the_admin(admin_client, scored_hearts, broken),
        lambda: points_imported(admin_client, scored_hearts, broken),
    ]
    for way in ways:
        way()
        placed = dict(Result.objects.filter(matchday__number=7).values_list("player__short_name", "placing"))
        assert placed == broken
        delete_matchdays(list(Matchday.objects.all().order_by("-number")[:1]))


def test_a_tiebreak_never_places_a_worse_score_better():
    results = [typed({"GL": 1, "K": 2, "I": 3, "J": 3, "R": 5}[n], n, score=POINTS[n]) for n in POINTS]
    _, problems = placed_by_points(results, LOWEST_WINS)
    assert problems and "do not follow from the points" in problems[0]
