"""Static and rendered findings of one page merged (a11y.merge): axe-core's verdict wins per rule
and element."""

from __future__ import annotations

from dataclasses import replace

import pytest

from a11y.axe import AxeResult, from_axe
from a11y.findings import Finding, Impact, Source
from a11y.merge import merged
from a11y.result import MAX_FINDINGS, PageAccessibility, page_accessibility
from a11y.rule_ids import AxeRuleId, RenderedRuleId, RuleId
from a11y.rules import audit
from tests.a11y.html_tree import parse
from tests.a11y.test_axe import DATA, recorded


def _finding(rule: AxeRuleId, selector: str, source: Source = Source.STATIC) -> Finding:
    return Finding(rule, Impact.SERIOUS, ("1.1.1",), selector, "<x>", source)


def _axe(findings: list[Finding], decided: tuple[AxeRuleId, ...]) -> AxeResult:
    return AxeResult(tuple(findings), len(findings), decided, "axe-core 4.14.1")


def _keys(findings: tuple[Finding, ...]) -> list[tuple[str, str, Source]]:
    return [(str(f.rule), f.selector, f.source) for f in findings]


def test_on_the_script_fixed_page_axe_core_s_verdicts_replace_the_static_ones() -> None:
    # The raw markup has an image without alt and an empty link; the page's script gives the
    # image its alt, so axe-core passes it and reports the link only.
    html = (DATA / "script-fixed.html").read_text(encoding="utf-8")
    static = page_accessibility(audit(parse(html)))
    assert {(f.rule, f.selector) for f in static.findings} == {
        (RuleId.IMAGE_ALT, "#photo"),
        (RuleId.LINK_NAME, "#more"),
    }
    record = merged(static, from_axe(recorded("script-fixed")))
    assert _keys(record.findings) == [("link-name", "#more", Source.RENDERED)]
    assert record.findings_seen == 1


def test_a_rendered_finding_on_the_element_of_a_static_one_replaces_it() -> None:
    static = page_accessibility([_finding(RuleId.LINK_NAME, "#more")])
    rendered = _axe([_finding(RuleId.LINK_NAME, "#more", Source.RENDERED)], decided=())
    assert _keys(merged(static, rendered).findings) == [("link-name", "#more", Source.RENDERED)]


def test_a_static_finding_of_a_rule_axe_core_did_not_decide_stands() -> None:
    static = page_accessibility(
        [_finding(RuleId.HEADING_ORDER, "h3"), _finding(RuleId.IMAGE_ALT, "#logo")]
    )
    rendered = _axe(
        [_finding(RenderedRuleId.COLOR_CONTRAST, "#faint", Source.RENDERED)],
        decided=(RenderedRuleId.COLOR_CONTRAST, RuleId.IMAGE_ALT),
    )
    record = merged(static, rendered)
    assert _keys(record.findings) == [
        ("color-contrast", "#faint", Source.RENDERED),
        ("heading-order", "h3", Source.STATIC),
    ]
    assert record.findings_seen == 2


def test_a_failed_axe_core_run_keeps_the_static_record_whole() -> None:
    static = page_accessibility([_finding(RuleId.IMAGE_ALT, "#logo")], complete=False)
    assert merged(static, AxeResult.failed("axe-core ran out of its 10000 ms")) is static
    assert merged(None, AxeResult.failed("no axe")) == page_accessibility([])


def test_without_static_rules_the_record_is_axe_core_s() -> None:
    rendered = from_axe(recorded("low-contrast"))
    record = merged(None, rendered)
    assert record.findings == rendered.findings
    assert record.findings_seen == rendered.findings_seen
    assert record.complete


def test_the_merged_record_keeps_the_bound_and_counts_what_it_cut() -> None:
    static = page_accessibility(
        [_finding(RuleId.HEADING_ORDER, f"h3:nth-child({n})") for n in range(MAX_FINDINGS + 7)]
    )
    rendered = _axe(
        [_finding(RuleId.IMAGE_ALT, f"img:nth-child({n})", Source.RENDERED) for n in range(5)],
        decided=(RuleId.IMAGE_ALT,),
    )
    record = merged(static, rendered)
    assert len(record.findings) == MAX_FINDINGS
    assert record.findings[:5] == rendered.findings
    assert record.findings_seen == 5 + MAX_FINDINGS + 7


def test_a_static_record_that_saw_part_of_the_page_stays_incomplete() -> None:
    static = replace(page_accessibility([]), complete=False)
    assert not merged(static, from_axe(recorded("clean"))).complete


@pytest.mark.parametrize(
    ("static", "run", "rendered"),
    [
        (page_accessibility([]), _axe([], ()), True),  # axe-core decided: the page was checked
        (None, _axe([], ()), True),
        (page_accessibility([]), AxeResult.failed("axe-core failed"), False),  # it decided nothing
        (None, AxeResult.failed("axe-core failed"), False),
    ],
)
def test_the_record_says_whether_axe_core_decided_the_page(
    static: PageAccessibility | None, run: AxeResult, rendered: bool
) -> None:
    assert merged(static, run).rendered is rendered
