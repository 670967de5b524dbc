"""The club's rating formula; it now lives in `ratings.methods.club` with the other methods."""

from ratings.methods.base import round_half_up
from ratings.methods.club import (
    K_PER_ROUND,
    START_RATING,
    Change,
    club_changes,
    expected_score,
    placing_scores,
)

__all__ = [
    "K_PER_ROUND",
    "START_RATING",
    "Change",
    "club_changes",
    "expected_score",
    "placing_scores",
    "round_half_up",
]
