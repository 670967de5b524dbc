"""The chart's markers: coordinates written with `:.1f` are the text of `round(v, 1)`, to the byte."""

import random

from web import charts


def written_with_round(shape: str, cx: float, cy: float, size: float) -> str:
    """The marker's coordinates as `round(v, 1)` writes them (the chart's first version)."""
    if shape == "circle":
        return f'cx="{cx}" cy="{cy}"'
    if shape == "square":
        s = round(size * 0.9, 1)
        return f'x="{round(cx - s, 1)}" y="{round(cy - s, 1)}" width="{2 * s}"'
    s = size * 1.25
    if shape == "triangle":
        low = round(cy + s * 0.8, 1)
        return f'points="{cx},{round(cy - s, 1)} {round(cx + s, 1)},{low} {round(cx - s, 1)},{low}"'
    return f'points="{cx},{round(cy - s, 1)} {round(cx + s, 1)},{cy} {cx},{round(cy + s, 1)} {round(cx - s, 1)},{cy}"'


def test_marker_coordinates_are_those_of_round():
    rng = random.Random(7)
    for _ in range(20_000):
        cx, cy = round(rng.uniform(charts.LEFT, charts.WIDTH), 1), round(rng.uniform(0, charts.HEIGHT), 1)
        for shape in charts.MARKERS:
            for size in (4, 2.5):
                marker = charts._marker(shape, cx, cy, size, "#000", "Overall: 1500")
                assert written_with_round(shape, cx, cy, size) in marker
