"""The club's data, a module per concept; Django and the migrations find every model here."""

# Saved previews' one-time tokens: a model of this app, kept with the logic that uses it.
from league.submissions import Submission

from .club import Category, FormerName, Game, Page, Player, unranked
from .clubs import (
    Club,
    Revision,
    answering,
    club_reverse,
    club_rows,
    club_setting,
    default_club,
    owned_by_club,
)
from .deals import Attempt, Deal, DealLevel, DealSeed, DealSession
from .history import Change, Write
from .matchdays import Matchday, MatchdayQuerySet, Result
from .rules import WithinClub, unique_in_club
from .seasons import Season
from .tokens import ApiToken, IdempotentPost

__all__ = [
    "ApiToken",
    "Attempt",
    "Category",
    "Change",
    "Club",
    "Deal",
    "DealLevel",
    "DealSeed",
    "DealSession",
    "FormerName",
    "Game",
    "IdempotentPost",
    "Matchday",
    "MatchdayQuerySet",
    "Page",
    "Player",
    "unranked",
    "Result",
    "Revision",
    "Season",
    "Submission",
    "WithinClub",
    "Write",
    "answering",
    "club_reverse",
    "club_rows",
    "club_setting",
    "default_club",
    "owned_by_club",
    "unique_in_club",
]
