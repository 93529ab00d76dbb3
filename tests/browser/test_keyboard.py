"""The product with the keyboard only (Tab, Shift+Tab, Enter, Space, and typing into fields): a
reader signs in, audits a site, opens its report and moves through the report's sections; on every
screen of tests/browser/screens.py, Tab reaches every control in document order with the focus
visible, comes back round to the first (no trap), and Shift+Tab walks the same way back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.keyboard import Focused, focused, press, report_frame, stops
from tests.browser.screens import AUDIT_TIMEOUT_S, SCREENS, Screen, Session, signed_out

pytestmark = pytest.mark.slow

BACK_STOPS = 40


def tab_to(page: Page, name: str | re.Pattern[str], limit: int = 80) -> Focused:
    """Tab until the focused element's name matches; every stop on the way shows its focus."""
    for _ in range(limit):
        now = press(page, "Tab")
        if now is None:
            continue
        assert now["visible"], f"no visible focus on {now['tag']} {now['name']!r}"
        if re.fullmatch(name, now["name"]) if isinstance(name, re.Pattern) else now["name"] == name:
            return now
    raise AssertionError(f"Tab never reached {name!r} in {limit} presses")


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
    expect(page.locator("#report-h")).to_be_focused()
    report = page.frame_locator("#report-frame")
    expect(report.locator("figure.chart").first).to_be_attached()

    # Into the report's frame, to its first ranked action: a link to the section.
    first_action = report.locator("ol.actions > li > a").first
    action = tab_to(page, first_action.inner_text().strip().replace("\n", " ")[:60])
    target = first_action.get_attribute("href")
    assert target is not None and target.startswith("#type-")
    page.keyboard.press("Enter")
    section = report.locator(f"article[id='{target[1:]}']")
    expect(section).to_be_in_viewport()
    # Tab goes on from the section reached (the focus navigation starting point moved there).
    after = press(page, "Tab")
    assert after is not None and after["key"] != action["key"]
    inside = report.locator(
        f"article[id='{target[1:]}'] :focus, article[id='{target[1:]}'] ~ * :focus"
    )
    expect(inside.first).to_be_attached()


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
