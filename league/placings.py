"""A matchday's placings, sides, penalties and points against the league's rules, with messages a
club secretary understands: one rule for every way in, which league.checked runs on a matchday's
results as typed (league.results.TypedResult). Pure Python (no Django).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from league.validation import PLAYERS, SIDE_LENGTH, Problem, name_key, name_problem

if TYPE_CHECKING:
    from league.results import Play, TypedResult


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


def same_side_labels(entries: Sequence[TypedResult]) -> list[TypedResult]:
    """`entries` with partners' labels written alike, as the side's first player wrote it: "a" and "A"
    are one side to the rules, and so they are to the pages and queries that compare stored labels."""
    if not any(entry.play.side for entry in entries):
        return list(entries)
    spelled: dict[str, str] = {}
    written = []
    for entry in entries:
        side = entry.play.side
        if side:
            label = spelled.setdefault(name_key(side), side.strip())
            entry = entry if side == label else entry.changed(side=label)
        written.append(entry)
    return written


def matchday_problems(entries: Sequence[TypedResult]) -> list[Problem]:
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
        return [Problem(too_few_or_many)]
    problems = _twice_problems(entries)
    groups = side_groups([e.play.side for e in entries])
    problems.extend(_side_problems(entries, groups))
    if problems:
        return problems
    leaders = [entries[group[0]] for group in groups]
    teamed = len(leaders) < n
    n, who = len(leaders), "sides" if teamed else "players"
    for entry in leaders:
        play = entry.play
        for name, value in (("placing", play.placing), ("rated_placing", play.rated_placing)):
            if value is not None and not 1 <= value <= n:
                problems.append(
                    Problem(
                        f"{name.replace('_', ' ')} {value} for {_side_of(entry)} is outside 1..{n} ({n} {who} took "
                        "part).",
                        entry.line,
                        name,
                    )
                )
        if play.left_early and play.rated_placing is not None:
            problems.append(
                Problem(
                    f"{_side_of(entry)} left early, which already rates them after everyone who stayed; leave "
                    f"their rated placing ({play.rated_placing}) empty.",
                    entry.line,
                    "rated_placing",
                )
            )
    if problems:
        return problems
    ranking = _ranking_problem([e.play.placing for e in leaders], "placings", who)
    if ranking:
        return [Problem(ranking, field="placing")]
    return _penalty_problems(leaders, who)


def _penalty_problems(leaders: Sequence[TypedResult], who: str) -> list[Problem]:
    """Rated placings that the penalty rule does not give, naming who should be rated what."""
    if all(e.play.rated_placing is None for e in leaders):
        return []  # none given: the rule gives them
    meant = _rated_placings([e.play for e in leaders])
    wrong = [(e, m) for e, m in zip(leaders, meant, strict=True) if e.play.rated_placing not in (None, m)]
    if not wrong:
        return []
    fixes = ", ".join(f"{_side_of(e)} should be rated {m}" for e, m in wrong)
    pairs = sorted(zip(leaders, meant, strict=True), key=lambda x: x[1])
    order = ", ".join(f"{_side_of(e)} {m}" for e, m in pairs)
    text = (
        f"The rated placings do not rank the {who}: {fixes}. A penalised player takes the place given to "
        f"them and the others keep their finishing order around them: {order}."
    )
    return [Problem(text, wrong[0][0].line, "rated_placing")]


def _twice_problems(entries: Sequence[TypedResult]) -> list[Problem]:
    """Players entered twice (names compared by `name_key`), or on two sides."""
    problems = []
    first: dict[str, TypedResult] = {}
    for entry in entries:
        key = name_key(entry.player)
        if key not in first:
            first[key] = entry
            continue
        earlier = first[key]
        also = f" (also in {earlier.line})" if entry.line and earlier.line != entry.line else ""
        if name_key(entry.play.side) != name_key(earlier.play.side):
            sides = f"{_side_name(earlier)} and {_side_name(entry)}"
            text = f"{entry.player} is on two sides, {sides}{also}; a player plays for one."
            problems.append(Problem(text, entry.line, "side"))
        else:
            problems.append(Problem(f"{entry.player} is entered twice{also}.", entry.line, "player"))
    return problems


SHARED_BY_PARTNERS = (("placing", "placing"), ("rated_placing", "rated placing"), ("left_early", "left early"))


def _side_problems(entries: Sequence[TypedResult], groups: list[list[int]]) -> list[Problem]:
    """Partners who disagree on what a side shares, a matchday of one side, a side nobody played for."""
    for entry in {entry.play.side: entry for entry in entries if entry.play.side}.values():
        problem = name_problem(entry.play.side, "side", SIDE_LENGTH)
        if problem:
            return [Problem(problem[0].upper() + problem[1:] + ".", entry.line, "side")]
    if len(groups) == 1:
        text = (
            f"All {len(entries)} players are on one side ({entries[0].play.side}); a matchday needs two sides or more."
        )
        return [Problem(text, field="side")]
    problems = []
    for group in groups:
        leader = entries[group[0]]
        for index in group[1:]:
            partner = entries[index]
            for name, words in SHARED_BY_PARTNERS:
                theirs, leaders = getattr(partner.play, name), getattr(leader.play, name)
                if theirs != leaders:
                    text = (
                        f"{partner.player} has {words} {_shown_value(theirs)} but their partner {leader.player} "
                        f"(side {leader.play.side}) has {_shown_value(leaders)}: partners share their side's placing."
                    )
                    problems.append(Problem(text, partner.line, name))
        if all(entries[index].play.weight == 0 for index in group):
            text = (
                f"{_side_of(leader)} played no part of the game (every weight is 0); a side needs a player with a "
                "weight above 0."
            )
            problems.append(Problem(text, leader.line, "weight"))
    return problems


def _shown_value(value: object) -> str:
    return "none" if value is None else ("yes" if value is True else "no" if value is False else str(value))


def _side_name(entry: TypedResult) -> str:
    return f"side {entry.play.side}" if entry.play.side else "a side of their own"


def _side_of(entry: TypedResult) -> str:
    return f"side {entry.play.side}" if entry.play.side else entry.player


# Penalties, one rule for every way in: rated placings are derived from the finishing order, who left
# early and any explicit rated placing. Partners share theirs.


def rated_placings(plays: Sequence[Play]) -> list[int]:
    """Each player's rated placing: their side's (see `_rated_placings`), partners sharing it."""
    groups = side_groups([p.side for p in plays])
    if len(groups) == len(plays):
        return _rated_placings(plays)
    rated = [0] * len(plays)
    for group, placing in zip(groups, _rated_placings([plays[g[0]] for g in groups]), strict=True):
        for index in group:
            rated[index] = placing
    return rated


def _rated_placings(plays: Sequence[Play]) -> list[int]:
    """Each side's rated placing. Sides that left early share the place after everyone who
    stayed. Those who stayed are ranked in finishing order, except that a side given an explicit
    rated placing (another penalty) takes that place, the others keeping their order around them.

    The club's matchday 5: GL 1, I 2, R 3 (left early), J 3 gives GL 1, I 2, J 3, R 4. Placings 1, 2,
    2, 4 with the second of the tied players left early give 1, 2, 4, 3."""
    stayed = [p for p in plays if not p.left_early]
    # Sort key: the place a player is rated at, penalised players after the others there, then by
    # finishing order; penalised players given the same place share it.
    keys = [
        (p.placing, 0, p.placing) if p.rated_placing in (None, p.placing) else (p.rated_placing, 1, 0) for p in stayed
    ]
    first_index: dict[tuple, int] = {}
    for index, key in enumerate(sorted(keys)):
        first_index.setdefault(key, index)
    ranks = iter(1 + first_index[key] for key in keys)
    return [len(stayed) + 1 if p.left_early else next(ranks) for p in plays]


def stored_rated_placings(plays: Sequence[Play]) -> list[int | None]:
    """The rated placing to store for each result: None where it is the placing itself."""
    if not any(p.left_early or p.rated_placing is not None for p in plays):
        return [None] * len(plays)  # nobody penalised: the rule keeps every placing
    return [None if m == p.placing else m for p, m in zip(plays, rated_placings(plays), strict=True)]


def typed_rated_placings(plays: Sequence[Play]) -> list[int | None]:
    """Stored results' rated placings as a secretary types them, so that checked and stored again they
    are the same (the admin's form, the export): none where the penalty rule derives the stored one by
    itself (who left early, who moved up past a penalised player), the stored one for a penalty.

    Every stored rated placing but those of who left early gives the stored ones back; each side's is
    then left out where the rule gives it without. Linear in the penalties, each a pass of the rule."""
    stored = [p.effective_placing for p in plays]
    typed = [None if p.left_early or s == p.placing else s for p, s in zip(plays, stored, strict=True)]
    for group in side_groups([p.side for p in plays]):
        if typed[group[0]] is None:
            continue
        trial = list(typed)
        for index in group:
            trial[index] = None
        if rated_placings([replace(p, rated_placing=t) for p, t in zip(plays, trial, strict=True)]) == stored:
            typed = trial
    return typed


# Score sheets: a game scored by points (Hearts: the fewest win; Rummy: the most) has its placings
# follow from the points, equal points sharing a place. One rule for every way in.
BY_PLACINGS, HIGHEST_WINS, LOWEST_WINS = "placings", "highest", "lowest"
SCORINGS = {BY_PLACINGS: "Placings only", HIGHEST_WINS: "Highest score wins", LOWEST_WINS: "Lowest score wins"}


def placings_from_points(points: Sequence[int], scoring: str) -> list[int]:
    """Each side's placing as its points give it: competition ranking, equal points sharing a place."""
    return competition_ranking([-p if scoring == HIGHEST_WINS else p for p in points])


def placed_by_points(entries: Sequence[TypedResult], scoring: str) -> tuple[list[TypedResult], list[Problem]]:
    """`entries` with the placings their points give, in a game scored by points, and what is wrong.

    Partners share their side's points. Where no one has points (or the game is scored by placings,
    which keeps any points as written) the placings are the ones given. A result's placing may be None
    when it has points: it takes the points' placing; a placing given must agree with it, and so must
    the place shared by results typed as tied (`TypedResult.tied`): the first one's."""
    if scoring == BY_PLACINGS or all(entry.play.score is None for entry in entries):
        need = "placing" if scoring == BY_PLACINGS else "placing or points"
        missing = [Problem(f"{e.player} has no {need}.", e.line, "placing") for e in entries if e.play.placing is None]
        return list(entries), missing
    groups = side_groups([e.play.side for e in entries])
    problems = []
    for group in groups:
        leader = entries[group[0]]
        problems += [
            Problem(
                f"{entries[i].player} has points {_shown_value(entries[i].play.score)} but their partner "
                f"{leader.player} (side {leader.play.side}) has {_shown_value(leader.play.score)}: partners share "
                "their side's points.",
                entries[i].line,
                "score",
            )
            for i in group[1:]
            if entries[i].play.score != leader.play.score
        ]
    leaders = [entries[group[0]] for group in groups]
    without = [e for e in leaders if e.play.score is None]
    if without:
        names = ", ".join(_side_of(e) for e in without)
        problems.append(Problem(f"Give everyone's points or no one's: {names} has none.", without[0].line, "score"))
    if problems:
        return list(entries), problems
    placings = placings_from_points([e.play.score for e in leaders], scoring)
    meant = [0] * len(entries)
    for group, placing in zip(groups, placings, strict=True):
        for index in group:
            meant[index] = placing
    given = _given_placings(entries, meant)
    final = [p if g is None else g for g, p in zip(given, meant, strict=True)]
    if _breaks_ties_only([[final[i] for i in group] for group in groups], placings):
        return [e.changed(placing=p) for e, p in zip(entries, final, strict=True)], []  # a tiebreak, or none
    wrong = [(e.changed(placing=g), p) for e, g, p in zip(entries, given, meant, strict=True) if g not in (None, p)]
    return list(entries), [_disagreement(wrong, leaders, placings, scoring)]


def _breaks_ties_only(sides: list[list[int]], meant: list[int]) -> bool:
    """Whether each side's placings (`sides`, its players' as given or meant) keep the order of the
    points (`meant`, by side), ordering equal points at most, as a tiebreak does: partners share one
    placing, a better score always places better, and the placings rank the sides (1, 2, 2, 4)."""
    if any(len(set(side)) > 1 for side in sides):
        return False
    final = [side[0] for side in sides]
    if final == meant:
        return True
    if not is_ranking(final):
        return False
    order = sorted(range(len(final)), key=lambda i: (meant[i], final[i]))
    pairs = list(zip(order, order[1:], strict=False))
    return all(final[a] < final[b] if meant[a] < meant[b] else final[a] <= final[b] for a, b in pairs)


def _given_placings(entries: Sequence[TypedResult], meant: list[int]) -> list[int | None]:
    """Each result's placing as given: typed, or for results typed as tied without one, the place the
    points give the first of them on their line."""
    shared: dict[str, int] = {}
    given = []
    for entry, placing in zip(entries, meant, strict=True):
        if entry.tied and entry.play.placing is None:
            given.append(shared.setdefault(entry.line, placing))
        else:
            given.append(entry.play.placing)
    return given


def _disagreement(wrong: list, leaders: Sequence[TypedResult], placings: list[int], scoring: str) -> Problem:
    """The problem of placings that the points do not give, with the placings they do give."""
    given = ", ".join(dict.fromkeys(f"{_side_of(e)} {e.play.placing}" for e, _ in wrong))  # partners once
    order = sorted(zip(leaders, placings, strict=True), key=lambda pair: pair[1])
    meant = ", ".join(f"{_side_of(e)} {p} ({e.play.score})" for e, p in order)
    rule = "the lowest score wins" if scoring == LOWEST_WINS else "the highest score wins"
    text = (
        f"The placings given ({given}) do not follow from the points ({rule}, equal points share a place): the "
        f"points give {meant}."
    )
    return Problem(text, wrong[0][0].line, "placing")


def winner_points(plays: Sequence[Play], scoring: str) -> int | None:
    """The winner's points in a game where the highest score wins, when everyone has points; else
    None. The table-size method reads them as the winner's score."""
    if scoring != HIGHEST_WINS or not plays or any(p.score is None for p in plays):
        return None
    return max(p.score for p in plays)
