"""One player's result at one matchday, declared once: every way a result comes in or goes out is
this record plus its own context.

Pure Python (no Django). `Play` holds the per-result fields; `Entry` is a result as typed (in a
file, on the entry page, in the admin) with the player's name and where it was typed;
`ratings.services.ResultInput` is one with its Player, on its way to the database; the methods'
`Seat` carries the fields that `RATED_AS_GIVEN` names. The column lists of the engine, the import,
the admin, the entry page's keywords and the calculator's inputs are read from here, so a new field
declared on `Play` (and on the `Result` model and the methods' `Seat`, which tests hold to it) flows
through every way in and out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter

from league.validation import PLACINGS, SCORES, SIDE_LENGTH, WEIGHTS, checked_name, finite_number, whole_number
from league.validation import SEDMA_COUNTS as SEDMA_SPAN


def _count(label: str, keyword: str) -> int:
    """A Sedma count: `label` as forms and messages name it, `keyword` as the entry page's lines type it."""
    return field(default=0, metadata={"label": label, "span": SEDMA_SPAN, "keyword": keyword, "method": "Sedma"})


@dataclass(frozen=True)
class Play:
    """What one player did at one matchday, as the league stores and rates it."""

    placing: int = field(metadata={"label": "Placing", "span": PLACINGS})
    # Given explicitly for a penalty other than leaving early; None where it is the placing itself.
    rated_placing: int | None = field(default=None, metadata={"label": "Rated placing", "span": PLACINGS})
    # Pairwise-winner method: a player who left early loses to everyone still playing.
    left_early: bool = field(default=False, metadata={"label": "Left early", "method": "pairwise-winner"})
    # The Sedma method's performance counts (two-player games); the other methods ignore them.
    won_by_16: int = _count("Rounds won by 16", "won16")
    won_by_24: int = _count("Rounds won by 24", "won24")
    won_by_4_and_last: int = _count("Rounds won with 4 and last", "last4")
    bad_moves: int = _count("Bad moves", "bad")
    # Partnerships: players whose side labels match play as one side and share its placing; a blank
    # label is a side of one, so a matchday without labels is rated player by player, as always.
    side: str = field(default="", metadata={"label": "Side", "longest": SIDE_LENGTH, "plural": "sides"})
    # Partial play (joined late, left early): the share of the game played, from 0 to 1. It weights the
    # player in their side's rating and scales their change (TrueSkill: the package's own weights).
    weight: float = field(default=1.0, metadata={"label": "Weight", "span": WEIGHTS, "plural": "weights"})
    # The points on the score sheet (partners share their side's). In a game scored by points they
    # give the placings (league.placings.placed_by_points); elsewhere they are kept and shown only.
    score: int | None = field(default=None, metadata={"label": "Points", "span": SCORES, "keyword": "score"})

    @property
    def effective_placing(self) -> int:
        """The placing the methods rate: the rated placing after a penalty, else the placing."""
        return self.rated_placing if self.rated_placing is not None else self.placing


RESULT_FIELDS = tuple(f.name for f in fields(Play))
PLACING_FIELDS = ("placing", "rated_placing")
# What the methods read as it was given, after the placing they rate (`Seat` declares these, in order).
RATED_AS_GIVEN = tuple(name for name in RESULT_FIELDS if name not in PLACING_FIELDS)
FIELDS = {f.name: f for f in fields(Play)}
SEDMA_FIELDS = tuple(name for name, f in FIELDS.items() if f.metadata.get("method") == "Sedma")
LABELS = {name: f.metadata["label"] for name, f in FIELDS.items()}
FLAGS = tuple(name for name, f in FIELDS.items() if f.type == "bool")  # annotations as text (postponed)
TEXTS = tuple(name for name, f in FIELDS.items() if f.type == "str")  # the side's label
FRACTIONS = tuple(name for name, f in FIELDS.items() if f.type == "float")  # the weight of partial play
# The record's values, in RESULT_FIELDS order, of a Play, a stored Result or anything holding them.
values = attrgetter(*RESULT_FIELDS)
given_values = attrgetter(*RATED_AS_GIVEN)


_RANGED = tuple((name, f.metadata["span"], f.metadata["label"]) for name, f in FIELDS.items() if "span" in f.metadata)


def read_given(name: str, text: str) -> str | float | int:
    """A field that a way in reads as text (a file's column, an entry-page keyword, a calculator value),
    other than a flag: a side's label, a weight or a count, checked against its range; empty is the
    field's default. ValueError names the field as the way in names it."""
    text = text.strip()
    declared = FIELDS[name]
    if not text:
        return declared.default
    if name in TEXTS:
        return checked_name(text, name, declared.metadata["longest"])
    value = finite_number(text, name) if name in FRACTIONS else whole_number(text, name, declared.metadata["span"])
    problem = declared.metadata["span"].problem(name, value)
    if problem:
        raise ValueError(problem)
    return value


def range_problems(play: Play) -> list[str]:
    """Each field outside its range, in words ("Bad moves must be at most 100, not 101"). Asked of
    every row of an imported file, so the usual answer (none) costs a comparison per field."""
    problems = []
    for name, span, label in _RANGED:
        value = getattr(play, name)
        if value is not None and not span.lowest <= value <= span.highest:
            problems.append(span.problem(label, value))
    return problems


@dataclass(frozen=True, kw_only=True)
class Entry(Play):
    """A result as typed in: the player's name as written, and where the person who typed it finds it
    again ("Line 5" of a file or of the entry page; empty in the admin, where the name says enough)."""

    player: str
    row: str = ""

    def where(self) -> str:
        return f"{self.row}: " if self.row else ""
