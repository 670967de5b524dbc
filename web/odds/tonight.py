"""The odds page's form, read: tonight's tables as typed, the game, the rounds and a table size for
balanced tables. A table is typed as on the entry page, one side per line (partners joined by `+`),
tables apart by a blank line, read by the entry page's own parser; or on one line, its sides
separated by commas. A name the club does not know is a new player, at the method's starting
rating. Every mistake is a sentence naming the line and the player; nothing here raises."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from league.models import Game, Player
from league.validation import NAME_LENGTH, ROUNDS, Span, name_key, name_problem, whole_number
from web.entry.lines import parse_results
from web.pages.typed_names import ambiguity, resolve_players

MAX_TABLES = 12  # lines: tables tonight
MAX_AT_TABLE = 10  # players at one table: each place of each player is one rating of the table
MAX_TONIGHT = 40  # players in all: with 10 at a table, at most 400 ratings of a table per rating table
MAX_TEXT = 3_000  # characters of the tables' text
SLUG = re.compile(r"[-\w]{1,100}", re.ASCII)
SIZES = Span(2, MAX_AT_TABLE)  # a balanced table's size


@dataclass
class Tonight:
    """What the form asked for, once read: the game, the rounds, each table as its sides (lists of
    players), the balanced tables' size (None: the tables as typed), and the problems found."""

    game: Game | None = None
    rounds: int = 1
    size: int | None = None
    tables: list[list[list[Player]]] = field(default_factory=list)
    everyone: list[Player] = field(default_factory=list)  # in the order typed
    problems: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)  # names taken as new players, each with any "Did you mean"


def _entry_sides(number: int, line: str) -> tuple[list[list[str]], list[str]]:
    """The sides on one line in the entry page's notation (`GL + K`, tied sides `GL = K`), read by its
    parser (web.entry.lines), numbered as the text's line `number`; placings typed are not needed."""
    results, problems = parse_results([""] * (number - 1) + [line])
    sides: dict[str, list[str]] = {}
    for result in results:
        sides.setdefault(result.play.side or f"alone {len(sides)}", []).append(result.player)
    return list(sides.values()), problems


def _lines(text: str) -> tuple[list[tuple[int, list[list[str]]]], list[str]]:
    """Each table's first line number and sides (names, trimmed), and the problems of the text itself:
    a line with commas is a table; lines without, up to a blank line, are a table's sides."""
    if len(text) > MAX_TEXT:
        return [], [f"The tables are {len(text):,} characters long; at most {MAX_TEXT:,}."]
    lines, problems, block = [], [], []

    def close():
        if block:
            lines.append((block[0][0], [side for _, sides in block for side in sides]))
            block.clear()

    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            close()
        elif "," in line or ";" in line:  # a whole table on one line
            close()
            sides = [[name.strip() for name in part.split("+")] for part in line.replace(";", ",").split(",")]
            for name in (n for side in sides for n in side):
                problem = name_problem(name, "player", NAME_LENGTH) if name else "a player's name is missing"
                if problem:
                    problems.append(f"Line {number}: {problem}.")
            lines.append((number, [side for side in sides if any(side)]))
        else:
            sides, wrong = _entry_sides(number, line)
            problems += wrong
            block.append((number, sides))
    close()
    if len(lines) > MAX_TABLES:
        problems.append(f"{len(lines)} tables: at most {MAX_TABLES} at once.")
    return lines, problems


def _table_problems(number: int, sides: list[list[str]], balancing: bool) -> list[str]:
    players = sum(len(side) for side in sides)
    if balancing:
        return [f"Line {number}: balanced tables seat everyone alone; leave out the +."] if players > len(sides) else []
    if len(sides) < 2:
        return [
            f"Line {number} has only one {'side' if players > 1 else 'player'}: a table needs two or more, "
            "one per line (partners joined by +), or on one line separated by commas (GL, K, I)."
        ]
    if players > MAX_AT_TABLE:
        return [f"Line {number} has {players} players: at most {MAX_AT_TABLE} at a table."]
    return []


def _twice(lines: list[tuple[int, list[list[str]]]], found: dict[str, Player]) -> list[str]:
    """A player typed twice, by any of their names, with the lines they are on."""
    seen: dict[int, list[int]] = {}
    for number, sides in lines:
        for name in (n for side in sides for n in side):
            player = found.get(name_key(name))
            if player is not None:
                seen.setdefault(player.pk, []).append(number)
    names = {p.pk: p.short_name for p in found.values()}
    problems = []
    for pk, numbers in seen.items():
        if len(numbers) > 1:
            where = f"line {numbers[0]}" if len(set(numbers)) == 1 else "lines " + ", ".join(map(str, numbers))
            problems.append(f"{names[pk]} is there {len(numbers)} times ({where}): each player sits at one table.")
    return problems


def _new_players(resolved, lines) -> list[str]:
    """Each name the club does not know taken as a new player (unsaved: odds are never stored, and
    a negative id, which no row has, keeps them apart), with a note saying so."""
    notes = []
    line_of = {name_key(n): number for number, sides in lines for side in sides for n in side}
    for n, (name, suggestion) in enumerate(resolved.unknown.items(), start=1):
        resolved.players[name_key(name)] = Player(pk=-n, name=name, short_name=name)
        hint = f" Did you mean {suggestion}?" if suggestion else ""
        notes.append(f"Line {line_of[name_key(name)]}: {name} is new here, at the starting rating.{hint}")
    return notes


def _unknown(resolved, lines) -> list[str]:
    problems = []
    line_of = {name_key(n): number for number, sides in lines for side in sides for n in side}
    for name, players in resolved.ambiguous.items():
        problems.append(f"Line {line_of[name_key(name)]}: {ambiguity(name, players, resolved.former)}")
    return problems


def _number(text: str, what: str, span: Span, problems: list[str]) -> int | None:
    try:
        return whole_number(text.strip(), what, span)
    except ValueError as error:
        problems.append(f"{str(error)[0].upper()}{str(error)[1:]}.")
        return None


def _game(slug: str, problems: list[str]) -> Game | None:
    slug = slug.strip()
    # Only a slug's characters reach the database (PostgreSQL refuses a NUL in any text).
    game = Game.objects.filter(slug=slug).first() if SLUG.fullmatch(slug) else None
    if slug and game is None:
        problems.append(f"There is no game {slug[:40]!r}: choose one from the list.")
    elif game is not None and game.against_deals:
        problems.append(
            f"{game.name} is played against deals, not at a table: players are rated against the deals, "
            "so there are no odds between them (its page shows each deal's record)."
        )
    return game


def read(query) -> Tonight:
    """The form's values, read and checked (a query of the page's parameters only)."""
    tonight, problems = Tonight(), []
    text = query.get("tables", "")
    tonight.game = _game(query.get("game", ""), problems)
    if query.get("rounds", "").strip():
        tonight.rounds = _number(query.get("rounds", ""), "rounds", ROUNDS, problems) or 1
    if query.get("size", "").strip():
        tonight.size = _number(query.get("size", ""), "the table size", SIZES, problems)
    lines, text_problems = _lines(text)
    problems += text_problems
    found: dict[str, Player] = {}
    if not lines:
        tonight.problems = problems
        return tonight
    if tonight.game is None and not problems:
        problems.append("Choose tonight's game.")
    for number, sides in lines:
        problems += _table_problems(number, sides, tonight.size is not None)
    names = [n for _, sides in lines for side in sides for n in side]
    if len(names) > MAX_TONIGHT:
        problems.append(f"{len(names)} players: at most {MAX_TONIGHT} at once.")
    elif tonight.size is not None and len(names) < 2:
        problems.append("Balanced tables need two players or more.")
    if not problems:
        resolved = resolve_players(names)
        tonight.new = _new_players(resolved, lines)
        found = resolved.players
        problems += _unknown(resolved, lines) + _twice(lines, found)
    tonight.problems = problems
    if not problems:
        tonight.tables = [[[found[name_key(n)] for n in side] for side in sides] for _, sides in lines]
        tonight.everyone = [found[name_key(n)] for n in names]
    return tonight
