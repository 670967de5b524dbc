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


def _quoted(value: object) -> str:
    return repr(str(value) if len(str(value)) <= 20 else str(value)[:20] + "…")


def whole_number(value: str | int, what: str, span: Span = ANY_WHOLE) -> int:
    """The whole number in `value` (text, or an int from JSON) within `span`, or ValueError. Never reads
    more digits than the range can hold, so thousands of digits cost nothing."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
    elif isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value):
        text = value
    else:
        raise ValueError(f"{what} must be a whole number, not {_quoted(value)}")
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
        raise ValueError(f"{what} must be a number, not {_quoted(value)}")
    if not math.isfinite(result):
        raise ValueError(f"{what} must be a finite number, not {_quoted(value)}")
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
    raise ValueError(f"{what} {_quoted(text)} is not a date like 2025-11-03")


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
                f"{what} {_shown(name)} holds an invisible or control character, {_character(ch)}, at "
                f"position {position}; type the name again without it"
            )
    if len(name) > longest:
        return f"{what} {_shown(name)} is longer than {longest} characters"
    key = name_key(name)
    if not key:
        return f"{what} is empty once spaces and invisible characters are left out"
    if len(key) > longest * KEY_LENGTH_FACTOR:
        return f"{what} {_shown(name)} is too long once written out in plain letters ({len(key)} characters)"
    return None


def _shown(name: str) -> str:
    """A name as a message shows it: quoted, with invisible characters written as escapes."""
    return repr(name if len(name) <= 40 else name[:40] + "…")


def fitting_slug(base: str, number: int, longest: int) -> str:
    """The `number`-th candidate slug for `base` (1: the base itself, then base-2, base-3 ...), cut so
    that it fits a column of `longest` characters."""
    suffix = "" if number == 1 else f"-{number}"
    return base[: longest - len(suffix)].rstrip("-") + suffix


# Attempts at deals (games played against deals): the same rules for the admin and the CSV imports.

WON = {"1": True, "0": False, "w": True, "l": False, "yes": True, "no": False}
RATED = {"1": True, "0": False, "yes": True, "no": False}
VARIANT_LENGTH = 20


def parse_won(text: str) -> bool:
    """Whether the player won: 1/0, W/L or yes/no (any case); ValueError naming the choices."""
    try:
        return WON[text.strip().casefold()]
    except KeyError:
        raise ValueError(f"won must be 1/0, W/L or yes/no, not {text!r}") from None


def parse_rated(text: str) -> bool:
    """Whether the attempt is rated: 1/0 or yes/no; blank means rated."""
    if not text.strip():
        return True
    try:
        return RATED[text.strip().casefold()]
    except KeyError:
        raise ValueError(f"rated must be 1 or 0 (blank is 1), not {text!r}") from None


def variant_problem(variant: str) -> str | None:
    """What is wrong with a variant's name ("8x4"), or None: a name as any other (`name_problem`), and
    as variants name pages, no slash."""
    if not variant.strip():
        return "variant is empty"
    if "/" in variant or variant != variant.strip():
        return f"variant {_shown(variant)} may not contain a slash or begin or end with a space"
    if variant in (".", ".."):  # browsers resolve the page's address to the folder above
        return f"variant {_shown(variant)} cannot name a page; give it a letter or a digit"
    return name_problem(variant, "variant", VARIANT_LENGTH)


def seed_problem(plays: int, wins: int) -> str | None:
    """What is wrong with a deal's prior record, or None."""
    if plays < 1:
        return f"plays must be at least 1, not {plays}"
    if not 0 <= wins <= plays:
        return f"wins must be between 0 and plays ({plays}), not {wins}"
    return None
