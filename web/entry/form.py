"""The entry page's form: date, game, rounds and the result lines, with the typed names found among
the players (`resolve_players`) and a box to tick for each new one."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, replace

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from league.models import Game, Matchday, Player
from league.placings import BY_PLACINGS, matchday_problems, placed_by_points
from league.results import Entry, values
from league.validation import ROUNDS, WINNER_SCORES, name_key
from ratings.services.matchdays import ResultInput
from web.entry.lines import parse_results
from web.fields import IsoDateField, WholeNumberField


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


def _new_player_problems(short_name: str, full: str) -> list[str]:
    """What the model refuses in a new player's names (the save checks them again), so the preview does."""
    try:
        Player(short_name=short_name, name=full or short_name).full_clean()
    except ValidationError as error:
        return [f"New player {short_name}: {message}" for message in error.messages]
    return []


LINES = 10  # lines shown at first; "More lines" adds as many again
# What staff need to use the entry page, as the admin needs them to add a matchday with its results.
ENTRY_PERMISSIONS = ("league.add_matchday", "league.add_result")
LINE_LENGTH = 200


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

    def __init__(self, *args, lines: int = LINES, may_add_players: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.may_add_players = may_add_players
        self.line_names = [f"line-{n}" for n in range(1, lines + 1)]
        for n, name in enumerate(self.line_names, start=1):
            messages = {
                "max_length": f"Line {n} is longer than %(limit_value)d characters (it has %(show_value)d).",
                "null_characters_not_allowed": f"Line {n} holds a NUL character (U+0000); type it again without it.",
            }
            self.fields[name] = forms.CharField(
                label=f"Line {n}",
                required=False,
                max_length=LINE_LENGTH,
                error_messages=messages,
                widget=forms.TextInput(attrs={"list": "players"}),
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
        if any(name in self.errors for name in self.line_names):
            return data  # each shown against its line; the others are read once it is put right
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
            hint = f" Did you mean {suggestion}?" if suggestion else ""
            if not self.may_add_players:
                problems.append(f"{name} is not a player, and you may not add players.{hint}")
                continue
            ticked, full = choices.get(name_key(name), (False, ""))
            self.new_players.append(
                {"index": index, "name": name, "suggestion": suggestion, "add": ticked, "full": full or ""}
            )
            if not ticked:
                problems.append(f"{name} is not a player yet.{hint} Tick the box below to add {name} as a new player.")
            else:
                problems += _new_player_problems(name, full)
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

    def previewed_content(self, number: int) -> str:
        """Everything a preview of this form as matchday `number` shows, as text: a Save must carry the
        token made for exactly this (league.submissions.fits), however the lines were written."""
        matchday, results = self.matchday_and_results(number)
        facts = [number, matchday.date.isoformat(), matchday.game.pk, matchday.rounds, matchday.winner_score]
        rows = [[r.player.pk, r.player.short_name, r.player.name, r.note, *values(r)] for r in results]
        return json.dumps([facts, rows])
