"""An import of a BG Stats export told in lines: what it added (or, tried, would add), what it
skipped and why, the players and games it made (a new player's name with *Did you mean ...?*
against the club's members), and how each play was placed."""

from __future__ import annotations

from league.bgstats import BgPlay
from ratings.services.bgstats import BgReport
from web.pages.typed_names import resolve_players


def report_lines(report: BgReport, *, tried: bool, every_play: bool = False) -> list[str]:
    verb = "Would add" if tried else "Added"
    lines = []
    if report.added:
        first, last = report.added[0][0], report.added[-1][0]
        lines.append(f"{verb} {_plays(len(report.added))} as matchdays {first} to {last}.")
    else:
        lines.append("No new plays: nothing to add.")
    lines += [f"  {_counted(rule, count)}" for rule, count in sorted(report.rules.items())]
    skipped = [
        (report.already, "imported before (the same play, by its id in the app)"),
        (len(report.by_hand), "already entered by hand (the same date, game and players)"),
        (report.ignored, "marked as ignored in the app"),
    ]
    lines += [f"Skipped {_plays(count)} {why}." for count, why in skipped if count]
    lines += [f"  {line}" for line in report.by_hand]
    if report.new_players:
        lines.append("New players:" if not tried else "New players it would add:")
        lines += [f"  {line}" for line in new_player_lines(report.new_players)]
    if report.new_games:
        lines.append(("New games: " if not tried else "New games it would add: ") + ", ".join(report.new_games))
    if every_play:
        lines += [f"  {play_line(number, play)}" for number, play in report.added]
    return lines


def new_player_lines(new: list[tuple[str, str]]) -> list[str]:
    """Each new player (short name, full name), with the member the name is close to."""
    close = resolve_players([full for _, full in new]).unknown
    found = []
    for short, full in new:
        named = short if short == full else f"{short} ({full})"
        hint = close.get(full)
        found.append(f"{named}. Did you mean {hint}?" if hint else named)
    return found


def play_line(number: int, play: BgPlay) -> str:
    if play.won is not None:
        who = ", ".join(seat.name for seat in play.seats)
        return f"Matchday {number} · {play.day.isoformat()} · {play.game.name} · {who} {play.rule} against the game"
    placed = ", ".join(f"{seat.name} {seat.placing}" for seat in sorted(play.seats, key=lambda s: s.placing))
    return f"Matchday {number} · {play.day.isoformat()} · {play.game.name} · {placed} ({play.rule})"


def _counted(rule: str, count: int) -> str:
    """ "358 placed by the flagged winners, then the points", or "16 co-op plays won against the game"."""
    kind, _, outcome = rule.partition(": ")
    if outcome:
        return f"{_plays(count)} {kind}, {outcome} against the game"
    return f"{count} placed by {rule}"


def _plays(count: int) -> str:
    return f"{count} play" + ("" if count == 1 else "s")
