"""Writes of the club's data that no rating depends on: players' names (and former names), the text
pages, and a whole club's deletion.

Each saves and moves the league's revision on in one transaction, so that browsers and caches
fetch the pages that show them anew. Writes that change ratings (matchdays, results, games,
rating tables) are in `ratings.services`.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django_scopes import scopes_disabled

from league import history
from league.models import Club, DealSession, FormerName, Game, Matchday, Page, Player, Revision
from league.validation import name_key


@transaction.atomic
def save_player(player: Player) -> None:
    """Save a player; a name they no longer go by (short or full) is kept as a former name, so that
    the entry page, the import and the search still find them by it."""
    player.full_clean()
    # locked as read: a revert or rename meanwhile is waited for, and the names kept are today's
    old = Player.objects.select_for_update(no_key=True).filter(pk=player.pk).first() if player.pk else None
    before = (old.short_name, old.name) if old else None
    player.save()
    history.record(player.club_id, [history.saved("player", player, history.fields_of(old))])
    current = {name_key(player.short_name), name_key(player.name)}
    for old in before or ():
        if name_key(old) not in current:
            FormerName.objects.update_or_create(
                player=player, name_key=name_key(old), defaults={"name": old, "until": timezone.localdate()}
            )
    player.former_names.filter(name_key__in=current).delete()  # a name taken back is current again
    Revision.bump(player.club_id)


@transaction.atomic
def save_former_names(player: Player, saved: Iterable[FormerName], deleted: Iterable[FormerName]) -> None:
    """The player's former names as the admin edits them (after `save_player`, which may have kept one
    of them already: a rename in the same form)."""
    gone = FormerName.objects.filter(player=player, pk__in=[f.pk for f in deleted if f.pk])
    history.record(player.club_id, history.deleted("former name", gone))
    gone.delete()
    for former in saved:
        former.player = player
        if player.former_names.filter(name_key=name_key(former.name)).exclude(pk=former.pk).exists():
            if former.pk is not None:
                former.delete()
            continue
        former.full_clean()
        old = FormerName.objects.filter(pk=former.pk).first() if former.pk else None
        former.save()
        history.record(player.club_id, [history.saved("former name", former, history.fields_of(old))])
    Revision.bump(player.club_id)


@transaction.atomic
def delete_players(players: Iterable[Player]) -> None:
    """Delete players who never played (results protect the others)."""
    gone = Player.objects.filter(pk__in=[p.pk for p in players])
    clubs = set(gone.values_list("club", flat=True))
    for club in clubs:
        # their former names go with them (on delete, cascade): kept too, so that a revert brings them back
        formers = FormerName.objects.filter(player__in=gone.filter(club=club))
        history.record(
            club, history.deleted("player", gone.filter(club=club)) + history.deleted("former name", formers)
        )
    gone.delete()
    Revision.bump(*clubs)


@transaction.atomic
def save_page(page: Page) -> None:
    page.full_clean()
    old = Page.objects.filter(pk=page.pk).first() if page.pk else None
    page.save()
    history.record(page.club_id, [history.saved("page", page, history.fields_of(old))])
    Revision.bump(page.club_id)


@transaction.atomic
def delete_pages(pages: Iterable[Page]) -> None:
    gone = Page.objects.filter(pk__in=[p.pk for p in pages])
    clubs = set(gone.values_list("club", flat=True))
    for club in clubs:
        history.record(club, history.deleted("page", gone.filter(club=club)))
    gone.delete()
    Revision.bump(*clubs)


@transaction.atomic
def delete_club(club: Club) -> None:
    """Delete a club with everything it holds. Its sessions and matchdays go first, then its games:
    their rows protect the players, games and categories that the club's own deletion removes."""
    with scopes_disabled():
        DealSession.objects.filter(game__club=club).delete()
        Matchday.objects.filter(club=club).delete()
        Game.objects.filter(club=club).delete()
        club.delete()  # renews the clubs' revisions
