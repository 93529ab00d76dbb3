"""The product with the keyboard only (Tab, Shift+Tab, Enter, Space, and typing into fields): a
reader signs in, audits a site, opens its report, follows its first thing to fix to its issue
group, one of the group's pages to the page's own section and the page's issue back to the group,
then leaves the report the way in and closes it. On every screen of tests/browser/screens.py, Tab
reaches every control in document order with the focus visible, comes back round to the first
(no trap), and Shift+Tab walks the same way back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import FrameLocator, Page, expect

from tests.browser.keyboard import Focused, focused, press, report_frame, stops
from tests.browser.screens import (
    AUDIT_TIMEOUT_S,
    SCREENS,
    SCREENS_GROUP,
    Screen,
    Session,
    signed_out,
)

pytestmark = [pytest.mark.slow, SCREENS_GROUP]

BACK_STOPS = 40


def tab_to(page: Page, name: str | re.Pattern[str], key: str = "Tab", limit: int = 80) -> Focused:
    """Press `key` (Tab, or Shift+Tab to go back) until the focused element's name matches;
    every stop on the way shows its focus."""
    for _ in range(limit):
        now = press(page, key)
        if now is None:
            continue
        assert now["visible"], f"no visible focus on {now['tag']} {now['name']!r}"
        if re.fullmatch(name, now["name"]) if isinstance(name, re.Pattern) else now["name"] == name:
            return now
    raise AssertionError(f"{key} never reached {name!r} in {limit} presses")


def spoken(text: str) -> str:
    """A text as `focused` names an element: whitespace collapsed, at most 60 characters."""
    return " ".join(text.split())[:60]


def test_a_reader_audits_a_site_and_reads_its_report_with_the_keyboard(session: Session) -> None:
    page = session.page
    signed_out(session)
    page.keyboard.press("Tab")  # the skip link, the first stop
    skip = focused(page)
    assert skip is not None and skip["name"] == "Skip to main content"
    tab_to(page, "API key")
    page.keyboard.type(session.key)
    tab_to(page, "Sign in")
    page.keyboard.press("Enter")
    expect(page.locator("#new-audit-h")).to_be_focused()

    tab_to(page, "Site URL")
    page.keyboard.type(session.site)
    tab_to(page, "Maximum pages")
    for _ in range(3):
        page.keyboard.press("Backspace")  # the default, 100
    page.keyboard.type("30")
    tab_to(page, "Start audit")
    page.keyboard.press("Space")
    expect(page.locator("#progress-h")).to_be_focused()
    opened = page.get_by_role("button", name="Open report")
    expect(opened).to_be_visible(timeout=AUDIT_TIMEOUT_S * 1000)

    tab_to(page, "Open report")
    page.keyboard.press("Enter")
    expect(page.locator("#report-h")).to_be_focused()  # the app's sign that the report loaded
    report = page.frame_locator("#report-frame")
    read_the_report(page, report)

    # Out of the report the way in, backwards, and closed: the focus goes back to the audits.
    tab_to(page, "Close report", key="Shift+Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#report")).to_be_hidden()
    expect(page.locator("#audits-h")).to_be_focused()


def read_the_report(page: Page, report: FrameLocator) -> None:
    """From the app's report bar into the report: the first thing to fix, its issue group, one of
    its pages' own section, and back to the group from the page's list of issues."""
    tab_to(page, "Close report")
    # Then the closed disclosures of the site's structured data and accessibility, above the
    # report's frame.
    for name in ("Structured data: ", "Accessibility: "):
        disclosure = press(page, "Tab")
        assert disclosure is not None and disclosure["visible"]
        assert disclosure["name"].startswith(name)
    # The report's first stop is the first thing to fix (the verdict's gauges hold no control).
    action = report.locator("ol.actions > li > a").first
    reached = press(page, "Tab")
    assert reached is not None and reached["visible"]
    assert reached["name"] == spoken(action.inner_text())
    group_id = (action.get_attribute("href") or "").removeprefix("#")
    assert group_id.startswith("type-")
    page.keyboard.press("Enter")
    group = report.locator(f"article[id='{group_id}']")
    expect(group).to_be_focused()
    expect(group).to_be_in_viewport()
    expect(group.locator("details.more")).to_have_js_property("open", True)

    # Tab goes on from the group: its summary, its texts' links, then its pages.
    press(page, "Tab")
    expect(group.locator("summary")).to_be_focused()
    view = group.locator("a.view").first
    page_id = (view.get_attribute("href") or "").removeprefix("#")
    tab_to(page, "page view")
    expect(view).to_be_focused()
    page.keyboard.press("Enter")
    section = report.locator(f"details[id='{page_id}']")
    expect(section.locator("summary")).to_be_focused()
    expect(section).to_be_in_viewport()
    expect(section).to_have_js_property("open", True)

    # The page's issues link to their groups: back to the one the reader came from.
    back = section.locator(f"a[href='#{group_id}']")
    tab_to(page, spoken(back.inner_text()))
    expect(back).to_be_focused()
    page.keyboard.press("Enter")
    expect(group).to_be_focused()
    expect(group).to_be_in_viewport()


def first_difference(page: Page, reached: list[str], expected: list[str], names: list[str]) -> str:
    at = next(
        i for i, (a, b) in enumerate(zip([*reached, ""], [*expected, ""], strict=False)) if a != b
    )
    missed = [k for k in expected if k not in reached]
    return (
        f"{len(reached)} stops reached, {len(expected)} expected; first difference at stop {at}, "
        f"after {names[max(0, at - 3) : at]}: reached {names[at : at + 2]}; "
        f"never reached: {[describe(page, k) for k in missed[:5]]}"
    )


def describe(page: Page, key: str) -> str:
    frame_index, stamp = key.split(":")
    frame = page.main_frame
    if frame_index == "1":
        inner = page.locator("#report-frame").element_handle().content_frame()
        assert inner is not None
        frame = inner
    read = "(k) => { const e = document.querySelector(`[data-kb-key='${k}']`); return e.outerHTML.slice(0, 160); }"
    text: str = frame.evaluate(read, stamp)
    return text


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.name)
def test_tab_reaches_every_control_in_order_and_comes_back(
    session: Session, screen: Screen
) -> None:
    page = session.page
    page.set_viewport_size({"width": 1280, "height": 900})
    screen.show(session)
    expected = stops(page)
    assert expected, "nothing to focus"
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.locator("body").evaluate(
        "b => { b.tabIndex = -1; b.focus(); b.removeAttribute('tabindex'); }"
    )

    inner = report_frame(page)
    reached: list[str] = []
    names: list[str] = []
    for _ in range(len(expected) + 10):  # every stop, then (past the document's end) the first
        now = press(page, "Tab", inner)
        if now is None:
            continue  # the document itself, between the last stop and the first
        assert now["visible"], f"no visible focus on {now['tag']} {now['name']!r}"
        if reached and now["key"] == reached[0]:
            break
        reached.append(now["key"])
        names.append(now["name"])
    else:
        raise AssertionError(f"Tab did not come back to the first stop: ...{names[-8:]}")
    assert reached == expected, first_difference(page, reached, expected, names)

    back: list[str] = []
    # The same way back, from the first stop round to the last and on down: BACK_STOPS of them
    # (a report's hundreds of links are walked forwards only, to keep the tier quick).
    while len(back) < min(len(expected) - 1, BACK_STOPS):
        now = press(page, "Shift+Tab", inner)
        if now is not None:  # None: the document, between the first stop and the last
            back.append(now["key"])
    assert back == expected[:0:-1][:BACK_STOPS]
