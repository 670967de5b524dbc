"""A BG Stats export imported into a club: each new play a matchday, through the CSV import's one
check and one writer (`imports.import_matchdays`), all or nothing.

A play is known by its uuid (`Matchday.source`), so a file imported again, or a later export of
the same app, adds only its new plays; a play whose date, game and players are a matchday's
already entered by hand is reported, not added twice. Games are matched by name or created with
their scoring; a co-operative play and a solo play are played against the game (`against_game`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db.models import Max

import league.history as history
from league.bgstats import COMPETITIVE, BgGame, BgPlay, Export
from league.models import Game, Matchday, Player
from league.placings import BY_PLACINGS, HIGHEST_WINS, LOWEST_WINS
from league.results import Play, TypedResult
from league.services import save_player
from league.validation import SHORT_NAME_LENGTH, name_key, short_name_from

from .against_game import against_the_game, stand_in
from .catalogue import add_games, free_game_slug
from .imports import ImportedMatchday, import_matchdays
from .matchdays import look_alikes

SOURCE = "bgstats:"


@dataclass
class BgReport:
    """What an import did, or with `dry_run` would do."""

    added: list[tuple[int, BgPlay]] = field(default_factory=list)  # (matchday number, play)
    already: int = 0  # plays imported before (by uuid)
    by_hand: list[str] = field(default_factory=list)  # plays already entered by hand, not added
    ignored: int = 0
    rules: Counter = field(default_factory=Counter)
    new_players: list[tuple[str, str]] = field(default_factory=list)  # (short name, full name)
    new_games: list[str] = field(default_factory=list)


class _DryRun(Exception):
    pass


def import_bgstats(export: Export, *, dry_run: bool = False) -> BgReport:
    """Import the export's new plays (ValidationError lists the file's problems: nothing is written).
    With `dry_run`, everything is done and rolled back: the report says what would be added."""
    if export.problems:
        raise ValidationError(export.problems)
    report = BgReport(ignored=export.ignored)
    try:
        with history.one_write():  # its games, guests, players and plays: one entry, undone as one
            _import(export, report)
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    return report


def _import(export: Export, report: BgReport) -> None:
    stored = set(Matchday.objects.filter(source__startswith=SOURCE).values_list("source", flat=True))
    plays = [play for play in export.plays if SOURCE + play.uuid not in stored]
    report.already = len(export.plays) - len(plays)
    games = _games(plays, report)
    names = _names(plays)
    _guests(plays, names, report)
    plays = _not_entered_by_hand(plays, games, names, report)
    if not plays:
        return
    number = (Matchday.objects.aggregate(last=Max("number"))["last"] or 0) + 1
    imported = []
    for offset, play in enumerate(sorted(plays, key=lambda p: (p.day, p.number))):
        game = games[play.game.name]
        results = _results(play, game, names)
        imported.append(
            ImportedMatchday(number + offset, play.day, game.name, 1, results, play.named, SOURCE + play.uuid)
        )
        report.added.append((number + offset, play))
    summary = import_matchdays(imported)
    report.new_players[len(report.new_players) :] = summary.new_players
    report.rules = Counter(_rule(play) for _, play in report.added)


def _rule(play: BgPlay) -> str:
    return play.rule if play.kind == COMPETITIVE else f"{play.kind}: {play.rule}"


def _games(plays: list[BgPlay], report: BgReport) -> dict[str, Game]:
    """The club's game of each of the file's games (by name), those not yet kept created with their
    scoring (points or none, highest or lowest wins) and whether they are co-operative."""
    club = {game.name_key: game for game in Game.objects.all()}
    found, new = {}, []
    for bg in {play.game.name: play.game for play in plays}.values():
        game = club.get(name_key(bg.name))
        if game is None:
            slug = free_game_slug(bg.name, taken={g.slug for g in new})
            game = Game(name=bg.name, slug=slug, scoring=_scoring(bg), cooperative=bg.cooperative)
            new.append(game)
            report.new_games.append(game.name)
            club[name_key(bg.name)] = game
        found[bg.name] = game
    add_games(new, new_game_method=True)  # board games: one round a play
    return found


def _scoring(game: BgGame) -> str:
    if game.no_points or game.cooperative:
        return BY_PLACINGS
    return HIGHEST_WINS if game.highest_wins else LOWEST_WINS


def _names(plays: list[BgPlay]) -> dict[str, str]:
    """Each name of the file as the import writes it: a member's short name when the name is their
    short or full name (any case), else the name itself (a new player, or a former name)."""
    members = list(Player.objects.filter(stands_for__isnull=True))
    by_short = {p.short_name_key: p.short_name for p in members}
    by_full: dict[str, list[str]] = {}
    for player in members:
        by_full.setdefault(name_key(player.name), []).append(player.short_name)
    names = {}
    for seat in (seat for play in plays for seat in play.seats):
        key = name_key(seat.name)
        full = by_full.get(key, [])
        names[seat.name] = by_short.get(key) or (full[0] if len(full) == 1 else seat.name)
    return names


def _guests(plays: list[BgPlay], names: dict[str, str], report: BgReport) -> None:
    """The app's anonymous player, when the club does not know the name yet: a guest (rated, not on
    the standings until made a member), made here since a file cannot say so."""
    taken = set(Player.objects.values_list("short_name_key", flat=True))
    for name in {seat.name for play in plays for seat in play.seats if seat.anonymous}:
        if names[name] != name or name_key(name) in taken:
            continue  # a member of that name already
        short = name if len(name) <= SHORT_NAME_LENGTH else short_name_from(name, taken)
        save_player(Player(name=name, short_name=short, guest=True))
        taken.add(name_key(short))
        names[name] = short
        report.new_players.append((short, name))


def _not_entered_by_hand(
    plays: list[BgPlay], games: dict[str, Game], names: dict[str, str], report: BgReport
) -> list[BgPlay]:
    """The plays left once those already entered by hand (same date, game and players) are set aside."""
    known = {p.short_name: p.pk for p in Player.objects.all()}
    wanted, index = [], []
    for play in plays:
        who = [known.get(names[seat.name]) for seat in play.seats]
        if play.kind != COMPETITIVE:
            who.append(getattr(getattr(games[play.game.name], "stand_in", None), "pk", None))
        if None not in who and games[play.game.name].pk is not None:
            wanted.append((play.day, games[play.game.name].pk, frozenset(who)))
            index.append(play)
    alike, matched = {}, set()
    for i, saved in sorted(look_alikes(wanted).items()):
        if saved.pk not in matched:  # one saved matchday stands for one play: a game played thrice that day
            alike[i] = saved
            matched.add(saved.pk)
    set_aside = {id(index[i]) for i in alike}
    report.by_hand = [
        f"{index[i].named} looks like matchday {saved.number} (the same date, game and players): not added again."
        for i, saved in alike.items()
    ]
    return [play for play in plays if id(play) not in set_aside]


def _results(play: BgPlay, game: Game, names: dict[str, str]) -> list[TypedResult]:
    line = f"Play {play.number}"
    if play.kind != COMPETITIVE:
        members = [(names[seat.name], seat.score) for seat in play.seats]
        return against_the_game(members, bool(play.won), stand_in(game), line)
    return [
        TypedResult(
            Play(seat.placing, score=_whole(seat.score), side=seat.team), names[seat.name], line, note=_note(seat.score)
        )
        for seat in play.seats
    ]


def _whole(points: float | None) -> int | None:
    return None if points is None else round(points)


def _note(points: float | None) -> str:
    """Points that are not whole are kept in the note as written: a score sheet keeps whole points."""
    return "" if points is None or float(points).is_integer() else f"{points:g} points"
