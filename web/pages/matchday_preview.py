"""A matchday's rating changes before they are kept, table by table, as the entry page's preview and
the admin's upload preview show them: each player's placing, change, rating after and before, their
side's partners, and how the change came about."""

from __future__ import annotations

from collections.abc import Sequence

from league.models import Player
from league.placings import side_groups
from league.results import Play
from ratings import methods
from ratings.models import RatingTable
from ratings.selectors.grids import with_points
from web.pages.formatting import explain_change


def _partners(plays: Sequence[Play], players: Sequence[Player]) -> dict[str, list[str]]:
    """Each side's label -> its players' short names, in the order typed."""
    sides: dict[str, list[str]] = {}
    for play, player in zip(plays, players, strict=True):
        if play.side:
            sides.setdefault(play.side, []).append(player.short_name)
    return sides


def changes_rows(
    plays: Sequence[Play], players: Sequence[Player], changes: Sequence[tuple[RatingTable, list[methods.Outcome]]]
) -> list[dict]:
    """Each table's rows, best placed first; a player's side names their partners (`A, with K`)."""
    sides = _partners(plays, players)
    n = len(side_groups([play.side for play in plays]))  # what the placings rank: the sides
    sections = []
    for table, outcomes in changes:
        rows = []
        for play, player, o in sorted(zip(plays, players, outcomes, strict=True), key=lambda row: row[2].placing):
            rated = o.placing
            shown = with_points(f"{rated}({play.placing})" if rated != play.placing else str(rated), play.score)
            partners = [name for name in sides.get(play.side, []) if name != player.short_name]
            rows.append(
                {
                    "player": player,
                    "placing": shown,
                    "left": play.left_early,
                    "side": f"{play.side}, with {', '.join(partners)}" if play.side else "",
                    "weight": f"{play.weight:g}",
                    "o": o,
                    "note": explain_change(o.delta, rated, n, o.expected, o.k, play.placing),
                }
            )
        sections.append({"table": table, "rows": rows})
    return sections


def shown_columns(plays: Sequence[Play]) -> dict:
    """Which optional columns the rows need: sides, weights."""
    return {"sides": any(p.side for p in plays), "weights": any(p.weight != 1 for p in plays)}
