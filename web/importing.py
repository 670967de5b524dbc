"""CSV import of matchday results: all or nothing, with errors that name the line.

Format (one row per player per matchday; header required, column order free):

    matchday,date,game,rounds,player,placing,rated_placing
    5,2025-11-10,Hearts,4,R,3,4

`rated_placing` may be empty. Unknown players (by short name) and games (by name) are created; new
games count as official. This module reads and checks the file; `ratings.services.import_matchdays`
writes it.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError

from league.models import Game, Player
from league.validation import Entry, matchday_problems
from ratings import services
from ratings.services import ImportedMatchday, ImportedResult, ImportSummary

COLUMNS = ["matchday", "date", "game", "rounds", "player", "placing", "rated_placing"]
OPTIONAL_COLUMNS = {"left_early": ""}  # a column a file may leave out, and its value then
YES, NO = {"1", "yes", "y", "true", "x"}, {"0", "no", "n", "false", ""}
MAX_ERRORS = 20


class ImportFailed(Exception):
    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("\n".join(errors))


@dataclass
class Row:
    line: int
    matchday: int
    date: date
    game: str
    rounds: int
    player: str
    placing: int
    rated_placing: int | None
    left_early: bool = False


# The largest values the database columns hold (PositiveIntegerField, PositiveSmallIntegerField).
LARGEST = {"matchday": 2_147_483_647, "rounds": 32_767, "placing": 32_767, "rated_placing": 32_767}
LONGEST = {
    "player": Player._meta.get_field("short_name").max_length,
    "game": Game._meta.get_field("name").max_length,
}


def _whole_number(text: str, column: str, *, optional: bool = False) -> int | None:
    if optional and text == "":
        return None
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{column} must be a whole number, not {text!r}") from None
    if value < 1:
        raise ValueError(f"{column} must be at least 1, not {value}")
    if value > LARGEST[column]:
        raise ValueError(f"{column} {value} is too large (at most {LARGEST[column]})")
    return value


def _yes_or_no(text: str, column: str) -> bool:
    if text.lower() in YES:
        return True
    if text.lower() in NO:
        return False
    raise ValueError(f"{column} must be 1 or 0 (or yes or no, or empty), not {text!r}")


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")  # spreadsheets often start their exports with a BOM
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportFailed(
            [f"Line {line}: the file is not UTF-8 text (byte {exc.start + 1}); save it as CSV UTF-8."]
        ) from None


def parse(data: bytes) -> list[ImportedMatchday]:
    """Read and check the whole file, and return its matchdays in play order; raise ImportFailed
    listing every problem found."""
    reader = csv.reader(io.StringIO(_decode(data), newline=""))
    header = next(reader, None)
    if header is None or not any(cell.strip() for cell in header):
        raise ImportFailed(["The file is empty; the first line must be the header: " + ",".join(COLUMNS)])
    header = [cell.strip().lower() for cell in header]
    missing = [c for c in COLUMNS if c not in header]
    unknown = [c for c in header if c not in COLUMNS and c not in OPTIONAL_COLUMNS]
    twice = sorted({c for c in header if header.count(c) > 1})
    if missing or unknown or twice:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if unknown:
            parts.append("unknown " + ", ".join(repr(c) for c in unknown))
        if twice:
            parts.append("given twice " + ", ".join(repr(c) for c in twice))
        raise ImportFailed([f"Line 1: header columns {'; '.join(parts)}. Expected: {','.join(COLUMNS)}"])

    errors: list[str] = []
    matchdays: dict[int, list[Row]] = {}
    # Matchdays that lost a line to an error are not checked as a whole: with a row missing, the
    # check would report false problems with their good lines. None: a lost line's matchday is unknown.
    incomplete: set[int | None] = set()
    for cells in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(header):
            errors.append(f"Line {line}: {len(cells)} values, but the header has {len(header)} columns.")
            incomplete.add(None)
            continue
        values = {name: cell.strip() for name, cell in zip(header, cells, strict=True)}
        try:
            row = _parse_row(line, values)
        except ValueError as exc:
            errors.append(f"Line {line}: {exc}.")
            incomplete.add(int(values["matchday"]) if values["matchday"].isdigit() else None)
            continue
        matchdays.setdefault(row.matchday, []).append(row)
    if not matchdays and not errors:
        errors.append("The file has a header but no results.")
    if None not in incomplete:
        for number, rows in matchdays.items():
            if number not in incomplete:
                errors.extend(_matchday_errors(number, rows))
    if errors:
        raise ImportFailed(_capped(errors))
    imported = [
        ImportedMatchday(
            number,
            rows[0].date,
            rows[0].game,
            rows[0].rounds,
            [ImportedResult(r.line, r.player, r.placing, r.rated_placing, r.left_early) for r in rows],
        )
        for number, rows in matchdays.items()
    ]
    return sorted(imported, key=lambda m: (m.date, m.number))


def _parse_row(line: int, values: dict[str, str]) -> Row:
    for column in ("matchday", "date", "game", "rounds", "player", "placing"):
        if values[column] == "":
            raise ValueError(f"{column} is empty")
    for column, longest in LONGEST.items():
        if len(values[column]) > longest:
            raise ValueError(f"{column} {values[column]!r} is longer than {longest} characters")
    try:
        day = date.fromisoformat(values["date"])
    except ValueError:
        raise ValueError(f"date {values['date']!r} is not a date like 2025-11-03") from None
    return Row(
        line=line,
        matchday=_whole_number(values["matchday"], "matchday"),
        date=day,
        game=values["game"],
        rounds=_whole_number(values["rounds"], "rounds"),
        player=values["player"],
        placing=_whole_number(values["placing"], "placing"),
        rated_placing=_whole_number(values["rated_placing"], "rated_placing", optional=True),
        left_early=_yes_or_no(values.get("left_early", OPTIONAL_COLUMNS["left_early"]), "left_early"),
    )


def _matchday_errors(number: int, rows: list[Row]) -> list[str]:
    first = rows[0]
    errors = []
    for row in rows[1:]:
        for column in ("date", "game", "rounds"):
            if getattr(row, column) != getattr(first, column):
                errors.append(
                    f"Line {row.line}: matchday {number} has {column} "
                    f"{getattr(row, column)} here but {getattr(first, column)} on line {first.line}."
                )
    entries = [Entry(f"Line {r.line}", r.player, r.placing, r.rated_placing, r.left_early) for r in rows]
    lines = f"lines {first.line}-{rows[-1].line}" if len(rows) > 1 else f"line {first.line}"
    errors.extend(
        problem if problem.startswith("Line ") else f"Matchday {number} ({lines}): {problem}"
        for problem in matchday_problems(entries)
    )
    return errors


def _capped(errors: list[str]) -> list[str]:
    if len(errors) <= MAX_ERRORS:
        return errors
    return errors[:MAX_ERRORS] + [f"... and {len(errors) - MAX_ERRORS} more problems."]


def import_results(data: bytes, *, replace: bool = False) -> ImportSummary:
    """Import a CSV file's results and recompute the ratings they touch; nothing changes on error."""
    imported = parse(data)
    try:
        return services.import_matchdays(imported, replace=replace)
    except ValidationError as error:
        raise ImportFailed(error.messages) from None
