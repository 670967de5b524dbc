"""What the API's tests share: a club's secretary with a token, and a post as a script sends it."""

import json

from django.contrib.auth.models import User

from league.models import ApiToken, Club
from tests.conftest import CLUB_SLUG
from web.clubs.secretaries import make_secretary

NIGHT = {"date": "2025-11-20", "game": "hearts", "rounds": 3, "lines": ["GL", "K = I", "J", "R left early"]}


def secretary_token(club: Club | None = None, username: str = "sec") -> tuple[User, str]:
    """A secretary of `club` (the one club by default) and a new token of theirs."""
    user = User.objects.create_user(username, password="x")  # noqa: S106
    make_secretary(user, club or Club.objects.get(slug=CLUB_SLUG))
    return user, ApiToken.issue(user, "tests")[1]


def post(client, body, token: str | None = None, *, slug: str = CLUB_SLUG, key: str | None = None, raw=None):
    """POST /api/<slug>/matchdays/ with `body` as JSON (or `raw` bytes as they are)."""
    headers = {}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if key is not None:
        headers["Idempotency-Key"] = key
    data = raw if raw is not None else json.dumps(body)
    return client.post(f"/api/{slug}/matchdays/", data, content_type="application/json", headers=headers)
