"""Horizontal bar charts and line charts as inline SVG, drawn on the server, for the HTML report.

No script and no external resource: each chart is an `<svg role="img">` with a `<title>` and an
`aria-label` that reads out every bar, followed by a table with the same numbers, so the figures
reach screen readers, text browsers and copy-paste (WAI-ARIA 1.2 `img` role; WCAG 2.1 SC 1.1.1).
A line chart (`LineChart`: a monitor's scores over its runs) reads its points out the same way,
each point also as a `<title>` that shows on hover, and leaves its table to the caller, whose
table says more than the points. Colours come from the report's stylesheet through classes, never
from `style` attributes, which the report's Content-Security-Policy does not allow.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from enum import StrEnum
from html import escape

# A bar chart's label sits on its own line(s) above its bar, starting at the left edge, and wraps
# at word boundaries: it is never cut, whatever its length (issue 27: labels right-aligned into a
# fixed 150 px column were cut on the left). The view box is narrow so that, scaled down to a
# 375 px wide screen, its 13 px text still reads at about 10 px.
CHART_WIDTH = 360  # px of the view box
BAR_AREA = 290  # px of the longest bar
COUNT_WIDTH = CHART_WIDTH - BAR_AREA  # px right of the bars, for the counts
LABEL_LINE = 16  # px per line of a label
LABEL_LEFT = 2  # px: room for a glyph that overhangs its origin ("J" draws left of it)
LABEL_CHARS = 40  # characters per label line: 13 px system-ui averages under 8 px a character
BAR_HEIGHT = 16
ROW_GAP = 8  # px between one bar and the next label
# The line chart's plot area (px) inside a 580 x 230 viewBox: the y axis labels sit left of it,
# the x axis labels and the legend below it.
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 44, 560, 10, 180
LINE_WIDTH, LINE_HEIGHT = 580, 230
Y_TICKS = (0, 25, 50, 75, 100)  # percent of the axis' top
X_LABELS = 4  # at most this many x labels (a date is ~70 px wide), the first and last included


class Tone(StrEnum):
    """A bar's colour, as the stylesheet's class `tone-<value>`."""

    NEUTRAL = "neutral"
    GOOD = "good"
    WARN = "warn"
    BAD = "bad"


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    count: int
    tone: Tone = Tone.NEUTRAL


@dataclass(frozen=True, slots=True)
class Chart:
    id: str  # unique in the document; the figure's caption is `{id}-caption`
    title: str
    bars: tuple[Bar, ...]
    unit: str = "pages"


def render_chart(chart: Chart) -> str:
    """The chart as a figure: caption, SVG, and the same numbers as a table."""
    return _figure(chart.id, chart.title, _svg(chart) + _table(chart))


def _figure(chart_id: str, title: str, body: str) -> str:
    return (
        f'<figure class="chart" aria-labelledby="{chart_id}-caption">'
        f'<figcaption id="{chart_id}-caption">{escape(title)}</figcaption>{body}</figure>'
    )


def _svg(chart: Chart) -> str:
    if not chart.bars:
        return f'<p class="empty">No {escape(chart.unit)} to chart.</p>'
    spoken = "; ".join(f"{b.label}: {b.count}" for b in chart.bars)
    label = escape(f"{chart.title}. {spoken}")
    largest = max(b.count for b in chart.bars)
    rows, y = [], 0
    for bar in chart.bars:
        row, y = _row(y, bar, largest)
        rows.append(row)
    height = y - ROW_GAP
    return (
        f'<svg role="img" aria-label="{label}" width="{CHART_WIDTH}" height="{height}" '
        f'viewBox="0 0 {CHART_WIDTH} {height}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(chart.title)}</title>{''.join(rows)}</svg>"
    )


def label_lines(label: str, width: int = LABEL_CHARS) -> list[str]:
    """A bar's label in lines of at most `width` characters, broken at spaces; a word longer than
    a line is broken inside (a URL path, say), so nothing is ever dropped."""
    return textwrap.wrap(label, width, break_long_words=True, break_on_hyphens=False) or [""]


def _row(top: int, bar: Bar, largest: int) -> tuple[str, int]:
    """One bar below its label, starting at `top`; and where the next row starts."""
    lines = label_lines(bar.label)
    text = "".join(
        f'<tspan x="{LABEL_LEFT}" y="{top + LABEL_LINE * (n + 1) - 4}">{escape(line)}</tspan>'
        for n, line in enumerate(lines)
    )
    y = top + LABEL_LINE * len(lines) + 2
    length = round(BAR_AREA * bar.count / largest) if largest else 0
    if bar.count and not length:
        length = 1  # a bar that exists stays visible
    middle = y + BAR_HEIGHT // 2
    row = (
        f'<text class="axis label">{text}</text>'
        f'<rect class="bar tone-{bar.tone}" x="0" y="{y}" width="{length}" height="{BAR_HEIGHT}"/>'
        f'<text class="axis" x="{length + 6}" y="{middle}" '
        f'dominant-baseline="middle">{bar.count:,}</text>'
    )
    return row, y + BAR_HEIGHT + ROW_GAP


def _table(chart: Chart) -> str:
    rows = "".join(
        f"<tr><th scope=row>{escape(b.label)}</th><td>{b.count:,}</td></tr>" for b in chart.bars
    )
    return (
        f'<details class="figures"><summary>{escape(chart.title)} as a table</summary>'
        f"<table><thead><tr><th scope=col>{escape(chart.unit.capitalize())} by</th>"
        f"<th scope=col>Count</th></tr></thead><tbody>{rows}</tbody></table></details>"
    )


@dataclass(frozen=True, slots=True)
class Series:
    """One line: a value per x position (None: no value there, the line breaks)."""

    name: str
    values: tuple[float | None, ...]
    css: str  # the stylesheet's class for its stroke and points


@dataclass(frozen=True, slots=True)
class LineChart:
    id: str  # unique in the document; the figure's caption is `{id}-caption`
    title: str
    labels: tuple[str, ...]  # one per x position, oldest first
    series: tuple[Series, ...]
    top: float = 100.0  # the y axis runs from 0 to `top`


def render_line_chart(chart: LineChart) -> str:
    """The chart as a figure: caption and SVG (the caller adds the table of its numbers)."""
    return _figure(chart.id, chart.title, _line_svg(chart))


def _line_svg(chart: LineChart) -> str:
    if not chart.labels:
        return '<p class="empty">No runs to chart.</p>'
    label = escape(f"{chart.title}. " + "; ".join(_spoken(chart, s) for s in chart.series))
    body = _grid(chart) + _x_labels(chart) + "".join(_line(chart, s) for s in chart.series)
    return (
        f'<svg role="img" aria-label="{label}" width="{LINE_WIDTH}" height="{LINE_HEIGHT}" '
        f'viewBox="0 0 {LINE_WIDTH} {LINE_HEIGHT}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(chart.title)}</title>{body}{_legend(chart)}</svg>"
    )


def _spoken(chart: LineChart, series: Series) -> str:
    known = [(chart.labels[i], v) for i, v in enumerate(series.values) if v is not None]
    if not known:
        return f"{series.name}: no values"
    (first, a), (last, b) = known[0], known[-1]
    return f"{series.name} {_number(a)} at {first}, {_number(b)} at {last}"


def _number(value: float) -> str:
    return f"{value:g}"


def _x(chart: LineChart, index: int) -> float:
    if len(chart.labels) == 1:
        return (PLOT_LEFT + PLOT_RIGHT) / 2
    return PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * index / (len(chart.labels) - 1)


def _y(chart: LineChart, value: float) -> float:
    share = min(max(value / chart.top, 0.0), 1.0) if chart.top else 0.0
    return PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * share


def _grid(chart: LineChart) -> str:
    lines = []
    for percent in Y_TICKS:
        value = chart.top * percent / 100
        y = _y(chart, value)
        lines.append(
            f'<line class="grid" x1="{PLOT_LEFT}" x2="{PLOT_RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="axis" x="{PLOT_LEFT - 6}" y="{y:.1f}" text-anchor="end" '
            f'dominant-baseline="middle">{_number(value)}</text>'
        )
    return "".join(lines)


def x_label_indexes(count: int, most: int = X_LABELS) -> list[int]:
    """Which positions get an x label: evenly spread, the first and the last always."""
    if count <= most:
        return list(range(count))
    return sorted({round(k * (count - 1) / (most - 1)) for k in range(most)})


def _x_labels(chart: LineChart) -> str:
    last = len(chart.labels) - 1
    return "".join(
        f'<text class="axis" x="{_x(chart, i):.1f}" y="{PLOT_BOTTOM + 16}" '
        f'text-anchor="{_anchor(i, last)}">{escape(chart.labels[i])}</text>'
        for i in x_label_indexes(len(chart.labels))
    )


def _anchor(index: int, last: int) -> str:
    """The ends' labels grow inwards, so they stay inside the view box."""
    if last == 0:
        return "middle"
    return "start" if index == 0 else "end" if index == last else "middle"


def segments(values: tuple[float | None, ...]) -> list[list[tuple[int, float]]]:
    """The runs of consecutive known values, each as (index, value) points."""
    runs: list[list[tuple[int, float]]] = [[]]
    for index, value in enumerate(values):
        if value is None:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append((index, value))
    return [run for run in runs if run]


def _line(chart: LineChart, series: Series) -> str:
    parts = []
    for run in segments(series.values):
        points = " ".join(f"{_x(chart, i):.1f},{_y(chart, v):.1f}" for i, v in run)
        parts.append(f'<polyline class="line {series.css}" points="{points}"/>')
        parts.extend(
            f'<circle class="dot {series.css}" cx="{_x(chart, i):.1f}" cy="{_y(chart, v):.1f}" '
            f'r="3.5"><title>{escape(chart.labels[i])}: {escape(series.name)} '
            f"{_number(v)}</title></circle>"
            for i, v in run
        )
    return "".join(parts)


def _legend(chart: LineChart) -> str:
    y = LINE_HEIGHT - 12
    parts = []
    for n, series in enumerate(chart.series):
        x = PLOT_LEFT + n * 180
        parts.append(
            f'<line class="line {series.css}" x1="{x}" x2="{x + 24}" y1="{y}" y2="{y}"/>'
            f'<text class="axis" x="{x + 30}" y="{y}" dominant-baseline="middle">'
            f"{escape(series.name)}</text>"
        )
    return "".join(parts)
