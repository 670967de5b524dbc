"""CSV import of matchday results: all or nothing, with errors that name the line.

Format (one row per player per matchday; header required, column order free):

    matchday,date,game,rounds,player,placing,rated_placing
    5,2025-11-10,Hearts,4,R,3,4

`rated_placing` may be empty. A file may add the columns `left_early` (1 or empty), the Sedma
counts `won_by_16`, `won_by_24`, `won_by_4_and_last`, `bad_moves` (empty is 0), `side` (a label
partners share; empty, a side of one: the placings then rank the sides) and `weight` (partial play,
0 to 1; empty is 1) and `score` (the points; in a game scored by points they give the placings,
and the placing may be left empty). Unknown players (by
short name) and games (by name) are created; new games count as official. Names are compared as
`league.validation.name_key` compares them ("GL", "gl" and "ＧＬ" are one player), and numbers are
read as people write them (digits 0-9 only). A file of `manage.py export_ratings` imports as it is:
its rating columns are read past. This module reads and checks the file;
`ratings.services.imports.import_matchdays` writes it.
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from django.core.exceptions import ValidationError
from django.utils import timezone

from league.placings import BY_PLACINGS, matchday_problems, placed_by_points, players_problem
from league.results import FLAGS, PLACING_FIELDS, RATED_AS_GIVEN, Entry, read_given
from league.validation import (
    MATCHDAY_NUMBERS,
    NAME_LENGTH,
    PLACINGS,
    PLAYERS,
    ROUNDS,
    SHORT_NAME_LENGTH,
    iso_date,
    name_key,
    name_problem,
    whole_number,
)
from ratings.services.imports import ImportedMatchday, ImportSummary, game_scorings, import_matchdays

COLUMNS = ["matchday", "date", "game", "rounds", "player", *PLACING_FIELDS]
# The rest of the result record (league.results), which a file may leave out: a flag (1 or empty),
# a whole number (empty is 0), a side's label or a weight (empty: alone, the whole game). A Sedma
# league's export imports back to the same ratings.
OPTIONAL_COLUMNS = RATED_AS_GIVEN
# What `manage.py export_ratings` adds after the results: read past, as the ratings are recomputed, so
# that an export imports back.
DERIVED_COLUMNS = ("rating_before", "rating_after", "delta")
YES, NO = {"1", "yes", "y", "true", "x"}, {"0", "no", "n", "false", ""}
MAX_ERRORS = 20


class ImportFailed(Exception):
    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("\n".join(errors))


@dataclass(frozen=True, kw_only=True)
class Row(Entry):
    """One line of the file: a result as typed, with its matchday's facts as this line gives them."""

    line: int
    matchday: int
    date: date
    game: str
    rounds: int


# Each number column's range: the league's (league.validation), which the admin and the database keep.
SPANS = {
    "matchday": MATCHDAY_NUMBERS,
    "rounds": ROUNDS,
    "placing": PLACINGS,
    "rated_placing": PLACINGS,
}
LONGEST = {"player": SHORT_NAME_LENGTH, "game": NAME_LENGTH}


def _whole_number(text: str, column: str, *, optional: bool = False) -> int | None:
    if optional and text == "":
        return None
    return whole_number(text, column, SPANS[column])


def _yes_or_no(text: str, column: str) -> bool:
    if text.lower() in YES:
        return True
    if text.lower() in NO:
        return False
    raise ValueError(f"{column} must be 1 or 0 (or yes or no, or empty), not {_shown(text)}")


def _check_utf8(data: bytes) -> None:
    """Refuse a file that is not UTF-8 (a spreadsheet's byte-order mark is fine), naming the line."""
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportFailed(
            [f"Line {line}: the file is not UTF-8 text (byte {exc.start + 1}); save it as CSV UTF-8."]
        ) from None


def _lines(reader) -> Iterator[tuple[int, list[str]]]:
    """The reader's rows with the line each starts on (a quoted value may hold line breaks); a line
    the csv module cannot read (a value past its size limit) stops the import with the line named."""
    while True:
        line = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            limit = csv.field_size_limit()
            raise ImportFailed(
                [
                    f"Line {line}: this line cannot be read as CSV ({exc}); no value in a results file "
                    f"is longer than {limit:,} characters, so the file is probably not a results file."
                ]
            ) from None
        yield line, cells


@dataclass
class _Tally:
    """The lines of one matchday so far, counted whatever they hold: a matchday past the most players
    is known at its 501st line, and its further lines are only counted, so that a file of a million
    rows for one matchday is refused without building a million rows."""

    first_line: int
    last_line: int = 0
    lines: int = 0


class _Problems:
    """The first MAX_ERRORS problems, and how many more there were."""

    def __init__(self):
        self.shown: list[str] = []
        self.more = 0

    def add(self, problem: str) -> None:
        if len(self.shown) < MAX_ERRORS:
            self.shown.append(problem)
        else:
            self.more += 1


def _header(lines: Iterator[tuple[int, list[str]]]) -> list[str]:
    _, header = next(lines, (1, None))
    if header is None or not any(cell.strip() for cell in header):
        raise ImportFailed(["The file is empty; the first line must be the header: " + ",".join(COLUMNS)])
    header = [cell.strip().lower() for cell in header]
    missing = [c for c in COLUMNS if c not in header]
    unknown = [c for c in header if c not in COLUMNS and c not in OPTIONAL_COLUMNS and c not in DERIVED_COLUMNS]
    twice = sorted({c for c in header if header.count(c) > 1})
    if missing or unknown or twice:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(missing))
        if unknown:
            parts.append("unknown " + ", ".join(repr(c[:40]) for c in unknown[:10]))
        if twice:
            parts.append("given twice " + ", ".join(repr(c) for c in twice))
        raise ImportFailed([f"Line 1: header columns {'; '.join(parts)}. Expected: {','.join(COLUMNS)}"])
    return header


def parse(data: bytes) -> list[ImportedMatchday]:
    """Read and check the whole file, and return its matchdays in play order; raise ImportFailed
    listing every problem found."""
    _check_utf8(data)
    # Decoded as it is read: a file of tens of megabytes is not held again as one string.
    reader = csv.reader(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline=""))
    lines = _lines(reader)
    header = _header(lines)
    problems = _Problems()
    matchdays: dict[int, list[Row]] = {}
    tallies: dict[int, _Tally] = {}
    number_at = header.index("matchday")
    # Matchdays that lost a line to an error are not checked as a whole: with a row missing, the
    # check would report false problems with their good lines. None: a lost line's matchday is unknown.
    incomplete: set[int | None] = set()
    crowded_cell, crowded_tally = None, None  # the last matchday found crowded, as its lines write it
    today = timezone.localdate()  # once: asked per line, it weighs on a large import
    for line, cells in lines:
        if crowded_cell is not None and len(cells) == len(header) and cells[number_at] == crowded_cell:
            crowded_tally.last_line, crowded_tally.lines = line, crowded_tally.lines + 1
            continue  # the hot path of a huge matchday: counted, nothing else
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(header):
            problems.add(f"Line {line}: {len(cells)} values, but the header has {len(header)} columns.")
            incomplete.add(None)
            continue
        number = _number_or_none(cells[number_at].strip())
        if number is not None:
            tally = tallies.setdefault(number, _Tally(line))
            tally.last_line, tally.lines = line, tally.lines + 1
            if tally.lines > PLAYERS.highest:
                matchdays.pop(number, None)
                incomplete.add(number)
                crowded_cell, crowded_tally = cells[number_at], tally
                continue
        values = {name: cell.strip() for name, cell in zip(header, cells, strict=True)}
        try:
            row = _parse_row(line, values, today, number)
        except ValueError as exc:
            problems.add(f"Line {line}: {exc}.")
            incomplete.add(number)
            continue
        matchdays.setdefault(row.matchday, []).append(row)
    errors = _file_errors(matchdays, tallies, problems, incomplete)
    if errors:
        raise ImportFailed(_capped(errors, problems.more))
    return _imported(matchdays)


def _file_errors(matchdays: dict, tallies: dict, problems: _Problems, incomplete: set) -> list[str]:
    """The file's problems: crowded matchdays, the lines' own, and each whole matchday's (if every
    line of it was read)."""
    crowded = [
        f"Matchday {number} (lines {tally.first_line}-{tally.last_line}): {players_problem(tally.lines)}"
        for number, tally in tallies.items()
        if tally.lines > PLAYERS.highest
    ]
    errors = crowded + problems.shown
    if not matchdays and not errors:
        errors.append("The file has a header but no results.")
    if None not in incomplete:
        scorings = game_scorings() if matchdays else {}
        for number, rows in matchdays.items():
            if number not in incomplete:
                matchdays[number], found = _matchday_errors(number, rows, scorings)
                errors.extend(found)
    return errors


def _imported(matchdays: dict[int, list[Row]]) -> list[ImportedMatchday]:
    """The file's matchdays as the import service takes them, in play order."""
    imported = [
        ImportedMatchday(
            number,
            rows[0].date,
            rows[0].game,
            rows[0].rounds,
            rows,
        )
        for number, rows in matchdays.items()
    ]
    return sorted(imported, key=lambda m: (m.date, m.number))


def _number_or_none(text: str) -> int | None:
    try:
        return whole_number(text, "matchday", MATCHDAY_NUMBERS)
    except ValueError:
        return None


def _parse_row(line: int, values: dict[str, str], today: date, number: int | None = None) -> Row:
    """One line's values, checked (no date after `today`); `number` is the matchday's when already read."""
    for column in ("matchday", "date", "game", "rounds", "player", "placing"):
        if values[column] == "" and not (column == "placing" and values.get("score")):
            raise ValueError(f"{column} is empty")  # a game scored by points may give points instead
    for column in LONGEST:
        problem = _name_problem(values[column], column)
        if problem:
            raise ValueError(problem)
    day = iso_date(values["date"])
    if day > today:
        raise ValueError(f"date {day} is in the future; a matchday is entered once it has been played")
    return Row(
        _whole_number(values["placing"], "placing", optional=True),
        _whole_number(values["rated_placing"], "rated_placing", optional=True),
        *(_given(values.get(column, ""), column) for column in OPTIONAL_COLUMNS),
        player=values["player"],
        row=f"Line {line}",
        line=line,
        matchday=number if number is not None else _whole_number(values["matchday"], "matchday"),
        date=day,
        game=values["game"],
        rounds=_whole_number(values["rounds"], "rounds"),
    )


def _given(text: str, column: str) -> bool | int | float | str:
    """An optional column's value: a flag, a side's label, a weight or a count (empty: the default)."""
    if column in FLAGS:
        return _yes_or_no(text, column)
    return read_given(column, text)


@functools.lru_cache(maxsize=10_000)
def _name_problem(name: str, column: str) -> str | None:
    """name_problem, once per name: a league's file names the same few players thousands of times."""
    return name_problem(name, column, LONGEST[column])


def _shown(text: str) -> str:
    return repr(text if len(text) <= 20 else text[:20] + "…")


def _matchday_errors(number: int, rows: list[Row], scorings: dict[str, str]) -> tuple[list[Row], list[str]]:
    """The matchday's rows placed by their points where its game is scored by points, and what is
    wrong with them as a whole."""
    first = rows[0]
    errors = []
    for row in rows[1:]:
        for column in ("date", "game", "rounds"):
            if column == "game" and row.game != first.game and name_key(row.game) == name_key(first.game):
                continue  # "Hearts" and "hearts" are one game
            if getattr(row, column) != getattr(first, column):
                errors.append(
                    f"Line {row.line}: matchday {number} has {column} "
                    f"{getattr(row, column)} here but {getattr(first, column)} on line {first.line}."
                )
    lines = f"lines {first.line}-{rows[-1].line}" if len(rows) > 1 else f"line {first.line}"
    rows, wrong = placed_by_points(rows, scorings.get(name_key(first.game), BY_PLACINGS))
    errors.extend(
        problem if problem.startswith("Line ") else f"Matchday {number} ({lines}): {problem}"
        for problem in wrong or matchday_problems(rows)
    )
    return rows, errors


def _capped(errors: list[str], more: int = 0) -> list[str]:
    more += max(0, len(errors) - MAX_ERRORS)
    return errors[:MAX_ERRORS] + ([f"... and {more} more problems."] if more else [])


def import_results(data: bytes, *, replace: bool = False) -> ImportSummary:
    """Import a CSV file's results and recompute the ratings they touch; nothing changes on error."""
    imported = parse(data)
    try:
        return import_matchdays(imported, replace=replace)
    except ValidationError as error:
        raise ImportFailed(error.messages) from None
