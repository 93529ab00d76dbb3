"""The report's line chart: a gap where a run has no value, points where it has, labels spread
evenly with both ends kept, values clamped to the axis, and every point read out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.svg_charts import (
    BAR_AREA,
    CHART_WIDTH,
    LABEL_CHARS,
    LABEL_LEFT,
    Bar,
    Chart,
    LineChart,
    Series,
    label_lines,
    render_chart,
    render_line_chart,
    segments,
    x_label_indexes,
)
from tests.service.html_doc import parse
from tests.support.elements import find


@pytest.mark.parametrize(
    ("count", "most", "indexes"),
    [
        (0, 6, []),
        (1, 6, [0]),
        (6, 6, [0, 1, 2, 3, 4, 5]),
        (7, 6, [0, 1, 2, 4, 5, 6]),
        (30, 6, [0, 6, 12, 17, 23, 29]),
        (30, 2, [0, 29]),
    ],
)
def test_x_labels_are_spread_evenly_and_keep_both_ends(count: int, most: int, indexes) -> None:
    assert x_label_indexes(count, most) == indexes


@pytest.mark.parametrize(
    ("values", "runs"),
    [
        ((), []),
        ((None, None), []),
        ((1.0,), [[(0, 1.0)]]),
        ((1.0, 2.0, None, 4.0), [[(0, 1.0), (1, 2.0)], [(3, 4.0)]]),
        ((None, 0.0, None), [[(1, 0.0)]]),  # zero is a value, not a gap
    ],
)
def test_a_line_breaks_where_a_value_is_missing(values, runs) -> None:
    assert segments(values) == runs


def chart(*values: float | None) -> LineChart:
    labels = tuple(f"2026-12-{n + 1:02d}" for n in range(len(values)))
    return LineChart("h", "Scores", labels, (Series("Health score", values, "series-health"),))


def svg_of(line: LineChart):
    figure = find(parse(f"<!DOCTYPE html><title>t</title>{render_line_chart(line)}"), ".//figure")
    return figure, figure.find("svg")


def test_points_lines_and_the_spoken_summary() -> None:
    figure, svg = svg_of(chart(70, None, 82.5, 90))
    assert figure.get("aria-labelledby") == "h-caption"
    lines = list(svg.iter("polyline"))
    dots = list(svg.iter("circle"))
    assert len(lines) == 2 and len(dots) == 3
    assert [d.find("title").text for d in dots] == [
        "2026-12-01: Health score 70",
        "2026-12-03: Health score 82.5",
        "2026-12-04: Health score 90",
    ]
    assert svg.get("aria-label") == "Scores. Health score 70 at 2026-12-01, 90 at 2026-12-04"
    assert not [el for el in svg.iter() if el.get("style") is not None]


@pytest.mark.parametrize(
    ("value", "y"), [(0, "180.0"), (100, "10.0"), (150, "10.0"), (-5, "180.0")]
)
def test_values_are_clamped_to_the_axis(value: float, y: str) -> None:
    _, svg = svg_of(chart(value))
    (dot,) = svg.iter("circle")
    assert dot.get("cy") == y


def test_no_runs_no_svg() -> None:
    figure, svg = svg_of(chart())
    assert svg is None and "No runs to chart." in "".join(figure.itertext())


# -- bar charts: labels are never cut (issue 27: "issing viewport meta t…") -----------------------

LONG_LABELS = [
    "Missing viewport meta tag",
    "Software version disclosed in a response header",
    "No Content-Security-Policy header on the start page",
    "x" * 95,  # one unbreakable word, longer than two lines
    "a",
]


def bar_svg(*labels: str):
    bars = tuple(Bar(label, n + 1) for n, label in enumerate(labels))
    figure = find(
        parse(f"<!DOCTYPE html><title>t</title>{render_chart(Chart('c', 'C', bars))}"), ".//figure"
    )
    return figure.find("svg")


def test_every_bar_label_is_shown_whole_on_lines_that_fit_the_chart() -> None:
    svg = bar_svg(*LONG_LABELS)
    labels = [t for t in svg.iter("text") if "label" in (t.get("class") or "")]
    shown = ["".join(span.text or "" for span in t.iter("tspan")) for t in labels]
    assert [s.replace(" ", "") for s in shown] == [label.replace(" ", "") for label in LONG_LABELS]
    for t in labels:
        for span in t.iter("tspan"):
            assert span.get("x") == str(LABEL_LEFT)  # starts at the left edge, grows right
            assert len(span.text or "") <= LABEL_CHARS
    assert "…" not in "".join(svg.itertext())


@given(st.lists(st.text(min_size=1, max_size=120), min_size=1, max_size=5))
def test_label_lines_keep_every_character_and_the_line_width(labels: list[str]) -> None:
    for label in labels:
        lines = label_lines(label)
        assert all(len(line) <= LABEL_CHARS for line in lines)
        assert "".join("".join(lines).split()) == "".join(label.split())


def test_bars_and_labels_stay_inside_the_view_box() -> None:
    svg = bar_svg(*LONG_LABELS)
    width, height = (int(v) for v in svg.get("viewBox").split()[2:])
    assert width == CHART_WIDTH
    for rect in svg.iter("rect"):
        assert int(rect.get("x")) + int(rect.get("width")) <= BAR_AREA
        assert int(rect.get("y")) + int(rect.get("height")) <= height
    for span in svg.iter("tspan"):
        assert 0 < int(span.get("y")) <= height
