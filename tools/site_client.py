"""A visitor or a secretary on one of our own servers over plain HTTP, as a browser is: cookies kept,
the CSRF token posted with every form, redirects not followed (a save's redirect is its answer)."""

from __future__ import annotations

import re
import urllib.request
from http.cookiejar import CookieJar
from urllib.error import HTTPError
from urllib.parse import urlencode


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class SiteClient:
    def __init__(self, url: str):
        if not url.startswith("http://"):
            raise ValueError(f"not one of our own servers: {url}")
        self.url, self.cookies = url, CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies), _Stay())

    def get(self, path: str) -> tuple[int, str]:
        """The status and the page (or, for a redirect, where it leads)."""
        return self._open(urllib.request.Request(self.url + path))  # noqa: S310 - http only (__init__)

    def post(self, path: str, data: dict) -> tuple[int, str]:
        """Post `data` with the CSRF cookie's token (a form's, the first time), as the browser does."""
        token = next((cookie.value for cookie in self.cookies if cookie.name == "csrftoken"), None)
        if token is None:
            status, page = self.get(path)
            if status != 200:
                return status, page
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        body = urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        return self._open(urllib.request.Request(self.url + path, data=body))  # noqa: S310 - http only

    def _open(self, request) -> tuple[int, str]:
        try:
            response = self.opener.open(request, timeout=60)
        except HTTPError as answer:  # 3xx (not followed), 4xx and 5xx
            response = answer
        with response:
            location = response.headers.get("Location") or ""
            return response.status, location or response.read().decode()

    def log_in(self, username: str, password: str) -> SiteClient:
        status, where = self.post("/admin/login/", {"username": username, "password": password, "next": "/admin/"})
        if (status, where) != (302, "/admin/"):
            raise RuntimeError(f"could not log in as {username}: {status}")
        return self
