"""The chart's markers: coordinates written with `:.1f` are the text of `round(v, 1)`, to the byte."""

import random
import re
from datetime import date, timedelta

from web.pages import charts


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


def chart_of(days, ratings=None):
    ratings = ratings or [1500 + i for i in range(len(days))]
    points = [charts.Point(day, rating, f"{day}: {rating}") for day, rating in zip(days, ratings, strict=True)]
    return str(charts.rating_chart([charts.Series("Overall", points)], title="Rating history"))


def x_labels(chart: str) -> list[tuple[str, float, str]]:
    return [
        (css, float(x), text)
        for css, x, text in re.findall(r'<text class="x-label([^"]*)" x="([^"]+)"[^>]*>([^<]*)<', chart)
    ]


def test_the_axis_carries_years_when_the_chart_crosses_into_another_year():
    within = x_labels(chart_of([date(2025, 11, 3), date(2025, 11, 15), date(2025, 12, 20)]))
    assert [text for _, _, text in within] == ["Nov 3", "Nov 15", "Dec 20"]
    december_to_november = [date(2025, 12, 6) + timedelta(days=30 * i) for i in range(12)]  # under a year
    labels = [text for _, _, text in x_labels(chart_of(december_to_november))]
    assert labels[0] == "Dec 6, 2025" and labels[-1].endswith(", 2026") and all(", 20" in t for t in labels)
    longer = [date(2024, 1, 5) + timedelta(days=60 * i) for i in range(10)]
    assert [text for _, _, text in x_labels(chart_of(longer))][0] == "Jan 2024"


def test_date_labels_never_overlap_where_dates_bunch():
    """A deal played every day for a week and once more months later: its labels stand apart, the
    last one ending at the right edge instead of running off it."""
    days = [date(2025, 12, 1) + timedelta(days=i) for i in range(30)] + [date(2026, 5, 30)]
    labels = x_labels(chart_of(days))
    assert 2 <= len(labels) <= 6
    spans = []
    for css, x, text in labels:
        width = charts.LETTER * len(text)
        spans.append((x - width, x) if "end" in css else (x - width / 2, x + width / 2))
        assert ("end" in css) == (x + width / 2 > charts.WIDTH)
    assert all(later[0] > earlier[1] for earlier, later in zip(spans, spans[1:], strict=False))
    assert spans[-1][1] <= charts.WIDTH and labels[-1][2] == "May 30, 2026"


def x_of_points(chart: str, series: str) -> list[float]:
    group = re.search(rf'data-series="{series}">(.*?)</g>', chart, flags=re.S)[1]
    return [float(x) for x in re.search(r'points="([^"]+)"', group)[1].replace(",", " ").split()[::2]]


def test_a_night_of_four_games_is_four_steps_with_its_date_beneath():
    night, later = date(2026, 3, 6), date(2026, 3, 20)
    overall = [charts.Point(night, 1500 + i, f"m{i}", (night, i + 1)) for i in range(4)]
    overall.append(charts.Point(later, 1490, "m5", (later, 5)))
    hearts = [charts.Point(night, 1510, "h", (night, 3))]  # the night's third game, in its own table too
    chart = str(charts.rating_chart([charts.Series("Overall", overall), charts.Series("Hearts", hearts)], "History"))
    xs = x_of_points(chart, "Overall")
    assert len(set(xs)) == 5 and xs == sorted(xs)
    assert x_of_points(chart, "Hearts") == [xs[2]]  # the same matchday, the same step
    labels = x_labels(chart)
    assert [(x, text) for _, x, text in labels] == [(xs[0], "Mar 6"), (xs[4], "Mar 20")]


def test_the_players_chart_steps_are_their_matchdays(client, club, make_matchday):
    from django.urls import reverse

    from league.models import Player

    for number in range(7, 11):  # a night of four games
        make_matchday(number, "2025-11-22", {"I": 1 + number % 2, "R": 2 - number % 2}, rounds=2)
    player = Player.objects.get(short_name="I")
    chart = client.get(reverse("league:player", args=[player.pk])).content.decode()
    xs = x_of_points(chart, "Overall")
    assert len(xs) == len(set(xs)) == player.results.count()
    assert xs == sorted(xs)
    assert "Nov 22" in [text for _, _, text in x_labels(chart)]
