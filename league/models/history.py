"""The history of a club's writes: one `Write` for each save, delete or import, whichever way it came
in, with each object it changed as it was before and after (`Change`). Ratings are never in it:
they follow from the matchdays and are replayed. Written by `league.history`, inside the write's
own transaction; read by the secretaries' history page.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django_scopes import ScopedManager

from .clubs import club_rows, owned_by_club


class Write(models.Model):
    class Way(models.TextChoices):
        ENTRY = "entry", "the entry page"
        ADMIN = "admin", "the admin"
        IMPORT = "import", "an import"
        COMMAND = "command", "a command"
        REVERT = "revert", "a revert"
        API = "api", "the API"

    club = owned_by_club("writes", db_index=False)
    at = models.DateTimeField(default=timezone.now)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    who = models.CharField(max_length=150, blank=True, help_text="The user's name when they wrote, kept after them.")
    way = models.CharField(max_length=10, choices=Way.choices)
    summary = models.CharField(max_length=300)
    reason = models.CharField(max_length=300, blank=True, help_text="Why, as typed at Save.")
    reverts = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reverted_by",
        help_text="The write undone.",
    )

    objects = club_rows()

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["club", "-at"], name="league_write_club_newest")]

    def __str__(self) -> str:
        return f"{self.summary} ({self.at:%Y-%m-%d %H:%M})"


class Change(models.Model):
    """One object as a write found it and left it: `before` null for one it added, `after` null for
    one it deleted. Matchdays carry their number and their players, for the history's filters."""

    write = models.ForeignKey(Write, on_delete=models.CASCADE, related_name="changes")
    kind = models.CharField(max_length=20)
    key = models.PositiveBigIntegerField(help_text="The object's id.")
    label = models.CharField(max_length=200)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    matchday = models.PositiveIntegerField(null=True, db_index=True, help_text="The matchday's number.")
    # The ids of the players in either state, as `|3|12|`, for the filter by player: a column, not a
    # table of its own, since an import of a whole league writes a change per matchday (its rows cost
    # the import more than the rest of the history; docs/performance.md).
    players = models.TextField(blank=True, default="")

    objects = ScopedManager(club="write__club")

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.label
