"""A file uploaded in the admin, previewed, and kept in the secretary's session until they confirm it,
with a one-time token (league.submissions): a second confirmation of one preview (Back, a double
click, a reload) imports nothing and says what the first imported. The CSV results upload and the
BG Stats upload share it; each says how to import its file and how to show a refusal."""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.shortcuts import redirect

from league import submissions
from league.models import default_club
from web.pages.access import clubs_of, works_on


@dataclass(frozen=True)
class PendingUpload:
    session_key: str
    upload_again: str  # the admin URL's name of the upload form
    said_before: str = ""  # put before what the import says, in the message once it is done

    def keep(self, request, data: bytes, club_id: int | None, **options) -> str:
        """Keep the previewed file for its confirmation; the token the confirming form posts back."""
        token = submissions.new_token()
        request.session[self.session_key] = {
            "token": token,
            "data": base64.b64encode(data).decode(),
            "club": club_id,
            **options,
        }
        return token

    def confirm(
        self,
        request,
        token: str,
        save: Callable[[bytes, int | None, dict], tuple[object, str]],
        refused: type[Exception],
        show_refusal: Callable[[Exception], object],
    ):
        """Import the kept file once. `save(data, club_id, options)` imports it and returns the result
        and the line saying what it did; a `refused` exception (the club changed since the preview) is
        shown by `show_refusal`, with nothing imported."""
        if submissions.is_token(token) and (done := submissions.saved_with(token, clubs_of(request.user))):
            return self._already(request, done)
        pending = request.session.get(self.session_key)
        club = (pending or {}).get("club")
        if not pending or pending.get("token") != token or (club is not None and not works_on(request.user, club)):
            messages.error(request, "That preview has expired; upload the file again.")
            return redirect(self.upload_again)
        options = {k: v for k, v in pending.items() if k not in ("token", "data", "club")}

        def save_file():
            result, said = save(base64.b64decode(pending["data"]), club, options)
            return (result, said), None, said

        try:
            # None: the one club the user works on, as the import reads it (league.models.default_club)
            said = submissions.save_once(token, save_file, club if club is not None else default_club())[1]
        except submissions.AlreadySaved as done:
            return self._already(request, done.submission)
        except refused as refusal:
            del request.session[self.session_key]
            return show_refusal(refusal)
        del request.session[self.session_key]
        messages.success(request, self.said_before + said)
        return redirect("admin:league_matchday_changelist")

    def _already(self, request, done: submissions.Submission | None):
        """A second confirmation: what the first imported (None: another club's, of which nothing is told)."""
        request.session.pop(self.session_key, None)
        said = f" ({done.saved})" if done is not None else ""
        messages.warning(request, f"That file was already imported{said}; nothing was imported again.")
        return redirect("admin:league_matchday_changelist")
