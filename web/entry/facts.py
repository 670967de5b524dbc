"""The matchday's facts the entry page asks for: only those the methods of a game's tables read
(`Method.facts_read`). Every field is in the page; the chosen game's option says which it needs
(`data-facts`), and the style sheet hides the others (`:has`), so the page needs no JavaScript and a
browser without `:has` shows every field."""

from __future__ import annotations

from django import forms

from league.models import Game
from ratings.models import RatingTable

FACTS = ("rounds", "winner_score")  # the entry form's fields for the fields of ratings.methods.Facts
ROUNDS_UNREAD = 1  # stored for a game whose tables do not read the rounds (Facts' own default)


def facts_by_game() -> dict[int, frozenset[str]]:
    """Each game's primary key -> the facts read by the methods of the tables it counts in. Two queries."""
    tables = list(RatingTable.objects.all())
    return {
        game.pk: frozenset(fact for table in tables if table.counts(game) for fact in table.rating_method.facts_read)
        for game in Game.objects.all()
    }


class GameSelect(forms.Select):
    """The game's choices, each naming the facts its tables read, for the style sheet to show only those."""

    facts: dict[int, frozenset[str]] = {}

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        pk = getattr(value, "value", value)  # a ModelChoiceIteratorValue
        option["attrs"] = {"data-facts": " ".join(sorted(self.facts.get(pk, ()))), **option["attrs"]}
        return option


def settled(data: dict, reads: frozenset[str], game: Game, last_rounds) -> str | None:
    """The form's facts for a game whose tables read `reads`: a fact they do not read is not kept (the
    rounds, needed by every matchday, become 1); blank rounds that they read are the game's last
    matchday's (`last_rounds(game)`, 1 for a new game). The problem with a fact, or None."""
    if "winner_score" not in reads:
        data["winner_score"] = None
    if data.get("rounds") is None:
        data["rounds"] = last_rounds(game) if "rounds" in reads else ROUNDS_UNREAD
    return None
