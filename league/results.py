"""One player's result at one matchday, declared once: every way a result comes in or goes out is
this record beside its own context.

Pure Python (no Django). `Play` holds the per-result fields; `TypedResult` is a result as it came
in (a file's line, an entry page's line, an admin's row): the record beside who played and where it
was typed; the methods' `Seat` carries the fields that `RATED_AS_GIVEN` names. The column lists of
the engine, the import (and its help in the admin), the admin, the entry page's keywords and the
calculator's inputs are read from here, so a new field declared on `Play` (and on the `Result` model
and the methods' `Seat`, which tests hold to it) flows through every way in and out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from operator import attrgetter

from league.validation import (
    PLACINGS,
    SCORES,
    SIDE_LENGTH,
    WEIGHTS,
    Problem,
    checked_name,
    finite_number,
    whole_number,
    yes_or_no,
)
from league.validation import SEDMA_COUNTS as SEDMA_SPAN


def _count(label: str, keyword: str) -> int:
    """A Sedma count: `label` as forms and messages name it, `keyword` as the entry page's lines type it."""
    metadata = {"label": label, "span": SEDMA_SPAN, "keyword": keyword, "method": "Sedma", "blank": "0"}
    return field(default=0, metadata=metadata)


@dataclass(frozen=True)
class Play:
    """What one player did at one matchday, as the league stores and rates it."""

    # `blank` says what a value left empty means, where a way in may leave it so (the import's help).
    placing: int = field(
        metadata={"label": "Placing", "span": PLACINGS, "blank": "only in a game scored by points, which they give"}
    )
    # Given explicitly for a penalty other than leaving early; None where it is the placing itself.
    rated_placing: int | None = field(
        default=None, metadata={"label": "Rated placing", "span": PLACINGS, "blank": "no penalty but leaving early"}
    )
    # Pairwise-winner method: a player who left early loses to everyone still playing.
    left_early: bool = field(
        default=False, metadata={"label": "Left early", "method": "pairwise-winner", "blank": "no"}
    )
    # The Sedma method's performance counts (two-player games); the other methods ignore them.
    won_by_16: int = _count("Rounds won by 16", "won16")
    won_by_24: int = _count("Rounds won by 24", "won24")
    won_by_4_and_last: int = _count("Rounds won with 4 and last", "last4")
    bad_moves: int = _count("Bad moves", "bad")
    # Partnerships: players whose side labels match play as one side and share its placing; a blank
    # label is a side of one, so a matchday without labels is rated player by player, as always.
    side: str = field(
        default="", metadata={"label": "Side", "longest": SIDE_LENGTH, "plural": "sides", "blank": "a side of one"}
    )
    # Partial play (joined late, left early): the share of the game played, from 0 to 1. It weights the
    # player in their side's rating and scales their change (TrueSkill: the package's own weights).
    weight: float = field(
        default=1.0, metadata={"label": "Weight", "span": WEIGHTS, "plural": "weights", "blank": "1, the whole game"}
    )
    # The points on the score sheet (partners share their side's). In a game scored by points they
    # give the placings (league.placings.placed_by_points); elsewhere they are kept and shown only.
    score: int | None = field(
        default=None, metadata={"label": "Points", "span": SCORES, "keyword": "score", "blank": "none"}
    )

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


def read_given(name: str, text: str) -> str | float | int | bool:
    """A field that a way in reads as text (a file's column, an entry-page keyword, a calculator value):
    a flag, a side's label, a weight or a count, checked against its range; empty is the field's
    default. ValueError names the field as the way in names it."""
    text = text.strip()
    declared = FIELDS[name]
    if not text:
        return declared.default
    if name in FLAGS:
        return yes_or_no(text, name, blank=declared.default)
    if name in TEXTS:
        return checked_name(text, name, declared.metadata["longest"])
    value = finite_number(text, name) if name in FRACTIONS else whole_number(text, name, declared.metadata["span"])
    problem = declared.metadata["span"].problem(name, value)
    if problem:
        raise ValueError(problem)
    return value


def range_problems(play: Play, line: str = "") -> list[Problem]:
    """Each field outside its range, in words ("Bad moves must be at most 100, not 101"), typed on
    `line`. Asked of every row of an imported file, so the usual answer (none) costs a comparison per
    field."""
    problems = []
    for name, span, label in _RANGED:
        value = getattr(play, name)
        if value is not None and not span.lowest <= value <= span.highest:
            problems.append(Problem(span.problem(label, value) + ".", line, name))
    return problems


@dataclass(frozen=True)
class TypedResult:
    """A result as it came in, beside its context: the record; who played, by the name the way in
    knows them by (a known player's short name); where the person who typed it finds it again ("Line
    5" of a file or of the entry page; empty in the admin, where the name says enough); and the
    admin's note. `tied`: typed as sharing its line's place (`K = I` on the entry page) in a game
    scored by points, where no placing is typed: the tied share the place the first one's points give."""

    play: Play
    player: str
    line: str = ""
    note: str = ""
    tied: bool = False

    def changed(self, **changes) -> TypedResult:
        """This result with its record changed (`placing=2`), its context kept."""
        return replace(self, play=replace(self.play, **changes))
