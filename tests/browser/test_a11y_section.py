"""The HTML report's accessibility section with failing rules, in the report's stylesheet, passes
axe-core's WCAG 2.1 A/AA rules (badseo's audits show only its "Not checked" form until the crawl
runs the rules, so the screens of tests/browser/screens.py do not reach the table)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from audit.catalogue import IssueType
from service.html_a11y import RuleRow, accessibility_section
from service.html_style import STYLE
from tests.browser.axe import violations
from tests.browser.chromium import watched_page

pytestmark = pytest.mark.slow


def test_the_failing_rules_table_passes_axe(browser: Browser, tmp_path: Path) -> None:
    rules = [
        RuleRow(
            IssueType.A11Y_IMAGE_ALT,
            12,
            (("main > img:nth-child(2)", '<img src="a.png">'),) * 3,
            "http://127.0.0.1/shop/",
        ),
        RuleRow(IssueType.A11Y_HEADING_ORDER, 3, (("#intro > h4", "<h4>…</h4>"),)),
    ]
    section = accessibility_section("a1", 61.5, rules)
    page = tmp_path / "section.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Report</title>'
        f"<style>{STYLE}</style></head><body><main>{section}</main></body></html>",
        encoding="utf-8",
    )
    with watched_page(browser, page.as_uri()) as watched:
        watched.page.goto(page.as_uri())
        assert violations(watched.page.main_frame) == []
        assert watched.page.locator("#a11y-h").inner_text() == "Accessibility"
