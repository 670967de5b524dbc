"""Saving a previewed form once: a preview carries a one-time token, and saving stores the token with
what was saved, in the same transaction. A second Save of the same preview (Back, a double click, a
reload, another server) finds the token taken and saves nothing.

The token is stored by a unique insert before anything is written: of two simultaneous saves of one
preview, the second waits for the first's transaction and then finds the token taken. A token may be
sealed to the content it was made for (`new_token(content)`, `fits`), so that a Save is refused
unless it carries what was previewed. Tokens are kept for `KEPT`, longer than a session (and the
preview waiting in it) lasts, and the older ones dropped at the next save. Each is its club's: what a
token saved is told only to the club it was saved in (a token taken elsewhere says nothing of it).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import TypeVar

from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

TOKEN = re.compile(r"[0-9a-f]{64}")
T = TypeVar("T")
KEPT = timedelta(days=30)  # Django's sessions last two weeks


class Submission(models.Model):
    """A preview that was saved: its token, and what it saved (the matchday, or the import in words)."""

    token = models.CharField(max_length=64)
    # Null for a token taken before tokens had clubs: what it saved is told to no club.
    club = models.ForeignKey("league.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    matchday = models.ForeignKey("league.Matchday", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    saved = models.CharField(max_length=300, help_text="What was saved, in words: Matchday 7, or an import's summary.")
    saved_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "league"
        ordering = ["-saved_at"]
        constraints = [models.UniqueConstraint(fields=["token"], name="league_submission_token_once")]

    def __str__(self) -> str:
        return f"{self.saved} ({self.saved_at:%Y-%m-%d %H:%M})"


class AlreadySaved(Exception):
    """The preview's token was used: `submission` says what it saved (None: in another club)."""

    def __init__(self, submission: Submission | None):
        super().__init__(submission.saved if submission else "")
        self.submission = submission


def _seal(nonce: str, content: str) -> str:
    return salted_hmac("league.submissions", f"{nonce}\n{content}", algorithm="sha256").hexdigest()[:32]


def new_token(content: str = "") -> str:
    """A one-time token: a random half, and a seal of `content` made with the site's secret key, so
    that nobody can make a token that fits content they changed."""
    nonce = secrets.token_hex(16)
    return nonce + _seal(nonce, content)


def is_token(text: str | None) -> bool:
    return bool(text) and bool(TOKEN.fullmatch(text))


def fits(token: str | None, content: str) -> bool:
    """Whether `token` was made for `content` (by new_token)."""
    return is_token(token) and constant_time_compare(token[32:], _seal(token[:32], content))


def saved_with(token: str, club_ids: Iterable[int] | None) -> Submission | None:
    """What `token` saved in one of the clubs `club_ids` (None: any club, a superuser's), if it was used."""
    taken = Submission.objects.select_related("matchday").filter(token=token)
    return (taken if club_ids is None else taken.filter(club_id__in=list(club_ids))).first()


def save_once(token: str, save: Callable[[], tuple[T, models.Model | None, str]], club_id: int) -> T:
    """Run `save` (which returns its result, the matchday it saved or None, and what it saved in
    words) once for `token`, in the club `club_id`, atomically with taking the token; AlreadySaved if
    it was taken."""
    with transaction.atomic():
        try:
            with transaction.atomic():
                submission = Submission.objects.create(token=token, club_id=club_id, saved="")
        except IntegrityError:
            raise AlreadySaved(saved_with(token, [club_id])) from None
        Submission.objects.filter(saved_at__lt=timezone.now() - KEPT).delete()
        result, matchday, saved = save()
        submission.matchday, submission.saved = matchday, saved[:300]
        submission.save(update_fields=["matchday", "saved"])
    return result
