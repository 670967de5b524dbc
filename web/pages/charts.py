"""A rating-history chart as inline SVG, rendered on the server: no chart library, no JavaScript.

Each table is one line with its own colour, dash and marker shape, so that lines lying on top of
each other (a club with one game has identical Overall and game lines) all stay visible; the legend
lists them in the order they are drawn. Each point carries an SVG <title>, which browsers show on
hover, naming the table, the matchday, its date with the year, and the rating.

The x axis is steps, not time: each matchday (or attempt) is one step, so a night of four games is
four steps, not one vertical bar; the dates are marked beneath, at the first step of their day.
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from web.pages.formatting import format_rating

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 52, 30, 14, 34
# Lines are drawn in currentColor, each series taking its colour from its class (`line-1` to
# `line-7`): the palette is site.css's, one for a light screen, one for a dark one and one for print.
COLOURS = 7
# Later lines are drawn over earlier ones: each is dashed more finely and thinner, so the earlier
# line shows through where they coincide.
DASHES = ["", "9 5", "3 4", "12 4 3 4", "1 4", "6 3", "2 6"]
WIDTHS = [5, 3.5, 2.5, 2, 2, 1.5, 1.5]
MARKERS = ["circle", "square", "triangle", "diamond"]
INK = "currentColor"
LETTER = 6.5  # the width of a date label's letter (11px text on a chart 640 units wide)


class Point(NamedTuple):  # a tuple: a long history has hundreds, cheaper to make than dataclasses
    day: date
    rating: float
    caption: str  # shown on hover, e.g. "Overall, matchday 3, November 8, 2025: 1501"
    # The step it is drawn at, shared by the series' points of one matchday: (day, matchday number).
    # None: a step of its own, after the series' points before it on its day.
    step: tuple | None = None


class Series(NamedTuple):
    label: str
    points: list[Point]


def nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) that cuts `span` into about `ticks` parts."""
    raw = max(span, 1) / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def marker(shape: str, cx: float, cy: float, size: float, colour: str, title: str = "") -> SafeString:
    """A point's marker (with its hover title) or, without a title, the legend's sample.

    Built with f-strings, not `format_html`: a long history has hundreds of points, and every value
    here but the title is a number or one of this module's constants, so only the title is escaped."""
    return SafeString(_marker(shape, cx, cy, size, colour, title))


def _marker(shape: str, cx: float, cy: float, size: float, colour: str, title: str) -> str:
    # `f"{v:.1f}"` writes exactly what `round(v, 1)` would (both round the float's exact value, ties
    # to even), more cheaply: a busy player's chart has hundreds of points.
    inner = f"<title>{html.escape(title) if _SPECIAL.search(title) else title}</title>" if title else ""
    css = "point" if title else "sample"
    if shape == "circle":
        return f'<circle class="{css}" cx="{cx}" cy="{cy}" r="{size}" fill="{colour}">{inner}</circle>'
    if shape == "square":
        s = round(size * 0.9, 1)
        return (
            f'<rect class="{css}" x="{cx - s:.1f}" y="{cy - s:.1f}" width="{2 * s}" height="{2 * s}"'
            f' fill="{colour}">{inner}</rect>'
        )
    s = size * 1.25
    if shape == "triangle":
        low = f"{cy + s * 0.8:.1f}"
        points = f"{cx},{cy - s:.1f} {cx + s:.1f},{low} {cx - s:.1f},{low}"
    else:  # diamond
        points = f"{cx},{cy - s:.1f} {cx + s:.1f},{cy} {cx},{cy + s:.1f} {cx - s:.1f},{cy}"
    return f'<polygon class="{css}" points="{points}" fill="{colour}">{inner}</polygon>'


_SPECIAL = re.compile("[&<>\"']")  # what html.escape replaces: most titles have none


def _style(i: int) -> tuple[str, str, float, str]:
    return (
        f"line-{i % COLOURS + 1}",
        DASHES[i % len(DASHES)],
        WIDTHS[min(i, len(WIDTHS) - 1)],
        MARKERS[i % len(MARKERS)],
    )


def _x_label(day: date, first: date, last: date) -> str:
    """ "Nov 6" on a chart within one year (its points' titles carry the year), "Dec 6, 2025" on one
    that crosses into another, "Nov 2025" on one of a year or more."""
    if (last - first).days >= 365:
        return f"{day:%b} {day.year}"
    if first.year != last.year:
        return f"{day:%b} {day.day}, {day.year}"
    return f"{day:%b} {day.day}"


def _x_ticks(steps: list[tuple], scale: _Scale) -> list[tuple[float, str, bool]]:
    """Up to six of the chart's days, each at the first of its steps (`steps` sorted, a step's day
    first), spread along the steps: (x, label, whether the label ends at its tick rather than
    centring on it, at the right edge). A label is left out where it would touch the one before it."""
    firsts: dict[date, int] = {}
    for i, step in enumerate(steps):
        firsts.setdefault(step[0], i)
    dates = list(firsts)
    picked = sorted({dates[round(i * (len(dates) - 1) / 5)] for i in range(6)} if len(dates) > 6 else set(dates))
    ticks: list[tuple[float, str, bool, float, float]] = []  # with where each label starts and ends
    for n, day in enumerate(picked):
        x, label = scale.x(firsts[day]), _x_label(day, scale.first, scale.last)
        width = LETTER * len(label)
        end = x + width / 2 > WIDTH
        left, right = (x - width, x) if end else (x - width / 2, x + width / 2)
        if n == len(picked) - 1:  # the last day is always marked: the labels before it give way
            while ticks and left < ticks[-1][4] + LETTER and len(ticks) > 1:
                ticks.pop()
        if not ticks or left >= ticks[-1][4] + LETTER:
            ticks.append((x, label, end, left, right))
    return [(x, label, end) for x, label, end, _, _ in ticks]


@dataclass(frozen=True)
class _Scale:
    """Where a step and a rating fall on the chart: its first and last day (for the labels), its
    number of steps, its lowest and highest rating."""

    first: date
    last: date
    steps: int
    low: float
    high: float

    def x(self, index: int) -> float:
        offset = index / (self.steps - 1) if self.steps > 1 else 0.5
        return round(LEFT + offset * (WIDTH - LEFT - RIGHT), 1)

    def y(self, rating: float) -> float:
        return round(TOP + (self.high - rating) / (self.high - self.low) * (HEIGHT - TOP - BOTTOM), 1)


def _steps(series: list[Series]) -> list[list[tuple]]:
    """Each series' points' steps: their own, or (day, 0, n) for the n-th point of a series on its day."""
    found = []
    for s in series:
        on_day: dict[date, int] = {}
        keys = []
        for p in s.points:
            if p.step is not None:
                keys.append((p.day, *p.step[1:]))
            else:
                on_day[p.day] = on_day.get(p.day, -1) + 1
                keys.append((p.day, 0, on_day[p.day]))
        found.append(keys)
    return found


def rating_chart(series: list[Series], title: str) -> SafeString:
    points = [p for s in series for p in s.points]
    if not points:
        return SafeString("")
    days, ratings = [p.day for p in points], [p.rating for p in points]  # lists: a generator resumes per point
    first, last, low, high = min(days), max(days), min(ratings), max(ratings)
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if low == high:
        low, high = low - step, high + step
    keys = _steps(series)
    steps = sorted({key for ks in keys for key in ks})
    scale = _Scale(first, last, len(steps), low, high)
    y = scale.y
    y_ticks = [low + i * step for i in range(round((high - low) / step) + 1)]
    grid = format_html_join(
        "",
        '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/><text class="y-label" x="{}" y="{}">{}</text>',
        ((LEFT, WIDTH - RIGHT, y(t), y(t), LEFT - 6, y(t) + 4, format_rating(t)) for t in y_ticks),
    )
    # On a phone every other date label gives way (site.css), so that the rest stay readable; a
    # label that would run off the right edge ends at its tick.
    labels = format_html_join(
        "",
        '<text class="x-label{}{}" x="{}" y="{}">{}</text>',
        (
            (" minor" if i % 2 else "", " end" if end else "", x, HEIGHT - BOTTOM + 18, label)
            for i, (x, label, end) in enumerate(_x_ticks(steps, scale))
        ),
    )
    size = 4 if len(points) <= 100 else 2.5
    xs = {key: scale.x(i) for i, key in enumerate(steps)}  # the tables' lines share their matchdays
    return format_html(
        '<figure class="chart"><svg viewBox="0 0 {} {}" role="img" aria-label="{}">{}{}{}</svg>'
        '<ul class="legend">{}</ul></figure>',
        WIDTH,
        HEIGHT,
        title,
        grid,
        labels,
        SafeString("".join(_lines(series, keys, xs, y, size))),
        _legend(series),
    )


def _lines(series: list[Series], keys: list[list[tuple]], xs: dict, y, size: float) -> list[SafeString]:
    """Each series as a line through its points, with a marker at each (its caption as a tooltip)."""
    lines = []
    for i, s in enumerate(series):
        line, dash, width, shape = _style(i)
        at = [(xs[key], y(p.rating)) for p, key in zip(s.points, keys[i], strict=True)]
        markers = "".join(
            [_marker(shape, cx, cy, size, INK, p.caption) for p, (cx, cy) in zip(s.points, at, strict=True)]
        )
        lines.append(
            format_html(
                '<g class="series {}" data-series="{}">'
                '<polyline fill="none" stroke="currentColor" stroke-width="{}"{} points="{}"/>{}</g>',
                line,
                s.label,
                width,
                format_html(' stroke-dasharray="{}"', dash) if dash else "",
                " ".join([f"{px},{py}" for px, py in at]),
                SafeString(markers),
            )
        )
    return lines


def _legend(series: list[Series]) -> SafeString:
    """A key per series: its line's colour, dash and marker beside its label."""
    return format_html_join(
        "",
        '<li><svg class="key {}" viewBox="0 0 32 12" width="32" height="12" aria-hidden="true">'
        '<line x1="0" y1="6" x2="32" y2="6" stroke="currentColor" stroke-width="{}"{}/>{}</svg>{}</li>',
        (
            (
                line,
                min(width, 3),
                format_html(' stroke-dasharray="{}"', dash) if dash else "",
                marker(shape, 16, 6, 4, INK),
                s.label,
            )
            for i, s in enumerate(series)
            for line, dash, width, shape in [_style(i)]
        ),
    )
