"""Accessibility issues: one per failing rule per page (a static rule's, or axe-core's on a
rendered page, the rules only it decides among them), the failing elements listed with selector,
snippet and source, at most A11Y_ELEMENTS_LISTED with their count; none when the rules did not
run. The observation's record is built by the real rules over html5lib's tree, merged with
axe-core's recorded runs for a rendered page."""

from typing import Any

import pytest

from a11y.axe import from_axe
from a11y.findings import Finding, Impact, Source
from a11y.merge import merged
from a11y.result import page_accessibility
from a11y.rule_ids import RenderedRuleId
from a11y.rules import audit
from audit.catalogue import A11Y_ELEMENTS_LISTED, Category, IssueType
from audit.issues import DetectedIssue
from audit.page_rules import run_page_rules
from audit.rules_a11y import accessibility_issues
from tests.a11y.html_tree import parse
from tests.a11y.test_axe import DATA as AXE_DATA
from tests.a11y.test_axe import recorded
from tests.audit.audit_builders import observe

T = IssueType


def checked(html: str) -> Any:
    return page_accessibility(audit(parse(html)))


CLEAN = (
    '<!doctype html><html lang="en"><head><title>Shop</title></head>'
    "<body><main><h1>Shop</h1><p>Hello</p></main></body></html>"
)


def details(issue: DetectedIssue) -> Any:
    return issue.details  # JSON whose shape the test knows


def test_no_record_no_issue() -> None:
    assert accessibility_issues(observe()) == []


def test_a_clean_page_has_no_issue() -> None:
    assert accessibility_issues(observe(accessibility=checked(CLEAN))) == []


def test_one_issue_per_rule_listing_its_elements() -> None:
    html = CLEAN.replace("<p>Hello</p>", '<img src="a.png"><img src="b.png"><a href="/x"></a>')
    issues = accessibility_issues(observe(accessibility=checked(html)))

    by_type = {issue.issue_type: details(issue) for issue in issues}
    assert set(by_type) == {T.A11Y_IMAGE_ALT, T.A11Y_LINK_NAME}
    images = by_type[T.A11Y_IMAGE_ALT]
    assert images["elementCount"] == 2
    assert images["wcag"] == ["1.1.1"] and images["impact"] == "critical"
    assert [e["snippet"] for e in images["elements"]] == ['<img src="a.png">', '<img src="b.png">']
    assert all(e["selector"].startswith("html > body > main > img") for e in images["elements"])


def test_the_elements_listed_are_capped_and_counted() -> None:
    many = "".join(f'<img src="{i}.png">' for i in range(A11Y_ELEMENTS_LISTED + 5))
    [issue] = accessibility_issues(observe(accessibility=checked(CLEAN.replace("Hello", many))))
    assert details(issue)["elementCount"] == A11Y_ELEMENTS_LISTED + 5
    assert len(details(issue)["elements"]) == A11Y_ELEMENTS_LISTED
    assert "elementsSeenOnPage" not in details(issue)


def test_a_cut_record_says_how_many_failures_the_page_had() -> None:
    many = "".join(f'<img src="{i}.png">' for i in range(120))
    [issue] = accessibility_issues(observe(accessibility=checked(CLEAN.replace("Hello", many))))
    assert details(issue)["elementCount"] == 100  # a11y.result.MAX_FINDINGS kept
    assert details(issue)["elementsSeenOnPage"] == 120


def test_the_page_rules_run_it_on_content_pages() -> None:
    html = CLEAN.replace("<p>Hello</p>", "<button></button>")
    types = {i.issue_type for i in run_page_rules(observe(accessibility=checked(html)))}
    assert T.A11Y_BUTTON_NAME in types


# -- a rendered page: axe-core's findings merged in (a11y.merge), recorded runs -------------------


def rendered(fixture: str) -> Any:
    """The record a rendered page's observation carries: the static rules on the fixture's
    markup merged with axe-core's recorded run on it (tests/a11y/data/axe)."""
    html = (AXE_DATA / f"{fixture}.html").read_text(encoding="utf-8")
    return merged(page_accessibility(audit(parse(html))), from_axe(recorded(fixture)))


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        (
            "low-contrast",
            {
                # rendered-only rules: their own types, from axe-core alone
                T.A11Y_COLOR_CONTRAST: ["#faint"],
                T.A11Y_TARGET_SIZE: ['button[aria-label="one"]', 'button[aria-label="two"]'],
                # a static rule axe-core decided too: its verdict, one type
                T.A11Y_IMAGE_ALT: ["img"],
            },
        ),
        ("script-fixed", {T.A11Y_LINK_NAME: ["#more"]}),
        ("clean", {}),
    ],
)
def test_axe_core_s_findings_on_a_rendered_page_are_issues_marked_rendered(
    fixture: str, expected: dict[IssueType, list[str]]
) -> None:
    issues = accessibility_issues(observe(accessibility=rendered(fixture)))
    found = {i.issue_type: details(i) for i in issues}
    assert {t: [e["selector"] for e in d["elements"]] for t, d in found.items()} == expected
    assert all(e["source"] == "rendered" for d in found.values() for e in d["elements"])


def test_a_rendered_only_rule_s_issue_gives_axe_core_s_impact_and_criteria() -> None:
    issues = accessibility_issues(observe(accessibility=rendered("low-contrast")))
    contrast = next(details(i) for i in issues if i.issue_type is T.A11Y_COLOR_CONTRAST)
    assert (contrast["rule"], contrast["impact"], contrast["wcag"]) == (
        "color-contrast",
        "serious",
        ["1.4.3"],
    )
    assert contrast["elementCount"] == 1
    assert contrast["elements"][0]["snippet"].startswith('<p class="faint" id="faint">')


@pytest.mark.parametrize("rule", list(RenderedRuleId))
def test_every_rendered_only_rule_becomes_its_own_issue_type(rule: RenderedRuleId) -> None:
    finding = Finding(rule, Impact.SERIOUS, ("4.1.2",), "#x", "<div id=x>", Source.RENDERED)
    [issue] = accessibility_issues(observe(accessibility=page_accessibility([finding])))
    assert issue.issue_type.value == f"a11y-{rule.value}"
    assert issue.issue_type.category is Category.ACCESSIBILITY
