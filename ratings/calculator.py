"""The rating calculator: one game from query parameters, or several games in a row from text.

Pure Python (no Django): the views hand it the query string's values and render what it returns.
Every mistake is a ParamError naming the parameter, which the JSON API returns with status 400.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import methods
from .methods import Facts, Method, MethodError, Outcome, ParamError, Seat

SEDMA_COUNTS = ("won_by_16", "won_by_24", "won_by_4_and_last", "bad_moves")
GAME_KEYS = {"method", "ratings", "placings", "rounds", "winner_score", "left_early", *SEDMA_COUNTS}
MAX_PLAYERS = 100
MAX_GAMES = 200


@dataclass
class Game:
    method: Method
    params: dict[str, Any]
    seats: list[Seat]
    facts: Facts

    def outcomes(self) -> list[Outcome]:
        try:
            return self.method.compute(self.seats, self.facts, self.params)
        except MethodError as error:
            raise ParamError(error.param, str(error)) from error


def _numbers(name: str, text: str, kind: type) -> list:
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if not parts:
        raise ParamError(name, "is empty")
    if len(parts) > MAX_PLAYERS:
        raise ParamError(name, f"has more than {MAX_PLAYERS} values")
    values = []
    for part in parts:
        try:
            value = kind(part)
        except ValueError:
            kind_name = "whole numbers" if kind is int else "numbers"
            raise ParamError(name, f"must be {kind_name} separated by commas, not {part!r}") from None
        if kind is float and value != value or value in (float("inf"), float("-inf")):
            raise ParamError(name, f"must be finite numbers, not {part!r}")
        values.append(value)
    return values


def _whole(name: str, text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ParamError(name, f"must be a whole number, not {text!r}") from None
    if value < minimum:
        raise ParamError(name, f"must be at least {minimum}, not {value}")
    return value


def facts_from(query: Mapping[str, str]) -> Facts:
    rounds = _whole("rounds", query["rounds"], 1) if query.get("rounds") else 1
    winner = _whole("winner_score", query["winner_score"], 1) if query.get("winner_score") else None
    return Facts(rounds=rounds, winner_score=winner)


def method_and_params(query: Mapping[str, str], ignore: set[str] = GAME_KEYS) -> tuple[Method, dict]:
    """The method and its parameters from the query; blank values are left out."""
    method = methods.get(query.get("method") or "club")
    raw = {k: v for k, v in query.items() if k not in ignore and v != ""}
    return method, method.clean_params(raw)


def game_from_query(query: Mapping[str, str]) -> Game:
    """`method`, `ratings`, `placings` and optional `rounds`, `winner_score`, per-player lists
    `left_early` and the Sedma counts, and the method's parameters by name (`k`, `round`, ...)."""
    method, params = method_and_params(query)
    if not query.get("ratings"):
        raise ParamError("ratings", "is required: the players' current ratings, separated by commas")
    if not query.get("placings"):
        raise ParamError("placings", "is required: the players' placings (1 = winner), separated by commas")
    ratings = _numbers("ratings", query["ratings"], float)
    placings = _numbers("placings", query["placings"], int)
    if len(placings) != len(ratings):
        raise ParamError("placings", f"needs one placing per rating ({len(ratings)}), not {len(placings)}")
    per_player = {}
    for name in ("left_early", *SEDMA_COUNTS):
        if query.get(name):
            values = _numbers(name, query[name], int)
            if len(values) != len(ratings) or min(values) < 0:
                raise ParamError(name, f"needs one whole number of 0 or more per player ({len(ratings)})")
            per_player[name] = values
    seats = [
        Seat(
            rating=rating,
            placing=placing,
            **{name: (bool(values[i]) if name == "left_early" else values[i]) for name, values in per_player.items()},
        )
        for i, (rating, placing) in enumerate(zip(ratings, placings, strict=True))
    ]
    return Game(method, params, seats, facts_from(query))


def as_json(game: Game) -> dict[str, Any]:
    """The JSON API's answer: every player's step, in the order given."""
    players = []
    for outcome in game.outcomes():
        row = {
            "rating_before": outcome.rating_before,
            "placing": outcome.placing,
            "expected": outcome.expected,
            "score": outcome.score,
            "k": outcome.k,
            "delta": outcome.delta,
            "rating_after": outcome.rating_after,
        }
        if outcome.opponents_mean is not None:
            row["opponents_mean"] = outcome.opponents_mean
        row.update(outcome.extras)
        players.append(row)
    return {"method": game.method.slug, "parameters": game.params, "players": players}


@dataclass
class Step:
    line: int
    names: list[str]
    facts: Facts
    outcomes: list[Outcome]


TOKEN = re.compile(r"^(?P<name>[^\s:=,]+)[:=](?P<value>\S+)$")


def series(query: Mapping[str, str], start_text: str, games_text: str) -> tuple[list[Step], dict[str, float]]:
    """Several games in a row, one per line as `NAME:PLACING ...` with optional `rounds=N` and
    `winner_score=S`; each player's rating carries from game to game. `start_text` gives starting
    ratings as `NAME=RATING, ...` (others start at the method's start rating). Mistakes name the line.
    """
    method, params = method_and_params(query, GAME_KEYS | {"games", "start"})
    start_rating, start_state = method.start(params)
    ratings: dict[str, tuple[float, Any]] = {}
    for token in re.split(r"[,\s]+", start_text.strip()):
        if not token:
            continue
        match = TOKEN.match(token)
        if not match:
            raise ParamError("start", f"{token!r} is not NAME=RATING")
        ratings[match["name"]] = (_numbers("start", match["value"], float)[0], None)
    steps = []
    lines = [(n, line) for n, line in enumerate(games_text.splitlines(), start=1) if line.strip()]
    if len(lines) > MAX_GAMES:
        raise ParamError("games", f"has more than {MAX_GAMES} games")
    for number, line in lines:
        names, placings, facts_query = [], [], {}
        for token in re.split(r"[,\s]+", line.strip()):
            match = TOKEN.match(token) if token else None
            if not token:
                continue
            if not match:
                raise ParamError("games", f"line {number}: {token!r} is not NAME:PLACING")
            if match["name"] in ("rounds", "winner_score"):
                facts_query[match["name"]] = match["value"]
                continue
            names.append(match["name"])
            placings.append(match["value"])
        if len(set(names)) != len(names):
            raise ParamError("games", f"line {number}: a player is entered twice")
        try:
            seats = []
            for name, placing in zip(names, placings, strict=True):
                rating, state = ratings.get(name, (start_rating, start_state))
                seats.append(Seat(rating, int(placing), state))
            facts = facts_from(facts_query)
            outcomes = method.compute(seats, facts, params)
        except (ValueError, MethodError) as error:
            raise ParamError("games", f"line {number}: {error}") from error
        for name, outcome in zip(names, outcomes, strict=True):
            ratings[name] = (outcome.rating_after, outcome.state)
        steps.append(Step(number, names, facts, outcomes))
    return steps, {name: rating for name, (rating, _) in ratings.items()}
