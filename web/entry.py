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
the parts above are read from the end of the line. `parse_results` reads the lines;
`resolve_players` finds the players; `EntryForm` is the page's form.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from league.models import Game, Matchday, Player
from league.placings import BY_PLACINGS, matchday_problems, placed_by_points
from league.results import FIELDS, Entry, read_given, values
from league.validation import NAME_LENGTH, PLACINGS, ROUNDS, WINNER_SCORES, checked_name, name_key, whole_number
from ratings.services.matchdays import ResultInput
from web.fields import IsoDateField, WholeNumberField

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
    sides, problems = [], []
    for tied in _COUNT_SIGN.sub(lambda m: m[1] + _MARK, text).split("="):
        side = []
        for part in _PARTNER.split(tied):
            try:
                read = _read_name(part, scored)
                if read.name:
                    checked_name(read.name, "player", NAME_LENGTH)
            except ValueError as error:
                problems.append(f"Line {number}: {error}.")
            else:
                side.append(read)
        sides.append(side)
    return sides, problems


def side_label(index: int) -> str:
    """The label of the `index`-th side of partners (from 0): A to Z, then AA, AB ..."""
    label = ""
    index += 1
    while index:
        index, letter = divmod(index - 1, 26)
        label = chr(ord("A") + letter) + label
    return label


def _line_problems(number: int, sides: list[list[_Name]]) -> tuple[int | None, list[str]]:
    """The line's placing (None if not given) and what its sides disagree on: everyone on a line shares
    its placing, and partners their side's penalty."""
    names = [name for side in sides for name in side]
    problems = [f"Line {number}: a name is missing."] if not all(name.name for name in names) else []
    given = {name.placing for name in names if name.placing is not None}
    if len(given) > 1:
        partners = any(len(side) > 1 for side in sides)
        who = "partners" if partners and len(sides) == 1 else "tied sides" if partners else "tied players"
        problems.append(f"Line {number}: {who} share one placing, not {', '.join(map(str, sorted(given)))}.")
    for side in sides:
        points = {name.counts["score"] for name in side if "score" in name.counts}
        if len(points) > 1:
            problems.append(
                f"Line {number}: partners share their side's points, not {', '.join(map(str, sorted(points)))}."
            )
        rated = {name.rated_placing for name in side if name.rated_placing is not None}
        if len(rated) > 1:
            problems.append(
                f"Line {number}: partners share their side's rated placing, not {', '.join(map(str, sorted(rated)))}."
            )
    return (given.pop() if len(given) == 1 else None), problems


def parse_results(lines: list[str], scored: bool = False) -> tuple[list[Entry], list[str]]:
    """The results typed on `lines` (blank lines skipped) and what is wrong with them, each problem
    naming its line. A line holds one place: a side (one name, or partners joined by `+`), or tied
    sides joined by `=`. Placings rank the sides; they are either all given or all taken from the
    lines' order. A side's penalty (left early, rated placing) is written once, after any partner. In a
    game scored by points (`scored`), once points are given the placings not given are None, for the
    points to give (league.placings.placed_by_points)."""
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
    if len(read) == 1 and len(read[0][1]) == 1 and len(read[0][1][0]) > 1:
        problems.append(
            f"Line {read[0][0]}: all {len(read[0][1][0])} players are on one side; a matchday needs two sides "
            "or more, each side on its line (or tied sides joined by `=`)."
        )
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
            points = next((name.counts["score"] for name in side if "score" in name.counts), None)
            label = side_label(labels) if len(side) > 1 else ""
            labels += len(side) > 1
            left = any(name.left_early for name in side)
            rated = next((name.rated_placing for name in side if name.rated_placing is not None), None)
            results.extend(
                Entry(
                    placing,
                    rated,
                    left,
                    **{**name.counts, "score": points},
                    side=label,
                    weight=name.weight,
                    player=name.name,
                    row=f"Line {number}",
                )
                for name in side
            )
        next_place += len(sides)
    return results, []


@dataclass
class Resolved:
    """The players the typed names stand for; `unknown` maps a name that matches no one to the
    closest existing player's short name (or None)."""

    players: dict[str, Player]  # name_key of the typed name -> player
    unknown: dict[str, str | None]
    ambiguous: dict[str, list[Player]]


def resolve_players(names: list[str]) -> Resolved:
    """Find each typed name among the players' short names, then their full names (case and
    Unicode forms aside). Two queries whatever the number of names: the candidates, and nothing
    more (suggestions come from the same list)."""
    everyone = list(Player.objects.only("pk", "short_name", "name"))
    by_short = {name_key(p.short_name): p for p in everyone}
    by_full: dict[str, list[Player]] = {}
    for player in everyone:
        by_full.setdefault(name_key(player.name), []).append(player)
    players, unknown, ambiguous = {}, {}, {}
    for name in names:
        key = name_key(name)
        if key in by_short:
            players[key] = by_short[key]
        elif len(by_full.get(key, [])) == 1:
            players[key] = by_full[key][0]
        elif key in by_full:
            ambiguous[name] = by_full[key]
        else:
            close = difflib.get_close_matches(key, list(by_short) + list(by_full), n=1, cutoff=0.6)
            if close:
                found = by_short.get(close[0]) or by_full[close[0]][0]
                unknown[name] = found.short_name
            else:
                unknown[name] = None
    return Resolved(players, unknown, ambiguous)


LINES = 10  # lines shown at first; "More lines" adds as many again


class EntryForm(forms.Form):
    """A game night's matchday: date, game, rounds and the results, one line per place. Unknown
    names come back with a box to tick to add them as new players."""

    date = IsoDateField(
        label="Date",
        help_text="YYYY-MM-DD; today unless the matchday was played earlier.",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    game = forms.ModelChoiceField(queryset=Game.objects.all(), empty_label=None)
    rounds = WholeNumberField(
        label="Rounds", span=ROUNDS, widget=forms.NumberInput(attrs={"autofocus": True, "inputmode": "numeric"})
    )
    winner_score = WholeNumberField(
        label="Winner's score", required=False, span=WINNER_SCORES, help_text="Only the table-size method uses it."
    )

    def __init__(self, *args, lines: int = LINES, **kwargs):
        super().__init__(*args, **kwargs)
        self.line_names = [f"line-{n}" for n in range(1, lines + 1)]
        for n, name in enumerate(self.line_names, start=1):
            self.fields[name] = forms.CharField(
                label=f"Line {n}", required=False, max_length=200, widget=forms.TextInput(attrs={"list": "players"})
            )
        self.results: list[Entry] = []
        self.resolved: Resolved | None = None
        self.new_players: list[dict] = []  # names that match no one: {"index", "name", "suggestion"}

    def lines(self):
        return [self[name] for name in self.line_names]

    def _new_player_choices(self) -> dict[str, tuple[bool, str]]:
        """typed name key -> (ticked, full name), from the boxes shown for unknown names."""
        choices = {}
        for key in self.data:
            if key.startswith("new-") and key.endswith("-short"):
                prefix = key[: -len("short")]
                full = " ".join(self.data.get(prefix + "name", "").split())
                choices[name_key(self.data[key])] = (self.data.get(prefix + "add") == "on", full)
        return choices

    def clean(self):
        data = super().clean()
        day = data.get("date")
        if day is not None and day > timezone.localdate():
            self.add_error("date", f"{day:%Y-%m-%d} is after today; enter the date the matchday was played.")
        scoring = data["game"].scoring if data.get("game") else BY_PLACINGS
        results, problems = parse_results([data.get(name, "") for name in self.line_names], scoring != BY_PLACINGS)
        if problems:
            raise ValidationError(problems)
        if not results:
            raise ValidationError("Enter the results: one line per place, the winner first.")
        self.results, problems = placed_by_points(results, scoring)
        if problems:
            raise ValidationError(problems)
        self.resolved = resolve_players([r.player for r in results])
        problems = [
            f"Several players are called {name}: {', '.join(p.short_name for p in players)}. Use the short name."
            for name, players in self.resolved.ambiguous.items()
        ]
        choices = self._new_player_choices()
        for index, (name, suggestion) in enumerate(self.resolved.unknown.items()):
            ticked, full = choices.get(name_key(name), (False, ""))
            self.new_players.append(
                {"index": index, "name": name, "suggestion": suggestion, "add": ticked, "full": full or ""}
            )
            if not ticked:
                hint = f" Did you mean {suggestion}?" if suggestion else ""
                problems.append(f"{name} is not a player yet.{hint} Tick the box below to add {name} as a new player.")
        problems += matchday_problems(self._as_players())
        if problems:
            raise ValidationError(problems)
        return data

    def _as_players(self) -> list[Entry]:
        """The typed results under the names of the players they stand for, each with its line, so that
        the league's rules name the line ("GL" and GL's full name on two lines are one player twice)."""
        players = self.resolved.players
        return [
            replace(r, player=players[key].short_name) if (key := name_key(r.player)) in players else r
            for r in self.results
        ]

    def matchday_and_results(self, number: int) -> tuple[Matchday, list[ResultInput]]:
        """The matchday and its results as the services take them; new players unsaved."""
        data = self.cleaned_data
        facts = {name: data[name] for name in ("date", "game", "rounds", "winner_score")}
        matchday = Matchday(number=number, **facts)
        new = {name_key(p["name"]): Player(short_name=p["name"], name=p["full"] or p["name"]) for p in self.new_players}
        results = [
            ResultInput(*values(r), player=self.resolved.players.get(name_key(r.player)) or new[name_key(r.player)])
            for r in self.results
        ]
        return matchday, results
