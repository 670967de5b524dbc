"""The API's one write: a game night's matchday posted as the entry page takes it (`lines` in its
notation), read by the entry page's own form (web.entry.EntryForm: its line reader, its name finder,
the one check) and saved by the one writer (ratings.services.matchdays.save_matchday), in the
history as the API's, with the token's user. What the entry page refuses, the API refuses with a
400 naming the field, the line or the player. Names that are no player are refused (the entry
page's box to add them has no counterpart here: a typo would make a player)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from ninja import Status
from ninja.errors import HttpError
from pydantic import ValidationError as SchemaError

from league import history
from league.models import Game, Matchday, Write
from league.validation import name_key, reason_problem
from ratings.services.matchdays import look_alikes, save_matchday
from web.api import idempotency, schemas
from web.api.bodies import posted
from web.api.reads import changes_of, club_of, router
from web.api.tokens import SecretaryToken, allowed
from web.entry import EntryForm
from web.page_cache.ahead import rendered_ahead

ATTEMPTS = 3  # a number taken meanwhile by another save: read the next and save again, at most this often
FACTS = ("date", "rounds", "winner_score")

BODY = {  # the body is read by web.api.bodies, not ninja: described here for the schema
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": schemas.MatchdayIn.model_json_schema()}},
    },
    "parameters": [
        {
            "in": "header",
            "name": "Idempotency-Key",
            "required": False,
            "schema": {"type": "string", "minLength": 1, "maxLength": 200},
            "description": "A retry with the same key saves nothing more and gets the first answer.",
        }
    ],
    "responses": {"429": {"description": "Too many requests: wait the seconds of the Retry-After header."}},
}


def schema_problems(error: SchemaError) -> list[dict]:
    """Pydantic's errors as the API's problems, each naming its field (and line)."""
    problems = []
    for e in error.errors():
        where = [str(part) for part in e["loc"]]
        field = where[0] if where else "body"
        line = int(where[1]) + 1 if field == "lines" and len(where) > 1 and where[1].isdigit() else None
        problems.append({"field": field, "line": line, "message": e["msg"]})
    return problems


def refused(problems: list[dict], detail: str = "Nothing was saved.") -> Status:
    return Status(400, {"detail": detail, "problems": problems})


def _form(body: schemas.MatchdayIn, game: Game) -> EntryForm:
    data = {"date": body.date, "game": str(game.pk)}
    for fact in FACTS[1:]:  # the numbers as the form's fields take them typed
        value = getattr(body, fact)
        data[fact] = "" if value is None else str(value)
    data.update({f"line-{n}": text for n, text in enumerate(body.lines, start=1)})
    return EntryForm(data, lines=max(len(body.lines), 1), may_add_players=False)


def form_problems(form: EntryForm) -> list[dict]:
    """The entry form's errors as the API's problems: a line's own under `lines` with its number,
    the matchday's facts under their fields, the rest (the lines read together, the players, the
    league's rules, which name their line or player) under `lines`, with the line a problem is of
    (league.validation.Problem). Lines are numbered as the body's `lines`, before any split."""
    problems = []
    for name, errors in form.errors.as_data().items():
        field = name if name in FACTS else "lines"
        for error in errors:
            message = str(error.message % error.params if error.params else error.message)
            line = int(name.removeprefix("line-")) if name.startswith("line-") else _line_of(error.message)
            if line in form.typed_line:  # the entry page's words number the split lines it shows
                line, message = form.typed_line[line], f"Line {form.typed_line[line]}: {error.message.text}"
            problems.append({"field": field, "line": line, "message": message})
    return problems


def _line_of(message) -> int | None:
    """The number of the line a problem is of ("Line 2"), or None for the lines together."""
    line = getattr(message, "line", "")
    return int(line.removeprefix("Line ")) if line.startswith("Line ") and line[5:].isdigit() else None


def _game(text: str) -> Game | None:
    return Game.objects.filter(slug=text).first() or Game.objects.filter(name_key=name_key(text)).first()


def _look_alike(form: EntryForm) -> Matchday | None:
    matchday = form.checked.matchday
    who = frozenset(form.players[name_key(r.player)].pk for r in form.checked.results)
    return look_alikes([(matchday.date, matchday.game.pk, who)]).get(0)


@router.post(
    "/{club}/matchdays/",
    auth=SecretaryToken(),
    response={
        201: schemas.SavedOut,
        400: schemas.RefusedOut,
        401: schemas.DetailOut,
        403: schemas.DetailOut,
        404: schemas.DetailOut,
        409: schemas.RefusedOut,
        422: schemas.DetailOut,
    },
    summary="Enter a game night's matchday",
    tags=["writes"],
    openapi_extra=BODY,
)
def post_matchday(request, club: str):
    """Saves a matchday with the token's user, as the entry page does. With an `Idempotency-Key`
    header, a retry saves nothing more and gets the first answer; the same key with another body is
    a 422."""
    found = club_of(request, club)
    allowed(request.auth, found)
    data = posted(request)
    key, digest = idempotency.key_of(request), idempotency.body_hash(data)
    if key is not None and (row := idempotency.earlier(request.auth, found, key)) is not None:
        return idempotency.replay(row, digest)
    try:
        body = schemas.MatchdayIn.model_validate(data)
    except SchemaError as error:
        return refused(schema_problems(error))
    if problem := reason_problem(body.reason):
        return refused([{"field": "reason", "line": None, "message": problem}])
    game = _game(body.game)
    if game is None:
        return refused([{"field": "game", "line": None, "message": f"There is no game “{body.game}”."}])
    form = _form(body, game)
    if not form.is_valid():
        return refused(form_problems(form))
    if not body.another and (alike := _look_alike(form)):
        text = f"This looks like matchday {alike.number} (same day, game and players); send another: true if it is not."
        return refused([{"field": "lines", "line": None, "message": text}])
    return _save(request, found, form, body, key, digest)


def _save(request, club, form: EntryForm, body: schemas.MatchdayIn, key: str | None, digest: str):
    """Save under the next number (read again if another save takes it first), taking the key in the
    same transaction."""
    for _ in range(ATTEMPTS):
        try:
            with transaction.atomic():
                row = idempotency.take(request.auth, club, key, digest) if key is not None else None
                number = (Matchday.objects.aggregate(n=Max("number"))["n"] or 0) + 1
                with history.way_in(Write.Way.API, request.auth.user, body.reason), rendered_ahead():
                    save_matchday(form.matchday(number), form.players)
                matchday = form.checked.matchday
                answer = {"number": number, "url": f"/{club.slug}/matchdays/{number}/", "changes": changes_of(matchday)}
                if row is not None:
                    idempotency.keep(row, 201, answer)
                return Status(201, answer)
        except idempotency.KeyTaken as taken:
            if taken.row is None:
                raise HttpError(409, "A post with this Idempotency-Key failed meanwhile; send it again.") from None
            return idempotency.replay(taken.row, digest)
        except ValidationError as error:
            return refused([{"field": "lines", "line": None, "message": m} for m in error.messages])
        except IntegrityError:
            form = _form(body, form.checked.matchday.game)  # the number was taken: read it all again
            if not form.is_valid():
                return refused(form_problems(form))
    return Status(409, {"detail": "Other saves kept taking the next number; nothing was saved. Send it again."})
