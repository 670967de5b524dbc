import getpass
import sys

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from league.models import Club
from league.validation import quoted
from web.clubs.secretaries import make_secretary
from web.faults import told


class Command(BaseCommand):
    help = (
        "Start an empty club at /SLUG/, beside the site's other clubs. With --secretary, that user (made "
        "staff, and created with a password prompt if there is none of that name) enters and corrects its results."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's address: its pages are under /<slug>/")
        parser.add_argument("name", help='the club\'s name, as its pages show it, e.g. "North Card Club"')
        parser.add_argument("--secretary", metavar="USERNAME", help="the user who keeps the club's league")
        parser.add_argument(
            "--no-input",
            action="store_false",
            dest="interactive",
            help="ask nothing: a --secretary who is not a user yet is refused (there is no password to give them)",
        )

    def handle(self, slug: str, name: str, secretary: str | None, interactive: bool, **options):
        club = _checked_club(slug, name)
        User = get_user_model()
        user = User._default_manager.filter(**{User.USERNAME_FIELD: secretary}).first() if secretary else None
        password = self._new_password(secretary, interactive) if secretary and user is None else None
        with told("No club was made"), transaction.atomic():
            club.save()
            if secretary:
                if user is None:
                    user = User._default_manager.create_user(**{User.USERNAME_FIELD: secretary}, password=password)
                    self.stdout.write(f"Created the user {secretary}.")
                make_secretary(user, club)
        self.stdout.write(f"Started {club.name} at /{club.slug}/, with no matchdays yet.")
        if secretary:
            self.stdout.write(
                f"{secretary} is its secretary: results are entered at /{club.slug}/enter/, the rest in /admin/."
            )

    def _new_password(self, username: str, interactive: bool) -> str:
        """A password for a new user, asked twice on the terminal and checked as createsuperuser does."""
        if not interactive or not sys.stdin.isatty():
            why = "with --no-input" if not interactive else "without a terminal"
            raise CommandError(
                f"No club was made: there is no user {quoted(username)}, and {why} no password can be asked "
                "for one. Create the user first (createsuperuser, or Users in the admin), or run this in a terminal."
            )
        User = get_user_model()
        try:  # as createsuperuser checks it: the admin refuses such a name, and one cut or stripped never logs in
            User._meta.get_field(User.USERNAME_FIELD).clean(username, None)
        except ValidationError as exc:
            why = " ".join(exc.messages)
            raise CommandError(f"No club was made: the user name {quoted(username)}: {why}") from None
        while True:
            password = getpass.getpass(f"Password for the new user {username}: ")
            if password != getpass.getpass("Password (again): "):
                self.stderr.write("Error: the two passwords differ.")
                continue
            if not password.strip():
                self.stderr.write("Error: a blank password is not allowed.")
                continue
            try:
                validate_password(password, User(**{User.USERNAME_FIELD: username}))
            except ValidationError as exc:
                self.stderr.write("\n".join(f"Error: {message}" for message in exc.messages))
                continue
            return password


def _checked_club(slug: str, name: str) -> Club:
    """The club to start, as the admin would check it; a refusal says which address or name and why."""
    taken = Club.objects.filter(slug__iexact=slug).first()  # addresses are read in any case
    if taken is not None:
        raise CommandError(f"No club was made: /{taken.slug}/ is the address of {taken.name} already; choose another.")
    club = Club(slug=slug, name=name)
    try:
        club.full_clean()
    except ValidationError as exc:
        problems = [
            f"the {'address' if field == 'slug' else field} {quoted(getattr(club, field, ''))}: {message}"
            for field, messages in exc.message_dict.items()
            for message in messages
        ]
        raise CommandError("No club was made: " + "; ".join(problems)) from None
    return club
