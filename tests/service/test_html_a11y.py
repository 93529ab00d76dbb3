"""The HTML report's accessibility section: not checked (never a 100), checked and clean, or the
failing rules with their WCAG criteria linked to W3C's Understanding pages, their pages and
example elements, the crawled markup escaped; which pages axe-core ran on, and the rules only a
rendered page decides marked as such, counted against those pages, never implied passed
elsewhere."""

from __future__ import annotations

from xml.etree.ElementTree import Element

import pytest

from audit.catalogue import IssueType
from audit.verdict import Tally, TypeTally, score
from service.html_a11y import RuleRow, accessibility_score, accessibility_section
from tests.service.html_doc import parse
from tests.support.elements import find, text

HOSTILE = '<img src=x onerror="alert(1)">'


def section(html: str) -> Element:
    root = parse(f"<!DOCTYPE html><title>t</title>{html}")
    (found,) = root.iter("section")
    return found


def test_an_audit_that_did_not_check_says_so_and_scores_nothing() -> None:
    scores = score(Tally(3, 3, 90, None, ()))
    assert accessibility_score(scores) is None
    found = section(accessibility_section("a1", accessibility_score(scores), ()))
    assert find(found, "h2").text == "Accessibility"
    assert text(find(found, "p")).startswith("Not checked")


def test_a_checked_clean_audit_scores_100_and_says_no_rule_failed() -> None:
    scores = score(Tally(3, 3, 90, None, (), accessibility_checked=True))
    found = section(accessibility_section("a1", accessibility_score(scores), ()))
    first, where = (text(p) for p in found.findall("p"))
    assert first == "Accessibility scores 100 out of 100. No page failed an accessibility rule."
    assert where.startswith("Every page was checked from its markup (no colours, no layout).")
    assert "colour contrast, target size" in where and "were not checked" in where


def test_failing_rules_list_criteria_pages_and_escaped_elements() -> None:
    tally = Tally(
        3,
        3,
        90,
        None,
        (TypeTally("a11y-image-alt", IssueType.A11Y_IMAGE_ALT.severity, 2, 2, 60),),
        accessibility_checked=True,
    )
    rules = [
        RuleRow(IssueType.A11Y_IMAGE_ALT, 2, (("main > img", HOSTILE),), "http://s.test/a"),
        RuleRow(IssueType.A11Y_TABINDEX, 1, ()),
    ]
    anchors = {"a11y-tabindex": "some-lead"}
    found = section(accessibility_section("a1", accessibility_score(score(tally)), rules, anchors))

    rows = found.findall(".//tbody/tr")
    assert [find(r, "th/a").get("href") for r in rows] == [
        "#type-a11y-image-alt",
        "#type-some-lead",
    ]
    image = rows[0].findall("td")
    assert image[0].text == "critical" and image[2].text == "2"
    link = find(image[1], "a")
    assert link.get("href") == "https://www.w3.org/WAI/WCAG22/Understanding/non-text-content"
    assert HOSTILE in "".join(image[3].itertext())  # shown as text, not markup
    assert not list(found.iter("img"))
    assert rows[1].findall("td")[1].text == "best practice"


@pytest.mark.parametrize(
    ("rendered_pages", "said"),
    [
        (0, "No page was rendered with axe-core, so colour contrast, target size"),
        (1, "axe-core ran on 1 rendered page: colour contrast, target size"),
        (5, "axe-core ran on 5 rendered pages: colour contrast, target size"),
    ],
)
def test_the_section_says_which_pages_axe_core_decided(rendered_pages: int, said: str) -> None:
    rules = [RuleRow(IssueType.A11Y_IMAGE_ALT, 2, ())]
    found = section(accessibility_section("a1", 80.0, rules, rendered_pages=rendered_pages))
    where = text(found.findall("p")[1])
    assert said in where
    assert ("and on no other page" in where) is (rendered_pages > 0)


def test_a_rendered_only_rule_is_marked_and_counted_against_the_rendered_pages() -> None:
    rules = [
        RuleRow(IssueType.A11Y_COLOR_CONTRAST, 4, (("#faint", "<p id=faint>"),)),
        RuleRow(IssueType.A11Y_IMAGE_ALT, 300, ()),
    ]
    found = section(accessibility_section("a1", 60.0, rules, rendered_pages=5))
    contrast, image = found.findall(".//tbody/tr")
    assert "(rendered page)" in "".join(find(contrast, "th").itertext())
    assert contrast.findall("td")[2].text == "4 of 5 rendered"
    assert "1.4.3 Contrast (Minimum) (AA)" in "".join(contrast.findall("td")[1].itertext())
    assert "(rendered page)" not in "".join(find(image, "th").itertext())
    assert image.findall("td")[2].text == "300"
