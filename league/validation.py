"""What the league accepts, with messages a club secretary understands.

Pure Python (no Django): the admin, the CSV import, the services, the model fields and their database
constraints, and the rating methods all take their rules from here, so that each mistake gets the
same answer whichever way it came in. docs/formats.md's "What the site accepts" says the same in words.
"""

from __future__ import annotations

import datetime
import functools
import math
import re
import unicodedata
from typing import NamedTuple


class Span(NamedTuple):
    """The whole numbers from `lowest` to `highest`, both included."""

    lowest: int
    highest: int

    def problem(self, what: str, value: int) -> str | None:
        """Why `value` is outside, in words ("rounds must be at most 100, not 40000"), or None."""
        if value < self.lowest:
            return f"{what} must be at least {self.lowest}, not {value}"
        if value > self.highest:
            return f"{what} must be at most {self.highest:,}, not {value:,}"
        return None


# The ranges of the league's numbers, declared once: the database holds the matchday's as named check
# constraints (league/models/), and the imports, the forms and the calculator read them from here.
MATCHDAY_NUMBERS = Span(1, 1_000_000_000)
PLAYERS = Span(2, 500)  # players at one matchday: every rating method rates this many in a moment
ROUNDS = Span(1, 100)  # K is 10 x rounds in the club formula
PLACINGS = Span(1, PLAYERS.highest)  # and at most the matchday's number of players
WINNER_SCORES = Span(1, 1_000)  # table-size: a winner scores (12-18 is a short game); blank, a full one
SEDMA_COUNTS = Span(0, 100)  # rounds won by 16, by 24, with 4 and last; bad moves
LEVELS = Span(0, 32_767)  # a deal's level, as its database column holds it
DEALS = Span(0, 2_147_483_647)  # a deal's number, and its seeded plays and wins
ENTRY_LINES = Span(1, PLAYERS.highest)  # lines of the entry page's form
WEIGHTS = Span(0, 1)  # partial play: the share of a game a player took part in (not whole: 0.5 is half)
SIDE_LENGTH = 20  # characters of a side's label ("A", "North-South")
SCORES = Span(-1_000_000, 1_000_000)  # a player's points on a score sheet (Rummy and Skat go below 0)
EARLIEST_DAY = datetime.date(1900, 1, 1)  # of a matchday, session or season: 0205 is 2025 mistyped
# A club's settings (league.models.Club): its players' provisional matchdays, the days without a
# matchday after which its leaderboards hide a player (ten years at most), and its pages' rows.
PROVISIONAL_MATCHDAYS = Span(0, 1_000)
INACTIVITY_WINDOW = Span(0, 3_650)
PAGE_SIZES = Span(1, 1_000)

# Each number by the name every way in gives it (a column, a form field, a query parameter).
RANGES = {
    "matchday": MATCHDAY_NUMBERS,
    "rounds": ROUNDS,
    "placing": PLACINGS,
    "rated_placing": PLACINGS,
    "winner_score": WINNER_SCORES,
    "won_by_16": SEDMA_COUNTS,
    "won_by_24": SEDMA_COUNTS,
    "won_by_4_and_last": SEDMA_COUNTS,
    "bad_moves": SEDMA_COUNTS,
    "weight": WEIGHTS,
    "score": SCORES,
    "level": LEVELS,
    "deal": DEALS,
    "plays": DEALS,
    "wins": DEALS,
}

# The longest names, in characters as typed, and their comparison keys (a key may be longer than its
# name: NFKC writes some characters as several, e.g. the ligature "ﬃ" as "ffi").
SHORT_NAME_LENGTH = 12
REASON_LENGTH = 300  # characters of a write's reason in the history ("Why")
NAME_LENGTH = 100
KEY_LENGTH_FACTOR = 4


# One reader per kind of value for every way in (forms, imports, the calculator and its JSON), so a
# mistake gets the same answer whichever way it came in: ValueError with the reason, starting with `what`.

# Numbers as people write them: the digits 0-9, perhaps a sign, a decimal point and an exponent for
# numbers that need not be whole. Python's int() and float() also read "1_0", " 12", "１２" (full
# width), "٣" (Arabic-Indic), "inf" and "nan", which nobody means as a count or a rating.
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?")
LONGEST_NUMBER_READ = 18  # digits: longer numbers are out of every range, and are refused unread
_LARGEST_FLOAT = 1.7976931348623157e308
ANY_WHOLE = Span(-(10**LONGEST_NUMBER_READ) + 1, 10**LONGEST_NUMBER_READ - 1)


NAME_SHOWN = 40  # characters of a refused name quoted back (a refused value: 20)


def quoted(value: object, longest: int = 20) -> str:
    """A refused value as every message quotes it back: its text in quotes, cut after `longest`
    characters (a query string or a file's cell can be long), invisible characters as escapes."""
    text = str(value)
    return repr(text if len(text) <= longest else text[:longest] + "…")


class Problem(str):
    """One thing wrong with what came in: its words as shown ("Line 5: ..."), which it is, with the
    words alone (`text`), where it was typed (`line`: "Line 5"; empty for a matchday as a whole, and
    in the admin) and the field of the result record at fault (`field`: "placing", "side"...; "player"
    for a name, empty for the players as a whole), so that each way in places it as it places its
    errors: a file's line, an entry page's line or field, the calculator's parameter."""

    text: str
    line: str
    field: str

    def __new__(cls, text: str, line: str = "", field: str = "") -> Problem:
        problem = super().__new__(cls, f"{line}: {text}" if line else text)
        problem.text, problem.line, problem.field = text, line, field
        return problem


def whole_number(value: str | int, what: str, span: Span = ANY_WHOLE) -> int:
    """The whole number in `value` (text, or an int from JSON) within `span`, or ValueError. Never reads
    more digits than the range can hold, so thousands of digits cost nothing."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
    elif isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value):
        text = value
    else:
        raise ValueError(f"{what} must be a whole number, not {quoted(value)}")
    digits = len(text.lstrip("-").lstrip("0"))
    if digits > LONGEST_NUMBER_READ:
        if span == ANY_WHOLE:
            raise ValueError(f"{what} must be a whole number of at most {LONGEST_NUMBER_READ} digits, not {digits}")
        if text.startswith("-"):
            raise ValueError(f"{what} must be at least {span.lowest:,}, not a negative {digits}-digit number")
        raise ValueError(f"{what} must be at most {span.highest:,}, not a {digits}-digit number")
    problem = span.problem(what, int(text))
    if problem:
        raise ValueError(problem)
    return int(text)


def finite_number(value: str | float, what: str) -> float:
    """The finite number in `value` ("1500", "-2.5", "1e3", or a number from JSON), or ValueError."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        result = float(value) if abs(value) <= _LARGEST_FLOAT else math.inf  # a huge int overflows float()
    elif isinstance(value, str) and _NUMBER.fullmatch(value):
        result = float(value)
    else:
        raise ValueError(f"{what} must be a number, not {quoted(value)}")
    if not math.isfinite(result):
        raise ValueError(f"{what} must be a finite number, not {quoted(value)}")
    return result


def checked_name(text: str, what: str, longest: int) -> str:
    """`text` as a name (spaces around it trimmed), or ValueError saying why it cannot be one."""
    trimmed = text.strip()
    problem = name_problem(trimmed, what, longest)
    if problem:
        raise ValueError(problem)
    return trimmed


_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def is_iso_date(text: str) -> bool:
    """Whether `text` is written like 2025-11-03 (date.fromisoformat also reads 20251103 and
    2025-W45-1, which a results file does not mean)."""
    return bool(_ISO_DATE.fullmatch(text))


def iso_date(text: str, what: str = "date") -> datetime.date:
    """The date written like 2025-11-03 in `text`; ValueError otherwise."""
    try:
        if is_iso_date(text):
            return datetime.date.fromisoformat(text)
    except ValueError:
        pass
    raise ValueError(f"{what} {quoted(text)} is not a date like 2025-11-03")


# Names. Two names are the same player (or game) when their keys are equal: compared after Unicode
# NFKC normalisation (full-width letters, ligatures, composed or decomposed accents all become one
# form), case folding ("GL", "gl", "ß" and "ss"), with characters that never show left out and runs of
# spaces counted as one space ("Jan  K" is "Jan K", but "JK" is not "J K"), leading and trailing
# spaces trimmed.

# Unicode's default-ignorable code points (DerivedCoreProperties.txt), and the braille blank: they
# show as nothing. Names holding the format ones are refused (below); the others, such as variation
# selectors and Hangul fillers, are left out of the key, so "X" and "X" with a filler are one name.
_IGNORABLE = "00AD 034F 061C 115F-1160 17B4-17B5 180B-180F 200B-200F 202A-202E 2060-206F 2800 3164 FE00-FE0F FEFF"
_IGNORABLE += " FFA0 FFF0-FFF8 1BCA0-1BCA3 1D173-1D17A E0000-E0FFF"
_SPANS = [(s.partition("-")[0], s.partition("-")[2] or s) for s in _IGNORABLE.split()]
_LEAVE_OUT = {code: None for first, last in _SPANS for code in range(int(first, 16), int(last, 16) + 1)}

# Control characters (Cc: NUL, tab, newline, escape...), format characters (Cf: zero-width spaces and
# joiners, direction marks and bidirectional overrides, soft hyphens), lone surrogates and the line
# and paragraph separators: none of them belongs in a name.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}


@functools.lru_cache(maxsize=100_000)
def name_key(name: str) -> str:
    """The form in which two names (of players or games) are compared: two names with the same key
    are the same player or game, wherever a name comes in. The database stores it, unique."""
    text = unicodedata.normalize("NFKC", name)
    # Case folding can undo NFKC's form ("ǰ" folds to "ǰ", decomposed), hence NFKC again.
    text = unicodedata.normalize("NFKC", text.casefold()).translate(_LEAVE_OUT)
    return " ".join(text.split())


def _character(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X} (a control character)"


def name_problem(name: str, what: str, longest: int) -> str | None:
    """Why `name` cannot be a name (of `longest` characters at most), or None. `what` says whose name
    it is ("player", "short name"); the messages start with it."""
    for position, ch in enumerate(name, start=1):
        if unicodedata.category(ch) in _REFUSED_CATEGORIES:
            return (
                f"{what} {quoted(name, NAME_SHOWN)} holds an invisible or control character, {_character(ch)}, at "
                f"position {position}; type the name again without it"
            )
    if len(name) > longest:
        return f"{what} {quoted(name, NAME_SHOWN)} is longer than {longest} characters"
    key = name_key(name)
    if not key:
        return f"{what} is empty once spaces and invisible characters are left out"
    if len(key) > longest * KEY_LENGTH_FACTOR:
        return (
            f"{what} {quoted(name, NAME_SHOWN)} is too long once written out in plain letters ({len(key)} characters)"
        )
    return None


def short_name_from(full: str, taken: set[str]) -> str:
    """A short name made from a full name too long to be one (`Bosco(Vivian)`, `Anonymous player`):
    its first word and the first letters of its last (`Bosco V`, `Anonymous P`), as many letters as
    make it unique among `taken` (name keys); else the first word numbered. At most
    SHORT_NAME_LENGTH characters, and never a key in `taken`."""
    words = re.findall(r"\w+", full) or [full.strip() or "Player"]
    first = words[0][:SHORT_NAME_LENGTH]
    candidates = []
    if len(words) > 1:
        last = words[-1]
        room = SHORT_NAME_LENGTH - len(first) - 1  # letters of the last word that fit
        candidates += [f"{first} {last[0].upper()}{last[1:n]}" for n in range(1, min(len(last), room) + 1)]
    candidates.append(first)
    for candidate in candidates:
        if name_key(candidate) not in taken:
            return candidate
    number = 2
    while True:
        suffix = f" {number}"
        candidate = first[: SHORT_NAME_LENGTH - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in taken:
            return candidate
        number += 1


def fitting_slug(base: str, number: int, longest: int) -> str:
    """The `number`-th candidate slug for `base` (1: the base itself, then base-2, base-3 ...), cut so
    that it fits a column of `longest` characters."""
    suffix = "" if number == 1 else f"-{number}"
    return base[: longest - len(suffix)].rstrip("-") + suffix


# Attempts at deals (games played against deals): the same rules for the admin and the CSV imports.

# Yes and no, one vocabulary for every way in: a file's `left_early`, `won` and `rated` columns, the
# admin's boxes, the calculator's per-player flags and its methods' yes/no parameters (docs/formats.md).
YES = ("1", "yes", "y", "true", "x", "on")
NO = ("0", "no", "n", "false", "off")
YES_AND_NO = f"{', '.join(YES[:-1])} or {YES[-1]} for yes; {', '.join(NO[:-1])} or {NO[-1]} for no; any case"
FLAG_WORDS = f"yes or no ({YES_AND_NO})"
# An attempt at a deal is also won or lost in the solitaire notation, W or L (attempt files, the
# attempts calculator): a word of `won` alone, not of yes and no.
WON_LETTERS = {"w": True, "l": False}
VARIANT_LENGTH = 20


def yes_or_no(value: str | bool, what: str, blank: bool | None = None) -> bool:
    """A yes or no as people write it (YES, NO, in any case; a bool from JSON or a form as it is);
    empty is `blank`, or refused when None. ValueError starting with `what` names the words taken."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().casefold()
    if text in YES:
        return True
    if text in NO:
        return False
    if not text and blank is not None:
        return blank
    empty = "" if blank is None else f", or empty for {'yes' if blank else 'no'}"
    raise ValueError(f"{what} must be {FLAG_WORDS}{empty}, not {quoted(value)}".strip())


def parse_won(text: str | bool) -> bool:
    """Whether the player won: W or L, or yes or no (any case); ValueError naming the choices."""
    if isinstance(text, bool):
        return text
    letter = WON_LETTERS.get(text.strip().casefold())
    if letter is not None:
        return letter
    try:
        return yes_or_no(text, "won")
    except ValueError:
        raise ValueError(f"won must be W or L, or {FLAG_WORDS}, not {quoted(text)}") from None


def parse_rated(text: str) -> bool:
    """Whether the attempt is rated: yes or no; empty is yes."""
    return yes_or_no(text, "rated", blank=True)


def variant_problem(variant: str) -> str | None:
    """What is wrong with a variant's name ("8x4"), or None: a name as any other (`name_problem`), and
    as variants name pages, no slash."""
    if not variant.strip():
        return "variant is empty"
    if "/" in variant or variant != variant.strip():
        return f"variant {quoted(variant, NAME_SHOWN)} may not contain a slash or begin or end with a space"
    if variant in (".", ".."):  # browsers resolve the page's address to the folder above
        return f"variant {quoted(variant, NAME_SHOWN)} cannot name a page; give it a letter or a digit"
    return name_problem(variant, "variant", VARIANT_LENGTH)


def seed_problem(plays: int, wins: int) -> str | None:
    """What is wrong with a deal's prior record, or None."""
    if plays < 1:
        return f"plays must be at least 1, not {plays}"
    if not 0 <= wins <= plays:
        return f"wins must be between 0 and plays ({plays}), not {wins}"
    return None


def reason_problem(reason: str) -> str | None:
    """Why a write's reason ("Why", kept in the history) is refused, in words, or None."""
    if "\x00" in reason:
        return "Why holds a NUL character (U+0000); type it again without it."
    if len(reason.strip()) > REASON_LENGTH:
        return f"Why is {len(reason.strip()):,} characters long; keep it to {REASON_LENGTH}."
    return None
