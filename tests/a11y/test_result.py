"""The page's accessibility record: bounded, and lossless across the wire."""

from __future__ import annotations

from a11y.findings import Finding, Impact
from a11y.result import MAX_FINDINGS, PageAccessibility, page_accessibility
from a11y.rule_ids import RuleId
from a11y.rules import audit, first_failures
from tests.a11y.html_tree import parse


def _finding(n: int) -> Finding:
    return Finding(RuleId.IMAGE_ALT, Impact.CRITICAL, ("1.1.1",), f"img:nth-child({n})", "<img>")


def test_the_record_keeps_the_first_findings_and_counts_them_all() -> None:
    record = page_accessibility([_finding(n) for n in range(MAX_FINDINGS + 5)])
    assert len(record.findings) == MAX_FINDINGS
    assert record.findings_seen == MAX_FINDINGS + 5
    assert record.findings[0].selector == "img:nth-child(0)"
    assert record.complete


def test_a_page_s_record_crosses_the_wire_unchanged() -> None:
    root = parse('<html><body><img src="a.png"><a href="/x"></a></body></html>')
    record = page_accessibility(audit(root), complete=False)
    assert record.findings_seen >= 2
    assert PageAccessibility.from_dict(record.to_dict()) == record
    assert PageAccessibility.from_json_text(record.to_json_text()) == record


def test_findings_made_only_for_the_kept_failures_are_the_record_of_all_of_them() -> None:
    images = "".join(f'<img src="{n}.png">' for n in range(MAX_FINDINGS + 20))
    root = parse(f'<html lang="en"><body><a href="/x"></a>{images}</body></html>')
    every = audit(root)
    kept, seen = first_failures(root, MAX_FINDINGS)
    assert seen == len(every) > MAX_FINDINGS
    assert kept == every[:MAX_FINDINGS]
    assert page_accessibility(kept, seen=seen) == page_accessibility(every)
    assert first_failures(root, None) == (every, len(every))
