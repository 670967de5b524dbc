"""CSV import of matchday results: all or nothing, with errors that name the line.

Format (one row per player per matchday; header required, column order free):

    matchday,date,game,rounds,player,placing,rated_placing
    5,2025-11-10,Hearts,4,R,3,4

`rated_placing` may be empty. Unknown players (by short name) and games (by name) are created; new
games count as official.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import date

from django.db import connection, transaction
from django.utils.text import slugify

from league.models import Game, Matchday, Player, Result
from league.rankings import Entry, matchday_problems
from ratings import services

COLUMNS = ["matchday", "date", "game", "rounds", "player", "placing", "rated_placing"]
RESULT_COLUMNS = (
    "matchday_id",
    "player_id",
    "placing",
    "rated_placing",
    "note",
    "left_early",
    "won_by_16",
    "won_by_24",
    "won_by_4_and_last",
    "bad_moves",
)
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


@dataclass
class ParsedMatchday:
    number: int
    rows: list[Row] = field(default_factory=list)


@dataclass
class ImportSummary:
    matchdays: int
    results: int
    players_created: list[str]
    games_created: list[str]


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


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")  # spreadsheets often start their exports with a BOM
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportFailed(
            [f"Line {line}: the file is not UTF-8 text (byte {exc.start + 1}); save it as CSV UTF-8."]
        ) from None


def parse(data: bytes) -> list[ParsedMatchday]:
    """Read and check the whole file; raise ImportFailed listing every problem found."""
    reader = csv.reader(io.StringIO(_decode(data), newline=""))
    header = next(reader, None)
    if header is None or not any(cell.strip() for cell in header):
        raise ImportFailed(["The file is empty; the first line must be the header: " + ",".join(COLUMNS)])
    header = [cell.strip().lower() for cell in header]
    missing = [c for c in COLUMNS if c not in header]
    unknown = [c for c in header if c not in COLUMNS]
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
    matchdays: dict[int, ParsedMatchday] = {}
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
        matchdays.setdefault(row.matchday, ParsedMatchday(row.matchday)).rows.append(row)
    if not matchdays and not errors:
        errors.append("The file has a header but no results.")
    if None not in incomplete:
        for matchday in matchdays.values():
            if matchday.number not in incomplete:
                errors.extend(_matchday_errors(matchday))
    if errors:
        raise ImportFailed(_capped(errors))
    return sorted(matchdays.values(), key=lambda m: (m.rows[0].date, m.number))


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
    )


def _matchday_errors(matchday: ParsedMatchday) -> list[str]:
    first = matchday.rows[0]
    errors = []
    for row in matchday.rows[1:]:
        for column in ("date", "game", "rounds"):
            if getattr(row, column) != getattr(first, column):
                errors.append(
                    f"Line {row.line}: matchday {matchday.number} has {column} "
                    f"{getattr(row, column)} here but {getattr(first, column)} on line {first.line}."
                )
    entries = [Entry(f"Line {r.line}", r.player, r.placing, r.rated_placing) for r in matchday.rows]
    lines = f"lines {first.line}-{matchday.rows[-1].line}" if len(matchday.rows) > 1 else f"line {first.line}"
    errors.extend(
        problem if problem.startswith("Line ") else f"Matchday {matchday.number} ({lines}): {problem}"
        for problem in matchday_problems(entries)
    )
    return errors


def _capped(errors: list[str]) -> list[str]:
    if len(errors) <= MAX_ERRORS:
        return errors
    return errors[:MAX_ERRORS] + [f"... and {len(errors) - MAX_ERRORS} more problems."]


@transaction.atomic
def import_results(data: bytes, *, replace: bool = False) -> ImportSummary:
    """Import a CSV file's results and recompute the ratings they touch; nothing changes on error."""
    parsed = parse(data)
    numbers = [m.number for m in parsed]
    existing = {m.number: m for m in Matchday.objects.filter(number__in=numbers).select_related("game")}
    if existing and not replace:
        shown = ", ".join(str(n) for n in sorted(existing))
        raise ImportFailed(
            [
                f"Matchday {shown} already exists; use --replace to replace its results."
                if len(existing) == 1
                else f"Matchdays {shown} already exist; use --replace to replace their results."
            ]
        )

    players = {p.short_name.casefold(): p for p in Player.objects.all()}
    new_players = {}
    for matchday in parsed:
        for row in matchday.rows:
            key = row.player.casefold()
            if key not in players and key not in new_players:
                new_players[key] = Player(name=row.player, short_name=row.player)
    players.update({p.short_name.casefold(): p for p in Player.objects.bulk_create(new_players.values())})
    games = {g.name.casefold(): g for g in Game.objects.all()}
    games_created = []
    for matchday in parsed:
        name = matchday.rows[0].game
        if name.casefold() not in games:
            games[name.casefold()] = Game.objects.create(name=name, slug=_free_game_slug(name))
            games_created.append(name)

    # Replaced matchdays are rated again from where they stood before as well as from where they
    # stand now.
    touched_positions = [old.position for old in existing.values()]
    touched_games = {old.game_id: old.game for old in existing.values()}
    Result.objects.filter(matchday__in=list(existing.values())).delete()
    matchdays = []
    for parsed_day in parsed:
        first = parsed_day.rows[0]
        matchday = existing.get(parsed_day.number) or Matchday(number=parsed_day.number)
        matchday.date, matchday.game, matchday.rounds = first.date, games[first.game.casefold()], first.rounds
        matchdays.append(matchday)
        touched_positions.append(matchday.position)
        touched_games[matchday.game.pk] = matchday.game
    Matchday.objects.bulk_update([m for m in matchdays if m.pk], ["date", "game", "rounds"])
    Matchday.objects.bulk_create([m for m in matchdays if not m.pk])
    # A league's history arrives in one file: results are written as plain rows (with the model's
    # defaults for what the file does not give), not one model instance each.
    results = [
        (matchday.pk, players[row.player.casefold()].pk, row.placing, row.rated_placing, "", False, 0, 0, 0, 0)
        for matchday, parsed_day in zip(matchdays, parsed, strict=True)
        for row in parsed_day.rows
    ]
    services.insert_rows(Result, RESULT_COLUMNS, results)
    if connection.vendor == "postgresql" and len(results) > 10_000:
        # The planner has no statistics for rows added in this transaction; without them it may
        # choose a nested loop that rescans the matchdays for every result of the recompute below.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE league_matchday, league_result")
    try:
        services.recompute_from(min(touched_positions), touched_games.values())
    except services.RecomputeError as error:  # e.g. a two-player method given a four-player matchday
        raise ImportFailed([f"The results cannot be rated: {error}"]) from None
    players_created = [p.short_name for p in new_players.values()]
    return ImportSummary(len(parsed), len(results), players_created, games_created)


def _free_game_slug(name: str) -> str:
    base = slugify(name) or "game"
    slug, n = base, 2
    while Game.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug
