"""A rating-history chart as inline SVG, rendered on the server: no chart library, no JavaScript.

Each point carries an SVG <title>, which browsers show on hover, naming the matchday and the rating.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from web.formatting import format_rating

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 52, 30, 14, 34
# The legend's swatches use the same colours through the classes .c0 .. .c6 in site.css.
COLOURS = ["#1f5fa8", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0f766e", "#a16207"]


@dataclass(frozen=True)
class Point:
    day: date
    rating: float
    caption: str  # shown on hover, e.g. "Matchday 3, November 8: 1501"


@dataclass(frozen=True)
class Series:
    label: str
    points: list[Point]


def nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) that cuts `span` into about `ticks` parts."""
    raw = max(span, 1) / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def rating_chart(series: list[Series], title: str) -> SafeString:
    points = [p for s in series for p in s.points]
    if not points:
        return SafeString("")
    first, last = min(p.day for p in points), max(p.day for p in points)
    days = max((last - first).days, 1)
    low, high = min(p.rating for p in points), max(p.rating for p in points)
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if low == high:
        low, high = low - step, high + step

    def x(day: date) -> float:
        offset = (day - first).days / days if last != first else 0.5
        return round(LEFT + offset * (WIDTH - LEFT - RIGHT), 1)

    def y(rating: float) -> float:
        return round(TOP + (high - rating) / (high - low) * (HEIGHT - TOP - BOTTOM), 1)

    y_ticks = [low + i * step for i in range(round((high - low) / step) + 1)]
    dates = sorted({p.day for p in points})
    x_ticks = [dates[round(i * (len(dates) - 1) / 5)] for i in range(6)] if len(dates) > 6 else dates
    grid = format_html_join(
        "",
        '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/><text class="y-label" x="{}" y="{}">{}</text>',
        ((LEFT, WIDTH - RIGHT, y(t), y(t), LEFT - 6, y(t) + 4, format_rating(t)) for t in y_ticks),
    )
    labels = format_html_join(
        "",
        '<text class="x-label" x="{}" y="{}">{}</text>',
        ((x(d), HEIGHT - BOTTOM + 18, d.strftime("%b %-d")) for d in sorted(set(x_ticks))),
    )
    lines = format_html_join(
        "",
        # Tables often share their matchdays (a club with one game has identical overall and game
        # lines), so each line is drawn thinner than the one before to keep both visible.
        '<g class="series" data-series="{}"><polyline fill="none" stroke="{}" stroke-width="{}" points="{}"/>{}</g>',
        (
            (
                s.label,
                COLOURS[i % len(COLOURS)],
                max(5 - 1.5 * i, 1.5),
                " ".join(f"{x(p.day)},{y(p.rating)}" for p in s.points),
                format_html_join(
                    "",
                    '<circle class="point" cx="{}" cy="{}" r="4" fill="{}"><title>{}</title></circle>',
                    ((x(p.day), y(p.rating), COLOURS[i % len(COLOURS)], p.caption) for p in s.points),
                ),
            )
            for i, s in enumerate(series)
        ),
    )
    legend = format_html_join(
        "",
        '<li><span class="swatch c{}"></span>{}</li>',
        ((i % len(COLOURS), s.label) for i, s in enumerate(series)),
    )
    return format_html(
        '<figure class="chart"><svg viewBox="0 0 {} {}" role="img" aria-label="{}">{}{}{}</svg>'
        '<ul class="legend">{}</ul></figure>',
        WIDTH,
        HEIGHT,
        title,
        grid,
        labels,
        lines,
        legend,
    )
