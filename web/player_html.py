"""A player's page's tables written straight from their rows: the markup `web.render.table_html`
writes for `PlayerEntryTable` (every matchday of the player in one rating table) and
`HeadToHeadTable`, without building the django-tables2 tables first.

Building and walking those tables cell by cell was a fifth of the busiest player's cold page (five
tables of about nine hundred cells). Downloads still build the tables; `tests/test_render.py` checks
that both write the same HTML, byte for byte, for every rating method's set of columns.
"""

from __future__ import annotations

import html

from django.utils.safestring import SafeString

from league.selectors import HeadToHead
from ratings.methods import Method
from ratings.models import RatingEntry
from web.formatting import format_rating, table_date
from web.names import PlayerNames
from web.render import table_markup
from web.tables import PIECES, HeadToHeadTable, PlayerEntryTable, change_html, matchday_link

EMPTY = PlayerEntryTable._meta.default  # what django-tables2 shows for an empty value
PIECE_HEADS = {
    "opponents_mean": '<th class="num" title="Mean rating of the other players">M</th>',
    "expected": '<th class="num">Expected</th>',
    "score": '<th class="num">Score</th>',
    "k": '<th class="num">K</th>',
}


def _number(value, write) -> str:
    return EMPTY if value is None else write(value)


def _fraction(value: float) -> str:
    return f"{value:.2f}"


def _mean(value: float) -> str:
    return format_rating(round(value, 1))


PIECE_CELLS = {"opponents_mean": _mean, "expected": _fraction, "score": _fraction, "k": format_rating}


def entries_html(entries: list[RatingEntry], method: Method, *, with_year: bool) -> SafeString:
    """`PlayerEntryTable(entries, method=method, with_year=with_year)`, written."""
    pieces = [(piece, PIECE_CELLS[piece]) for piece in PIECES if piece in method.pieces]
    head = ["<th >Date</th>", '<th class="num">Matchday</th>', "<th >Game</th>", '<th class="num">Placing</th>']
    head += ['<th class="num">Before</th>', *(PIECE_HEADS[p] for p, _ in pieces)]
    head += ['<th class="num">Change</th>', '<th class="num">After</th>']
    rows = []
    for e in entries:
        matchday = e.matchday
        placing = html.escape(f"{e.display_placing} of {e.players}")
        cells = [
            f"<td >{html.escape(table_date(matchday.date, with_year))}</td>",
            f'<td class="num">{matchday_link(matchday.number)}</td>',
            f"<td >{html.escape(matchday.game.name)}</td>",
            f'<td class="num">{placing}</td>',
            f'<td class="num">{_number(e.rating_before, format_rating)}</td>',
        ]
        cells.extend(f'<td class="num">{_number(getattr(e, piece), write)}</td>' for piece, write in pieces)
        cells.append(f'<td class="num">{_number(e.delta, change_html)}</td>')
        cells.append(f'<td class="num">{_number(e.rating_after, format_rating)}</td>')
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return table_markup('class="explained"', head, rows)


def head_to_head_html(records: list[HeadToHead], names: PlayerNames) -> SafeString:
    """`HeadToHeadTable(records, names)`, written."""
    head = ["<th >Opponent</th>", "<th >Game</th>"]
    head += [f'<th class="num">{label}</th>' for label in ("Matchdays", "Finished ahead", "Behind", "Tied")]
    rows = [
        f"<tr><td >{names.html(r.opponent)}</td><td >{html.escape(r.game.name)}</td>"
        + "".join(f'<td class="num">{int(n)}</td>' for n in (r.met, r.ahead, r.behind, r.tied))
        + "</tr>"
        for r in records
    ]
    return table_markup("", head, rows, HeadToHeadTable._meta.empty_text)
