"""A new game's own table starts on a method that moves a one-round game as much as a card night
moves the club formula's tables (pairwise by placing, K 40 as multielo), chosen from /compare/'s
measures; the club's own tables and a file's card games keep the club formula."""

import csv
import statistics
from datetime import date
from pathlib import Path

from django.urls import reverse

from league.models import Game
from league.placings import BY_PLACINGS
from ratings import comparison
from ratings.methods import METHODS, Facts, Seat
from ratings.models import RatingEntry, RatingTable
from ratings.services.catalogue import NEW_GAME_METHOD, NEW_GAME_PARAMETERS
from web.importing import import_results

ROOT = Path(__file__).resolve().parent.parent
CARD_NIGHTS = ROOT / "web" / "demo" / "club-november.csv"
GAME_NIGHTS = ROOT / "tests" / "data" / "game_night_2026.csv"
HEADER = "matchday,date,game,rounds,player,placing,rated_placing"


def records(path: Path) -> list[comparison.MatchdayRecord]:
    days, ids = {}, {}
    with path.open(newline="") as file:
        for row in csv.DictReader(file):
            pid = ids.setdefault(row["player"], len(ids) + 1)
            day = days.setdefault(int(row["matchday"]), (date.fromisoformat(row["date"]), int(row["rounds"]), []))
            day[2].append(comparison.StoredPlay(int(row["placing"]), None, side=row.get("side") or "", player_id=pid))
    return [
        comparison.MatchdayRecord(n, n, Facts(rounds=rounds), tuple(rows), day)
        for n, (day, rounds, rows) in sorted(days.items())
    ]


def mean_change(slug: str, parameters: dict, history) -> float:
    """The mean size of a player's change at a matchday, every player starting afresh."""
    method = METHODS[slug]
    params = method.clean_params(parameters)
    current, changes = {}, []
    for matchday in history:
        seats = [Seat.of(p, *current.get(p.player_id, method.start(params))) for p in matchday.results]
        for played, outcome in zip(matchday.results, method.compute(seats, matchday.facts, params), strict=True):
            current[played.player_id] = (outcome.rating_after, outcome.state)
            changes.append(abs(outcome.rating_after - outcome.rating_before))
    return statistics.mean(changes)


def test_the_method_moves_a_one_round_game_as_a_card_night_moves_the_club_formula_and_predicts_as_well():
    """The figures of docs/methods.md."""
    cards, games = records(CARD_NIGHTS), records(GAME_NIGHTS)
    card_night = mean_change("club", {}, cards)
    club_one_round = mean_change("club", {}, games)
    chosen = mean_change(NEW_GAME_METHOD, NEW_GAME_PARAMETERS, games)
    assert round(card_night, 1) == 18.0 and round(club_one_round, 1) == 4.2 and round(chosen, 1) == 18.7
    club_run, chosen_run = comparison.compare(
        [
            (METHODS["club"], METHODS["club"].clean_params({})),
            (METHODS[NEW_GAME_METHOD], METHODS[NEW_GAME_METHOD].clean_params(NEW_GAME_PARAMETERS)),
        ],
        games,
    )
    assert round(club_run.all.log_loss, 3) == 0.688 and round(chosen_run.all.log_loss, 3) == 0.688
    assert chosen_run.all.pair_order > club_run.all.pair_order and chosen_run.all.winner > club_run.all.winner


def test_a_game_added_in_the_admin_starts_on_the_method(admin_client, club):
    game = {"name": "Catan", "slug": "catan", "official": "on", "scoring": BY_PLACINGS, "category": ""}
    assert admin_client.post(reverse("admin:league_game_add"), game).status_code == 302
    table = RatingTable.objects.get(game__slug="catan")
    assert (table.method, table.parameters) == ("pairwise-placing", {"k": 40, "k_scale": "multielo"})
    assert RatingTable.objects.get(slug="hearts").method == "club"  # the club's own tables unchanged


def test_a_files_new_one_round_game_starts_on_it_and_a_game_played_in_rounds_on_the_club_formula(db):
    rows = [
        "1,2026-01-05,Bang,1,A,1,",
        "1,2026-01-05,Bang,1,B,2,",
        "1,2026-01-05,Bang,1,C,3,",
        "1,2026-01-05,Bang,1,D,4,",
        "2,2026-01-05,Spades,6,A,1,",
        "2,2026-01-05,Spades,6,B,2,",
    ]
    import_results("\n".join([HEADER, *rows]).encode() + b"\n")
    assert RatingTable.objects.get(game__name="Bang").method == "pairwise-placing"
    assert RatingTable.objects.get(game__name="Spades").method == "club"
    # A four-player board game's winner moves 30 (K 40: 20 a opponent), not the club formula's 5 of one round.
    winner = RatingEntry.objects.get(table__game__name="Bang", player__short_name="A", matchday__number=1)
    assert winner.delta == 30
    overall = RatingEntry.objects.get(table__slug="overall", player__short_name="A", matchday__number=1)
    assert overall.delta == 5
    assert Game.objects.count() == 2
