"""The results of a game night as a secretary types them: one line per place, in finishing order.

    GL                      GL 1st
    K = I                   K and I tied 2nd
    J                       J 4th
    R left early            R 5th, rated after everyone who stayed

or the same with explicit placings (`GL 1`, `K 2`, `I 2`, `J 4`, `R 5 left early`). A line may also
carry an explicit rated placing for a penalty other than leaving early, in the club's notation
(`R 4(3)`: finished 3rd, rated 4th) or as `R 3 rated 4`, and the Sedma counts (`won16=2 won24=1
last4=1 bad=3`). Names may hold spaces (full names): the parts above are read from the end of
the line. `parse_results` reads the lines; `resolve_players` finds the players; `EntryForm` is the
page's form.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from league.models import Game, Matchday, Player
from league.results import FIELDS, Entry, values
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


@dataclass
class _Name:
    """One name on a line with what follows it: its placing, penalty and counts."""

    name: str
    placing: int | None
    rated_placing: int | None
    left_early: bool
    counts: dict[str, int]


def _read_name(text: str) -> _Name:
    """A name and what follows it, read from the end in any order: `R 3 left early rated 4`.
    ValueError, naming the value, for a number that is not one."""
    rest = " " + text.strip()
    counts: dict[str, int] = {}
    placing = rated = None
    left_early = False
    while True:
        if match := _COUNT.search(rest):
            field = COUNT_KEYS[match[1].lower()]
            counts[field] = whole_number(match[2], match[1].lower(), FIELDS[field].metadata["span"])
        elif match := _LEFT.search(rest):
            left_early = True
        elif rated is None and (match := _RATED.search(rest)):
            rated = whole_number(match[1], "rated placing", PLACINGS)
        elif placing is None and (match := _CLUB_NOTATION.search(rest)):
            rated, placing = (
                whole_number(match[1], "rated placing", PLACINGS),
                whole_number(match[2], "placing", PLACINGS),
            )
        elif placing is None and (match := _PLACING.search(rest)):
            placing = whole_number(match[1], "placing", PLACINGS)
        else:
            break
        rest = rest[: match.start()]
    return _Name(" ".join(rest.split()), placing, rated, left_early, counts)


def _read_line(number: int, text: str) -> tuple[list[_Name], list[str]]:
    """The names on one line, and what is wrong with them (each problem naming the line)."""
    names, problems = [], []
    for part in _COUNT_SIGN.sub(lambda m: m[1] + _MARK, text).split("="):
        try:
            read = _read_name(part)
            if read.name:
                checked_name(read.name, "player", NAME_LENGTH)
        except ValueError as error:
            problems.append(f"Line {number}: {error}.")
        else:
            names.append(read)
    return names, problems


def parse_results(lines: list[str]) -> tuple[list[Entry], list[str]]:
    """The results typed on `lines` (blank lines skipped) and what is wrong with them, each problem
    naming its line. A line holds one place: one name, or tied names joined by `=`, each with its
    own penalty and counts. Placings are either all given or all taken from the lines' order."""
    read, problems = [], []
    for n, text in enumerate(lines, start=1):
        if text.strip():
            names, wrong = _read_line(n, text)
            read.append((n, names))
            problems += wrong
    if problems:
        return [], problems
    places: list[int | None] = []
    for number, names in read:
        if not all(name.name for name in names):
            problems.append(f"Line {number}: a name is missing.")
        given = {name.placing for name in names if name.placing is not None}
        if len(given) > 1:
            problems.append(f"Line {number}: tied players share one placing, not {', '.join(map(str, sorted(given)))}.")
        places.append(given.pop() if given else None)
    without = [str(number) for (number, _), place in zip(read, places, strict=True) if place is None]
    if without and len(without) < len(read):
        which = f"line {without[0]} has" if len(without) == 1 else f"lines {', '.join(without)} have"
        problems.append(
            f"Give every line a placing, or none (then the lines' order is the finishing order): {which} none."
        )
    if problems:
        return [], problems
    results, next_place = [], 1
    for (number, names), place in zip(read, places, strict=True):
        placing = place if place is not None else next_place
        for name in names:
            results.append(
                Entry(
                    placing, name.rated_placing, name.left_early, **name.counts, player=name.name, row=f"Line {number}"
                )
            )
        next_place += len(names)
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
        results, problems = parse_results([data.get(name, "") for name in self.line_names])
        if problems:
            raise ValidationError(problems)
        if not results:
            raise ValidationError("Enter the results: one line per place, the winner first.")
        self.results = results
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
        if problems:
            raise ValidationError(problems)
        return data

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
