"""One check for every way in: each problem the matchday's check finds (league.checked, then the
methods of the game's tables) comes back in the same words from the CSV import (and the admin's
upload, which runs it), the admin's matchday form, the entry page and, where the problem is one of
its players, the calculator. Each way places the words as it places its errors: a file's line or
its matchday ("Matchday 7 (lines 2-4): "), an entry page's line, the admin's form, the calculator's
parameter. Nothing is saved."""

import html
from dataclasses import dataclass, field
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Attempt, Game, Matchday, Player, Result
from league.placings import LOWEST_WINS
from league.validation import FLAG_WORDS
from ratings.models import RatingTable
from ratings.services.catalogue import save_game
from ratings.services.rating_tables import save_rating_table
from tests.conftest import add_url, form_data
from tests.test_deal_admin import ADD as SESSION_ADD
from tests.test_deal_admin import session_form
from web.importing import ImportFailed, import_results

DAY = "2025-11-20"
HEADER = "matchday,date,game,rounds,player,placing,rated_placing,left_early,side,weight,score\n"


@dataclass
class Row:
    """One result as a file's line and an admin's row give it."""

    player: str
    placing: int | None
    rated_placing: int | None = None
    left_early: bool = False
    side: str = ""
    weight: str = ""
    score: int | None = None


@dataclass
class Case:
    """A problem: the matchday as a file and the admin give it (`rows`) and as the entry page's lines
    type it (`lines`; None where its lines cannot say it), the check's words, and which row they name
    (`row`, from 0; None for the matchday as a whole). Words naming a second row say "{also}": a
    file's " (also in Line 2)", the entry page's " (also in Line 1)", nothing in the admin."""

    said: str
    rows: list[Row]
    row: int | None
    lines: list[str] | None = None
    line: int | None = None  # the entry page's line the words name
    game: str = "Hearts"
    calculator: dict = field(default_factory=dict)  # the JSON calculator's query, where it applies
    calculator_said: str = ""  # its error: the parameter, then the same words for its unnamed players
    also: int | None = None  # the row (and entry line) the words name besides


RANKING = (
    "The placings 1, 1, 2 are not a ranking of the players: tied players share a place and the next skips the "
    "places they used (1, 2, 2, 4). Did you mean 1, 1, 3?"
)
PARTNERS = "but their partner {} (side A) has {}: partners share their side's {}."
SIDES = {"A": ["GL", "K"], "B": ["I", "J"]}
FOUR = {"ratings": "1500,1500,1500,1500"}

CASES = {
    "a player entered twice": Case(
        "GL is entered twice{also}.",
        [Row("GL", 1), Row("K", 2), Row("GL", 3)],
        row=2,
        also=0,
        lines=["GL", "K", "GL"],
        line=3,
    ),
    "a player on two sides": Case(
        "GL is on two sides, side A and side B{also}; a player plays for one.",
        [Row("GL", 1, side="A"), Row("K", 1, side="A"), Row("GL", 2, side="B"), Row("J", 2, side="B")],
        row=2,
        also=0,
        lines=["GL + K", "GL + J"],
        line=2,
    ),
    "placings that are not a ranking": Case(
        RANKING,
        [Row("GL", 1), Row("K", 1), Row("I", 2)],
        row=None,
        lines=["GL 1", "K 1", "I 2"],
        calculator={"ratings": "1500,1500,1500", "placings": "1,1,2"},
        calculator_said=f"placings: {RANKING}",
    ),
    "a placing past the players": Case(
        "placing 3 for K is outside 1..2 (2 players took part).",
        [Row("GL", 1), Row("K", 3)],
        row=1,
        lines=["GL 1", "K 3"],
        line=2,
        calculator={"ratings": "1500,1500", "placings": "1,3"},
        calculator_said="placings: placing 3 for player 2 is outside 1..2 (2 players took part).",
    ),
    "one player": Case(
        "A matchday needs at least two players; this one has 1.",
        [Row("GL", 1)],
        row=None,
        lines=["GL"],
        calculator={"ratings": "1500", "placings": "1"},
        calculator_said="ratings: A matchday needs at least two players; this one has 1.",
    ),
    "a rated placing for who left early": Case(
        "I left early, which already rates them after everyone who stayed; leave their rated placing (3) empty.",
        [Row("GL", 1), Row("K", 2), Row("I", 3, 3, left_early=True)],
        row=2,
        lines=["GL", "K", "I left early rated 3"],
        line=3,
    ),
    "rated placings the penalty rule does not give": Case(
        "The rated placings do not rank the players: R should be rated 3. A penalised player takes the place "
        "given to them and the others keep their finishing order around them: GL 1, K 2, R 3, I 4.",
        [Row("GL", 1), Row("K", 2), Row("I", 3), Row("R", 4, 2)],
        row=3,
        lines=["GL", "K", "I", "R rated 2"],
        line=4,
    ),
    "partners placed apart": Case(
        "K has placing 2 " + PARTNERS.format("GL", 1, "placing"),
        [Row("GL", 1, side="A"), Row("K", 2, side="A"), Row("I", 2, side="B"), Row("J", 2, side="B")],
        row=1,
        lines=["GL 1 + K 2", "I + J 2"],
        line=1,
        calculator={**FOUR, "placings": "1,2,2,2", "sides": "A,A,B,B"},
        calculator_said="placings: player 2 has placing 2 " + PARTNERS.format("player 1", 1, "placing"),
    ),
    "partners with different penalties": Case(
        "K has rated placing 3 " + PARTNERS.format("GL", 2, "placing"),
        [Row("GL", 1, 2, side="A"), Row("K", 1, 3, side="A"), Row("I", 2, side="B"), Row("J", 2, side="B")],
        row=1,
        lines=["GL rated 2 + K rated 3", "I + J"],
        line=1,
    ),
    # On the entry page a side's leaving early is written once, after any partner: it cannot differ.
    "one partner left early": Case(
        "K has left early no " + PARTNERS.format("GL", "yes", "placing"),
        [Row("GL", 1, left_early=True, side="A"), Row("K", 1, side="A"), Row("I", 2, side="B"), Row("J", 2, side="B")],
        row=1,
        calculator={**FOUR, "placings": "1,1,2,2", "sides": "A,A,B,B", "left_early": "yes,no,no,no"},
        calculator_said="left_early: player 2 has left early no " + PARTNERS.format("player 1", "yes", "placing"),
    ),
    "one side": Case(
        "All 4 players are on one side (A); a matchday needs two sides or more.",
        [Row(name, 1, side="A") for name in ("GL", "K", "I", "J")],
        row=None,
        lines=["GL + K + I + J"],
        calculator={**FOUR, "placings": "1,1,1,1", "sides": "A,A,A,A"},
        calculator_said="sides: All 4 players are on one side (A); a matchday needs two sides or more.",
    ),
    "a side nobody played for": Case(
        "side A played no part of the game (every weight is 0); a side needs a player with a weight above 0.",
        [
            Row("GL", 1, side="A", weight="0"),
            Row("K", 1, side="A", weight="0"),
            Row("I", 2, side="B"),
            Row("J", 2, side="B"),
        ],
        row=0,
        lines=["GL*0 + K*0", "I + J"],
        line=1,
        calculator={**FOUR, "placings": "1,1,2,2", "sides": "A,A,B,B", "weights": "0,0,1,1"},
        calculator_said="weights: side A played no part of the game (every weight is 0); a side needs a player "
        "with a weight above 0.",
    ),
    # The entry page takes the placings from the lines' order: a line has one.
    "a placing left out in a game scored by placings": Case("K has no placing.", [Row("GL", 1), Row("K", None)], row=1),
    "partners with different points": Case(
        "K has points 31 " + PARTNERS.format("GL", 30, "points"),
        [Row("GL", None, side="A", score=30), Row("K", None, side="A", score=31)]
        + [Row("I", None, side="B", score=50), Row("J", None, side="B", score=50)],
        row=1,
        lines=["GL 30 + K 31", "I + J 50"],
        line=1,
        game="Sheets",
    ),
    "points for some and not others": Case(
        "Give everyone's points or no one's: K has none.",
        [Row("GL", None, score=3), Row("K", None)],
        row=1,
        lines=["GL 3", "K"],
        line=2,
        game="Sheets",
    ),
    # Issue 41, class 3: the entry page dropped the tie typed with `=`, where the admin and the import
    # refused the same facts. A tie the points do not give is refused by all, in the same words.
    "a tie the points do not give": Case(
        "The placings given (I 2) do not follow from the points (the lowest score wins, equal points share a "
        "place): the points give GL 1 (3), K 2 (10), I 3 (12).",
        [Row("GL", 1, score=3), Row("K", 2, score=10), Row("I", 2, score=12)],
        row=2,
        lines=["GL 3", "K 10 = I 12"],
        line=2,
        game="Sheets",
    ),
}


@pytest.fixture
def sheets(club):
    """A game scored by points, the lowest winning (Hearts in the issue)."""
    save_game(Game(name="Sheets", slug="sheets", scoring=LOWEST_WINS))


def as_read(text: str) -> str:
    return html.unescape(text)


def nothing_saved():
    assert not Matchday.objects.filter(number=7).exists()


def imported(case: Case) -> list[str]:
    lines = "".join(
        f"7,{DAY},{case.game},3,{r.player},{r.placing or ''},{r.rated_placing or ''},{int(r.left_early)},"
        f"{r.side},{r.weight},{'' if r.score is None else r.score}\n"
        for r in case.rows
    )
    with pytest.raises(ImportFailed) as failed:
        import_results((HEADER + lines).encode())
    return failed.value.errors


def in_the_admin(admin_client, case: Case) -> str:
    game = Game.objects.get(name=case.game)
    data = form_data(7, DAY, 3, [(r.player, r.placing or "", r.rated_placing) for r in case.rows], game=game)
    for i, r in enumerate(case.rows):
        data.update({f"results-{i}-side": r.side, f"results-{i}-weight": r.weight})
        data[f"results-{i}-score"] = "" if r.score is None else str(r.score)
        if r.left_early:
            data[f"results-{i}-left_early"] = "on"
    response = admin_client.post(add_url(), data)
    assert response.status_code == 200
    return as_read(response.content.decode())


def entered(admin_client, case: Case, lines: list[str], **fields) -> str:
    data = {"date": DAY, "game": str(Game.objects.get(name=case.game).pk), "rounds": "3", "action": "preview"}
    data.update({f"line-{n}": text for n, text in enumerate(lines, start=1)}, **fields)
    response = admin_client.post(reverse("league:enter"), data)
    assert response.status_code == 200
    page = as_read(response.content.decode())
    assert "check, then save" not in page
    return page


@pytest.mark.parametrize("name", CASES)
def test_each_problem_gets_the_same_words_from_every_way_in(admin_client, client, sheets, name):
    case = CASES[name]
    rows = len(case.rows)
    said = case.said.format(also=f" (also in Line {case.also + 2})" if case.also is not None else "")
    where = f"Line {case.row + 2}" if case.row is not None else f"Matchday 7 (lines 2-{rows + 1})"
    if rows == 1:
        where = "Matchday 7 (line 2)"
    assert imported(case) == [f"{where}: {said}"]

    assert case.said.format(also="") in in_the_admin(admin_client, case)

    if case.lines is not None:
        said = case.said.format(also=f" (also in Line {case.also + 1})" if case.also is not None else "")
        page = entered(admin_client, case, case.lines)
        assert (f"Line {case.line}: {said}" if case.line else said) in page

    if case.calculator:
        response = client.get(reverse("ratings:calculator_json"), {"method": "club", **case.calculator})
        assert response.status_code == 400
        assert response.json()["error"] == case.calculator_said
    nothing_saved()


def test_a_tie_the_points_give_is_taken_on_the_entry_page(admin_client, sheets):
    """Tied players whose points are equal share the place, in lines written in any order."""
    data = {"date": DAY, "game": str(Game.objects.get(name="Sheets").pk), "rounds": "3", "action": "preview"}
    data.update({"line-1": "J 26", "line-2": "K 10 = I 10", "line-3": "GL 3"})
    page = as_read(admin_client.post(reverse("league:enter"), data).content.decode())
    assert "Matchday 7: check, then save" in page


def test_what_a_tables_method_cannot_rate_gets_the_same_words_from_every_way_in(admin_client, client, club):
    save_game(Game(name="Duel", slug="duel"))
    duel = RatingTable.objects.get(slug="duel")
    duel.method = "sedma"  # two players a matchday
    save_rating_table(duel)
    method = "Sedma: rating bands with bonuses rates two-player games only, not 3 players"
    said = f"The Duel rating uses Sedma: rating bands with bonuses: {method}."
    case = Case(said, [Row("GL", 1), Row("K", 2), Row("I", 3)], row=None, lines=["GL", "K", "I"], game="Duel")
    assert imported(case) == [f"Matchday 7 (lines 2-4): {said}"]
    assert said in in_the_admin(admin_client, case)
    assert said in entered(admin_client, case, case.lines)
    query = {"method": "sedma", "ratings": "1500,1500,1500", "placings": "1,2,3"}
    response = client.get(reverse("ratings:calculator_json"), query)
    assert response.json() == {"error": f"ratings: {method}", "parameter": "ratings"}  # the method, without a table
    nothing_saved()


@pytest.mark.parametrize("when", ["after today", "before 1900"])
def test_a_date_after_today_or_before_1900_gets_the_same_words_from_every_way_in(admin_client, client, club, when):
    later = timezone.localdate() + timedelta(days=1) if when == "after today" else date(205, 11, 30)
    said = f"{later.isoformat()} is {when}; enter the date the matchday was played."
    lines = f"7,{later},Hearts,3,GL,1,,0,,,\n7,{later},Hearts,3,K,2,,0,,,\n"
    with pytest.raises(ImportFailed) as failed:
        import_results((HEADER + lines).encode())
    assert failed.value.errors == [f"Matchday 7 (lines 2-3): {said}"]
    data = form_data(7, later.isoformat(), 3, [("GL", 1, None), ("K", 2, None)])
    assert said in as_read(admin_client.post(add_url(), data).content.decode())
    assert said in entered(admin_client, Case(said, [], None), ["GL", "K"], date=later.isoformat())
    nothing_saved()
    assert client.get("/card-games/standings/?as_at=0001-01-01").status_code == 400  # before the first matchday


# Yes and no: one vocabulary (league.validation.YES and NO) for every way in.


def test_every_way_in_takes_the_same_words_for_yes_and_no(admin_client, client, club):
    """`left_early=true` was taken by the import and refused by the calculator (issue 36)."""
    for yes in ("true", "yes", "Y", "x", "1", "on"):
        query = {"method": "pairwise-winner", "ratings": "1500,1500,1500", "placings": "1,2,3"}
        response = client.get(reverse("ratings:calculator_json"), {**query, "left_early": f"no,0,{yes}"})
        assert response.status_code == 200, yes
        import_results(
            (HEADER + f"7,{DAY},Hearts,3,GL,1,,no,,,\n7,{DAY},Hearts,3,K,2,,{yes},,,\n").encode(), replace=True
        )
        assert Result.objects.get(matchday__number=7, player__short_name="K").left_early, yes


def test_every_way_in_refuses_a_word_that_is_not_yes_or_no_in_the_same_words(admin_client, client, club):
    said = f"must be {FLAG_WORDS}, or empty for no, not 'maybe'"
    with pytest.raises(ImportFailed) as failed:
        import_results((HEADER + f"7,{DAY},Hearts,3,GL,1,,maybe,,,\n7,{DAY},Hearts,3,K,2,,,,,\n").encode())
    assert failed.value.errors == [f"Line 2: left_early {said}."]
    query = {"method": "pairwise-winner", "ratings": "1500,1500", "placings": "1,2", "left_early": "maybe,no"}
    response = client.get(reverse("ratings:calculator_json"), query)
    assert response.json() == {"error": f"left_early: value 1 {said}", "parameter": "left_early"}
    data = form_data(7, DAY, 3, [("GL", 1, None), ("K", 2, None)]) | {"results-0-left_early": "maybe"}
    assert f"Left early {said}." in as_read(admin_client.post(add_url(), data).content.decode())
    response = client.get(reverse("ratings:calculator_json"), {**query, "left_early": "no,no", "round": "maybe"})
    assert response.json()["error"] == f"round: {said}"  # a method's yes-or-no parameter
    nothing_saved()
    assert not Player.objects.filter(short_name__in=["maybe"]).exists()


# Checked once: each way in runs the league's rules once per matchday (issue 36: one Save from /enter/
# ran the placings from the points four times and the rules twice).


@pytest.fixture
def counted(monkeypatch):
    """How often the check places the results by their points and checks the league's rules."""
    import league.checked

    calls = {"placed_by_points": 0, "matchday_problems": 0}
    for name in calls:
        original = getattr(league.checked, name)

        def counting(*args, name=name, original=original):
            calls[name] += 1
            return original(*args)

        monkeypatch.setattr(league.checked, name, counting)
    return calls


def test_a_save_from_the_entry_page_checks_its_matchday_once(admin_client, club, counted):
    from tests.test_enter import preview_fields

    data = {"date": DAY, "game": str(Game.objects.get(name="Hearts").pk), "rounds": "3", "line-1": "GL"}
    data |= {"line-2": "K = I", "line-3": "J left early"}
    preview = admin_client.post(reverse("league:enter"), {**data, "action": "preview"})
    assert counted == {"placed_by_points": 1, "matchday_problems": 1}
    response = admin_client.post(reverse("league:enter"), {**data, **preview_fields(preview), "action": "save"})
    assert response.status_code == 302
    assert counted == {"placed_by_points": 2, "matchday_problems": 2}  # the preview's, then the save's


def test_a_save_in_the_admin_and_an_import_check_each_matchday_once(admin_client, club, counted):
    response = admin_client.post(add_url(), form_data(7, DAY, 3, [("GL", 1, None), ("K", 2, None)]))
    assert response.status_code == 302
    assert counted == {"placed_by_points": 1, "matchday_problems": 1}
    rows = "".join(f"{n},{DAY},Hearts,3,{p},{i},,0,,,\n" for n in (8, 9, 10) for i, p in enumerate(["GL", "K"], 1))
    import_results((HEADER + rows).encode())
    assert counted == {"placed_by_points": 4, "matchday_problems": 4}


def test_the_deals_admin_reads_won_and_rated_as_the_attempts_import_does(admin_client, db):
    """Django's box took any value but "false" and "0" for yes: a posted `no` was a win."""
    solitaire = Game(name="Solitaire", slug="solitaire", against_deals=True)
    save_game(solitaire)
    Player.objects.bulk_create(
        [Player(name=name, short_name=name, short_name_key=name.lower()) for name in ("GL", "K")]
    )
    rows = [("GL", "8x4", 5, 1, False, True), ("K", "8x4", 5, 1, False, True)]
    data = session_form(solitaire, "2025-11-03", rows)
    data |= {"attempts-0-won": "no", "attempts-1-won": "W", "attempts-1-rated": "no"}
    assert admin_client.post(SESSION_ADD, data).status_code == 302
    assert [(a.won, a.rated) for a in Attempt.objects.order_by("position")] == [(False, True), (True, False)]
    data |= {"attempts-0-won": "maybe", "date": "2025-11-04"}
    page = as_read(admin_client.post(SESSION_ADD, data).content.decode())
    assert f"Won must be W or L, or {FLAG_WORDS}, not 'maybe'." in page
