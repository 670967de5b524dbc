"""A BG Stats export read as plays, each placed by the rules of docs/formats.md (BG Stats exports).

Pure Python (no Django). The app writes a play's players with a `rank` (0 when not given), a
`winner` flag and a `score` (text, with a decimal comma in some locales); its games say whether the
highest score wins, whether they keep points at all, whether they are co-operative and whether
they use teams. A file is read whole or refused: every problem names its play.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass, field
from datetime import date

from .checked import date_problem
from .placings import competition_ranking
from .results import read_given
from .validation import NAME_LENGTH, PLAYERS, SIDE_LENGTH, iso_date, name_key, name_problem, quoted

LARGEST_FILE = 20 * 1024 * 1024  # bytes: a club's years of plays are well under one
COMPETITIVE, CO_OP, SOLO = "competitive", "co-op", "solo"
# How a competitive play's placings were found (counted in the report, written in docs/formats.md).
BY_RANK, WINNERS_THEN_POINTS, BY_POINTS, BY_WINNERS, DRAW = (
    "the ranks given",
    "the flagged winners, then the points",
    "the points",
    "the flagged winners",
    "a draw (no winner, no points)",
)


class ExportRefused(ValueError):
    """A file that is not a BG Stats export at all (not JSON, too large): one problem, no plays."""


@dataclass(frozen=True)
class BgGame:
    name: str
    highest_wins: bool
    no_points: bool
    cooperative: bool
    uses_teams: bool


@dataclass(frozen=True)
class BgSeat:
    """One player of a play, placed: `team` is their side's label where the game uses teams."""

    name: str
    anonymous: bool
    placing: int
    score: float | None
    team: str
    winner: bool


@dataclass(frozen=True)
class BgPlay:
    number: int  # the play's place in the file, from 1, for messages
    uuid: str
    day: date
    game: BgGame
    seats: tuple[BgSeat, ...]
    kind: str  # COMPETITIVE, CO_OP or SOLO
    won: bool | None  # a co-op or solo play's: did the players beat the game
    rule: str  # how the placings were found (a competitive play), or "won"/"lost" (against the game)

    @property
    def named(self) -> str:
        return f"Play {self.number} ({self.day.isoformat()}, {self.game.name}, {self.uuid})"


@dataclass
class Export:
    plays: list[BgPlay] = field(default_factory=list)
    ignored: int = 0  # plays the app marks as ignored
    problems: list[str] = field(default_factory=list)

    def rules(self) -> Counter:
        """How many plays each rule placed, in the report's words."""
        return Counter(f"{play.kind}: {play.rule}" if play.kind != COMPETITIVE else play.rule for play in self.plays)


def read_export(data: bytes, today: date) -> Export:
    """The file's plays, or its problems (each naming its play); ExportRefused if it is no export."""
    document = _json(data)
    if not isinstance(document, dict):
        raise ExportRefused("This is not a BG Stats export: the file holds no object with plays, games and players.")
    export = Export()
    games = _by_id(document, "games", _game, export.problems)
    players = _by_id(document, "players", _player, export.problems)
    plays = document.get("plays")
    if not isinstance(plays, list):
        raise ExportRefused("This is not a BG Stats export: it has no list of plays.")
    seen: dict[str, int] = {}
    for number, raw in enumerate(plays, start=1):
        try:
            play = _play(number, raw, games, players, today)
        except ValueError as error:
            export.problems.append(f"Play {number}{_which(raw)}: {error}")
            continue
        if play is None:
            export.ignored += 1
        elif play.uuid in seen:
            export.problems.append(f"{play.named}: the same uuid as play {seen[play.uuid]}; a play is listed once.")
        else:
            seen[play.uuid] = number
            export.plays.append(play)
    return export


def _json(data: bytes):
    if len(data) > LARGEST_FILE:
        raise ExportRefused(
            f"The file is {len(data) // 1_000_000} MB; a BG Stats export of a club is well under 20 MB."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ExportRefused("This is not a BG Stats export: the file is not text (UTF-8).") from None
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_once_each)
    except RecursionError:
        raise ExportRefused("This is not a BG Stats export: its values are nested too deeply.") from None
    except ValueError as error:
        raise ExportRefused(f"This is not a BG Stats export: it is not JSON ({error}).") from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def _once_each(pairs: list[tuple[str, object]]) -> dict:
    found = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"the key {quoted(key)} is given twice in one object")
        found[key] = value
    return found


def _which(raw) -> str:
    """A play's uuid for a message, when it has a readable one."""
    uuid = raw.get("uuid") if isinstance(raw, dict) else None
    return f" ({uuid})" if isinstance(uuid, str) and 0 < len(uuid) <= 64 else ""


def _by_id(document: dict, key: str, read, problems: list[str]) -> dict[int, object]:
    rows = document.get(key)
    if not isinstance(rows, list):
        raise ExportRefused(f"This is not a BG Stats export: it has no list of {key}.")
    found = {}
    for n, row in enumerate(rows, start=1):
        name = row.get("name") if isinstance(row, dict) else None
        which = f"{key[:-1].capitalize()} {n} of the file" + (
            f" ({quoted(name.strip(), 40)})" if isinstance(name, str) else ""
        )
        try:
            if not isinstance(row, dict) or not _is_int(row.get("id")):
                raise ValueError("it has no whole-number id")
            found[row["id"]] = read(row)
        except ValueError as error:
            problems.append(f"{which}: {error}")
    return found


def _game(row: dict) -> BgGame:
    name = _name(row, "name", "game")
    flags = {key: _flag(row, key) for key in ("highestWins", "noPoints", "cooperative", "usesTeams")}
    return BgGame(name, flags["highestWins"], flags["noPoints"], flags["cooperative"], flags["usesTeams"])


def _player(row: dict) -> tuple[str, bool]:
    return _name(row, "name", "player"), _flag(row, "isAnonymous", default=False)


def _name(row: dict, key: str, what: str) -> str:
    text = row.get(key)
    if not isinstance(text, str):
        raise ValueError(f"its {key} is missing or not text")
    text = text.strip()  # the app keeps the spaces typed after a name ("Ina ")
    problem = name_problem(text, f"The {what} name", NAME_LENGTH)
    if problem:
        raise ValueError(problem)
    return text


def _flag(row: dict, key: str, default: bool | None = None) -> bool:
    value = row.get(key, default)
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false, not {quoted(value)}")
    return value


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _referred(found: dict, ref):
    """The game or player a play refers to by its id (a whole number: `true`, a list or an object is
    none, not game 1 or a crash)."""
    return found.get(ref) if _is_int(ref) else None


def _play(number: int, raw, games: dict, players: dict, today: date) -> BgPlay | None:
    """One play, placed; None for a play the app marks as ignored. ValueError names what is wrong."""
    if not isinstance(raw, dict):
        raise ValueError("it is not an object")
    if _flag(raw, "ignored", default=False):
        return None
    uuid = raw.get("uuid")
    if not isinstance(uuid, str) or not 0 < len(uuid.strip()) <= 64:
        raise ValueError("its uuid is missing (it keeps a play from being imported twice)")
    day = _day(raw.get("playDate"), today)
    game = _referred(games, raw.get("gameRefId"))
    if game is None:
        raise ValueError(f"its game {quoted(raw.get('gameRefId'))} is not among the file's games")
    scores = raw.get("playerScores")
    if not isinstance(scores, list) or not scores:
        raise ValueError("it has no players")
    if len(scores) > PLAYERS.highest:
        raise ValueError(f"it has {len(scores)} players; a play has at most {PLAYERS.highest}")
    read = [_score(n, row, players, game) for n, row in enumerate(scores, start=1)]
    names = [name_key(name) for name, *_ in read]
    if len(set(names)) < len(names):
        twice = next(name for name, *_ in read if names.count(name_key(name)) > 1)
        raise ValueError(f"{twice} is listed twice")
    seats, kind, won, rule = _placed(read, game)
    return BgPlay(number, uuid.strip(), day, game, seats, kind, won, rule)


def _day(value, today: date) -> date:
    if not isinstance(value, str):
        raise ValueError("its playDate is missing")
    try:
        day = iso_date(value[:10])  # not date.fromisoformat alone, which reads 20210808 and 2021-W45-1 too
    except ValueError:
        raise ValueError(f"its playDate {quoted(value)} is not a date (YYYY-MM-DD hh:mm:ss)") from None
    if problem := date_problem(day, today, "play"):
        raise ValueError(problem)  # in the words every way in refuses a matchday's date
    return day


Read = tuple[str, bool, int, float | None, str, bool]  # name, anonymous, rank, points, team, winner


def _score(n: int, row, players: dict, game: BgGame) -> Read:
    if not isinstance(row, dict):
        raise ValueError(f"its player {n} is not an object")
    found = _referred(players, row.get("playerRefId"))
    if found is None:
        raise ValueError(f"its player {n} ({quoted(row.get('playerRefId'))}) is not among the file's players")
    name, anonymous = found
    rank = row.get("rank", 0)
    if not _is_int(rank) or not 0 <= rank <= PLAYERS.highest:
        raise ValueError(f"{name}'s rank {quoted(rank)} is not a whole number from 0 to {PLAYERS.highest}")
    team = row.get("team") or ""
    if not isinstance(team, str) or (not game.uses_teams and len(team) > SIDE_LENGTH):
        raise ValueError(f"{name}'s team {quoted(team)} is not a short text")
    if game.uses_teams:  # a side's label, read as every way in reads one (an invisible character refused)
        try:
            team = read_given("side", team)
        except ValueError as error:
            raise ValueError(f"{name}'s team: {error}") from None
    return name, anonymous, rank, _points(name, row.get("score")), team.strip(), _flag(row, "winner", default=False)


def _points(name: str, value) -> float | None:
    """Points as written: text, with a decimal comma in some locales ("21,7"); blank is none."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if _is_int(value) or isinstance(value, float):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip().replace(",", "."))
        except ValueError:
            raise ValueError(f"{name}'s score {quoted(value)} is not a number") from None
    else:
        raise ValueError(f"{name}'s score {quoted(value)} is not a number")
    if not math.isfinite(number) or abs(number) > 1_000_000:
        raise ValueError(f"{name}'s score {quoted(value)} is not a number from -1,000,000 to 1,000,000")
    return number


def _placed(read: list[Read], game: BgGame) -> tuple[tuple[BgSeat, ...], str, bool | None, str]:
    """The seats placed, the play's kind, whether it was won against the game, and the rule used."""
    teams = [team if game.uses_teams else "" for *_, team, _ in read]
    if game.cooperative or len(read) == 1:
        won = any(winner for *_, winner in read)
        seats = tuple(BgSeat(n, a, 1, p, t, w) for (n, a, _, p, _, w), t in zip(read, teams, strict=True))
        return seats, CO_OP if game.cooperative else SOLO, won, "won" if won else "lost"
    placings, rule = _placings(read, game, teams)
    seats = tuple(
        BgSeat(name, anonymous, placing, points, team, winner)
        for (name, anonymous, _, points, _, winner), placing, team in zip(read, placings, teams, strict=True)
    )
    return seats, COMPETITIVE, None, rule


def _placings(read: list[Read], game: BgGame, teams: list[str]) -> tuple[list[int], str]:
    ranks = [rank for _, _, rank, *_ in read]
    if all(ranks):
        return ranks, BY_RANK
    points = [p for *_, p, _, _ in read]
    winners = [w for *_, w in read]
    has_points = not game.no_points and all(p is not None for p in points)
    keys = _team_keys(teams)
    if has_points:
        signed = [-p if game.highest_wins else p for p in points]
        if any(winners):  # the flagged first, then the rest by points
            order = [(not w, s) for w, s in zip(winners, signed, strict=True)]
            return _ranked(order, keys), WINNERS_THEN_POINTS
        return _ranked(signed, keys), BY_POINTS
    if any(winners):
        return _ranked([not w for w in winners], keys), BY_WINNERS
    return [1] * len(read), DRAW


def _team_keys(teams: list[str]) -> list[str | int]:
    """A key per player: their team's label compared as the check compares sides ("red" and "Red" are
    one team), or their own place when alone."""
    return [name_key(team) if team else index for index, team in enumerate(teams)]


def _ranked(order: list, keys: list) -> list[int]:
    """Competition placings of `order` (lower first), a team placed as its best member."""
    best: dict = {}
    for key, value in zip(keys, order, strict=True):
        best[key] = min(best.get(key, value), value)
    side_keys = list(best)
    side_placing = dict(zip(side_keys, competition_ranking([best[k] for k in side_keys]), strict=True))
    return [side_placing[key] for key in keys]
