"""The matchday grids written straight from their rows: the markup `web.render.table_html` writes for
`web.tables.grid_table`, without building a django-tables2 table of one column per player first.

A home page shows five grids of forty-odd player columns and a game page more: building those tables
(a column object per player, django-tables2 copying its columns per table) cost about as much as
writing them. Downloads still go through `grid_table`; `tests/test_render.py` checks that both write
the same HTML, byte for byte.
"""

from __future__ import annotations

import html

from django.utils.safestring import SafeString

from ratings.selectors.grids import Grid
from web.formatting import table_date
from web.names import PlayerNames
from web.render import table_markup
from web.tables import MatchdayGridTable, grid_cell, matchday_link


def grid_html(grid: Grid, names: PlayerNames, *, show_game: bool, ratings: bool, with_year: bool) -> SafeString:
    head = ['<th class="sticky">Matchday</th>', "<th >Date</th>"]
    if show_game:
        head.append('<th class="wide">Game</th>')
    head.append('<th class="wide">Rounds</th>')
    head.extend(f'<th class="player-col">{names.html(player)}</th>' for player in grid.players)
    ids = [player.pk for player in grid.players]
    rows = []
    for record in grid.rows:
        matchday = record.matchday
        cells = [
            f'<td class="num sticky">{matchday_link(matchday.number)}</td>',
            f"<td >{html.escape(table_date(matchday.date, with_year))}</td>",
        ]
        if show_game:
            cells.append(f'<td class="wide">{html.escape(matchday.game.name)}</td>')
        cells.append(f'<td class="num wide">{int(matchday.rounds)}</td>')
        cells.extend(f'<td class="num">{grid_cell(record, pk, ratings)}</td>' for pk in ids)
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return table_markup('class="grid"', head, rows, MatchdayGridTable._meta.empty_text)
