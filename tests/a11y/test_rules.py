"""Each static rule on its documents (tests/a11y/cases.py): every element marked
`data-expect` gets that verdict, and no unmarked element fails."""

from __future__ import annotations

import pytest

from a11y.page import Page
from a11y.rule_ids import RuleId
from a11y.rules import RULES, audit
from tests.a11y.cases import CASES, UNDECIDED, Case
from tests.a11y.html_tree import parse


def test_every_rule_has_cases_with_a_failure_or_a_pass() -> None:
    assert {case.rule for case in CASES} == set(RuleId)
    assert set(RULES) == set(RuleId)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_rule_decides_as_marked(case: Case) -> None:
    page = Page(parse(case.html))
    decided = {id(o.element): o.passed for o in RULES[case.rule](page)}
    marked = [e for e in page.document.order if e.has("data-expect")]
    if not marked:  # a case of elements the rule does not judge
        assert decided == {}
    for element in marked:
        expected = element.get("data-expect") == "pass"
        assert decided.get(id(element)) is expected, (element.tag, dict(element.attributes))
    unmarked = [e for e in page.document.order if not e.has("data-expect")]
    assert [e.tag for e in unmarked if decided.get(id(e)) is False] == []


@pytest.mark.parametrize("case", UNDECIDED, ids=[case.id for case in UNDECIDED])
def test_rule_leaves_undecided_what_the_markup_cannot_tell(case: Case) -> None:
    assert list(RULES[case.rule](Page(parse(case.html)))) == []


def test_audit_reports_failures_with_rule_criteria_selector_and_snippet() -> None:
    html = (
        '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><main><h1>x</h1>'
        '<img src="a.png" id="hero"><div><img src="b.png"></div></main></body></html>'
    )
    found = [f for f in audit(parse(html)) if f.rule is RuleId.IMAGE_ALT]
    assert [(f.selector, f.snippet) for f in found] == [
        ("#hero", '<img src="a.png" id="hero">'),
        ("html > body > main > div > img", '<img src="b.png">'),
    ]
    assert found[0].impact == "critical" and found[0].wcag == ("1.1.1",)
    assert type(found[0]).from_dict(found[0].to_dict()) == found[0]
