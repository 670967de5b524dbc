"""A small fixed cast for the tests: the club's demo data, and helpers to build matchdays."""

from datetime import date
from pathlib import Path

import pytest

from league.importing import import_results
from league.models import Game, Matchday, Player, Result
from ratings import services

CLUB_CSV = Path(__file__).resolve().parent.parent / "league" / "demo" / "club-november.csv"


@pytest.fixture
def club(db):
    """The club's six November matchdays, imported as a secretary would."""
    import_results(CLUB_CSV.read_bytes())


@pytest.fixture
def hearts(db):
    return Game.objects.get_or_create(slug="hearts", defaults={"name": "Hearts"})[0]


@pytest.fixture
def make_matchday(db, hearts):
    """make_matchday(7, "2025-11-20", {"I": 1, "R": 2}, rounds=3, game=None, rated={"R": 4})"""

    def make(number, day, placings, *, rounds=1, game=None, rated=None, recompute=True):
        matchday = Matchday.objects.create(
            number=number, date=date.fromisoformat(day), game=game or hearts, rounds=rounds
        )
        for short_name, placing in placings.items():
            player, _ = Player.objects.get_or_create(short_name=short_name, defaults={"name": short_name})
            Result.objects.create(
                matchday=matchday,
                player=player,
                placing=placing,
                rated_placing=(rated or {}).get(short_name),
            )
        if recompute:
            services.recompute_for_matchday(matchday)
        return matchday

    return make
