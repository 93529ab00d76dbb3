"""Horizontal bar charts as inline SVG, drawn on the server, for the HTML report.

No script and no external resource: each chart is an `<svg role="img">` with a `<title>` and an
`aria-label` that reads out every bar, followed by a table with the same numbers, so the figures
reach screen readers, text browsers and copy-paste (WAI-ARIA 1.2 `img` role; WCAG 2.1 SC 1.1.1).
Colours come from the report's stylesheet through classes, never from `style` attributes, which
the report's Content-Security-Policy does not allow.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from html import escape

LABEL_WIDTH = 150  # px left of the bars, for their labels
BAR_AREA = 360  # px of the longest bar
COUNT_WIDTH = 70  # px right of the bars, for the counts
ROW_HEIGHT = 22
BAR_HEIGHT = 16


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
    caption = escape(chart.title)
    return (
        f'<figure class="chart" aria-labelledby="{chart.id}-caption">'
        f'<figcaption id="{chart.id}-caption">{caption}</figcaption>'
        f"{_svg(chart)}{_table(chart)}</figure>"
    )


def _svg(chart: Chart) -> str:
    if not chart.bars:
        return f'<p class="empty">No {escape(chart.unit)} to chart.</p>'
    width = LABEL_WIDTH + BAR_AREA + COUNT_WIDTH
    height = ROW_HEIGHT * len(chart.bars)
    spoken = "; ".join(f"{b.label}: {b.count}" for b in chart.bars)
    label = escape(f"{chart.title}. {spoken}")
    rows = "".join(
        _row(i, bar, max(b.count for b in chart.bars)) for i, bar in enumerate(chart.bars)
    )
    return (
        f'<svg role="img" aria-label="{label}" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(chart.title)}</title>{rows}</svg>"
    )


def _row(index: int, bar: Bar, largest: int) -> str:
    y = index * ROW_HEIGHT
    length = round(BAR_AREA * bar.count / largest) if largest else 0
    if bar.count and not length:
        length = 1  # a bar that exists stays visible
    middle = y + ROW_HEIGHT // 2
    return (
        f'<text class="axis" x="{LABEL_WIDTH - 6}" y="{middle}" text-anchor="end" '
        f'dominant-baseline="middle">{escape(_short(bar.label))}</text>'
        f'<rect class="bar tone-{bar.tone}" x="{LABEL_WIDTH}" '
        f'y="{y + (ROW_HEIGHT - BAR_HEIGHT) // 2}" width="{length}" height="{BAR_HEIGHT}"/>'
        f'<text class="axis" x="{LABEL_WIDTH + length + 6}" y="{middle}" '
        f'dominant-baseline="middle">{bar.count:,}</text>'
    )


def _short(label: str, limit: int = 24) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


def _table(chart: Chart) -> str:
    rows = "".join(
        f"<tr><th scope=row>{escape(b.label)}</th><td>{b.count:,}</td></tr>" for b in chart.bars
    )
    return (
        f'<details class="figures"><summary>{escape(chart.title)} as a table</summary>'
        f"<table><thead><tr><th scope=col>{escape(chart.unit.capitalize())} by</th>"
        f"<th scope=col>Count</th></tr></thead><tbody>{rows}</tbody></table></details>"
    )
