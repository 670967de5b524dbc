"""web.render writes the deal games' tables exactly as django-tables2 does (see tests/test_render.py),
for every table class of web.deals.tables."""

import inspect

import django_tables2
import pytest
from django.core.paginator import Paginator
from django.test import RequestFactory

from league.models import Attempt, DealSession, Player
from ratings.deals import selectors as deal_selectors
from ratings.models import RatingTable
from ratings.selectors.standings import ranked_standings, standing_rows
from tests.test_deal_pages import league, solitaire_league  # noqa: F401 - the generated solitaire league
from tests.test_render import names, tree
from web.deals import tables as deal_tables
from web.render import table_html


def _cases():
    table = RatingTable.objects.get(game__name="Solitaire")
    standings = Paginator(ranked_standings(table), 25).page(1)
    levels = deal_selectors.level_rows(table)
    session = DealSession.objects.order_by("-date").first()
    unrated = Attempt.objects.filter(rated=False).first()
    attempts = deal_selectors.attempt_rows(
        [*deal_selectors.session_attempts(session), *deal_selectors.session_attempts(unrated.session)], False
    )
    player = Player.objects.order_by("pk").first()
    history = deal_selectors.attempt_rows(deal_selectors.player_attempts(player, table)[:30], True)
    return {
        "standings": lambda: deal_tables.DealStandingsTable(standing_rows(table, standings, 3), names()),
        "level grid": lambda: deal_tables.level_grid_table(deal_selectors.level_grid(levels)),
        "power rankings": lambda: deal_tables.PowerRankingsTable(deal_selectors.power_rankings(levels)),
        "attempts": lambda: deal_tables.AttemptTable(attempts, names()),
        "player attempts": lambda: deal_tables.AttemptTable(history, names(), exclude=("player", "deal_before")),
        "empty attempts": lambda: deal_tables.AttemptTable([], names()),
    }


CLASSES = {
    "DealStandingsTable": "standings",
    "LevelGridTable": "level grid",
    "PowerRankingsTable": "power rankings",
    "AttemptTable": "attempts",
}


def test_every_table_class_of_the_deal_pages_has_a_case():
    classes = {
        name
        for name, cls in inspect.getmembers(deal_tables, inspect.isclass)
        if issubclass(cls, django_tables2.Table) and cls.__module__ == deal_tables.__name__
    }
    assert classes == set(CLASSES)


@pytest.mark.parametrize(
    "case", ["standings", "level grid", "power rankings", "attempts", "player attempts", "empty attempts"]
)
def test_the_fast_renderer_writes_what_django_tables2_writes(league, case):  # noqa: F811
    request = RequestFactory().get("/")
    build = _cases()[case]
    ours = tree(table_html(build()))
    theirs = tree(build().as_html(request))
    assert len(ours) > 10
    assert ours == theirs
