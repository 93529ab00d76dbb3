"""Every screen of the app and the standalone report (tests/browser/screens.py), at a laptop's and
a phone's width: no WCAG 2.1 A or AA violation that axe-core finds, no text cut or spilling out of
its box; and a screenshot of each (docs/screenshots/ when scripts/screenshots.py runs the tests).

Each screen is shown once at each width and both checks read that one rendering: showing a screen
is the costly part (several run an audit in the app), and the two checks only read the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import axe, layout
from tests.browser.chromium import screenshot
from tests.browser.screens import SCREENS, SCREENS_GROUP, WIDTHS, Screen, Session, frames_of

MANUAL = Path(__file__).resolve().parents[2] / "docs" / "manual" / "screens.md"

pytestmark = [pytest.mark.slow, SCREENS_GROUP]

# The report's "Issues by type" chart once cut long issue names on the left (issue 27, item 1);
# its labels are also tested on their own, so that a regression names the chart.
ISSUE_CHART = "Issues by type"


def show(session: Session, screen: Screen, width: int) -> None:
    session.page.set_viewport_size({"width": width, "height": 900})
    screen.show(session)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.name)
def test_every_screen_passes_axe_and_no_text_overflows_its_box(
    session: Session, screen: Screen, width: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    show(session, screen, width)
    page = session.page
    # The layout first, as the screenshot shows it: the measure and the picture only read the
    # page, and axe-core (which may scroll while it checks colours) runs after them.
    page.locator(screen.about).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    screenshot(page, f"{screen.name}-{width}", tmp_path_factory.mktemp("shots"))
    frames = frames_of(page, screen)
    overflowing = [o for frame in frames for o in layout.overflows(frame)]
    if not axe.AXE_SOURCE.is_file():  # the layout still checked (and pictured) without axe-core
        assert overflowing == [], f"{screen.name} at {width} px:\n{layout.readable(overflowing)}"
        axe.axe_source()  # the skip, with how to install axe-core
    violating = [v for frame in frames for v in axe.violations(frame)]
    # Both checks are reported, whichever fails: one failing must not hide the other.
    failures = [
        f"axe-core:\n{axe.readable(violating)}" if violating else "",
        f"text overflows:\n{layout.readable(overflowing)}" if overflowing else "",
    ]
    said = "\n".join(f for f in failures if f)
    assert violating == [] and overflowing == [], f"{screen.name} at {width} px:\n{said}"


@pytest.mark.parametrize("width", WIDTHS)
def test_the_issue_chart_labels_fit(session: Session, width: int) -> None:
    show(session, next(s for s in SCREENS if s.name == "report"), width)
    cut = [o for o in layout.overflows(session.page.main_frame) if o["chart"] == ISSUE_CHART]
    assert cut == [], layout.readable(cut)


def test_the_manual_shows_every_screen_at_both_widths() -> None:
    """docs/manual/screens.md shows each screen's pictures (tests/test_readme.py checks that the
    files it links exist; scripts/screenshots.py writes them)."""
    shown = MANUAL.read_text(encoding="utf-8")
    missing = [
        f"{s.name}-{w}.png" for s in SCREENS for w in WIDTHS if f"{s.name}-{w}.png)" not in shown
    ]
    assert missing == []
