"""The BG Stats export read as plays (league.bgstats): the real export of tests/data/bgstats, each
kind of play checked by hand against the file. A play is written here as the file lists its
players: their names and the placing the rules of docs/formats.md give them; a play against the
game (co-operative, or one player) as won or lost."""

from datetime import date
from pathlib import Path

import pytest

from league.bgstats import BY_POINTS, BY_WINNERS, CO_OP, COMPETITIVE, DRAW, SOLO, WINNERS_THEN_POINTS, read_export

FILE = Path(__file__).parent / "data" / "bgstats" / "BGStatsExport.json"
TODAY = date(2026, 11, 29)

# Flagged winners and no points: the winners share first place, the rest the place after them.
WINNERS_ONLY = {
    13: "Katrin 2, Jul 1, Mario 2, Paula 2",
    14: "Jul 2, Katrin 2, Paula 1, Mario 2",
    15: "Katrin 1, Paula 1, Mario 3, Jul 3",
    16: "Katrin 2, Mario 2, Paula 1, Jul 2",
    24: "Paula 2, Jul 2, David 1",
    53: "Jul 2, Marta 1",
    54: "Marta 2, Jul 1",
    56: "Jul 1, Paula 1, Marta 1",
    67: "Paula 1, Jul 1",
    81: "Ina 2, Jonas 1, David 2, Jul 2",
    88: "Jonas 2, Paula 2, Jul 1",
    89: "Jonas 1, Paula 2, Jul 2",
    94: "Paula 1, Jul 1",
    98: "Paula 1, Marta 1, Jul 1",
    100: "David 2, Ina 1, Jonas 2, Jul 2",
    102: "Nicola 2, Paula 2, Jul 1",
    105: "Paula 1, Marta 2, Jul 2",
    106: "Paula 1, Marta 1, Jul 1",
    110: "Paula 1, Jul 1, Marta 1",
    112: "Paula 2, Jul 2, Marta 2, Renate 1",
    403: "Jul 1, Denis 2, Martin 2, Paula 2, Vale 2, Marcel 2, Damian 2",  # Poker, lowest wins, no points written
    408: "Marcel 2, Vale 2, Jul 2, Paula 2, Damian 2, Martin 1",
    582: "Paula 1, Damian 1, Anne 1, Jul 1",  # T.I.M.E Stories keeps no points
}
# Flagged winners first, then the rest by their points.
WINNERS_THEN_BY_POINTS = {
    1: "Jul 1, Paula 2",  # 33 each: the flag decides
    2: "Paula 2, Jul 1",
    3: "Paula 1, Jul 2",
    4: "Katrin 4, Mario 1, Paula 2, Jul 3",
    5: "Paula 2, Jul 1",
    6: "Jul 2, Paula 1",
    7: "Mario 1, Paula 2, Katrin 4, Jul 3",
    8: "Nicola 1, Jul 3, Paula 2",
    9: "Paula 1, Jul 2",
    10: "Jul 2, Paula 1",
    11: "Paula 1, Jul 2",
    12: "Paula 1, Jul 2",
    17: "Paula 1, Jul 2",
    18: "Paula 1, Jul 2",
    19: "Paula 1, Jul 2",
    20: "Jul 2, Paula 1",
    21: "Paula 2, Jul 1",
    22: "Jul 2, Paula 1",
    23: "Jul 2, Paula 1",
    25: "Paula 1, Jul 2",
    64: "Paula 1, Jul 2",  # 21,7 against 20,1: a decimal comma
    359: "Nicola 1, Jul 4, Paula 2, Lupita 3",  # Rummikub: the lowest score wins
    541: "Damian 2, Paula 6, Denis 3, Jul 1, Marcel 4, Martin 5",  # Poker: the lowest wins
    565: "Jul 2, Paula 1, Nicola 3",
}
# Tied points: equal points share a place, the next place skipped.
TIED_POINTS = {
    156: "Marta 2, Paula 2, Jul 1",
    163: "Marta 1, Julia 4, Renate 1, Paula 1, Viola 4",
    167: "Paula 2, Marta 2, Jul 1",
    241: "Jul 4, Renate 2, Paula 1, Marta 2",
    245: "Paula 2, Renate 2, Jul 1",
    263: "Paula 4, Marta 1, Renate 3, Jul 1",
    265: "Renate 1, Paula 3, Jul 3, Marta 1",
    273: "Paula 3, Renate 3, Marta 2, Jul 1",
    312: "Jul 4, Paula 2, Marta 2, Renate 1",
    374: "Maribel 3, Pelao 3, Jul 1, Paula 2",
    432: "Nicola 2, Jul 1, Paula 2",
    434: "Jul 2, Paula 1, Nicola 2",
    441: "Jul 1, Ever 3, Paula 1",
    548: "Jul 1, Marta 3, Paula 1",
    571: "Paula 3, Jul 3, Nicola 1, Sim 2",
}
# Neither a winner nor points: a draw.
DRAWS = [109, 226, 264, 298, 331, 337, 341, 347, 351, 353, 382, 388, 389, 390, 391, 411, 428, 450, 452, 495, 583]
CO_OPS = {
    157: False, 158: True, 409: True, 422: False, 423: True, 425: False, 462: True, 463: True, 464: False,
    465: True, 474: True, 475: True, 476: True, 479: True, 483: True, 484: False, 485: False, 486: True,
    488: True, 489: True,
}  # fmt: skip
SOLOS = {
    27: True, 29: False, 37: True, 38: True, 39: True, 42: True, 48: True, 49: True, 66: True, 71: False,
    72: False, 73: True, 74: False, 75: False, 76: True, 77: False, 79: True, 80: False, 85: True, 90: True,
}  # fmt: skip


@pytest.fixture(scope="module")
def plays():
    export = read_export(FILE.read_bytes(), TODAY)
    assert export.problems == []
    return {play.number: play for play in export.plays}


def written(play) -> str:
    return ", ".join(f"{seat.name} {seat.placing}" for seat in play.seats)


@pytest.mark.parametrize(
    ("expected", "rule"),
    [(WINNERS_ONLY, BY_WINNERS), (WINNERS_THEN_BY_POINTS, WINNERS_THEN_POINTS), (TIED_POINTS, WINNERS_THEN_POINTS)],
)
def test_competitive_plays_are_placed_as_checked_by_hand(plays, expected, rule):
    assert {n: written(plays[n]) for n in expected} == expected
    assert {plays[n].rule for n in expected} == {rule}
    assert {plays[n].kind for n in expected} == {COMPETITIVE}


def test_points_alone_place_a_play_without_a_flagged_winner(plays):
    assert (written(plays[133]), plays[133].rule) == ("Paula 1, Jul 2", BY_POINTS)


def test_a_play_with_neither_winners_nor_points_is_a_draw(plays):
    assert {plays[n].rule for n in DRAWS} == {DRAW}
    assert all({seat.placing for seat in plays[n].seats} == {1} for n in DRAWS)


@pytest.mark.parametrize(("expected", "kind"), [(CO_OPS, CO_OP), (SOLOS, SOLO)])
def test_plays_against_the_game_are_won_or_lost_together(plays, expected, kind):
    assert {n: plays[n].won for n in expected} == expected
    assert {plays[n].kind for n in expected} == {kind}
    assert {plays[n].rule for n in expected} == {"won", "lost"}


def test_the_whole_file_is_read_and_counted_by_rule(plays):
    export = read_export(FILE.read_bytes(), TODAY)
    assert (len(export.plays), export.ignored) == (596, 0)
    assert export.rules() == {
        "co-op: won": 16,
        "co-op: lost": 11,
        "solo: won": 59,
        "solo: lost": 21,
        BY_WINNERS: 106,
        WINNERS_THEN_POINTS: 358,
        BY_POINTS: 1,
        DRAW: 24,
    }


def test_names_lose_the_spaces_typed_after_them_and_the_anonymous_player_is_marked(plays):
    names = {seat.name for play in plays.values() for seat in play.seats}
    assert {"Ever", "Ever sen", "Ina", "Ina K"} <= names
    assert not any(name != name.strip() for name in names)
    anonymous = [seat for seat in plays[388].seats if seat.anonymous]
    assert [seat.name for seat in anonymous] == ["Anonymous player"]


def test_a_decimal_comma_is_read_as_points(plays):
    assert [seat.score for seat in plays[64].seats] == [21.7, 20.1]
