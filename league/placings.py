"""A matchday's placings, sides and penalties against the league's rules, with messages a club
secretary understands: one rule for the entry page, the admin and the imports (league.results.Entry
is a result as typed). Pure Python (no Django).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from league.validation import PLAYERS, SIDE_LENGTH, name_key, name_problem

if TYPE_CHECKING:  # results.py reads its ranges from league.validation
    from league.results import Entry


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


def _ranking_problem(placings: Sequence[int], what: str, who: str = "players") -> str | None:
    suggestion = competition_ranking(placings)
    if list(placings) == suggestion:
        return None
    shown = _numbers(sorted(placings))
    fixed = _numbers(sorted(suggestion))
    return (
        f"The {what} {shown} are not a ranking of the {who}: tied {who} share a place and the next "
        f"skips the places they used (1, 2, 2, 4). Did you mean {fixed}?"
    )


def _numbers(values: Sequence[int], shown: int = 30) -> str:
    text = ", ".join(str(v) for v in values[:shown])
    return text + (f" … ({len(values)} in all)" if len(values) > shown else "")


def players_problem(n: int) -> str | None:
    """Whether a matchday of `n` players is too small or too large."""
    if n < PLAYERS.lowest:
        return f"A matchday needs at least two players; this one has {n}."
    if n > PLAYERS.highest:
        return f"A matchday has at most {PLAYERS.highest} players; this one has {n:,}."
    return None


def side_groups(labels: Sequence[str]) -> list[list[int]]:
    """The positions of each side's players, sides in order of first appearance: players whose labels
    are the same name (compared as names are) are partners; a blank label is a side of one."""
    groups: dict[str, list[int]] = {}
    alone = []
    for index, label in enumerate(labels):
        key = name_key(label) if label else ""
        if key:
            groups.setdefault(key, []).append(index)
        else:
            alone.append([index])
            groups[f"\0{index}"] = alone[-1]  # keeps the order of first appearance
    return list(groups.values())


def same_side_labels(entries: Sequence) -> list:
    """`entries` (results with a `side`) with partners' labels written alike, as the side's first
    player wrote it: "a" and "A" are one side to the rules, and so they are to the pages and queries
    that compare stored labels."""
    if not any(entry.side for entry in entries):
        return list(entries)
    spelled: dict[str, str] = {}
    written = []
    for entry in entries:
        if entry.side:
            label = spelled.setdefault(name_key(entry.side), entry.side.strip())
            entry = entry if entry.side == label else replace(entry, side=label)
        written.append(entry)
    return written


def matchday_problems(entries: Sequence[Entry]) -> list[str]:
    """Everything wrong with one matchday's results, or an empty list.

    Checks, in order: two to 500 players, nobody twice (names compared by `name_key`), sides (partners
    share their placing, at least two sides, each with a player who played), placings within 1..n for
    n sides, placings that form a ranking, no side both left early and given a rated placing, and rated
    placings that rank the sides as the penalty rule does (see `rated_placings`). A player alone is a
    side of one, so without partners "side" reads "player". Linear but for a sort or two.
    """
    n = len(entries)
    too_few_or_many = players_problem(n)
    if too_few_or_many:
        return [too_few_or_many]
    problems = _twice_problems(entries)
    groups = side_groups([e.side for e in entries])
    problems.extend(_side_problems(entries, groups))
    if problems:
        return problems
    leaders = [entries[group[0]] for group in groups]
    teamed = len(leaders) < n
    n, who = len(leaders), "sides" if teamed else "players"
    for entry in leaders:
        for label, value in (("placing", entry.placing), ("rated placing", entry.rated_placing)):
            if value is not None and not 1 <= value <= n:
                problems.append(
                    f"{entry.where()}{label} {value} for {_side_of(entry)} is outside 1..{n} ({n} {who} took part)."
                )
        if entry.left_early and entry.rated_placing is not None:
            problems.append(
                f"{entry.where()}{_side_of(entry)} left early, which already rates them after everyone who "
                f"stayed; leave their rated placing ({entry.rated_placing}) empty."
            )
    if problems:
        return problems
    ranking = _ranking_problem([e.placing for e in leaders], "placings", who)
    if ranking:
        return [ranking]
    meant = _rated_placings(leaders)
    wrong = [(e, m) for e, m in zip(leaders, meant, strict=True) if e.rated_placing not in (None, m)]
    if wrong:
        fixes = ", ".join(f"{_side_of(e)} should be rated {m}" for e, m in wrong)
        pairs = sorted(zip(leaders, meant, strict=True), key=lambda x: x[1])
        order = ", ".join(f"{_side_of(e)} {m}" for e, m in pairs)
        return [
            f"{wrong[0][0].where()}The rated placings do not rank the {who}: {fixes}. A penalised player takes "
            f"the place given to them and the others keep their finishing order around them: {order}."
        ]
    return []


def _twice_problems(entries: Sequence[Entry]) -> list[str]:
    """Players entered twice (names compared by `name_key`), or on two sides."""
    problems = []
    first: dict[str, Entry] = {}
    for entry in entries:
        key = name_key(entry.player)
        if key not in first:
            first[key] = entry
            continue
        also = f" (also in {first[key].row})" if entry.row else ""
        if name_key(entry.side) != name_key(first[key].side):
            sides = f"{_side_name(first[key])} and {_side_name(entry)}"
            problems.append(f"{entry.where()}{entry.player} is on two sides, {sides}{also}; a player plays for one.")
        else:
            problems.append(f"{entry.where()}{entry.player} is entered twice{also}.")
    return problems


SHARED_BY_PARTNERS = (("placing", "placing"), ("rated_placing", "rated placing"), ("left_early", "left early"))


def _side_problems(entries: Sequence[Entry], groups: list[list[int]]) -> list[str]:
    """Partners who disagree on what a side shares, a matchday of one side, a side nobody played for."""
    problems = []
    for label, _ in {entry.side: None for entry in entries if entry.side}.items():
        problem = name_problem(label, "side", SIDE_LENGTH)
        if problem:
            return [problem[0].upper() + problem[1:] + "."]
    if len(groups) == 1:
        return [f"All {len(entries)} players are on one side ({entries[0].side}); a matchday needs two sides or more."]
    for group in groups:
        leader = entries[group[0]]
        for index in group[1:]:
            partner = entries[index]
            for name, words in SHARED_BY_PARTNERS:
                if getattr(partner, name) != getattr(leader, name):
                    theirs, leaders = _shown_value(getattr(partner, name)), _shown_value(getattr(leader, name))
                    problems.append(
                        f"{partner.where()}{partner.player} has {words} {theirs} but their partner {leader.player} "
                        f"(side {leader.side}) has {leaders}: partners share their side's placing."
                    )
        if all(entries[index].weight == 0 for index in group):
            problems.append(
                f"{leader.where()}{_side_of(leader)} played no part of the game (every weight is 0); a side needs "
                "a player with a weight above 0."
            )
    return problems


def _shown_value(value: object) -> str:
    return "none" if value is None else ("yes" if value is True else "no" if value is False else str(value))


def _side_name(entry: Entry) -> str:
    return f"side {entry.side}" if entry.side else "a side of their own"


def _side_of(entry: Entry) -> str:
    return f"side {entry.side}" if entry.side else entry.player


# Penalties, one rule for the entry page, the admin and the import: rated placings are derived from
# the finishing order, who left early and any explicit rated placing. Partners share theirs.


def rated_placings(entries: Sequence[Entry]) -> list[int]:
    """Each player's rated placing: their side's (see `_rated_placings`), partners sharing it."""
    groups = side_groups([e.side for e in entries])
    if len(groups) == len(entries):
        return _rated_placings(entries)
    rated = [0] * len(entries)
    for group, placing in zip(groups, _rated_placings([entries[g[0]] for g in groups]), strict=True):
        for index in group:
            rated[index] = placing
    return rated


def _rated_placings(entries: Sequence[Entry]) -> list[int]:
    """Each side's rated placing. Sides that left early share the place after everyone who
    stayed. Those who stayed are ranked in finishing order, except that a side given an explicit
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


# Score sheets: a game scored by points (Hearts: the fewest win; Rummy: the most) has its placings
# follow from the points, equal points sharing a place. One rule for every way in.
BY_PLACINGS, HIGHEST_WINS, LOWEST_WINS = "placings", "highest", "lowest"
SCORINGS = {BY_PLACINGS: "Placings only", HIGHEST_WINS: "Highest score wins", LOWEST_WINS: "Lowest score wins"}


def placings_from_points(points: Sequence[int], scoring: str) -> list[int]:
    """Each side's placing as its points give it: competition ranking, equal points sharing a place."""
    return competition_ranking([-p if scoring == HIGHEST_WINS else p for p in points])


def placed_by_points(entries: Sequence[Entry], scoring: str) -> tuple[list[Entry], list[str]]:
    """`entries` with the placings their points give, in a game scored by points, and what is wrong.

    Partners share their side's points. Where no one has points (or the game is scored by placings,
    which keeps any points as written) the placings are the ones given. An entry's placing may be None
    when it has points: it takes the points' placing; a placing given must agree with it."""
    if scoring == BY_PLACINGS or all(entry.score is None for entry in entries):
        missing = [entry for entry in entries if entry.placing is None]
        if missing:
            need = "placing" if scoring == BY_PLACINGS else "placing or points"
            return list(entries), [f"{e.where()}{e.player} has no {need}." for e in missing]
        return list(entries), []
    groups = side_groups([e.side for e in entries])
    problems = []
    for group in groups:
        leader = entries[group[0]]
        problems += [
            f"{entries[i].where()}{entries[i].player} has points {_shown_value(entries[i].score)} but their "
            f"partner {leader.player} (side {leader.side}) has {_shown_value(leader.score)}: partners share "
            "their side's points."
            for i in group[1:]
            if entries[i].score != leader.score
        ]
    leaders = [entries[group[0]] for group in groups]
    without = [e for e in leaders if e.score is None]
    if without:
        names = ", ".join(_side_of(e) for e in without)
        problems.append(f"{without[0].where()}Give everyone's points or no one's: {names} has none.")
    if problems:
        return list(entries), problems
    placings = placings_from_points([e.score for e in leaders], scoring)
    meant = [0] * len(entries)
    for group, placing in zip(groups, placings, strict=True):
        for index in group:
            meant[index] = placing
    wrong = [(e, p) for e, p in zip(entries, meant, strict=True) if e.placing not in (None, p)]
    if wrong:
        return list(entries), [_disagreement(wrong, leaders, placings, scoring)]
    return [replace(e, placing=p) for e, p in zip(entries, meant, strict=True)], []


def _disagreement(wrong: list, leaders: Sequence[Entry], placings: list[int], scoring: str) -> str:
    """The message for placings that the points do not give, with the placings they do give."""
    given = ", ".join(dict.fromkeys(f"{_side_of(e)} {e.placing}" for e, _ in wrong))  # partners once
    order = sorted(zip(leaders, placings, strict=True), key=lambda pair: pair[1])
    meant = ", ".join(f"{_side_of(e)} {p} ({e.score})" for e, p in order)
    rule = "the lowest score wins" if scoring == LOWEST_WINS else "the highest score wins"
    return (
        f"{wrong[0][0].where()}The placings given ({given}) do not follow from the points ({rule}, equal "
        f"points share a place): the points give {meant}."
    )


def winner_points(entries: Sequence[Entry], scoring: str) -> int | None:
    """The winner's points in a game where the highest score wins, when everyone has points; else
    None. The table-size method reads them as the winner's score."""
    if scoring != HIGHEST_WINS or not entries or any(e.score is None for e in entries):
        return None
    return max(e.score for e in entries)
