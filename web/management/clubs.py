"""The club a management command works in: the one its `--club SLUG` names, else the site's only
club. With several clubs the flag is required; on a database without any the command runs with no
club, and its first write starts one named after LEAGUE_NAME (`league.models.default_club`), so a
new site's two-line start still works."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.management.base import CommandError
from django_scopes import scope

from league.models import Club
from league.validation import quoted


def add_club_argument(parser) -> None:
    parser.add_argument(
        "--club",
        metavar="SLUG",
        help="the club to work in, by its address (/<slug>/); required when the site holds several clubs",
    )


def _slugs() -> str:
    return ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True))


def club_named(slug: str | None) -> Club | None:
    """The club `--club` names, else the site's only club; None on a database without a club."""
    if slug is not None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            known = _slugs()
            raise CommandError(
                f"No club has the address {quoted(slug)}; "
                + (f"the clubs are: {known}." if known else "the site has no club yet (see create_club).")
            )
        return club
    clubs = list(Club.objects.all()[:2])
    if len(clubs) > 1:
        raise CommandError(f"The site holds several clubs: pass --club with one of {_slugs()}.")
    return clubs[0] if clubs else None


@contextmanager
def in_club(club: Club | None) -> Iterator[Club | None]:
    """Run the command's work in `club`: every query on a club's rows reads its rows, and new rows
    are its own. Without a club (none yet), the whole site, which has none."""
    if club is None:
        yield None
        return
    with scope(club=club.pk):
        yield club
