"""CSV import of matchday results: all or nothing, with errors that name the line.

Format (one row per player per matchday; header required, column order free):

    matchday,date,game,rounds,player,placing,rated_placing
    5,2025-11-10,Hearts,4,R,3,4

`rated_placing` may be empty. A file may add the rest of the result record (league.results.Play):
`left_early` (yes or no), the Sedma counts `won_by_16`, `won_by_24`, `won_by_4_and_last`,
`bad_moves`, `side` (a label partners share: the placings then rank the sides), `weight` (partial
play, 0 to 1) and `score` (the points; in a game scored by points they give the placings, and the
placing may be left empty); `columns_help` says each column's values as read here, from the record.
Unknown players (by short name) and games (by name) are created; new games count as official.
Names are compared as `league.validation.name_key` compares them ("GL", "gl" and "ＧＬ" are one
player), and values are read by league.validation's readers, as every way in reads them. A file of
`manage.py export_ratings` imports as it is: its rating columns are read past. This module reads
the file; `ratings.services.imports.import_matchdays` checks each matchday (the one check) and
writes them.
"""

from __future__ import annotations

import csv
import functools
import io
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from league.placings import players_problem
from league.results import FIELDS, FLAGS, PLACING_FIELDS, RATED_AS_GIVEN, TEXTS, Play, TypedResult, read_given
from league.validation import (
    MATCHDAY_NUMBERS,
    NAME_LENGTH,
    NAME_SHOWN,
    PLACINGS,
    PLAYERS,
    ROUNDS,
    YES_AND_NO,
    iso_date,
    name_key,
    name_problem,
    quoted,
    whole_number,
)
from ratings.services.imports import ImportedMatchday, ImportSummary, file_problems, import_matchdays

# The matchday's columns and the player's, each with what it takes as read here; then the record's.
FACT_COLUMNS = {
    "matchday": f"{MATCHDAY_NUMBERS.lowest:,} to {MATCHDAY_NUMBERS.highest:,}",
    "date": "YYYY-MM-DD, not after today nor before 1900",
    "game": "its name; a new one is created as an official game",
    "rounds": f"{ROUNDS.lowest} to {ROUNDS.highest}",
    "player": "their short name; a new one is created, and a name longer than a short name is a full name",
}
COLUMNS = [*FACT_COLUMNS, *PLACING_FIELDS]
# The rest of the result record (league.results), which a file may leave out: a flag, a whole number,
# a side's label or a weight, each empty as its default (the record's `blank`). A Sedma league's
# export imports back to the same ratings.
OPTIONAL_COLUMNS = RATED_AS_GIVEN
# What `manage.py export_ratings` adds after the results: read past, as the ratings are recomputed, so
# that an export imports back.
DERIVED_COLUMNS = ("rating_before", "rating_after", "delta")
MAX_ERRORS = 20


class RowProblems(ValueError):
    """Every problem of one line; `read` is its result with each unreadable optional value taken as its
    default (None when a value the matchday needs cannot be read), so that its matchday is checked too."""

    def __init__(self, problems: list[str], read: tuple | None):
        self.problems, self.read = problems, read
        super().__init__("; ".join(problems))


class ImportFailed(Exception):
    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("\n".join(errors))


# Each number column of the matchday's facts, with its range: the league's (league.validation), which
# the admin and the database keep; the record's own columns take theirs from the record.
SPANS = {"matchday": MATCHDAY_NUMBERS, "rounds": ROUNDS, **{name: PLACINGS for name in PLACING_FIELDS}}


def _whole_number(text: str, column: str, *, optional: bool = False) -> int | None:
    if optional and text == "":
        return None
    return whole_number(text, column, SPANS[column])


def _takes(name: str) -> str:
    """What a column of the record takes, in words, from its declaration (league.results.Play)."""
    declared = FIELDS[name]
    if name in FLAGS:
        return "yes or no"
    if name in TEXTS:
        return f"a label of up to {declared.metadata['longest']} characters"
    span = declared.metadata["span"]
    return f"{span.lowest:,} to {span.highest:,}"


def columns_help() -> str:
    """The file's columns as the import reads them, in words: the matchday's facts, then each field of
    the result record with what it takes and what empty means (the admin's upload shows this)."""
    facts = [f"{name} ({takes})" for name, takes in FACT_COLUMNS.items()]
    record = [f"{name} ({_takes(name)}; empty: {FIELDS[name].metadata['blank']})" for name in PLACING_FIELDS]
    optional = [f"{name} ({_takes(name)}; empty: {FIELDS[name].metadata['blank']})" for name in OPTIONAL_COLUMNS]
    return (
        f"Columns, one line per player per matchday: {', '.join(facts + record)}; and optionally "
        f"{', '.join(optional)}. Yes and no: {YES_AND_NO}."
    )


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
    return checked_header(header, COLUMNS, [*OPTIONAL_COLUMNS, *DERIVED_COLUMNS], ",".join(COLUMNS))


SHOWN_COLUMNS = 10  # of a header's unknown or doubled columns, then how many more


def checked_header(header: list[str] | None, required: list[str], optional: list[str], expected: str) -> list[str]:
    """A file's header, its names lower-cased; ImportFailed naming the columns missing, unknown and
    given twice, each once and the first SHOWN_COLUMNS of them. Counted in one pass: a header of
    40,000 columns took 25 s counting each column's copies one by one."""
    if header is None or not any(cell.strip() for cell in header):
        raise ImportFailed([f"The file is empty; the first line must be the header: {expected}"])
    header = [cell.strip().lower() for cell in header]
    copies = Counter(header)
    missing = [c for c in required if c not in copies]
    unknown = [c for c in copies if c not in required and c not in optional]
    twice = sorted(c for c, n in copies.items() if n > 1)
    parts = [f"missing {', '.join(missing)}"] if missing else []
    for label, columns in (("unknown", unknown), ("given twice", twice)):
        if columns:
            more = f" and {len(columns) - SHOWN_COLUMNS:,} more" if len(columns) > SHOWN_COLUMNS else ""
            parts.append(f"{label} {', '.join(quoted(c, NAME_SHOWN) for c in columns[:SHOWN_COLUMNS])}{more}")
    if parts:
        raise ImportFailed([f"Line 1: header columns {'; '.join(parts)}. Expected: {expected}"])
    return header


def parse(data: bytes, replace: bool = False) -> list[ImportedMatchday]:
    """Read the whole file: its matchdays, in the file's order, for the import to check and write;
    ImportFailed listing every problem found if a line cannot be read (with the problems of the
    matchdays whose every line was read, as the import would find them)."""
    _check_utf8(data)
    # Decoded as it is read: a file of tens of megabytes is not held again as one string.
    reader = csv.reader(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline=""))
    lines = _lines(reader)
    header = _header(lines)
    problems = _Problems()
    matchdays: dict[int, ImportedMatchday] = {}
    tallies: dict[int, _Tally] = {}
    number_at = header.index("matchday")
    # Matchdays that lost a line to an error are not checked as a whole: with a row missing, the
    # check would report false problems with their good lines. None: a lost line's matchday is unknown.
    incomplete: set[int | None] = set()
    crowded_cell, crowded_tally = None, None  # the last matchday found crowded, as its lines write it
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
            number, facts, result = _parse_row(line, values, number)
        except RowProblems as exc:
            for problem in exc.problems:
                problems.add(f"Line {line}: {problem}.")
            if exc.read is None:
                incomplete.add(number)
                continue
            number, facts, result = exc.read  # only optional values unread: its matchday is checked still
        if number not in matchdays:
            matchdays[number] = ImportedMatchday(number, *facts, [result])
            continue
        disagreements = _disagreements(matchdays[number], line, facts, tallies[number].first_line)
        for problem in disagreements:
            problems.add(problem)
        if disagreements:
            incomplete.add(number)
        else:
            matchdays[number].results.append(result)
    return _read(matchdays, tallies, problems, incomplete, replace)


def _read(matchdays: dict[int, ImportedMatchday], tallies: dict, problems: _Problems, incomplete: set, replace: bool):
    """The file's matchdays, each saying where the file holds it; or ImportFailed with the file's
    problems: crowded matchdays, the lines' own, and those of each matchday whose every line was read."""
    for number, matchday in matchdays.items():
        tally = tallies[number]
        lines = f"lines {tally.first_line}-{tally.last_line}" if tally.lines > 1 else f"line {tally.first_line}"
        matchday.where = f"Matchday {number} ({lines})"
    crowded = [
        f"Matchday {number} (lines {tally.first_line}-{tally.last_line}): {players_problem(tally.lines)}"
        for number, tally in tallies.items()
        if tally.lines > PLAYERS.highest
    ]
    errors = crowded + problems.shown
    if not matchdays and not errors:
        errors.append("The file has a header but no results.")
    if errors and matchdays and None not in incomplete:
        errors += file_problems([m for number, m in matchdays.items() if number not in incomplete], replace)
    if errors:
        raise ImportFailed(_capped(errors, problems.more))
    return list(matchdays.values())


def _disagreements(matchday: ImportedMatchday, line: int, facts: tuple, first_line: int) -> list[str]:
    """Where a line's matchday facts differ from its matchday's first line ("Hearts" and "hearts" are
    one game)."""
    found = []
    firsts = (matchday.date, matchday.game, matchday.rounds)
    for column, value, first in zip(("date", "game", "rounds"), facts, firsts, strict=True):
        if value != first and not (column == "game" and name_key(value) == name_key(first)):
            found.append(
                f"Line {line}: matchday {matchday.number} has {column} {value} here but {first} on line {first_line}."
            )
    return found


def _number_or_none(text: str) -> int | None:
    try:
        return whole_number(text, "matchday", MATCHDAY_NUMBERS)
    except ValueError:
        return None


def _parse_row(line: int, values: dict[str, str], number: int | None = None) -> tuple[int, tuple, TypedResult]:
    """One line's values as read: its matchday's number and facts (date, game, rounds) and the result
    typed on it; `number` is the matchday's when already read. RowProblems lists every value of the
    line that cannot be read, not only the first."""
    problems: list[str] = []

    def read(reader, *args, default=None, **kwargs):
        try:
            return reader(*args, **kwargs)
        except ValueError as error:
            problems.append(str(error))
            return default

    problems += [f"{column} is empty" for column in _REQUIRED if values[column] == ""]
    if values["game"] and (problem := _name_problem(values["game"])):
        problems.append(problem)
    day = read(iso_date, values["date"]) if values["date"] else None
    placings = [read(_whole_number, values[c], c, optional=True) for c in ("placing", "rated_placing")]
    if number is None and values["matchday"]:
        number = read(_whole_number, values["matchday"], "matchday")
    rounds = read(_whole_number, values["rounds"], "rounds") if values["rounds"] else None
    needed = bool(problems)  # without these values the line's result is not known
    # The rest of the record: an unreadable value is its default here, for its matchday to be checked.
    given = [read(read_given, c, values.get(c, ""), default=read_given(c, "")) for c in OPTIONAL_COLUMNS]
    result = TypedResult(Play(*placings, *given), values["player"], f"Line {line}")
    facts = (day, values["game"], rounds)
    if problems:
        raise RowProblems(problems, None if needed else (number, facts, result))
    return number, facts, result


_REQUIRED = ("matchday", "date", "game", "rounds", "player")


@functools.lru_cache(maxsize=10_000)
def _name_problem(name: str) -> str | None:
    """A game's name_problem, once per name: a league's file names the same few games thousands of times."""
    return name_problem(name, "game", NAME_LENGTH)


def _capped(errors: list[str], more: int = 0) -> list[str]:
    """The first MAX_ERRORS problems, and how many more there were."""
    more += max(0, len(errors) - MAX_ERRORS)
    return errors[:MAX_ERRORS] + ([f"... and {more} more problems."] if more else [])


def import_results(data: bytes, *, replace: bool = False) -> ImportSummary:
    """Import a CSV file's results and recompute the ratings they touch; nothing changes on error."""
    imported = parse(data, replace)
    try:
        return import_matchdays(imported, replace=replace)
    except ValidationError as error:
        raise ImportFailed(error.messages) from None
