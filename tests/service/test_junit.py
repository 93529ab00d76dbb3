"""The JUnit report: valid against the Jenkins JUnit XSD, one suite per issue type with the checks
first, failures exactly for the gate's severities, well-formed whatever a crawled page holds."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema
from hypothesis import given
from hypothesis import strategies as st

from audit.catalogue import Severity
from service.junit import Check, junit_chunks
from tests.service.report_records import ISSUES, audit, counts_of, issue, joined, pages_of
from tests.support.elements import attr, find
from tests.support.elements import text as text_of

XSD = xmlschema.XMLSchema(Path(__file__).parents[1] / "data" / "junit" / "junit-10.xsd")
CRIT, WARN = Severity.CRITICAL, Severity.WARNING
CHECKS = [
    Check("audit completed"),
    Check("fail-on critical", failure="3 issues (3 critical)"),
    Check("fail-on score<90", skipped="not decided"),
    Check("fail-on new-issues-since=a0", error="no such audit"),
]


async def report_of(
    issues=ISSUES, failing=frozenset({CRIT, WARN}), checks=CHECKS, page_size=2
) -> bytes:
    chunks = junit_chunks(audit(), counts_of(issues), pages_of(issues, page_size), failing, checks)
    return await joined(chunks)


@pytest.mark.parametrize("page_size", [1, 2, 3, 500])
async def test_the_report_is_valid_junit_whatever_the_paging(page_size):
    text = await report_of(page_size=page_size)

    XSD.validate(text.decode())
    suites = ET.fromstring(text).findall("testsuite")
    assert [s.get("name") for s in suites] == [
        "siteaudit",
        "broken-internal-link: Broken internal link",
        "missing-title: Missing title",
        "duplicate-title: Duplicate title",
        "thin-content: Thin content",
        "title-too-long: Title too long",
        "a-type-from-a-newer-catalogue",
    ]


async def test_the_schema_check_is_live_it_refuses_a_broken_report():
    text = (
        (await report_of())
        .decode()
        .replace('<testsuite name="siteaudit" tests="4"', '<testsuite name="siteaudit"')
    )

    assert not XSD.is_valid(text)


@pytest.mark.parametrize(
    ("failing", "failed_types"),
    [
        (frozenset({CRIT}), {"broken-internal-link", "missing-title"}),
        (
            frozenset({CRIT, WARN}),
            {"broken-internal-link", "missing-title", "duplicate-title", "thin-content"},
        ),
    ],
)
async def test_issues_fail_exactly_at_the_failing_severities(failing, failed_types):
    root = ET.fromstring(await report_of(failing=failing))
    issue_suites = root.findall("testsuite")[1:]

    failed = {attr(s, "name").split(":")[0] for s in issue_suites if s.get("failures") != "0"}
    assert failed == failed_types
    for suite in issue_suites:
        cases = suite.findall("testcase")
        assert int(attr(suite, "tests")) == len(cases)
        assert int(attr(suite, "failures")) == sum(c.find("failure") is not None for c in cases)
        passing = [c for c in cases if c.find("failure") is None]
        assert all(c.findtext("system-out") for c in passing)  # listed, with what was found
    expected_failures = sum(1 for i in ISSUES if i.severity in failing) + 1  # + the failed check
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == (
        str(len(ISSUES) + len(CHECKS)),
        str(expected_failures),
        "1",
    )


async def test_a_failure_names_the_page_and_says_why_and_how_to_fix():
    root = ET.fromstring(await report_of())
    case = root.findall("testsuite")[1].findall("testcase")[0]
    failure = find(case, "failure")

    assert case.get("classname") == "siteaudit.broken-internal-link"
    assert case.get("name") == "https://www.shop.test/ -> https://www.shop.test/gone"
    assert failure.get("message") == (
        "Broken internal link (critical): https://www.shop.test/ -> https://www.shop.test/gone"
    )
    assert failure.get("type") == "critical"
    assert "How to fix: " in text_of(failure)
    assert "Details: Links to https://www.shop.test/gone; answers 404." in text_of(failure)
    assert "docs/issues.md#broken-internal-link" in text_of(failure)


async def test_the_checks_suite_carries_the_audit_and_each_checks_outcome():
    checks = ET.fromstring(await report_of()).findall("testsuite")[0]
    properties = {p.get("name"): p.get("value") for p in checks.iter("property")}
    outcomes = {
        c.get("name"): [(child.tag, child.get("message")) for child in c]
        for c in checks.findall("testcase")
    }

    assert properties == {
        "audit_id": "a1",
        "start_url": "https://shop.test/",
        "status": "completed",
        "pages_crawled": "12",
        "health_score": "75",
    }
    assert outcomes == {
        "audit completed": [],
        "fail-on critical": [("failure", "3 issues (3 critical)")],
        "fail-on score<90": [("skipped", "not decided")],
        "fail-on new-issues-since=a0": [("error", "no such audit")],
    }
    assert (checks.get("failures"), checks.get("errors"), checks.get("skipped")) == ("1", "1", "1")


async def test_an_audit_without_issues_or_checks_is_an_empty_valid_report():
    text = await report_of(issues=[], checks=[])

    XSD.validate(text.decode())
    assert ET.fromstring(text).get("tests") == "0"


def xml_safe(text: str) -> str:
    """XML 1.0 §2.2: C0 controls other than tab, LF and CR, and U+FFFE/U+FFFF cannot appear."""
    bad = {chr(c) for c in range(32)} - set("\t\n\r") | {"\ufffe", "\uffff"}
    return "".join("\ufffd" if ch in bad else ch for ch in text)


@given(st.text(max_size=40))
async def test_any_crawled_text_keeps_the_report_well_formed_and_readable(text):
    found = issue("title-too-long", "info", f"https://www.shop.test/{text}", text, title=text)
    checks = [Check(text or "x", failure=text or "x")]
    report = await report_of(issues=[found], failing=frozenset({Severity.INFO}), checks=checks)

    XSD.validate(report.decode())
    root = ET.fromstring(report)
    case = find(root.findall("testsuite")[1], "testcase")
    target = f" -> {xml_safe(text)}" if text else ""
    assert case.get("name") == f"https://www.shop.test/{xml_safe(text)}{target}"
    assert find(root, "testsuite/testcase/failure").get("message") == xml_safe(text or "x")
