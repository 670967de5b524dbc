"""The rating calculator: one game from query parameters, or several games in a row from text.

Pure Python (no Django): the views hand it the query string's values and render what it returns.
Every mistake is a ParamError naming the parameter, which the JSON API returns with status 400.

Everything that comes in is bounded: each number by its documented range (the methods' parameters
declare theirs; the calculator's own inputs are declared below), the lists by the size of a matchday
(2 to 500 players) and the text of a series by its length. What goes out is finite: a result that
overflows a float is refused naming the ratings, never answered with Infinity or NaN.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from league.checked import MatchdayFacts, Refused, check_results
from league.results import FIELDS, FLAGS, FRACTIONS, LABELS, RATED_AS_GIVEN, TEXTS, Play, TypedResult, read_given
from league.validation import NAME_LENGTH, PLAYERS, RANGES, Span, checked_name, name_key, quoted

from . import methods
from .methods import Facts, Method, MethodError, Outcome, Param, ParamError, Seat
from .methods.base import RATING_LIMIT

MAX_PLAYERS = PLAYERS.highest  # values of one list: a matchday's players
MAX_GAMES = 200  # lines of a series
MAX_SEATS = 1_000  # players over all the games of a series (a 500-player TrueSkill game takes a second)
MAX_TEXT = 20_000  # characters of a series' games, and of its starting ratings
MAX_NAME = 40  # characters of a player's name in a series


def _whole(name: str, label: str, default: int, help: str, span: Span | None = None) -> Param:
    """A whole-number input within the league's range for `name` (league.validation.RANGES)."""
    span = span or RANGES[name]
    return Param(name, label, default, help, int, span.lowest, span.highest)


# The calculator's own inputs, with their ranges (shown on the page and in docs/methods.md).
RATINGS = Param(
    "ratings", "Ratings", 1500, "Each player's rating before the game.", minimum=-RATING_LIMIT, maximum=RATING_LIMIT
)
ROUNDS = _whole("rounds", "Rounds", 1, "The game's rounds (the club formula's K is K per round times this).")
PLACINGS = _whole("placings", "Placings", 1, "Each player's placing, 1 for the winner.", RANGES["placing"])
PLACING = _whole("placing", "Placing", 1, "A player's placing in a series.")
WINNER_SCORE = _whole("winner_score", "Winner's score", 25, "The winner's score (table-size).")


def _given(name: str) -> Param:
    """The per-player input of a field of the result record that methods read as given."""
    label, method = LABELS[name], FIELDS[name].metadata["method"]
    if name in FLAGS:
        return Param(name, label, False, f"Yes for a player who {label.lower()} ({method}).", bool)
    return _whole(name, label, 0, f"{method}.", FIELDS[name].metadata["span"])


# The fields some method reads (the points, which give placings before any method sees them, are not).
PER_PLAYER = tuple(
    _given(name) for name in RATED_AS_GIVEN if name not in (*TEXTS, *FRACTIONS) and "method" in FIELDS[name].metadata
)
PLAYER_INPUTS = {p.name: p for m in methods.METHODS.values() for p in m.player_inputs}
# Sides and partial play, one value per player (`sides=A,A,B,B`, `weights=1,1,0.5,1`), each read as
# every way in reads a side's label and a weight (league.results.read_given).
LISTS = {FIELDS[name].metadata["plural"]: name for name in (*TEXTS, *FRACTIONS)}
GAME_KEYS = {
    "method",
    "ratings",
    "placings",
    "rounds",
    "winner_score",
    *(p.name for p in PER_PLAYER),
    *PLAYER_INPUTS,
    *LISTS,
}


# The parameter that gives each field of the result record: where the one check's problem is shown.
PARAMETERS = {"placing": "placings", "left_early": "left_early", **{name: plural for plural, name in LISTS.items()}}


def league_problem(placings: list[int], per_player: dict[str, list], facts: Facts, names: list[str] | None = None):
    """The first problem of the players as a matchday's results, found by the league's one check
    (league.checked): placings that rank the players or their sides, partners sharing a placing, two
    sides or more, each with a player who played; or None. Players without names are "player 1",
    "player 2"... The placings are the ones rated, as given."""
    names = names or [f"player {i}" for i in range(1, len(placings) + 1)]
    typed = [
        TypedResult(Play(placing, **{name: values[i] for name, values in per_player.items()}), names[i])
        for i, placing in enumerate(placings)
    ]
    try:
        check_results(MatchdayFacts(rounds=facts.rounds, winner_score=facts.winner_score), typed)
    except Refused as refused:
        return refused.problems[0]
    return None


@dataclass
class CalculatedGame:
    """One game as the calculator rates it: the method, its parameters, the seats and the facts."""

    method: Method
    params: dict[str, Any]
    seats: list[Seat]
    facts: Facts

    def outcomes(self) -> list[Outcome]:
        try:
            return finite(self.method.compute(self.seats, self.facts, self.params))
        except MethodError as error:
            raise ParamError(error.param, str(error)) from error


def finite(outcomes: list[Outcome], name: str = "ratings") -> list[Outcome]:
    """`outcomes`, if every number in them is finite; a ParamError naming `name` if not."""
    for o in outcomes:
        numbers = [o.rating_before, o.expected, o.score, o.delta, o.rating_after, o.k, o.opponents_mean]
        numbers += [*(o.state or {}).values(), *(v for v in o.extras.values() if not isinstance(v, bool))]
        if not all(math.isfinite(x) for x in numbers if x is not None):
            raise ParamError(name, "these ratings and parameters give a result too large to compute")
    return outcomes


def _values(param: Param, text: str, players: int | None = None) -> list:
    """A list of numbers separated by commas or spaces, each read and checked as `param` says."""
    parts = [p for p in re.split(r"[,\s]+", str(text).strip()) if p]
    if not parts:
        raise ParamError(param.name, "is empty")
    if len(parts) > MAX_PLAYERS:
        raise ParamError(
            param.name, f"has more than {MAX_PLAYERS} values (a matchday has at most {MAX_PLAYERS} players)"
        )
    if players is not None and len(parts) != players:
        raise ParamError(param.name, f"needs one value per player ({players}), not {len(parts)}")
    values = []
    for i, part in enumerate(parts, start=1):
        try:
            values.append(param.parse(part))
        except ParamError as error:
            raise ParamError(param.name, f"value {i} {error.message}") from None
    return values


def _placings(text: str, players: int) -> list[int]:
    values = _values(PLACINGS, text)
    if len(values) != players:
        raise ParamError("placings", f"needs one placing per rating ({players}), not {len(values)}")
    return values


def _given_values(param: str, text: str, players: int) -> list:
    """One side's label or weight per player. Sides may be separated by commas, leaving a player's
    blank (a side of one: `,B,B`), or by spaces; weights by commas or spaces, none blank."""
    field = LISTS[param]
    text = str(text).strip()
    if field in TEXTS and "," in text:
        parts = [part.strip() for part in text.split(",")]
    else:
        parts = [part for part in re.split(r"[,\s]+", text) if part]
    if len(parts) != players:
        raise ParamError(param, f"needs one value per player ({players}), not {len(parts)}")
    values = []
    for i, part in enumerate(parts, start=1):
        try:
            if not part and field in FRACTIONS:
                raise ValueError(f"{field} must be a number from 0 to 1, not nothing")
            values.append(read_given(field, part))
        except ValueError as error:
            raise ParamError(param, f"value {i}: {error}") from None
    return values


def facts_from(query: Mapping[str, str]) -> Facts:
    rounds = ROUNDS.parse(query["rounds"]) if query.get("rounds") else 1
    winner = WINNER_SCORE.parse(query["winner_score"]) if query.get("winner_score") else None
    return Facts(rounds=rounds, winner_score=winner)


def method_and_params(query: Mapping[str, str], ignore: set[str] = GAME_KEYS) -> tuple[Method, dict]:
    """The method and its parameters from the query; blank values are left out."""
    method = methods.get(str(query.get("method") or "club").strip())
    raw = {k: v for k, v in query.items() if k not in ignore and v != ""}
    return method, method.clean_params(raw)


def game_from_query(query: Mapping[str, str]) -> CalculatedGame:
    """`method`, `ratings`, `placings` and optional `rounds`, `winner_score`, per-player lists
    (`sides`, `weights`, `left_early`, the Sedma counts, and the method's own such as Glicko-2's
    `deviations`), and the method's parameters by name (`k`, `round`, ...). With sides, the placings
    rank the sides and partners carry their side's placing (`sides=A,A,B,B&placings=1,1,2,2`)."""
    method, params = method_and_params(query)
    if not query.get("ratings"):
        raise ParamError("ratings", "is required: the players' current ratings, separated by commas")
    if not query.get("placings"):
        raise ParamError("placings", "is required: the players' placings (1 = winner), separated by commas")
    ratings = _values(RATINGS, query["ratings"])
    placings = _placings(query["placings"], len(ratings))
    per_player = {p.name: _values(p, query[p.name], len(ratings)) for p in PER_PLAYER if query.get(p.name)}
    per_player |= {LISTS[n]: _given_values(n, query[n], len(ratings)) for n in LISTS if str(query.get(n, "")).strip()}
    inputs = {}
    for name in PLAYER_INPUTS:
        if query.get(name):
            param = method.player_input(name)
            if param is None:
                raise ParamError(name, f"{method.slug} takes no {name}")
            inputs[name] = _values(param, query[name], len(ratings))
    facts = facts_from(query)
    if problem := league_problem(placings, per_player, facts):
        raise ParamError(PARAMETERS.get(problem.field, "ratings"), problem.text)
    seats = []
    for i, (rating, placing) in enumerate(zip(ratings, placings, strict=True)):
        given = {name: values[i] for name, values in inputs.items()}
        play = {name: values[i] for name, values in per_player.items()}
        seats.append(Seat(rating, placing, method.state_for(rating, given, params), **play))
    return CalculatedGame(method, params, seats, facts)


def as_json(game: CalculatedGame) -> dict[str, Any]:
    """The JSON API's answer: every player's step, in the order given."""
    players = []
    teamed = any(seat.side or seat.weight != 1 for seat in game.seats)
    for seat, outcome in zip(game.seats, game.outcomes(), strict=True):
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
        if teamed:
            row.update(side=seat.side, weight=seat.weight)
        row.update(outcome.extras)
        players.append(row)
    return {"method": game.method.slug, "parameters": game.params, "players": players}


@dataclass
class SeriesStep:
    """One line of a series of games: its players by name, its facts and what the method gave them."""

    line: int
    names: list[str]
    facts: Facts
    outcomes: list[Outcome]


TOKEN = re.compile(r"^(?P<name>[^\s:=,]+)[:=](?P<value>\S+)$")


def _check_name(param: str, name: str, where: str = "") -> None:
    """A player's name in a series, refused as every way in refuses a name (invisible characters)."""
    try:
        checked_name(name, "player", MAX_NAME)
    except ValueError as error:
        raise ParamError(param, f"{where}{error}") from None


def _start_ratings(start_text: str) -> dict[str, tuple[float, Any]]:
    if len(start_text) > MAX_TEXT:
        raise ParamError("start", f"is longer than {MAX_TEXT:,} characters")
    ratings: dict[str, tuple[float, Any]] = {}
    for token in re.split(r"[,\s]+", start_text.strip()):
        if not token:
            continue
        match = TOKEN.match(token)
        if not match or len(match["name"]) > MAX_NAME:
            raise ParamError("start", f"{quoted(token)} is not NAME=RATING (a name of up to {MAX_NAME} characters)")
        _check_name("start", match["name"])
        try:
            ratings[match["name"]] = (RATINGS.parse(match["value"]), None)
        except ParamError as error:
            raise ParamError("start", f"{match['name']}: {error.message}") from None
        if len(ratings) > MAX_SEATS:
            raise ParamError("start", f"names more than {MAX_SEATS:,} players")
    return ratings


def series(query: Mapping[str, str], start_text: str, games_text: str) -> tuple[list[SeriesStep], dict[str, float]]:
    """Several games in a row, one per line as `NAME:PLACING ...` with optional `rounds=N` and
    `winner_score=S`; each player's rating carries from game to game. `start_text` gives starting
    ratings as `NAME=RATING, ...` (others start at the method's start rating). Mistakes name the line.
    """
    method, params = method_and_params(query, GAME_KEYS | {"games", "start"})
    start_rating, start_state = method.start(params)
    ratings = _start_ratings(start_text)
    if len(games_text) > MAX_TEXT:
        raise ParamError("games", f"is longer than {MAX_TEXT:,} characters")
    lines = [(n, line) for n, line in enumerate(games_text.splitlines(), start=1) if line.strip()]
    if len(lines) > MAX_GAMES:
        raise ParamError("games", f"has more than {MAX_GAMES} games")
    steps, seats_rated = [], 0
    for number, line in lines:
        names, placings, facts_query = [], [], {}
        for token in re.split(r"[,\s]+", line.strip()):
            if not token:
                continue
            match = TOKEN.match(token)
            if not match or len(match["name"]) > MAX_NAME:
                raise ParamError("games", f"line {number}: {quoted(token)} is not NAME:PLACING")
            if match["name"] in ("rounds", "winner_score"):
                facts_query[match["name"]] = match["value"]
                continue
            _check_name("games", match["name"], f"line {number}: ")
            names.append(match["name"])
            placings.append(match["value"])
        seats_rated += len(names)
        if len(names) > MAX_PLAYERS or seats_rated > MAX_SEATS:
            raise ParamError(
                "games", f"line {number}: more than {MAX_SEATS:,} players in all the games, or {MAX_PLAYERS} in one"
            )
        try:
            seats = []
            for name, placing in zip(names, placings, strict=True):
                rating, state = ratings.get(name, (start_rating, start_state))
                seats.append(Seat(rating, PLACING.parse(placing), state))
            facts = facts_from(facts_query)
            problem = league_problem([seat.placing for seat in seats], {}, facts, names)
            outcomes = [] if problem else finite(method.compute(seats, facts, params), "games")
        except (ParamError, MethodError) as error:
            raise ParamError("games", f"line {number}: {error}") from error
        if problem:
            raise ParamError("games", f"line {number}: {problem.text}")
        for name, outcome in zip(names, outcomes, strict=True):
            ratings[name] = (outcome.rating_after, outcome.state)
        steps.append(SeriesStep(number, names, facts, outcomes))
    return steps, {name: rating for name, (rating, _) in ratings.items()}


def player_fields() -> list[Param]:
    """The per-player lists the calculator takes, with their ranges."""
    return [*PER_PLAYER, *PLAYER_INPUTS.values()]


def method_fields(method: Method) -> list[dict]:
    """The calculator page's inputs for one method's parameters, each with its range: the page
    shows the chosen method's alone."""
    return [
        {"param": p, "kind": "bool" if p.type is bool else "choice" if p.choices else "number"} for p in method.params
    ]


def member_names(text: str) -> list[str]:
    """The members named in the calculator's `players` field, whose current ratings fill `ratings`:
    separated by commas or lines (a name may hold spaces), each read as every way in reads a name,
    at most a matchday's players, none named twice."""
    if len(text) > MAX_TEXT:
        raise ParamError("players", f"is longer than {MAX_TEXT:,} characters")
    names = [part.strip() for part in re.split(r"[,\n]", text) if part.strip()]
    if len(names) > MAX_PLAYERS:
        raise ParamError("players", f"names more than {MAX_PLAYERS} players (a matchday has at most {MAX_PLAYERS})")
    seen: dict[str, str] = {}
    for name in names:
        try:
            checked_name(name, "a player's name", NAME_LENGTH)
        except ValueError as error:
            raise ParamError("players", str(error)) from None
        if name_key(name) in seen:
            raise ParamError("players", f"{quoted(name)} is named twice")
        seen[name_key(name)] = name
    return names
