"""Paths of the pages a table links to on every row, reversed once per URL pattern rather than once
per row: `reverse` is costly next to a cell, and a home page names hundreds of players (docs/performance.md)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

MARK = 987654321  # a number no page's path holds, replaced by the real one


@functools.lru_cache(maxsize=64)
def _around(name: str, script_prefix: str, urlconf: str) -> tuple[str, str]:
    head, _, tail = reverse(name, args=[MARK], urlconf=urlconf).partition(str(MARK))
    return head, tail


def number_path(name: str, number: int) -> str:
    """`reverse(name, args=[number])` for a URL pattern taking one whole number (a player's id, a
    matchday's number)."""
    head, tail = _around(name, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
    return f"{head}{int(number)}{tail}"


def number_paths(name: str) -> Callable[[int], str]:
    """`number_path(name, number)` for many numbers, the script prefix and URL configuration looked
    up once (a page names its players in one request)."""
    head, tail = _around(name, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
    return lambda number: f"{head}{int(number)}{tail}"


@functools.lru_cache(maxsize=64)
def _fixed(name: str, script_prefix: str, urlconf: str) -> str:
    return reverse(name, urlconf=urlconf)


def fixed_path(name: str) -> str:
    """`reverse(name)` for a URL pattern taking nothing (the navigation on every page)."""
    return _fixed(name, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
