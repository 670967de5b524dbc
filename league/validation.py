"""Checks that a matchday's results make sense, with messages a club secretary understands.

Pure Python (no Django): the admin, the CSV import and the rating methods all check results with
these functions, so each mistake gets the same message whichever way it came in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """One result as typed in. `row` is how the person who typed it finds it again ("Line 5" of a
    file; empty where the player's name says enough, as on the entry page and in the admin)."""

    row: str
    player: str
    placing: int
    rated_placing: int | None = None  # given explicitly, for a penalty other than leaving early
    left_early: bool = False

    @property
    def effective_placing(self) -> int:
        return self.rated_placing if self.rated_placing is not None else self.placing

    def where(self) -> str:
        return f"{self.row}: " if self.row else ""


def name_key(name: str) -> str:
    """The form in which two names (of players or games) are compared: two names with the same key
    are the same player or game, wherever a name comes in."""
    return name.casefold()


def competition_ranking(placings: Sequence[int]) -> list[int]:
    """The standard competition ranking ("1224") that keeps the order of the given placings: each
    player's place is one more than the number of players placed strictly better. Sorts once."""
    first_index: dict[int, int] = {}
    for index, placing in enumerate(sorted(placings)):
        first_index.setdefault(placing, index)
    return [1 + first_index[p] for p in placings]


def is_ranking(placings: Sequence[int]) -> bool:
    """Whether `placings` already are a standard competition ranking (1, 2, 2, 4)."""
    return list(placings) == competition_ranking(placings)


def _ranking_problem(placings: Sequence[int], what: str) -> str | None:
    suggestion = competition_ranking(placings)
    if list(placings) == suggestion:
        return None
    shown = ", ".join(str(p) for p in sorted(placings))
    fixed = ", ".join(str(p) for p in sorted(suggestion))
    return (
        f"The {what} {shown} are not a ranking: tied players share a place and the next player "
        f"skips the places they used (1, 2, 2, 4). Did you mean {fixed}?"
    )


def matchday_problems(entries: Sequence[Entry]) -> list[str]:
    """Everything wrong with one matchday's results, or an empty list.

    Checks, in order: at least two players, nobody twice, placings within 1..n, placings that form a
    ranking, no player both left early and given a rated placing, and rated placings that rank the
    players as the penalty rule does (see `rated_placings`)."""
    n = len(entries)
    if n < 2:
        return [f"A matchday needs at least two players; this one has {n}."]
    problems = []
    first: dict[str, Entry] = {}
    for entry in entries:
        key = name_key(entry.player)
        if key in first:
            also = f" (also in {first[key].row})" if entry.row else ""
            problems.append(f"{entry.where()}{entry.player} is entered twice{also}.")
        else:
            first[key] = entry
    for entry in entries:
        for label, value in (("placing", entry.placing), ("rated placing", entry.rated_placing)):
            if value is not None and not 1 <= value <= n:
                problems.append(
                    f"{entry.where()}{label} {value} for {entry.player} is outside 1..{n} ({n} players took part)."
                )
        if entry.left_early and entry.rated_placing is not None:
            problems.append(
                f"{entry.where()}{entry.player} left early, which already rates them after everyone who "
                f"stayed; leave their rated placing ({entry.rated_placing}) empty."
            )
    if problems:
        return problems
    ranking = _ranking_problem([e.placing for e in entries], "placings")
    if ranking:
        return [ranking]
    meant = rated_placings(entries)
    wrong = [(e, m) for e, m in zip(entries, meant, strict=True) if e.rated_placing not in (None, m)]
    if wrong:
        fixes = ", ".join(f"{e.player} should be rated {m}" for e, m in wrong)
        order = ", ".join(f"{e.player} {m}" for e, m in sorted(zip(entries, meant, strict=True), key=lambda x: x[1]))
        return [
            f"{wrong[0][0].where()}The rated placings do not rank the players: {fixes}. A penalised player takes "
            f"the place given to them and the others keep their finishing order around them: {order}."
        ]
    return []


# Penalties, one rule for the entry page, the admin and the import: rated placings are derived from
# the finishing order, who left early and any explicit rated placing.


def rated_placings(entries: Sequence[Entry]) -> list[int]:
    """Each player's rated placing. Players who left early share the place after everyone who
    stayed. Those who stayed are ranked in finishing order, except that a player given an explicit
    rated placing (another penalty) takes that place, the others keeping their order around them.

    The club's matchday 5: GL 1, I 2, R 3 (left early), J 3 gives GL 1, I 2, J 3, R 4. Placings 1, 2,
    2, 4 with the second of the tied players left early give 1, 2, 4, 3."""
    stayed = [e for e in entries if not e.left_early]
    # Sort key: the place a player is rated at, penalised players after the others there, then by
    # finishing order; penalised players given the same place share it.
    keys = [
        (e.placing, 0, e.placing) if e.rated_placing in (None, e.placing) else (e.rated_placing, 1, 0) for e in stayed
    ]
    first_index: dict[tuple, int] = {}
    for index, key in enumerate(sorted(keys)):
        first_index.setdefault(key, index)
    ranks = iter(1 + first_index[key] for key in keys)
    return [len(stayed) + 1 if e.left_early else next(ranks) for e in entries]


def stored_rated_placings(entries: Sequence[Entry]) -> list[int | None]:
    """The rated placing to store for each entry: None where it is the placing itself."""
    return [None if m == e.placing else m for e, m in zip(entries, rated_placings(entries), strict=True)]
