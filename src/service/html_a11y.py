"""The HTML report's accessibility section (issue 31 items 2 and 4, docs/accessibility.md "In the
product"): the category's score, which pages the rules were decided on (the markup of every page;
axe-core on the rendered pages it ran on, the only ones checked for the rules only a browser
decides), then each rule that failed, with its WCAG criteria, the pages it failed on (a rule only
a rendered page decides is marked so, its pages counted against the rendered ones) and a few of
the failing elements (CSS selector and HTML snippet) of its first page. Kept apart from
html_report so that file only places the section.

`accessibility_rules` reads what the section shows: the issue counts give each rule's pages (one
`a11y-<rule>` issue per page and rule, audit.rules_a11y), and the rule's first issue row its
example elements. Selectors and snippets are the crawled page's markup (hostile text): they go
through `escape`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from types import MappingProxyType
from typing import Final

from audit.a11y_catalogue import (
    WCAG_CRITERIA,
    rendered_only,
    rule_of_issue_type,
    rule_text,
    understanding_url,
)
from audit.catalogue import Category, IssueType, Severity, descriptor
from audit.verdict import Scores
from auditdb.listing import IssueFilter
from auditdb.summary import IssueCounts
from common.bindings import Env
from common.wire import JsonValue
from service.lists import Paging, list_issues

__all__ = [
    "EXAMPLE_ELEMENTS",
    "RuleRow",
    "accessibility_rules",
    "accessibility_score",
    "accessibility_section",
]

EXAMPLE_ELEMENTS: Final = 3  # failing elements shown per rule: enough to find the pattern
_HEADING = '<section aria-labelledby="a11y-h"><h2 id="a11y-h">Accessibility</h2>'


@dataclass(frozen=True, slots=True)
class RuleRow:
    """One failing rule: its issue type, the pages it failed on, example elements."""

    issue_type: IssueType
    pages: int
    examples: tuple[tuple[str, str], ...]  # (selector, snippet), from its first page
    example_page: str | None = None


async def accessibility_rules(
    env: Env, owner: str, audit_id: str, counts: IssueCounts
) -> list[RuleRow]:
    """The failing rules, most severe then most pages first, each with its first row's
    elements (one read per failing rule, at most one per static rule)."""
    found = [c for c in counts.rows if rule_of_issue_type(c.issue_type) is not None]
    found.sort(key=lambda c: (Severity(c.severity).order, -c.count, c.issue_type))
    rows = []
    for count in found:
        issue_type = IssueType(count.issue_type)
        first = await list_issues(
            env, owner, audit_id, IssueFilter(types=(issue_type,)), Paging(limit=1)
        )
        item = first.items[0] if first.items else None
        examples = () if item is None else _examples(item.details.get("elements"))
        page = None if item is None else item.page_url
        rows.append(RuleRow(issue_type, count.count, examples, page))
    return rows


def _examples(listed: JsonValue) -> tuple[tuple[str, str], ...]:
    if not isinstance(listed, list):
        return ()
    pairs = []
    for element in listed[:EXAMPLE_ELEMENTS]:
        if isinstance(element, dict):
            pairs.append((str(element.get("selector", "")), str(element.get("snippet", ""))))
    return tuple(pairs)


def accessibility_score(scores: Scores) -> float | None:
    """The accessibility category's score; None when the audit did not check accessibility."""
    return next((c.score for c in scores.categories if c.category is Category.ACCESSIBILITY), None)


def accessibility_section(
    audit_id: str,
    score: float | None,
    rules: Sequence[RuleRow],
    anchors: Mapping[str, str] = MappingProxyType({}),
    *,
    rendered_pages: int = 0,
) -> str:
    """The section: the score (or that the rules did not run), where the rules were decided (the
    markup of every page; axe-core on `rendered_pages` rendered pages, the only ones checked for
    the rules only a browser decides) and the failing rules' table; a rule links to its issue
    group, or to the group of the finding it is part of (`anchors`,
    html_report.finding_anchors)."""
    if score is None and not rules:
        return (
            f'{_HEADING}<p class="note">Not checked: the static accessibility rules did not run on '
            "this audit's pages, so the category is not scored.</p></section>"
        )
    headline = _headline(score, rules)
    where = f'<p class="note">{_where_decided(rendered_pages)}</p>'
    if not rules:
        return f"{_HEADING}<p>{headline}</p>{where}</section>"
    body = "".join(
        _row(rule, anchors.get(rule.issue_type, rule.issue_type), rendered_pages) for rule in rules
    )
    return (
        f"{_HEADING}<p>{headline}</p>{where}"
        '<div class="wide" tabindex="0" role="region" aria-labelledby="a11y-c">'
        '<table><caption id="a11y-c">Failing rules (axe-core rule ids)</caption><thead><tr>'
        '<th scope="col">Rule</th><th scope="col">Severity</th><th scope="col">WCAG</th>'
        '<th scope="col">Pages</th><th scope="col">Example elements</th>'
        f"</tr></thead><tbody>{body}</tbody></table></div>"
        f'<p class="note">{_filters_note(audit_id)}</p></section>'
    )


def _headline(score: float | None, rules: Sequence[RuleRow]) -> str:
    scored = "" if score is None else f"Accessibility scores {score:g} out of 100. "
    if not rules:
        return f"{scored}No page failed an accessibility rule."
    noun = "rule fails" if len(rules) == 1 else "rules fail"
    return f"{scored}{len(rules)} {noun}."


def _where_decided(rendered_pages: int) -> str:
    """Which pages each kind of rule was decided on: never implying that a page axe-core did
    not run on passed the rules only it decides."""
    if rendered_pages <= 0:
        return (
            "Every page was checked from its markup (no colours, no layout). No page was rendered "
            "with axe-core, so colour contrast, target size and the other rules only a browser "
            "decides were not checked."
        )
    pages = "page" if rendered_pages == 1 else "pages"
    return (
        f"axe-core ran on {rendered_pages:,} rendered {pages}: colour contrast, target size and "
        "the other rules only a browser decides (marked rendered page) were checked there and on "
        "no other page. Every other page was checked from its markup (no colours, no layout)."
    )


def _row(rule: RuleRow, anchor: str, rendered_pages: int) -> str:
    found = descriptor(rule.issue_type)
    name = str(rule.issue_type).removeprefix("a11y-")
    criteria = ", ".join(
        f'<a href="{understanding_url(c)}">{escape(WCAG_CRITERIA[c].label)}</a>'
        for c in _criteria(rule.issue_type)
    )
    examples = "".join(
        f"<li><code>{escape(selector)}</code> <code>{escape(snippet)}</code></li>"
        for selector, snippet in rule.examples
    )
    where = "" if rule.example_page is None else f"<p>on {escape(rule.example_page)}</p>"
    rendered = rendered_only(str(rule.issue_type))
    marker = " (rendered page)" if rendered else ""
    pages = f"{rule.pages:,}"
    if rendered and rendered_pages > 0:
        pages += f" of {rendered_pages:,} rendered"
    return (
        f'<tr><th scope="row"><a href="#type-{escape(anchor)}">{escape(found.title)}</a> '
        f"<code>{escape(name)}</code>{marker}</th><td>{found.severity}</td>"
        f"<td>{criteria or 'best practice'}</td><td>{pages}</td>"
        f"<td>{where}<ul>{examples}</ul></td></tr>"
    )


def _criteria(issue_type: IssueType) -> tuple[str, ...]:
    rule = rule_of_issue_type(str(issue_type))
    return () if rule is None else rule_text(rule).wcag


def _filters_note(audit_id: str) -> str:
    base = escape(f"/api/audits/{audit_id}")
    return (
        f"Every page a rule fails on: <code>{base}/pages?has_issue=a11y-image-alt</code>, and its "
        f"issues with their elements: <code>{base}/issues?type=a11y-image-alt</code> (the exports "
        "take the same filters)."
    )
