"""A posted body read as strictly as a hostile sender needs: a size cap before it is read, UTF-8, no
`NaN` or `Infinity`, no key written twice, nesting no deeper than the API's bodies go, and an object
at the top. Each refusal is a 400 naming the problem."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from itertools import accumulate

from django.conf import settings
from ninja.errors import HttpError

MAX_DEPTH = 4  # an object holding a list of strings is 2 deep
# Possessive, and an unclosed string runs to the end: one pass over any body (docs/performance.md).
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"?', re.S)


class BodyRefused(HttpError):
    def __init__(self, message: str):
        super().__init__(400, message)


def _no_constant(name: str):
    raise BodyRefused(f"The body holds {name}, which is not a number in JSON; send a number or null.")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent, refused when it overflows to infinity (1e400)."""
    number = float(text)
    if math.isinf(number):
        raise BodyRefused(f"The body holds {text[:20]}, a number too large.")
    return number


def _once(pairs: list[tuple[str, object]]) -> dict:
    counts = Counter(key for key, _ in pairs)  # not list.count: thousands of keys would take seconds
    if twice := sorted(key for key, n in counts.items() if n > 1):
        raise BodyRefused(f"The body gives {', '.join(map(json.dumps, twice))} more than once; give each key once.")
    return dict(pairs)


def _depth(text: str) -> int:
    """How deep the text's arrays and objects nest (brackets inside strings not counted)."""
    bare = _STRING.sub("", text)
    steps = (1 if c in "[{" else -1 for c in bare if c in "[]{}")
    return max(accumulate(steps, initial=0))


def read_json(raw: bytes) -> dict:
    """The body as a JSON object; BodyRefused, naming the problem, for anything else."""
    limit = settings.API_BODY_LIMIT
    if len(raw) > limit:
        raise BodyRefused(f"The body is {len(raw)} bytes; the API takes at most {limit}.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BodyRefused(f"The body is not UTF-8 (byte {error.start}).") from None
    if (depth := _depth(text)) > MAX_DEPTH:
        raise BodyRefused(f"The body nests {depth} deep; the API's bodies nest at most {MAX_DEPTH}.")
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_once)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"  # json's "Unterminated string starting at"
        raise BodyRefused(f"The body is not JSON: {error.msg.removesuffix(' at')} at {where}.") from None
    except ValueError as error:  # an integer of thousands of digits (Python's limit on converting them)
        raise BodyRefused(f"The body holds a number that cannot be read: {str(error)[:80]}") from None
    except RecursionError:
        raise BodyRefused(f"The body nests too deep; the API's bodies nest at most {MAX_DEPTH}.") from None
    if not isinstance(data, dict):
        raise BodyRefused(f"The body is a JSON {type(data).__name__}; send an object.")
    return data


def check_length(request) -> None:
    """Refuse a body announced as larger than the cap before anything reads it."""
    announced = request.META.get("CONTENT_LENGTH") or "0"
    limit = settings.API_BODY_LIMIT
    if not announced.isdigit():
        raise BodyRefused("The Content-Length is not a number.")
    if int(announced) > limit:
        raise BodyRefused(f"The body is {announced} bytes; the API takes at most {limit}.")


def posted(request) -> dict:
    """The request's body as a JSON object, read here rather than by ninja, whose parser answers
    every problem with the same words."""
    check_length(request)
    return read_json(request.body)
