"""What `siteaudit audit|resume|report` hands over once an audit has ended: the report in the
chosen format, the gate's verdict, and the exit status.

Formats (`--format`, default text):

    text    the terminal summary (status, pages, issues by severity and type, score)
    json    the report with every page and issue: {"audit", "summary", "links", "pages", "issues",
            "page_links", ...} (cli.report)
    csv     the issues, one row each (RFC 4180, the columns of GET /api/audits/{id}/issues.csv)
    junit   JUnit XML (service/junit.py): a `siteaudit` suite with the audit's own checks and the
            gate's conditions, then one suite per issue type
    sarif   SARIF 2.1.0 (service/sarif.py) for code-scanning views
    html    one self-contained HTML file that opens offline (service/html_report.py): the score,
            a monitor run's history, charts, the issues by severity and type with their fixes,
            and a page table

`--output FILE` writes the report there (atomically: a temporary file, then a rename) and keeps
the text summary on stdout; without it the report goes to stdout, alone. csv, junit and sarif are
written one keyset page of issues at a time (500 rows), whatever the audit's size; html holds at
most one keyset page of rows besides its capped lists (100 table rows, 20 issues per type).

Exit status (`ExitStatus`): 0 the audit completed and passed every `--fail-on` condition; 1 a
condition failed (one line on stderr names each failed condition and why); 2 a usage error or a
refusal (bad arguments, an unknown audit id, a report of a running audit); 3 the audit did not
complete (failed or cancelled): its partial report is still written. The gate is not decided on
the partial results of an audit we failed or its owner cancelled; an audit the site made fail
(its start URL got no answer, an HTTP error or no HTML page) fails the gate, with its sentence.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncGenerator, Sequence
from contextlib import aclosing
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from auditdb.records import AuditRecord, AuditStatus
from cli.delivery import Delivery, ExitStatus, OutputFormat, Refused
from cli.gate import Condition, GateFacts, NewIssuesSince, Verdict, decide, failing_severities
from cli.gate import summary_line as gate_line
from cli.report import format_summary, json_report_chunks
from common.wire import JsonObject, as_int, as_object

if TYPE_CHECKING:
    from common.bindings import Env
    from local_platform.runtime import LocalPlatform
    from service.junit import Check

__all__ = ["Delivery", "ExitStatus", "OutputFormat", "Refused", "check_baselines", "deliver"]


async def deliver(platform: LocalPlatform, audit_id: str, delivery: Delivery) -> int:
    """Write the report of an audit that has ended, decide the gate, return the exit status."""
    _, report = await platform.request("GET", f"/api/audits/{audit_id}/report")
    audit = AuditRecord.from_dict(as_object(report["audit"]))
    completed = audit.status is AuditStatus.COMPLETED
    verdicts = await _verdicts(platform, audit, report, delivery.conditions)
    await _write(platform, audit, report, delivery, verdicts)
    if delivery.output is not None:
        print(f"siteaudit: {delivery.format} report written to {delivery.output}", file=sys.stderr)
    if audit.scheme_note and delivery.report_on_stdout:
        print(f"siteaudit: {audit.scheme_note}", file=sys.stderr)  # the text summary has it
    if audit.robots_note and delivery.report_on_stdout:
        print(f"siteaudit: {audit.robots_note}", file=sys.stderr)  # the text summary has it
    if not completed:
        print(f"siteaudit: {_incomplete(audit)}", file=sys.stderr)
    if verdicts:
        print(f"siteaudit: {gate_line(verdicts)}", file=sys.stderr)
    if not completed:
        return ExitStatus.INCOMPLETE
    return ExitStatus.GATE_FAILED if any(v.failed for v in verdicts) else ExitStatus.OK


def _incomplete(audit: AuditRecord) -> str:
    if audit.site_failure_line is not None:
        return f"audit {audit.id} failed: {audit.site_failure_line}"
    if audit.status is AuditStatus.FAILED:
        why = f"failed ({audit.error_code} in {audit.failed_phase or 'unknown phase'})"
    else:
        why = str(audit.status)
    return f"audit {audit.id} {why}: partial results after {audit.pages_crawled} pages; gate not decided"


async def check_baselines(platform: LocalPlatform, conditions: Sequence[Condition]) -> None:
    """Refuse at once an unknown `new-issues-since` audit, before a crawl is started for nothing."""
    for condition in conditions:
        if isinstance(condition, NewIssuesSince):
            status, body = await platform.request("GET", f"/api/audits/{condition.audit_id}")
            if status != 200:
                raise Refused(_message(body))


def _message(body: object) -> str:
    return str(as_object(as_object(body)["error"])["message"])


async def _verdicts(
    platform: LocalPlatform, audit: AuditRecord, report: JsonObject, conditions: Sequence[Condition]
) -> list[Verdict]:
    """The gate's verdicts: on a completed audit, or on one the site made fail (every condition
    fails); none on an audit we failed or its owner cancelled (not decided)."""
    if not conditions:
        return []
    if audit.site_failure is not None:
        return decide(conditions, GateFacts.of_failed_audit(audit.site_failure))
    if audit.status is not AuditStatus.COMPLETED:
        return []
    counts = as_object(as_object(report["summary"])["issues_by_severity"])
    new_since: dict[str, dict[str, int]] = {}
    for condition in conditions:
        if isinstance(condition, NewIssuesSince):
            path = f"/api/audits/{condition.audit_id}/compare/{audit.id}?limit=1"
            status, body = await platform.request("GET", path)
            if status != 200:
                raise Refused(_message(body))
            new = as_object(as_object(as_object(body)["comparison"])["new_issues"])
            by_severity = as_object(new["by_severity"])
            new_since[condition.audit_id] = {k: as_int(v) for k, v in by_severity.items()}
    counted = {k: as_int(v) for k, v in counts.items()}
    facts = GateFacts(counted, audit.health_score, new_since, audit.security_grade)
    return decide(conditions, facts)


def _checks(
    audit: AuditRecord, conditions: Sequence[Condition], verdicts: Sequence[Verdict]
) -> list[Check]:
    """The JUnit report's own testcases: the audit's completion and each gate condition."""
    from service.junit import Check

    if audit.site_failure is not None:  # the site's failure: a failed check, not our error
        return [
            Check("audit completed", failure=audit.site_failure_line),
            *(Check(f"fail-on {v.condition}", failure=v.reason) for v in verdicts),
        ]
    if audit.status is not AuditStatus.COMPLETED:
        undecided = "not decided: the audit did not complete"
        return [
            Check("audit completed", error=_incomplete(audit)),
            *(Check(f"fail-on {c}", skipped=undecided) for c in conditions),
        ]
    return [
        Check("audit completed"),
        *(Check(f"fail-on {v.condition}", failure=v.reason) for v in verdicts),
    ]


async def _write(
    platform: LocalPlatform,
    audit: AuditRecord,
    report: JsonObject,
    delivery: Delivery,
    verdicts: Sequence[Verdict],
) -> None:
    if delivery.format is OutputFormat.TEXT:
        _write_text(delivery.output, format_summary(report) + "\n")
        return
    chunks = await _report_chunks(platform, audit, delivery, verdicts)
    await _write_chunks(delivery.output, chunks)
    if delivery.output is not None:
        print(format_summary(report))


async def _report_chunks(
    platform: LocalPlatform, audit: AuditRecord, delivery: Delivery, verdicts: Sequence[Verdict]
) -> AsyncGenerator[bytes]:
    """The chosen format's chunks. Each format's module is imported here, by the run that writes
    it: the others (HTML and its charts, SARIF, JUnit, the CSV export) stay unloaded."""
    env, owner = platform.core_env, audit.owner
    match delivery.format:
        case OutputFormat.JSON:
            return json_report_chunks(platform, audit.id)
        case OutputFormat.CSV:
            return await _csv_chunks(env, owner, audit.id)
        case OutputFormat.SARIF:
            from service.sarif import export_sarif

            return (await export_sarif(env, owner, audit.id, _version())).chunks
        case OutputFormat.JUNIT:
            from service.junit import export_junit

            failing = failing_severities(delivery.conditions)
            checks = _checks(audit, delivery.conditions, verdicts)
            return (await export_junit(env, owner, audit.id, failing, checks)).chunks
        case OutputFormat.HTML:
            from service.html_report import export_html

            return (await export_html(env, owner, audit.id)).chunks
    raise AssertionError(f"no writer for {delivery.format}")  # TEXT is written by _write


async def _csv_chunks(env: Env, owner: str, audit_id: str) -> AsyncGenerator[bytes]:
    from auditdb.listing import IssueFilter
    from service.exports import ExportFormat, export_issues

    export = await export_issues(env, owner, audit_id, IssueFilter(), ExportFormat.CSV)
    return export.chunks


def _write_text(output: Path | None, text: str) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    tmp = _temporary(output)
    tmp.write_text(text)
    tmp.replace(output)


async def _write_chunks(output: Path | None, chunks: AsyncGenerator[bytes]) -> None:
    """Each chunk as it comes: to stdout, or to a temporary file renamed over `output` at the end."""
    async with aclosing(chunks):
        if output is None:
            sys.stdout.flush()
            async for chunk in chunks:
                sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
            return
        tmp = _temporary(output)
        with tmp.open("wb") as file:
            async for chunk in chunks:
                file.write(chunk)
        tmp.replace(output)


def _temporary(output: Path) -> Path:
    output.parent.mkdir(parents=True, exist_ok=True)
    return output.with_suffix(output.suffix + ".tmp")


def _version() -> str | None:
    try:
        return metadata.version("siteaudit")
    except metadata.PackageNotFoundError:
        return None
