"""The CLI's report: a terminal summary and the --json file.

The API's report holds counts, never rows; the --json file still holds the audit with every page
and issue, which `full_report` assembles by following the lists' cursors one page at a time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from auditdb.exposure_issues import AuditExposure, ExposureStatus
from auditdb.records import AuditRecord, AuditStatus
from auditdb.security_grades import AuditSecurity, SecurityStatus
from common.wire import JsonObject, JsonValue, as_int, as_object
from lighthouse.records import LighthouseStatus

if TYPE_CHECKING:
    from local_platform.runtime import LocalPlatform

LIST_PAGE_SIZE = 1000  # the API's largest page


async def full_report(platform: LocalPlatform, audit_id: str) -> JsonObject:
    """`{"audit", "summary", "security", "links", "pages", "issues", "lighthouse"}`: the report
    plus every listed row."""
    base = f"/api/audits/{quote(audit_id, safe='')}"
    _, report = await platform.request("GET", f"{base}/report")
    report["pages"] = await read_list(platform, f"{base}/pages", "pages")
    report["issues"] = await read_list(platform, f"{base}/issues", "issues")
    audit = as_object(report["audit"])
    # The same section as the stored R2 report (service.reports): the phase and every row.
    report["lighthouse"] = {
        "status": audit.get("lighthouse_status"),
        "total": audit.get("lighthouse_total", 0),
        "completed": audit.get("lighthouse_completed", 0),
        "failed": audit.get("lighthouse_failed", 0),
        "results": await read_list(platform, f"{base}/lighthouse", "lighthouse"),
    }
    return dict(report)


async def read_list(platform: LocalPlatform, path: str, key: str) -> list[JsonValue]:
    """Every item of a paginated list, following `next_cursor`."""
    items: list[JsonValue] = []
    cursor: str | None = None
    while True:
        query = f"?limit={LIST_PAGE_SIZE}" + ("" if cursor is None else f"&cursor={cursor}")
        status, body = await platform.request("GET", path + query)
        if status != 200:
            raise RuntimeError(f"GET {path} answered {status}: {body}")
        items.extend(body[key])
        cursor = body["next_cursor"]
        if cursor is None:
            return items


def format_summary(report: JsonObject) -> str:
    """The terminal summary of a report as the API renders it (`{"audit", "summary", ...}`)."""
    audit = AuditRecord.from_dict(as_object(report["audit"]))
    summary = as_object(report["summary"])
    severities = {k: as_int(v) for k, v in as_object(summary["issues_by_severity"]).items()}
    by_type = {k: as_int(v) for k, v in as_object(summary["issues_by_type"]).items()}
    lines = [
        f"status: {audit.status}",
        f"start url: {audit.start_url}",
        f"pages crawled: {audit.pages_crawled}",
        f"issues: {sum(severities.values())} ({severities.get('critical', 0)} critical, "
        f"{severities.get('warning', 0)} warning, {severities.get('info', 0)} info)",
    ]
    if audit.health_score is not None:
        lines.append(f"health score: {audit.health_score:g}")
    lines.extend(_security_line(report))
    lines.extend(_exposure_line(report))
    lines.extend(_lighthouse_line(audit))
    if audit.status is AuditStatus.FAILED:
        lines.append(f"error: {audit.error_code} in {audit.failed_phase or 'unknown phase'}")
    if audit.status is AuditStatus.CANCELLED:
        lines.append(f"cancelled; `siteaudit resume {audit.id}` finishes it")
    if audit.status in (AuditStatus.FAILED, AuditStatus.CANCELLED) and audit.pages_crawled > 0:
        lines.append(f"stopped early after {audit.pages_crawled} pages; partial results kept")
    lines.extend(f"  {count:5d}  {issue_type}" for issue_type, count in by_type.items())
    return "\n".join(lines)


def _security_line(report: JsonObject) -> list[str]:
    """`security grade: B (75/100)`, or why the site has none (nothing while it is pending)."""
    if "security" not in report:
        return []
    security = AuditSecurity.from_dict(as_object(report["security"]))
    if security.status is SecurityStatus.GRADED:
        return [f"security grade: {security.grade} ({security.score}/100)"]
    if security.status is SecurityStatus.NOT_GRADED:
        return [f"security grade: not graded ({security.reason})"]
    return []


def _exposure_line(report: JsonObject) -> list[str]:
    """`exposure checks: 3 issues, 12 scripts (2 read); DNS skipped: …`, or why there are none."""
    if "exposure" not in report:
        return []
    exposure = AuditExposure.from_dict(as_object(report["exposure"]))
    summary = exposure.summary
    if summary is None:
        return [] if exposure.status is ExposureStatus.PENDING else ["exposure checks: not run"]
    if summary.error:
        return [f"exposure checks: stopped ({summary.error})"]
    dns = "DNS checked" if summary.dns_checked else f"DNS skipped: {summary.dns_skipped}"
    scripts = f"{summary.scripts} scripts ({summary.scripts_read} read by content)"
    return [f"exposure checks: {summary.issues} issues, {scripts}; {dns}"]


_LIGHTHOUSE_SKIPPED = {
    LighthouseStatus.DISABLED: "lighthouse: not run (option none)",
    LighthouseStatus.SKIPPED_NO_KEY: "lighthouse: skipped (no PSI_API_KEY configured)",
}


def _lighthouse_line(audit: AuditRecord) -> list[str]:
    """`lighthouse: 14/16 runs stored, 2 failed`, or why it did not run (nothing before)."""
    status = audit.lighthouse_status
    if status is None:
        return []
    if status in _LIGHTHOUSE_SKIPPED:
        return [_LIGHTHOUSE_SKIPPED[status]]
    done = audit.lighthouse_completed + audit.lighthouse_failed
    return [
        f"lighthouse: {done}/{audit.lighthouse_total} runs, {audit.lighthouse_failed} failed"
        + ("" if status is LighthouseStatus.COMPLETED else " (running)")
    ]


def write_report(path: Path, report: JsonObject) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    tmp.replace(path)
