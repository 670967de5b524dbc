from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from league.models import Player
from league.validation import name_key
from ratings.services.impact import impact
from ratings.services.players import merge_players, merge_problems, played
from web.faults import told
from web.management.clubs import add_club_argument, club_named, in_club


class Command(BaseCommand):
    help = (
        "Merge two players who are one person entered twice: DROP's results, attempts and names become "
        "KEEP's (its names as former names), and the tables are rated again. With --dry-run, only say "
        "what it would change. Kept in the club's history, where it can be reverted."
    )

    def add_arguments(self, parser):
        parser.add_argument("keep", help="the short name of the player who stays")
        parser.add_argument("drop", help="the short name of the player merged into them")
        parser.add_argument("--dry-run", action="store_true", help="say what would change; change nothing")
        add_club_argument(parser)

    def handle(self, keep: str, drop: str, dry_run: bool, club: str | None, **options):
        club = club_named(club)
        with told("Nothing was merged"), in_club(club):
            kept, dropped = _player(keep), _player(drop)
            problems = merge_problems(kept, dropped)
            if problems:
                raise CommandError("Nothing was merged:\n" + "\n".join(problems))
            if dry_run:
                found = impact(kept.club_id, lambda: merge_players(kept, dropped), played(dropped))
                self.stdout.write(
                    f"Merging {dropped.short_name} into {kept.short_name} would rate "
                    f"{found.later_matchdays} later matchdays again and move:"
                )
                for table, moved in found.tables:
                    for m in moved:
                        self.stdout.write(
                            f"  {table}: {m.player.short_name} {_span(m.rating, '.1f')}, rank {_span(m.rank, '')}"
                        )
                self.stdout.write("Nothing was changed (--dry-run).")
                return
            try:
                merge_players(kept, dropped)
            except ValidationError as error:
                raise CommandError("Nothing was merged:\n" + "\n".join(error.messages)) from None
        self.stdout.write(
            f"Merged {dropped.short_name} into {kept.short_name}; {dropped.short_name} is now a former name."
        )


def _player(short: str) -> Player:
    found = Player.objects.filter(short_name_key=name_key(short)).first()
    if found is None:
        raise CommandError(f"No player goes by {short!r}; nothing was merged.")
    return found


def _span(pair, spec: str) -> str:
    return " → ".join("—" if value is None else format(value, spec) for value in pair)
