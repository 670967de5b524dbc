"""Writes of the club's data that no rating depends on: players' names and the text pages.

Each saves and moves the league's revision on in one transaction, so that browsers and caches
fetch the pages that show them anew. Writes that change ratings (matchdays, results, games,
rating tables) are in `ratings.services`.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from league.models import Page, Player, Revision


@transaction.atomic
def save_player(player: Player) -> None:
    player.full_clean()
    player.save()
    Revision.bump()


@transaction.atomic
def delete_players(players: Iterable[Player]) -> None:
    """Delete players who never played (results protect the others)."""
    Player.objects.filter(pk__in=[p.pk for p in players]).delete()
    Revision.bump()


@transaction.atomic
def save_page(page: Page) -> None:
    page.full_clean()
    page.save()
    Revision.bump()


@transaction.atomic
def delete_pages(pages: Iterable[Page]) -> None:
    Page.objects.filter(pk__in=[p.pk for p in pages]).delete()
    Revision.bump()
