"""The page's accessibility, as issues: one per failing rule (issue 31 items 2 and 4).

The crawl ran the static rules (a11y.rules) where it observed the page and kept their failures on
the observation (a11y.result.PageAccessibility); on a page a browser rendered, axe-core's own
findings are merged in (a11y.merge), those of the rules only a rendered page decides
(a11y.rule_ids.RenderedRuleId: color-contrast, target-size...) among them, each element marked
with its source. Here each rule maps to its catalogue type
`a11y-<axe rule id>` (audit.a11y_catalogue), and the page gets one issue per rule that failed on
it, its details listing the failing elements (CSS selector and HTML snippet), at most
`A11Y_ELEMENTS_LISTED` of them, with their count. One issue per rule and page, as for structured
data (audit.rules_structured): a page's forty unnamed icons are one thing to fix, and a template's
fault on every page is one site-wide finding for the verdict.

A page whose record was cut (`findings_seen` above the findings kept, a11y.result.MAX_FINDINGS)
counts only the elements it kept per rule; `elementsSeenOnPage` says how many failures the page
had in all, so the detail never claims a count it did not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from a11y.findings import Finding
from a11y.rule_ids import AxeRuleId, RenderedRuleId, RuleId
from audit.a11y_catalogue import issue_type_value
from audit.catalogue import A11Y_ELEMENTS_LISTED, IssueType
from audit.issues import DetectedIssue
from audit.page import PageObservation
from common.wire import JsonObject

__all__ = ["ISSUE_OF_RULE", "accessibility_issues"]

ISSUE_OF_RULE: Mapping[AxeRuleId, IssueType] = MappingProxyType(
    {rule: IssueType(issue_type_value(rule)) for rule in (*RuleId, *RenderedRuleId)}
)


def accessibility_issues(obs: PageObservation) -> list[DetectedIssue]:
    """One issue per rule that failed on the page, in the order of each rule's first failure."""
    checked = obs.accessibility
    if checked is None:
        return []
    grouped: dict[AxeRuleId, list[Finding]] = {}
    for finding in checked.findings:
        grouped.setdefault(finding.rule, []).append(finding)
    cut = checked.findings_seen > len(checked.findings)
    return [
        DetectedIssue(ISSUE_OF_RULE[rule], obs.url, _details(found, checked.findings_seen, cut))
        for rule, found in grouped.items()
    ]


def _details(found: list[Finding], seen: int, cut: bool) -> JsonObject:
    details: JsonObject = {
        "rule": found[0].rule.value,
        "impact": found[0].impact.value,
        "wcag": list(found[0].wcag),
        "elementCount": len(found),
        "elements": [_listed(f) for f in found[:A11Y_ELEMENTS_LISTED]],
    }
    if cut:
        details["elementsSeenOnPage"] = seen
    return details


def _listed(finding: Finding) -> JsonObject:
    return {
        "selector": finding.selector,
        "snippet": finding.snippet,
        "source": finding.source.value,
    }
