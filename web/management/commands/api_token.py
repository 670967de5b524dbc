"""manage.py api_token USERNAME [--name NAME] [--revoke]: a new API token for a secretary, printed
once (only its digest is kept), or every live token of theirs revoked (docs/api.md)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from league.models import ApiToken
from web.pages.access import clubs_of


class Command(BaseCommand):
    help = (
        "Make an API token for USERNAME (a club's secretary) and print it once: it is not kept, only its "
        "digest. With --revoke, revoke every token of theirs instead (they stop working at once)."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="", help="what the token is for (the bot, the app)")
        parser.add_argument("--revoke", action="store_true", help="revoke the user's tokens; make none")

    def handle(self, username: str, name: str, revoke: bool, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no user {username!r}.")
        if revoke:
            done = ApiToken.objects.filter(user=user, revoked__isnull=True).update(revoked=timezone.now())
            self.stdout.write(f"Revoked {done} token{'s' if done != 1 else ''} of {username}.")
            return
        clubs = clubs_of(user)
        if clubs == []:
            raise CommandError(f"{username} keeps no club's league (not staff, or no club's secretary): no token made.")
        _, token = ApiToken.issue(user, name[:100])
        self.stderr.write(f"A new API token for {username}; copy it now, it is not shown again:")
        self.stdout.write(token)
