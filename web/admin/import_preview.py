"""The upload's preview, as the entry page previews a matchday: each matchday of the file with every
player's change in every table it counts in (web.pages.matchday_preview), read inside the import's
rolled-back run, and each new player with *Did you mean ...?* for a name close to a player's."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import groupby

from league.models import Matchday
from ratings.methods import Outcome
from ratings.selectors.standings import matchday_changes
from ratings.services.imports import ImportSummary
from web.pages.matchday_preview import changes_rows, shown_columns
from web.pages.typed_names import resolve_players

SHOWN = 20  # matchdays shown with their changes; a league's history in one file says how many more


@dataclass
class ImportPreview:
    summary: ImportSummary
    matchdays: list[dict] = field(default_factory=list)
    more: int = 0
    new_players: list[dict] = field(default_factory=list)


def _outcome(entry) -> Outcome:
    rated = entry.rated_placing if entry.rated_placing is not None else entry.placing
    return Outcome(entry.rating_before, rated, entry.expected, entry.score, entry.k, entry.delta, entry.rating_after)


def matchdays_shown(numbers: list[int], new: set[str]) -> list[dict]:
    """The first SHOWN of the file's matchdays (by `numbers`) as imported, with their changes: read
    inside the rolled-back import. Players named in `new` are shown as new."""
    shown = []
    for matchday in Matchday.objects.filter(number__in=numbers[:SHOWN]).select_related("game").order_by("number"):
        results = list(matchday.results.select_related("player").order_by("pk"))
        plays, players = [r.play() for r in results], [r.player for r in results]
        for player in players:
            if player.short_name in new:
                player.pk = None  # its id is the rolled-back run's
        at = {player.short_name: i for i, player in enumerate(players)}
        changes = []
        for table, entries in groupby(matchday_changes(matchday), key=lambda e: e.table):
            outcomes: list = [None] * len(players)
            for entry in entries:
                outcomes[at[entry.player.short_name]] = _outcome(entry)
            changes.append((table, outcomes))
        shown.append({"matchday": matchday, "sections": changes_rows(plays, players, changes), **shown_columns(plays)})
    return shown


def did_you_mean(summary: ImportSummary) -> list[dict]:
    """Each new player (short and full name) with the player a name close to theirs belongs to, once
    the rolled-back run is undone: a misspelt name is a new player otherwise."""
    resolved = resolve_players([full for _, full in summary.new_players])
    rows = []
    for short, full in summary.new_players:
        close = resolved.unknown.get(full) or ", ".join(p.short_name for p in resolved.ambiguous.get(full, []))
        rows.append({"short": short, "full": full, "suggestion": close or None})
    return rows
