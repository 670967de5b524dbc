"""The odds page: a plain GET form (it works without JavaScript), answered with the odds of the
tables typed, or of balanced tables when a table size is given."""

from __future__ import annotations

from django.shortcuts import render

from league.models import Game, Player
from web.odds import tonight as form
from web.odds.page import odds_page
from web.page_cache.params import PageParams, cached_page
from web.pages.sections import public_page

# Whatever is typed into the form is answered in the request, never stored; the empty form is cached.
FIELDS = ("tables", "game", "rounds", "size")


@cached_page(PageParams(uncached=FIELDS))
@public_page
def odds(request):
    tonight = form.read(request.GET)
    ctx = {
        "games": Game.objects.filter(against_deals=False),
        "members": Player.objects.values_list("short_name", flat=True),
        "values": {name: request.GET.get(name, "") for name in FIELDS},
        "tonight": tonight,
        "limits": {"tables": form.MAX_TABLES, "at_table": form.MAX_AT_TABLE, "tonight": form.MAX_TONIGHT},
    }
    if tonight.everyone and not tonight.problems:
        ctx.update(odds_page(tonight))
    return render(request, "odds/odds.html", ctx, status=400 if tonight.problems else 200)
