"""Rating against the game (docs/methods.md, /methods/#against-the-game): the players are one side
and the game the other, rated by the game's table's method. The worked example, to its digits, on a
new game's method (pairwise by placing, K 40 scaled as multielo) and on the club formula."""

from ratings import methods
from ratings.methods import Facts, Seat
from ratings.services.against_game import GAME_SIDE, PLAYERS_SIDE
from ratings.services.catalogue import NEW_GAME_METHOD, NEW_GAME_PARAMETERS


def rate(slug: str, params: dict, seats: list[Seat]) -> list[float]:
    method = methods.get(slug)
    exact = {**method.clean_params(params), "round": False}
    return [round(outcome.delta, 2) for outcome in method.compute(seats, Facts(1), exact)]


def test_paula_and_jul_beat_pandemic_on_a_new_games_method():
    seats = [
        Seat(1520, 1, side=PLAYERS_SIDE),  # Paula
        Seat(1480, 1, side=PLAYERS_SIDE),  # Jul: their side is rated 1500
        Seat(1480, 2, side=GAME_SIDE),  # Pandemic
    ]
    assert rate(NEW_GAME_METHOD, NEW_GAME_PARAMETERS, seats) == [18.85, 18.85, -18.85]


def test_they_lose_to_it_on_the_club_formula():
    seats = [Seat(1520, 2, side=PLAYERS_SIDE), Seat(1480, 2, side=PLAYERS_SIDE), Seat(1480, 1, side=GAME_SIDE)]
    assert rate("club", {}, seats) == [-5.29, -5.29, 5.29]


def test_one_player_alone_against_the_game_is_a_game_of_two():
    assert rate(NEW_GAME_METHOD, NEW_GAME_PARAMETERS, [Seat(1500, 1), Seat(1500, 2)]) == [20.0, -20.0]
