"""What the API answers and takes, as ninja (pydantic) schemas: the OpenAPI schema is made from them."""

from __future__ import annotations

from datetime import date

from ninja import Schema
from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr

from league.validation import ENTRY_LINES


class ClubOut(Schema):
    slug: str
    name: str
    url: str


class TableOut(Schema):
    slug: str
    name: str
    scope: str
    method: str
    game: str | None = Field(description="The game's slug, for a game's table.")
    category: str | None = Field(description="The category's name, for a category's table.")


class StandingOut(Schema):
    rank: int | None = Field(description="None: provisional, listed after the ranked players.")
    player_id: int
    player: str
    rating: float
    played: int
    last_played: date
    last_change: float
    provisional: bool


class TableStandingsOut(Schema):
    table: str
    name: str
    hidden: bool = Field(description="Whether inactive players were left out (all=1 shows them).")
    rows: list[StandingOut]


class StandingsOut(Schema):
    as_at: date | None
    tables: list[TableStandingsOut]


class PlayerRowOut(Schema):
    id: int
    short_name: str
    name: str
    rating: float | None
    rank: int | None
    matchdays: int
    attempts: int
    last_played: date | None


class PlayersOut(Schema):
    as_at: date | None
    players: list[PlayerRowOut]


class PointOut(Schema):
    date: date
    matchday: int
    rating: float
    change: float
    placing: int


class PlayerTableOut(Schema):
    table: str
    rank: int | None = Field(
        description="As the standings show it; None where they show the player unranked (provisional, a guest) "
        "or leave them out (inactive)."
    )
    of: int = Field(description="How many players the standings rank (the 12 of #3 of 12).")
    rating: float
    played: int
    provisional: bool
    history: list[PointOut]


class PlayerOut(Schema):
    id: int
    short_name: str
    name: str
    as_at: date | None
    tables: list[PlayerTableOut]


class MatchdayRowOut(Schema):
    number: int
    date: date
    game: str
    rounds: int


class MatchdaysOut(Schema):
    page: int
    pages: int
    count: int
    matchdays: list[MatchdayRowOut]


class ResultOut(Schema):
    player_id: int
    player: str
    placing: int
    rated_placing: int | None
    score: float | None
    side: str
    weight: float
    left_early: bool


class ChangeOut(Schema):
    player_id: int
    player: str
    rating_before: float
    rating_after: float
    change: float


class TableChangesOut(Schema):
    table: str
    changes: list[ChangeOut]


class MatchdayOut(MatchdayRowOut):
    results: list[ResultOut]
    ratings: list[TableChangesOut]


class GameOut(Schema):
    slug: str
    name: str
    category: str | None
    official: bool
    scoring: str
    against_deals: bool


class MatchdayIn(Schema):
    """A game night's matchday as the entry page takes it: `lines` in its notation, one place a line."""

    model_config = ConfigDict(extra="forbid", strict=True)

    # No length caps of pydantic's on the date and the reason: they are read by the entry page's own
    # readers, which refuse them in the words every way in uses (the body's size caps the text).
    date: StrictStr = Field(description="YYYY-MM-DD", examples=["2026-11-03"])
    game: StrictStr = Field(max_length=100, description="The game's slug or name.")
    rounds: StrictInt | None = Field(
        None, description="Left out: the game's last matchday's rounds (1 for a new game)."
    )
    winner_score: StrictInt | None = None
    lines: list[StrictStr] = Field(max_length=ENTRY_LINES.highest, examples=[["GL + K", "I + J"]])
    reason: StrictStr = Field("", description="Why, kept in the club's history: at most 300 characters.")
    another: StrictBool = Field(False, description="Save though it looks like a matchday already saved.")


class ApiProblem(Schema):
    field: str = Field(description="date, game, rounds, winner_score, lines, or the body itself (body).")
    line: int | None = Field(None, description="The line (from 1) of `lines` the problem is on.")
    message: str


class DetailOut(Schema):
    detail: str


class RefusedOut(Schema):
    detail: str
    problems: list[ApiProblem] = []


class SavedOut(Schema):
    number: int
    url: str
    changes: list[TableChangesOut]
