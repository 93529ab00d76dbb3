"""What a reader does with the HTML report, wherever it is shown: a page of its own (file://) or
the web app's iframe. Each step checks that the report's markup, stylesheet and script did their
part."""

from __future__ import annotations

from playwright.sync_api import FrameLocator, Page, expect

from service.page_table import TABLE_ROWS

CHARTS = 4  # status code classes, crawl depth, response time, issues by type

Report = Page | FrameLocator


def open_a_chart(report: Report) -> None:
    """Every chart draws bars; the first one's numbers open as a table."""
    charts = report.locator("figure.chart")
    expect(charts).to_have_count(CHARTS)
    for chart in charts.all():
        box = chart.locator("svg rect").first.bounding_box()
        assert box is not None and box["width"] > 0
    details = charts.first.locator("details")
    details.locator("summary").click()
    expect(details.locator("table")).to_be_visible()


def page_column(report: Report, index: int) -> list[str]:
    """The page table's column `index` (1-based), shown rows only, top to bottom."""
    cells = report.locator(f"#pages tbody tr:not([hidden]) td:nth-child({index})")
    # A URL cell ends with the link to the page's own section.
    return [text.strip().removesuffix(" page view") for text in cells.all_inner_texts()]


def sort_pages_by_status(report: Report, rows: int) -> None:
    """The page table shows its first page of `rows` rows, and its Status header sorts them both
    ways (the script ran). The audit must hold more than one status code."""
    expect(report.locator("#pages tbody tr")).to_have_count(min(rows, TABLE_ROWS))
    status = report.get_by_role("button", name="Status", exact=True)
    status.click()
    expect(report.locator("#pages th[aria-sort=ascending]")).to_have_text("Status")
    ascending = [int(s) for s in page_column(report, 2)]
    assert ascending == sorted(ascending)
    status.click()
    expect(report.locator("#pages th[aria-sort=descending]")).to_have_text("Status")
    descending = [int(s) for s in page_column(report, 2)]
    assert descending == sorted(descending, reverse=True)
    assert descending[0] > ascending[0]


# Each SVG text of a chart against its SVG, which clips what lies outside it: a label cut on the
# left ("issing viewport meta t…", issue 27) or running past the right edge lies partly outside.
TEXTS_OUTSIDE = """figures => {
  const out = [];
  for (const figure of figures) {
    for (const t of figure.querySelectorAll('svg text')) {
      const box = t.ownerSVGElement.getBoundingClientRect(), r = t.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(t.textContent);
      if (t.textContent.includes('\\u2026')) out.push(t.textContent);
    }
  }
  return out;
}"""


def chart_labels_fit(report: Report) -> None:
    """Every chart is drawn (a chart hidden, or of no size, would pass the test below unseen), and
    no text of any chart lies outside its SVG, nor is shortened with an ellipsis."""
    assert report.locator("figure.chart svg text").count() > 0
    for svg in report.locator("figure.chart svg").all():
        box = svg.bounding_box()
        assert box is not None and box["width"] > 0 and box["height"] > 0, "a chart not drawn"
    outside = report.locator("figure.chart").evaluate_all(TEXTS_OUTSIDE)
    assert outside == [], outside
