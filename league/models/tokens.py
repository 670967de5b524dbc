"""The API's tokens and the posts they made under an `Idempotency-Key` (web/api/).

A token belongs to a user (a club's secretary) and works for that user's clubs only. Only its
SHA-256 is stored: the token itself is shown once, when it is made, and never again. A revoked
token is kept (its posts' keys point at it) with the time it was revoked; every request reads it
from the database, so a revocation holds at once on every server.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

PREFIX = "lg_"  # tells a leaked token apart in a log or a repository


def new_token() -> str:
    """A new token: 32 random bytes, URL-safe, after the prefix."""
    return PREFIX + secrets.token_urlsafe(32)


def digest(token: str) -> str:
    """The stored form of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, blank=True, help_text="What it is for: the bot, the app, the script.")
    key_hash = models.CharField(max_length=64, editable=False, help_text="The token's SHA-256; the token is not kept.")
    created = models.DateTimeField(default=timezone.now, editable=False)
    revoked = models.DateTimeField(null=True, blank=True, help_text="Set: the token no longer works.")

    class Meta:
        verbose_name = "API token"
        ordering = ["-created"]
        constraints = [models.UniqueConstraint(fields=["key_hash"], name="league_apitoken_hash_once")]

    def __str__(self) -> str:
        state = " (revoked)" if self.revoked else ""
        return f"{self.user} · {self.name or 'token'} · {self.created:%Y-%m-%d}{state}"

    @classmethod
    def issue(cls, user, name: str = "") -> tuple[ApiToken, str]:
        """A new token for `user`: the row, and the token to show once (32 random bytes)."""
        token = new_token()
        return cls.objects.create(user=user, name=name, key_hash=digest(token)), token


class IdempotentPost(models.Model):
    """A post made with an `Idempotency-Key`: the key is taken in the transaction that saves, so a
    retry, or the same post on another server at once, finds it and saves nothing again."""

    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    body_hash = models.CharField(max_length=64, help_text="The SHA-256 of the body the key was first sent with.")
    status = models.PositiveSmallIntegerField(default=0)
    answer = models.TextField(blank=True, help_text="The first answer, as JSON, replayed to a retry.")
    made = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["token", "club", "key"], name="league_idempotentpost_key_once")]

    def __str__(self) -> str:
        return f"{self.key} ({self.made:%Y-%m-%d %H:%M})"
