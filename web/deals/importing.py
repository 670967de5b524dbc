"""CSV imports of games played against deals: attempts, and deals' prior records (seeds). All or
nothing, with errors that name the line, like the results import (web.importing).

Attempts, one row per attempt, in the order they were played (header required, columns in any
order, `rated` optional: 1/0, blank or absent is 1):

    date,game,variant,level,deal,player,won,rated
    2025-11-03,Solitaire,8x4,5,11982,GL,W,1

`won` is 1/0, W/L or yes/no. The rows of one date and game make one session, rated in the file's
line order. Seeds, one row per deal:

    game,variant,level,deal,plays,wins

This module reads and checks the files; `ratings.deals.services` writes them.
"""

from __future__ import annotations

import csv
import io
from datetime import date

from django.core.exceptions import ValidationError
from django.utils import timezone

from league.checked import date_problem
from league.validation import (
    NAME_LENGTH,
    RANGES,
    SHORT_NAME_LENGTH,
    checked_name,
    iso_date,
    name_key,
    parse_rated,
    parse_won,
    seed_problem,
    variant_problem,
    whole_number,
)
from ratings.deals import services as deal_services
from ratings.deals.services import (
    DealImportSummary,
    ImportedAttempt,
    ImportedSeed,
    ImportedSession,
)
from web.importing import ImportFailed, _capped, _check_utf8, _lines, checked_header

ATTEMPT_COLUMNS = ["date", "game", "variant", "level", "deal", "player", "won"]
ATTEMPT_OPTIONAL = ["rated"]
SEED_COLUMNS = ["game", "variant", "level", "deal", "plays", "wins"]
LONGEST = {"player": SHORT_NAME_LENGTH, "game": NAME_LENGTH}


def _rows(data: bytes, required: list[str], optional: list[str]):
    """The file's header and its non-blank rows as (line, {column: value}); ImportFailed for a bad
    header. Rows with the wrong number of values come back as (line, message)."""
    _check_utf8(data)
    reader = csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""))
    lines = _lines(reader)
    _, header = next(lines, (1, None))
    header = checked_header(header, required, optional, ",".join(required + optional))
    for line, cells in lines:
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(header):
            yield line, f"{len(cells)} values, but the header has {len(header)} columns"
        else:
            yield line, {name: cell.strip() for name, cell in zip(header, cells, strict=True)}


def _whole(values: dict, column: str) -> int:
    return whole_number(values[column], column, RANGES[column])


def _text(values: dict, *columns: str) -> None:
    for column in columns:
        if values[column] == "":
            raise ValueError(f"{column} is empty")
        if column in LONGEST:
            checked_name(values[column], column, LONGEST[column])
    problem = variant_problem(values["variant"])
    if problem:
        raise ValueError(problem)


def _attempt(line: int, values: dict, today: date) -> tuple[date, str, ImportedAttempt]:
    _text(values, "date", "game", "variant", "level", "deal", "player", "won")
    day = iso_date(values["date"])
    problem = date_problem(day, today, "session")  # in the words every way in refuses a matchday's
    if problem:
        raise ValueError(problem.removesuffix("."))
    attempt = ImportedAttempt(
        line,
        values["player"],
        values["variant"],
        _whole(values, "level"),
        _whole(values, "deal"),
        parse_won(values["won"]),
        parse_rated(values.get("rated", "")),
    )
    return day, values["game"], attempt


def parse_attempts(data: bytes) -> list[ImportedSession]:
    """Read and check a whole file of attempts; its sessions (one per date and game) in play order,
    or ImportFailed listing every problem found, the games' too (played in matchdays, not against
    deals), so that the file is put right in one round."""
    errors, sessions, today = [], {}, timezone.localdate()
    for line, values in _rows(data, ATTEMPT_COLUMNS, ATTEMPT_OPTIONAL):
        try:
            if isinstance(values, str):
                raise ValueError(values)
            day, game, attempt = _attempt(line, values, today)
        except ValueError as exc:
            errors.append(f"Line {line}: {exc}.")
            continue
        sessions.setdefault((day, name_key(game)), ImportedSession(day, game)).attempts.append(attempt)
    if errors:  # the writer checks the games again; a file with no other problem is refused there
        errors += deal_services.matchday_games(deal_services.lines_of(list(sessions.values())))
    if not sessions and not errors:
        errors.append("The file has a header but no attempts.")
    if errors:
        raise ImportFailed(_capped(errors))
    return sorted(sessions.values(), key=lambda s: s.date)


def parse_seeds(data: bytes) -> list[ImportedSeed]:
    """Read and check a whole file of deal seeds, or ImportFailed listing every problem found."""
    errors, seeds, first_line = [], [], {}
    for line, values in _rows(data, SEED_COLUMNS, []):
        try:
            if isinstance(values, str):
                raise ValueError(values)
            _text(values, *SEED_COLUMNS)
            seed = ImportedSeed(
                line,
                values["game"],
                values["variant"],
                _whole(values, "level"),
                _whole(values, "deal"),
                _whole(values, "plays"),
                _whole(values, "wins"),
            )
            problem = seed_problem(seed.plays, seed.wins)
            if problem:
                raise ValueError(problem)
        except ValueError as exc:
            errors.append(f"Line {line}: {exc}.")
            continue
        key = (name_key(seed.game), name_key(seed.variant), seed.level, seed.number)
        if key in first_line:
            errors.append(
                f"Line {line}: deal {seed.number} of {seed.variant} level {seed.level} is seeded twice "
                f"(also on line {first_line[key]})."
            )
        first_line.setdefault(key, line)
        seeds.append(seed)
    if not seeds and not errors:
        errors.append("The file has a header but no deals.")
    if errors:
        raise ImportFailed(_capped(errors))
    return seeds


def import_attempts(data: bytes, *, replace: bool = False) -> DealImportSummary:
    """Import a CSV file of attempts and recompute the games it touches; nothing changes on error."""
    sessions = parse_attempts(data)
    try:
        return deal_services.import_attempts(sessions, replace=replace)
    except ValidationError as error:
        raise ImportFailed(error.messages) from None


def import_seeds(data: bytes) -> DealImportSummary:
    """Import a CSV file of deal seeds and recompute the games it touches; nothing changes on error."""
    seeds = parse_seeds(data)
    try:
        return deal_services.seed_deals(seeds)
    except ValidationError as error:
        raise ImportFailed(error.messages) from None
