"""The results of a game night as a secretary types them: one line per place, in finishing order.

    GL                      GL 1st
    K = I                   K and I tied 2nd
    J                       J 4th
    R left early            R 5th, rated after everyone who stayed

or the same with explicit placings (`GL 1`, `K 2`, `I 2`, `J 4`, `R 5 left early`). A line may also
carry an explicit rated placing for a penalty other than leaving early, in the club's notation
(`R 4(3)`: finished 3rd, rated 4th) or as `R 3 rated 4`, and the Sedma counts (`won16=2 won24=1
last4=1 bad=3`). Partners are joined by `+` (`GL + K`, tied sides `GL + K = I + J`): a line is then
one place of sides, the placings rank the sides, and each side of two or more gets a label (A, B ...
in line order). A weight after a name is partial play (`R*0.5`). In a game scored by points the
number after a name is the points (`GL 26`, partners' written once, `GL + K 26`), which give the
placings; `score=26` gives points in any game, and with it a number is the placing (`GL 1 score=26`).
Names may hold spaces (full names):
the parts above are read from the end of the line. `parse_results` reads the lines (the form, in
`web.entry.form`, finds the players).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from league.placings import typed_rated_placings
from league.results import FIELDS, Play, TypedResult, read_given
from league.validation import NAME_LENGTH, PLACINGS, Problem, checked_name, quoted, whole_number

# The keyword each count of the result record is typed with (`won16=2`), as league.results declares it.
COUNT_KEYS = {f.metadata["keyword"]: name for name, f in FIELDS.items() if "keyword" in f.metadata}
_KEYWORDS = "|".join(map(re.escape, COUNT_KEYS))
# A count's `=` (`won16=2`) is not a tie's: it is marked before a line is split into tied names. A
# count's value is what does not start with a letter (`bad = K` is a tie with K).
_COUNT_SIGN = re.compile(rf"\b({_KEYWORDS})\s*=\s*(?=[^\sA-Za-z=])", re.I)
_MARK = "\0"  # never typed: the form's text fields refuse NUL
_COUNT = re.compile(rf"\s+({_KEYWORDS})\0(\S*)$", re.I)
_LEFT = re.compile(r"\s+left\s+early$", re.I)
_RATED = re.compile(r"\s+rated\s+(\S+)$", re.I)
_CLUB_NOTATION = re.compile(r"\s+([0-9]+)\(([0-9]+)\)$")  # rated(finished)
# A placing, or what was meant as one: digits of any script, decimals, signs ("5", "５", "2.0", "-1"),
# read by league.validation.whole_number, which refuses all but the first.
_PLACING = re.compile(r"\s+([\d.,+\-()_]+)$")
# Partial play after a name (`R*0.5`), read before a placing so that `R * 0.5` is not taken for one.
_WEIGHT = re.compile(r"\s*\*\s*([^\s*]*)$")
# Partners' `+` (`GL + K`); a `+` before a digit is a sign (`GL +2`), refused as a placing.
_PARTNER = re.compile(r"\+(?![\d.])")
# A count's keyword after a name, not written as a count (`GL won16=`, `won16=two`, `won16 2`,
# `won16:2`, `GL won16`): refused, not read as a tie or a name. Alone on its side, it is a name.
_MISWRITTEN_COUNT = re.compile(
    rf"(?<=[^\s=+])\s+(?!(?:{_KEYWORDS})\s*=\s*[^\sA-Za-z=])"
    rf"((?:{_KEYWORDS})(?:\s*=\s*\S*|[^\w\s]\S*|\s+[^\sA-Za-z=+]\S*)?)(?=\s|$)",
    re.I,
)


@dataclass
class _Name:
    """One name on a line with what follows it: its placing, penalty, weight and counts."""

    name: str
    placing: int | None
    rated_placing: int | None
    left_early: bool
    counts: dict[str, int]
    weight: float = 1.0


def _weight(text: str) -> float:
    """A weight as every way in reads it (league.results.read_given), which may not be left out here."""
    if not text:
        raise ValueError("weight must be a number from 0 to 1 after the `*`, not nothing")
    return read_given("weight", text)


def _read_name(text: str, scored: bool = False) -> _Name:
    """A name and what follows it, read from the end in any order: `R*0.5 3 left early rated 4`.
    In a game scored by points (`scored`) a bare number is the points, unless `score=` gives them.
    ValueError, naming the value, for a number that is not one."""
    rest = " " + text.strip()
    counts: dict[str, int] = {}
    placing = rated = weight = None
    left_early = False
    while True:
        if match := _COUNT.search(rest):
            field = COUNT_KEYS[match[1].lower()]
            counts[field] = whole_number(match[2], match[1].lower(), FIELDS[field].metadata["span"])
        elif match := _LEFT.search(rest):
            left_early = True
        elif weight is None and (match := _WEIGHT.search(rest)):
            weight = _weight(match[1])
        elif rated is None and (match := _RATED.search(rest)):
            rated = whole_number(match[1], "rated placing", PLACINGS)
        elif placing is None and (match := _CLUB_NOTATION.search(rest)):
            rated, placing = (
                whole_number(match[1], "rated placing", PLACINGS),
                whole_number(match[2], "placing", PLACINGS),
            )
        elif scored and "score" not in counts and (match := _PLACING.search(rest)):
            counts["score"] = read_given("score", match[1])
        elif placing is None and (match := _PLACING.search(rest)):
            placing = whole_number(match[1], "placing", PLACINGS)
        else:
            break
        rest = rest[: match.start()]
    return _Name(" ".join(rest.split()), placing, rated, left_early, counts, 1.0 if weight is None else weight)


def _read_line(number: int, text: str, scored: bool = False) -> tuple[list[list[_Name]], list[str]]:
    """The sides on one line (tied sides joined by `=`, each a name or partners joined by `+`), and
    what is wrong with them (each problem naming the line)."""
    if miswritten := _MISWRITTEN_COUNT.search(text):
        keyword = re.match(_KEYWORDS, miswritten[1], re.I)[0].lower()
        return [], [
            Problem(
                f"a Sedma count is written like {keyword}=2 (a whole number after the =), not {quoted(miswritten[1])}.",
                f"Line {number}",
            )
        ]
    sides, problems = [], []
    for tied in _COUNT_SIGN.sub(lambda m: m[1] + _MARK, text).split("="):
        side = []
        for part in _PARTNER.split(tied):
            try:
                read = _read_name(part, scored)
                if read.name:
                    checked_name(read.name, "player", NAME_LENGTH)
            except ValueError as error:
                problems.append(Problem(f"{error}.", f"Line {number}"))
            else:
                side.append(read)
        sides.append(side)
    return sides, problems


def _points(name: _Name) -> int | None:
    return name.counts.get("score")


def side_label(index: int) -> str:
    """The label of the `index`-th side of partners (from 0): A to Z, then AA, AB ..."""
    label = ""
    index += 1
    while index:
        index, letter = divmod(index - 1, 26)
        label = chr(ord("A") + letter) + label
    return label


def _first(side: list[_Name], value) -> int | None:
    """The first value that one of a side's names writes (a side's placing, penalty or points are
    written once, after any partner), or None."""
    return next((v for name in side if (v := value(name)) is not None), None)


def _line_problems(number: int, sides: list[list[_Name]]) -> tuple[int | None, list[str]]:
    """The line's placing (None if not given) and what its tied sides disagree on: they share the
    line's place. (Partners who write different placings, penalties or points keep them, for the
    matchday's check to refuse in the words every way in uses.)"""
    names = [name for side in sides for name in side]
    problems = [Problem("a name is missing.", f"Line {number}")] if not all(name.name for name in names) else []
    placings = [p for side in sides if (p := _first(side, lambda name: name.placing)) is not None]
    if len(set(placings)) > 1:
        who = "tied sides" if any(len(side) > 1 for side in sides) else "tied players"
        shared = ", ".join(map(str, sorted(set(placings))))
        problems.append(Problem(f"{who} share one placing, not {shared}.", f"Line {number}"))
    return (placings[0] if placings else None), problems


def parse_results(lines: list[str], scored: bool = False) -> tuple[list[TypedResult], list[str]]:
    """The results typed on `lines` (blank lines skipped) and what is wrong with them, each problem
    naming its line. A line holds one place: a side (one name, or partners joined by `+`), or tied
    sides joined by `=`. Placings rank the sides; they are either all given or all taken from the
    lines' order. A side's penalty (left early, rated placing) is written once, after any partner. In a
    game scored by points (`scored`), once points are given the placings not given are None, for the
    points to give (league.placings.placed_by_points); tied sides are then typed as tied, sharing the
    place the first one's points give."""
    read, problems = [], []
    for n, text in enumerate(lines, start=1):
        if text.strip():
            sides, wrong = _read_line(n, text, scored)
            read.append((n, sides))
            problems += wrong
    if problems:
        return [], problems
    places: list[int | None] = []
    for number, sides in read:
        place, wrong = _line_problems(number, sides)
        places.append(place)
        problems += wrong
    by_points = scored and any("score" in name.counts for _, sides in read for side in sides for name in side)
    without = [str(number) for (number, _), place in zip(read, places, strict=True) if place is None]
    if without and len(without) < len(read) and not by_points:
        which = f"line {without[0]} has" if len(without) == 1 else f"lines {', '.join(without)} have"
        problems.append(
            f"Give every line a placing, or none (then the lines' order is the finishing order): {which} none."
        )
    if problems:
        return [], problems
    results, next_place, labels = [], 1, 0
    for (number, sides), place in zip(read, places, strict=True):
        placing = place if place is not None or by_points else next_place
        for side in sides:
            label = side_label(labels) if len(side) > 1 else ""
            labels += len(side) > 1
            left = any(name.left_early for name in side)
            rated, points = _first(side, lambda name: name.rated_placing), _first(side, _points)
            results.extend(
                TypedResult(
                    Play(
                        placing if name.placing is None else name.placing,
                        rated if name.rated_placing is None else name.rated_placing,
                        left,
                        **{**name.counts, "score": points if _points(name) is None else _points(name)},
                        side=label,
                        weight=name.weight,
                    ),
                    name.name,
                    f"Line {number}",
                    tied=len(sides) > 1,
                )
                for name in side
            )
        next_place += len(sides)
    return results, []


def written_lines(results: list[tuple[str, Play]], scored: bool = False) -> list[str]:
    """Results (each a short name and its record) as the lines a secretary types, which
    `parse_results` reads back to the same records: a line per place in finishing order, tied sides
    joined by `=` (`K = I`), partners by `+`, then what each side carries (`score=30`, `rated 6`,
    `left early`, `won16=2`, `R*0.5`). Placings that the lines' order cannot give (a gap that is not
        a tie's) are written out (`GL 1`). Partners' labels come back as A, B ... in line order. In a
    game scored by points the points give the placings, as the check takes them."""
    typed = typed_rated_placings([play for _, play in results])  # none where the rule gives it
    results = [(name, replace(play, rated_placing=rated)) for (name, play), rated in zip(results, typed, strict=True)]
    units: dict[str, list[tuple[str, Play]]] = {}
    for name, play in results:
        units.setdefault(play.side or f"\0{len(units)}", []).append((name, play))
    ordered = sorted(units.values(), key=lambda unit: unit[0][1].placing)
    places: list[list[list[tuple[str, Play]]]] = []
    for unit in ordered:
        if places and places[-1][0][0][1].placing == unit[0][1].placing:
            places[-1].append(unit)
        else:
            places.append([unit])
    before, in_order = 0, True
    for place in places:
        in_order &= place[0][0][1].placing == before + 1
        before += len(place)
    if in_order or (scored and all(play.score is not None for _, play in results)):
        return [" = ".join(_side_text(unit, None) for unit in place) for place in places]
    return [_side_text(unit, unit[0][1].placing) for unit in ordered]


def _side_text(unit: list[tuple[str, Play]], placing: int | None) -> str:
    play = unit[-1][1]
    names = " + ".join(name + (f"*{p.weight:g}" if p.weight != 1 else "") for name, p in unit)
    tail = [] if placing is None else [str(placing)]
    if play.score is not None:
        tail.append(f"score={play.score}")
    if play.rated_placing is not None:
        tail.append(f"rated {play.rated_placing}")
    if play.left_early:
        tail.append("left early")
    counts = [f"{key}={getattr(play, field)}" for key, field in COUNT_KEYS.items() if field != "score"]
    tail += [count for count in counts if not count.endswith("=0")]
    return " ".join([names, *tail])


# A line that may be several names pasted on one line ("Garrick Tara Olly Summer"): words only, no
# placing, tie, partner, weight or count.
_PLAIN_NAMES = re.compile(r"[^\d=+*]+")


def split_names(text: str, known: set[str], key) -> list[str] | None:
    """The names on a line of several players' names without placings, in order, when the line is not
    one name itself and every word belongs to a known name (`known`: name keys, `key` makes one); a
    name may hold spaces ("Farid A"), the longest known one is taken first. None otherwise."""
    words = text.split()
    if len(words) < 2 or not _PLAIN_NAMES.fullmatch(text) or key(text) in known or _LEFT.search(" " + text):
        return None
    names, at = [], 0
    while at < len(words):
        end = next((end for end in range(len(words), at, -1) if key(" ".join(words[at:end])) in known), None)
        if end is None:
            return None
        names.append(" ".join(words[at:end]))
        at = end
    return names
