"""The entry page's form: date, game, rounds and the result lines, with the typed names found among
the players (web.pages.typed_names) and the others previewed as new players, whom one tick adds; a
valid form holds its matchday checked once (ratings.services.checks), for the preview and the save."""

from __future__ import annotations

import json
from dataclasses import replace

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from league.checked import Refused, date_problem
from league.models import Game, Matchday, Player
from league.placings import BY_PLACINGS
from league.results import TypedResult, values
from league.validation import ENTRY_LINES, ROUNDS, SHORT_NAME_LENGTH, WINNER_SCORES, name_key, short_name_from
from ratings.services.checks import FACT_FIELDS, CheckedMatchday, check_matchday
from web.entry.facts import FACTS, GameSelect, facts_by_game, settled
from web.entry.lines import parse_results, split_names
from web.fields import IsoDateField, WholeNumberField
from web.pages.typed_names import Resolved, ambiguity, known_names, resolve_players


def _new_player_problems(short_name: str, full: str) -> list[str]:
    """What the model refuses in a new player's full name. (The short name, the name typed on a line,
    is checked with the matchday, as every way in checks a player's name.)"""
    try:
        Player(short_name=short_name, name=full or short_name).full_clean(exclude=["short_name"])
    except ValidationError as error:
        mine = {field: messages for field, messages in error.message_dict.items() if field != "short_name"}
        return [f"New player {short_name}: {message}" for messages in mine.values() for message in messages]
    return []


def _last_rounds(game: Game) -> int:
    """The rounds of the game's last matchday, 1 for a game not played yet: a blank's default."""
    last = Matchday.objects.filter(game=game).order_by("-date", "-number").values_list("rounds", flat=True).first()
    return last or 1


LINES = 10  # lines shown at first; "More lines" adds as many again


LINE_LENGTH = 200


class EntryForm(forms.Form):
    """A game night's matchday: date, game, rounds and the results, one line per place. Unknown
    names are new players (a long one their full name), added when the one box (`add-new`) is ticked."""

    # A text box, not `type="date"`: a browser writes a date picker's day in its own locale's order
    # (11/25/2026), while the hint, the errors and every other way in write YYYY-MM-DD.
    date = IsoDateField(
        label="Date",
        help_text="YYYY-MM-DD; today unless the matchday was played earlier.",
        widget=forms.DateInput(
            attrs={"placeholder": "YYYY-MM-DD", "size": 10, "maxlength": 10, "autocomplete": "off"},
            format="%Y-%m-%d",
        ),
    )
    game = forms.ModelChoiceField(queryset=Game.objects.none(), empty_label=None, widget=GameSelect)
    # Required where the game's tables read them (web.entry.facts).
    rounds = WholeNumberField(
        label="Rounds",
        required=False,
        span=ROUNDS,
        help_text="Blank: as the game's last matchday (1 for a new game). The club formula's changes grow "
        "with the rounds (K = 10 a round unless changed): one round moves a rating little.",
        widget=forms.NumberInput(attrs={"autofocus": True, "inputmode": "numeric"}),
    )
    winner_score = WholeNumberField(
        label="Winner's score", required=False, span=WINNER_SCORES, help_text="Only the table-size method uses it."
    )

    def __init__(self, *args, lines: int = LINES, may_add_players: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        # Made here, in the request's club scope: a class attribute's queryset is made at import,
        # outside any scope, and would offer and accept every club's games.
        self.fields["game"].queryset = Game.objects.all()
        self.may_add_players = may_add_players
        self.split: list[str] = []  # lines of several names, each now a line per player
        self.typed_line: dict[int, int] = {}  # after a split, each line's number as it was typed
        if self.is_bound:
            lines = self._split_lines(lines)
        self.line_count = lines
        self.facts = self.fields["game"].widget.facts = facts_by_game()
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
        if "rounds" not in self.facts.get(self._game_pk(), FACTS):  # the rounds are hidden: start at line 1
            self.fields["rounds"].widget.attrs.pop("autofocus")
            self.fields["line-1"].widget.attrs["autofocus"] = True
        self.checked: CheckedMatchday | None = None  # once valid: the matchday, numbered when previewed
        self.players: dict[str, Player] = {}  # each typed name's player (new ones unsaved), by name key
        self.resolved: Resolved | None = None
        self.new_players: list[dict] = []  # names that match no one: {"index", "name", "suggestion"}

    def _split_lines(self, lines: int) -> int:
        """A line of several known names without placings ("Garrick Tara Olly Summer") becomes a line
        per player, in that order, the lines after it moved down; the number of lines now shown."""
        texts = [self.data.get(f"line-{n}", "") for n in range(1, lines + 1)]
        if not any(len(text.split()) > 1 for text in texts):
            return lines  # no query for a night typed a name a line
        known, out, typed_line = known_names(), [], []
        for number, text in enumerate(texts, start=1):
            names = split_names(text, known, name_key) if isinstance(text, str) else None
            if names and len(out) + len(names) <= ENTRY_LINES.highest:
                listed = ", ".join(names)  # a name's own full stop ends the sentence too: "Greta V."
                self.split.append(f"{text.strip()} is taken as {len(names)} lines: {listed.removesuffix('.')}.")
                out += names
                typed_line += [number] * len(names)
            else:
                out.append(text)
                typed_line.append(number)
        if not self.split:
            return lines
        self.typed_line = dict(enumerate(typed_line, start=1))
        while out and not str(out[-1]).strip() and len(out) > lines:
            out.pop()
        self.data = self.data.copy()
        for n, text in enumerate(out, start=1):
            self.data[f"line-{n}"] = text
        return max(lines, len(out))

    def _game_pk(self) -> int | None:
        """The chosen game's primary key as sent (or first offered), if it is a number."""
        chosen = self.data.get("game") if self.is_bound else getattr(self.initial.get("game"), "pk", None)
        text = str(chosen)
        return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None

    def lines(self):
        return [self[name] for name in self.line_names]

    def _new_player_choices(self) -> dict[str, tuple[bool, str]]:
        """typed name key -> (ticked, full name), from the fields kept for unknown names: one tick adds
        them all (`add-new`); a tick of a player's own (`new-N-add`) adds that one."""
        choices, everyone = {}, self.data.get("add-new") == "on"
        for key in self.data:
            if key.startswith("new-") and key.endswith("-short"):
                prefix = key[: -len("short")]
                full = " ".join(str(self.data.get(prefix + "name", "")).split())
                choices[name_key(str(self.data[key]))] = (everyone or self.data.get(prefix + "add") == "on", full)
        return choices

    @property
    def unconfirmed(self) -> list[dict]:
        """The new players not yet confirmed: a Save needs the one tick that adds them."""
        return [p for p in self.new_players if not p["add"]]

    def clean(self):
        data = super().clean()
        if data.get("date") and (problem := date_problem(data["date"], timezone.localdate())):
            self.add_error("date", problem)  # shown beside the date at once, whatever the lines hold
        if data.get("game") and "rounds" not in self.errors:
            problem = settled(data, self.facts.get(data["game"].pk, frozenset(FACTS)), data["game"], _last_rounds)
            if problem:
                self.add_error("rounds", problem)
        if any(name in self.errors for name in self.line_names):
            return data  # each shown against its line; the others are read once it is put right
        scoring = data["game"].scoring if data.get("game") else BY_PLACINGS
        typed, problems = parse_results([data.get(name, "") for name in self.line_names], scoring != BY_PLACINGS)
        if problems:
            raise ValidationError(problems)
        if not typed:
            raise ValidationError("Enter the results: one line per place, the winner first.")
        problems = self._find_players(typed)
        matchday = Matchday(**{name: data.get(name) for name in ("date", "game", "rounds", "winner_score")})
        try:
            self.checked = check_matchday(matchday, data.get("game"), self._as_players(typed))
        except Refused as refused:
            problems += self._placed(refused.problems)
        if problems:
            self.checked = None
            raise ValidationError(problems)
        return data

    def _find_players(self, typed: list[TypedResult]) -> list[str]:
        """Find the typed names among the players; what is wrong with the names not found."""
        self.resolved = resolve_players([r.player for r in typed])
        self._mark_ambiguous_lines(typed)
        self.players = {name_key(p.short_name): p for p in self.resolved.players.values()}
        problems = []
        choices = self._new_player_choices()
        taken = self.resolved.short_keys | set(map(name_key, self.resolved.unknown))
        for index, (name, suggestion) in enumerate(self.resolved.unknown.items()):
            hint = f" Did you mean {suggestion}?" if suggestion else ""
            if not self.may_add_players:
                problems.append(f"{name} is not a player, and you may not add players.{hint}")
                continue
            ticked, full = choices.get(name_key(name), (self.data.get("add-new") == "on", ""))
            # A name longer than a short name is the new player's full name, with a short name made from it.
            short = short_name_from(name, taken) if len(name) > SHORT_NAME_LENGTH else name
            taken.add(name_key(short))
            full = full or name
            self.new_players.append(
                {"index": index, "name": name, "short": short, "suggestion": suggestion, "add": ticked, "full": full}
            )
            problems += _new_player_problems(short, full)
            self.players[name_key(name)] = self.players[name_key(short)] = Player(short_name=short, name=full)
        return problems

    def _placed(self, problems) -> list[str]:
        """The check's problems, a problem with the matchday's own fields shown beside its field."""
        rest = []
        for problem in problems:
            if problem.field in FACT_FIELDS and problem.field in self.fields and problem.field not in self.errors:
                self.add_error(problem.field, problem.text)
            else:
                rest.append(problem)  # with its line (league.validation.Problem), for the API's answer
        return rest

    def _mark_ambiguous_lines(self, typed: list[TypedResult]) -> None:
        """A name that may mean several players is shown against each line that holds it, listing them."""
        for name, players in self.resolved.ambiguous.items():
            message = ambiguity(name, players, self.resolved.former)
            lines = {r.line for r in typed if name_key(r.player) == name_key(name)}
            for line in sorted(lines):
                self.add_error(f"line-{line.removeprefix('Line ')}", message)

    def _as_players(self, typed: list[TypedResult]) -> list[TypedResult]:
        """The typed results under the names of the players they stand for, each with its line, so that
        the league's rules name the line ("GL" and GL's full name on two lines are one player twice)."""
        new = {name_key(p["name"]): self.players[name_key(p["name"])] for p in self.new_players}
        players = {**self.resolved.players, **new}
        return [
            replace(r, player=players[key].short_name) if (key := name_key(r.player)) in players else r for r in typed
        ]

    def matchday(self, number: int) -> CheckedMatchday:
        """The checked matchday as `number`, as the services preview and save it."""
        self.checked.matchday.number = number
        return self.checked

    def edit_of(self, existing: Matchday) -> CheckedMatchday:
        """The checked matchday as a change of `existing`: its row, number and notes kept."""
        m = self.checked.matchday
        m.pk, m.club_id, m.number, m.notes = existing.pk, existing.club_id, existing.number, existing.notes
        return self.checked

    def previewed_content(self, number: int) -> str:
        """Everything a preview of this form as matchday `number` shows, as text: a Save must carry the
        token made for exactly this (league.submissions.fits), however the lines were written."""
        checked = self.matchday(number)
        m = checked.matchday
        facts = [number, m.date.isoformat(), m.game.pk, m.rounds, checked.winner_score]
        rows = []
        for result in checked.results:
            player = self.players[name_key(result.player)]
            rows.append([player.pk, player.short_name, player.name, result.note, *values(result.play)])
        return json.dumps([facts, rows])
