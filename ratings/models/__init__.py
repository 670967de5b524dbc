"""The ratings app's data, a module per concept; Django and the migrations find every model here."""

from .deals import AttemptRating, AttemptRatingQuerySet, DealRating, LevelRating
from .history import (
    HISTORY_INDEX,
    PLAY_ORDER_INDEX,
    RatingEntry,
    RatingEntryQuerySet,
    Standing,
    StandingQuerySet,
    before,
    from_position,
)
from .tables import AllTimeTables, RatingTable, RatingTableQuerySet

__all__ = [
    "HISTORY_INDEX",
    "PLAY_ORDER_INDEX",
    "AllTimeTables",
    "AttemptRating",
    "AttemptRatingQuerySet",
    "DealRating",
    "LevelRating",
    "RatingEntry",
    "RatingEntryQuerySet",
    "RatingTable",
    "RatingTableQuerySet",
    "Standing",
    "StandingQuerySet",
    "before",
    "from_position",
]
