"""An audit as a JUnit XML report, written one keyset page of issues at a time.

CI systems (Jenkins, GitLab, the GitHub test-report actions) read `testsuites > testsuite >
testcase` with at most one `failure` or `error` per testcase, and show suites with their failed
cases (the Jenkins xUnit plugin's schema, tests/data/junit). The shape here:

* one suite `siteaudit` first, with the checks about the audit itself (the CLI passes whether the
  audit completed and each `--fail-on` condition), so the gate's own verdict shows in the CI view;
* then one suite per issue type, in list order (most severe first), named `<type>: <title>`, whose
  testcases are the issue's pages (`<page URL>`, `-> <target>` when one page has several), with
  classname `siteaudit.<type>` (Jenkins reads it as package `siteaudit`, class `<type>`);
* an issue whose severity is in `failing` is a `failure` (message: title, severity and page; body:
  why it matters, how to fix, the details, the catalogue link); any other issue is a passing
  testcase whose `system-out` says the same, so it is listed without failing anything.

A suite's opening tag needs its counts, which come from the audit's issue counts (one SQL walk,
`auditdb.summary`) before the rows are streamed; rows arrive grouped by (severity, type), in the
order of the list's index, so each suite is opened once and closed when its type changes.
"""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, Iterable, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from audit.catalogue import Severity, doc_url, maybe_descriptor
from auditdb.listing import IssueFilter
from auditdb.records import AuditRecord, IssueRecord
from auditdb.summary import IssueCounts
from common.bindings import Env
from service.audits import owned_audit
from service.exports import Export
from service.issue_locating import locating_detail
from service.lists import issue_counts, iter_issues

MEDIA_TYPE = "application/xml"
CHECKS_SUITE = "siteaudit"
# Characters XML 1.0 forbids (§2.2): C0 controls other than tab, LF and CR, surrogates, U+FFFE/F.
# Crawled text may hold them; they become U+FFFD so the report stays well-formed.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True, slots=True)
class Check:
    """A testcase about the audit itself; at most one of failure, error or skipped is set."""

    name: str
    failure: str | None = None
    error: str | None = None
    skipped: str | None = None


def _text(value: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", value))


def _attr(value: object) -> str:
    return quoteattr(
        _NOT_XML.sub("\ufffd", str(value)), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
    )


def _tag(name: str, attributes: Iterable[tuple[str, object]], close: bool = False) -> str:
    attrs = "".join(f" {key}={_attr(value)}" for key, value in attributes)
    return f"<{name}{attrs}{' /' if close else ''}>"


def _checks_suite(audit: AuditRecord, checks: Sequence[Check]) -> str:
    counts = _check_counts(checks)
    properties = [
        ("audit_id", audit.id),
        ("start_url", audit.start_url),
        ("status", audit.status),
        ("pages_crawled", audit.pages_crawled),
        ("health_score", "" if audit.health_score is None else f"{audit.health_score:g}"),
        *([("robots", audit.robots_note)] if audit.robots_note else []),
    ]
    lines = [
        _tag("testsuite", [("name", CHECKS_SUITE), ("tests", len(checks)), *counts, ("time", "0")]),
        "<properties>",
        *(_tag("property", [("name", k), ("value", v)], close=True) for k, v in properties),
        "</properties>",
        *(_check_case(check) for check in checks),
        "</testsuite>",
    ]
    return "\n".join(lines) + "\n"


def _check_counts(checks: Sequence[Check]) -> list[tuple[str, int]]:
    return [
        ("failures", sum(c.failure is not None for c in checks)),
        ("errors", sum(c.error is not None for c in checks)),
        ("skipped", sum(c.skipped is not None for c in checks)),
    ]


def _check_case(check: Check) -> str:
    opening = _tag("testcase", [("classname", CHECKS_SUITE), ("name", check.name), ("time", "0")])
    outcomes = [("failure", check.failure), ("error", check.error), ("skipped", check.skipped)]
    inner = "".join(_tag(kind, [("message", text)], close=True) for kind, text in outcomes if text)
    return f"{opening}{inner}</testcase>"


def _suite_head(issue_type: str, severity: str, count: int, failing: bool) -> str:
    d = maybe_descriptor(issue_type)
    name = f"{issue_type}: {d.title}" if d else issue_type
    attributes = [
        ("name", name),
        ("tests", count),
        ("failures", count if failing else 0),
        ("errors", 0),
        ("skipped", 0),
        ("time", "0"),
    ]
    properties = [("severity", severity)] + ([("help", doc_url(d.id))] if d else [])
    return "\n".join(
        [
            _tag("testsuite", attributes),
            "<properties>",
            *(_tag("property", [("name", k), ("value", v)], close=True) for k, v in properties),
            "</properties>\n",
        ]
    )


def _case(issue: IssueRecord, failing: bool) -> str:
    d = maybe_descriptor(issue.issue_type)
    title = d.title if d else issue.issue_type
    name = issue.page_url + (f" -> {issue.dedupe_key}" if issue.dedupe_key else "")
    message = f"{title} ({issue.severity}): {name}"
    body = [message]
    if d:
        body += [d.explanation, f"How to fix: {d.how_to_fix}"]
    if detail := locating_detail(issue):
        body.append(f"Details: {detail}")
    if d:
        body.append(f"More: {doc_url(d.id)}")
    text = _text("\n".join(body))
    attributes = [("classname", f"siteaudit.{issue.issue_type}"), ("name", name), ("time", "0")]
    if failing:
        outcome = (
            f"{_tag('failure', [('message', message), ('type', issue.severity)])}{text}</failure>"
        )
    else:
        outcome = f"<system-out>{text}</system-out>"
    return f"{_tag('testcase', attributes)}{outcome}</testcase>\n"


def _totals(
    counts: IssueCounts, failing: frozenset[Severity], checks: Sequence[Check]
) -> list[tuple[str, int]]:
    failed_issues = sum(row.count for row in counts.rows if row.severity in failing)
    check_counts = dict(_check_counts(checks))
    return [
        ("tests", counts.total + len(checks)),
        ("failures", failed_issues + check_counts["failures"]),
        ("errors", check_counts["errors"]),
    ]


async def junit_chunks(
    audit: AuditRecord,
    counts: IssueCounts,
    issues: AsyncGenerator[list[IssueRecord]],
    failing: frozenset[Severity],
    checks: Sequence[Check] = (),
) -> AsyncGenerator[bytes]:
    """The report as encoded chunks: the head and the checks, one chunk per page of issues."""
    per_group = {(str(row.severity), row.issue_type): row.count for row in counts.rows}
    root = [("name", f"siteaudit {audit.start_url}"), *_totals(counts, failing, checks)]
    head = '<?xml version="1.0" encoding="UTF-8"?>\n' + _tag("testsuites", root) + "\n"
    # The audit's own suite carries its properties; a report without checks still has it when
    # there is something to say of the whole audit (what became of ignore_robots).
    with_suite = bool(checks) or audit.robots_note is not None
    yield (head + (_checks_suite(audit, checks) if with_suite else "")).encode()
    group: tuple[str, str] | None = None
    async with aclosing(issues):
        async for rows in issues:
            parts: list[str] = []
            for issue in rows:
                key = (issue.severity, issue.issue_type)
                is_failing = issue.severity in failing
                if key != group:
                    parts.append("</testsuite>\n" if group else "")
                    parts.append(
                        _suite_head(
                            issue.issue_type, issue.severity, per_group.get(key, 0), is_failing
                        )
                    )
                    group = key
                parts.append(_case(issue, is_failing))
            yield "".join(parts).encode()
    yield (("</testsuite>\n" if group else "") + "</testsuites>\n").encode()


async def export_junit(
    env: Env, owner: str, audit_id: str, failing: frozenset[Severity], checks: Sequence[Check] = ()
) -> Export:
    """The audit as a JUnit report; `AuditNotFound` before any byte."""
    audit = await owned_audit(env, owner, audit_id)
    counts = await issue_counts(env, owner, audit.id)
    issues = iter_issues(env, owner, audit.id, IssueFilter())
    chunks = junit_chunks(audit, counts, issues, failing, checks)
    return Export(f"siteaudit-{audit.id}-junit.xml", MEDIA_TYPE, chunks)
