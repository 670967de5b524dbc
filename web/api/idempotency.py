"""`Idempotency-Key`: a post sent again with the same key (a retry after a lost answer, or the same
post on two servers at once) saves once and gets the first answer again. The key is taken by a
unique insert (token, club, key) in the transaction that saves, so of two posts at once the second
waits for the first's transaction and then finds the key taken; a post that saved nothing (refused,
or failed) leaves the key free. The same key with another body is refused with a 422. A token's keys
are kept for `KEPT` and dropped when it next takes one, so the table does not grow with every post."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from ninja import Status
from ninja.errors import HttpError

from league.models import ApiToken, Club, IdempotentPost

HEADER = "Idempotency-Key"
KEPT = timedelta(days=7)  # a retry comes within minutes; Stripe keeps its keys for a day
_KEY = re.compile(r"[\x21-\x7e]{1,200}")  # printable ASCII without spaces, as the drafts of the standard


class KeyTaken(Exception):
    """The key was taken meanwhile by a post whose transaction has now ended: `row` is its record."""

    def __init__(self, row: IdempotentPost | None):
        super().__init__("taken")
        self.row = row


def key_of(request) -> str | None:
    """The request's key, None without one; refused (400) when it is not one."""
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not _KEY.fullmatch(key):
        raise HttpError(400, f"The {HEADER} header is 1 to 200 printable ASCII characters without spaces.")
    return key


def body_hash(data: dict) -> str:
    """The body's digest, written one way (keys sorted), so that a retry of the same JSON matches."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=True).encode()).hexdigest()


def replay(row: IdempotentPost, digest: str) -> Status:
    """The first answer to a key, or a refusal when the key came with another body."""
    if row.body_hash != digest:
        raise HttpError(422, f"This {HEADER} was used with another body; send a new key for a new matchday.")
    return Status(row.status, json.loads(row.answer))


def earlier(token: ApiToken, club: Club, key: str) -> IdempotentPost | None:
    return IdempotentPost.objects.filter(token=token, club=club, key=key).first()


def take(token: ApiToken, club: Club, key: str, digest: str) -> IdempotentPost:
    """Take the key inside the caller's transaction; KeyTaken when another post holds it."""
    IdempotentPost.objects.filter(token=token, made__lt=timezone.now() - KEPT).delete()
    try:
        with transaction.atomic():
            return IdempotentPost.objects.create(token=token, club=club, key=key, body_hash=digest)
    except IntegrityError:
        pass
    raise KeyTaken(IdempotentPost.objects.filter(token=token, club=club, key=key).first())


def keep(row: IdempotentPost, status: int, answer: dict) -> None:
    """Keep the answer with the key, in the transaction that saved."""
    row.status, row.answer = status, json.dumps(answer, default=str)
    row.save(update_fields=["status", "answer"])
