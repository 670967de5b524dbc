"""Rating methods of card sites, as pure functions: no Django here.

Each method declares its parameters and computes one matchday: given each player's rating (and any
state it carries), their placings and the matchday's facts, it returns per player the expected
score, the actual score, K, the change and the new rating. The registry maps the slugs used by the
admin, the calculator and the JSON API to the methods.
"""

from __future__ import annotations

from .base import Facts, Method, MethodError, Outcome, Param, ParamError, Seat, check_ranking
from .club import ClubFormula
from .deals import PlayerVsDeal
from .elo_mmr import EloMMR
from .glicko2 import Glicko2
from .openskill_pl import OpenSkill
from .pairwise import PairwisePlacing, PairwiseWinner, RatingBand
from .sedma import Sedma
from .table_size import TableSize
from .trueskill_ffa import TrueSkill

METHODS: dict[str, Method] = {
    m.slug: m
    for m in (
        ClubFormula(),
        PairwisePlacing(),
        PairwiseWinner(),
        TableSize(),
        RatingBand(),
        Sedma(),
        OpenSkill(),
        TrueSkill(),
        Glicko2(),
        EloMMR(),
        PlayerVsDeal(),
    )
}

CHOICES = [(slug, method.name) for slug, method in METHODS.items()]


def get(slug: str) -> Method:
    """The method of `slug`; ParamError (naming `method`) for an unknown slug."""
    try:
        return METHODS[slug]
    except KeyError:
        raise ParamError("method", f"unknown method {slug!r} (one of {', '.join(METHODS)})") from None


__all__ = [
    "CHOICES",
    "METHODS",
    "Facts",
    "Method",
    "MethodError",
    "Outcome",
    "Param",
    "ParamError",
    "Seat",
    "check_ranking",
    "get",
]
