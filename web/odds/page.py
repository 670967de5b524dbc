"""What the odds page shows once the form is read: for each rating table tonight's game counts in,
each of tonight's tables with every player's rating, chance to win, expected score and the change each
place would bring (ratings/odds); and, when a table size is asked for, balanced tables."""

from __future__ import annotations

from django.utils.html import escape

from league.models import Game, Player
from ratings.models import RatingTable, Standing
from ratings.odds import Proposal, Sitter, balanced_tables, table_odds
from web.odds.tonight import Tonight
from web.pages.formatting import format_change, format_rating, ordinal
from web.pages.sections import player_names


def rating_tables(game: Game) -> list[RatingTable]:
    """The tables `game`'s matchdays count in, in the order of the home page."""
    return [t for t in RatingTable.objects.in_page_order() if t.counts(game) and not t.against_deals]


def _standings(tables: list[RatingTable], players: list[Player]) -> dict[tuple[int, int], tuple[float, dict | None]]:
    rows = Standing.objects.filter(table__in=tables, player_id__in=[p.pk for p in players if p.pk > 0])
    return {
        (t, p): (rating, state) for t, p, rating, state in rows.values_list("table_id", "player_id", "rating", "state")
    }


def _balance_table(tables: list[RatingTable], game: Game) -> RatingTable:
    """The table whose ratings balance the tables: the game's own, when it has one."""
    return next((t for t in tables if t.game_id == game.pk), tables[0])


def _rating(table: RatingTable, params: dict, player: Player, standings) -> tuple[float, dict | None, bool]:
    """The player's rating and state in `table`, and whether they are new to it (the method's start)."""
    found = standings.get((table.pk, player.pk))
    if found is not None:
        return found[0], found[1], False
    rating, state = table.rating_method.start(params)
    return rating, state, True


def _odds_section(table: RatingTable, tonight: Tonight, standings, names) -> dict:
    params, method = table.method_params(), table.rating_method
    seated = []
    for sides in tonight.tables:
        sitters, new = [], set()
        for s, side in enumerate(sides):
            label = chr(ord("A") + s) if len(side) > 1 else ""
            for player in side:
                rating, state, is_new = _rating(table, params, player, standings)
                sitters.append(Sitter(player, rating, state, label))
                if is_new:
                    new.add(player.pk)
        odds = table_odds(method, params, sitters, tonight.rounds)
        side_of = {sitter.key.pk: sitter.side for sitter in sitters}
        rows = [
            {
                "name": _name(names, p.key),
                "side": side_of[p.key.pk],
                "new": p.key.pk in new,
                "rating": format_rating(p.rating),
                "chance": repr(p.chance),
                "percent": f"{p.chance * 100:.1f}%",
                "expected": f"{p.expected:.2f}",
                "changes": [format_change(c) for c in p.changes],
            }
            for p in odds.players
        ]
        places = [ordinal(n) for n in range(1, odds.places + 1)]
        seated.append({"number": len(seated) + 1, "rows": rows, "places": places, "problem": odds.problem})
    return {"table": table, "method": method, "description": table.method_description, "seated": seated}


def _name(names, player: Player) -> str:
    """A member's name with its link and tooltip; a new player's (not saved: no page yet) as typed."""
    return names.html(player) if player.pk > 0 else escape(player.short_name)


def _proposal(tonight: Tonight, table: RatingTable, standings) -> tuple[Proposal, list[float]]:
    params = table.method_params()
    ratings = [_rating(table, params, p, standings)[0] for p in tonight.everyone]
    proposal = balanced_tables(ratings, tonight.size)
    tonight.tables = [[[tonight.everyone[i]] for i in seats] for seats in proposal.tables]
    return proposal, ratings


def odds_page(tonight: Tonight) -> dict:
    """The page's sections for a form read without problems."""
    tables = rating_tables(tonight.game)
    if not tables:
        return {"no_tables": True}
    standings = _standings(tables, tonight.everyone)
    ctx: dict = {}
    names = player_names([p for p in tonight.everyone if p.pk > 0], tables)
    if tonight.size is not None:
        table = _balance_table(tables, tonight.game)
        proposal, ratings = _proposal(tonight, table, standings)
        ctx["balance"] = {
            "table": table,
            "proposal": proposal,
            "sizes": sorted({len(t) for t in proposal.tables}, reverse=True),
            "tables": [
                {
                    "number": n,
                    "players": [(_name(names, tonight.everyone[i]), format_rating(ratings[i])) for i in seats],
                    "mean": f"{mean:.1f}",
                }
                for n, (seats, mean) in enumerate(zip(proposal.tables, proposal.means, strict=True), start=1)
            ],
            "spread": f"{proposal.spread:.1f}",
            "typed": "\n".join(", ".join(tonight.everyone[i].short_name for i in seats) for seats in proposal.tables),
        }
    ctx["sections"] = [_odds_section(t, tonight, standings, names) for t in tables]
    return ctx
