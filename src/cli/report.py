"""The CLI's report: a terminal summary and the --json file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from auditdb.records import AuditRecord, AuditStatus, IssueRecord
from common.wire import JsonObject, as_list, as_object


def format_summary(report: JsonObject) -> str:
    """The terminal summary of a report as the API renders it (`{"audit", "issues", ...}`)."""
    audit = AuditRecord.from_dict(as_object(report["audit"]))
    issues = [IssueRecord.from_dict(as_object(item)) for item in as_list(report["issues"])]
    severities = Counter(issue.severity for issue in issues)
    lines = [
        f"status: {audit.status}",
        f"start url: {audit.start_url}",
        f"pages crawled: {audit.pages_crawled}",
        f"issues: {len(issues)} ({severities['critical']} critical, "
        f"{severities['warning']} warning, {severities['info']} info)",
    ]
    if audit.health_score is not None:
        lines.append(f"health score: {audit.health_score:g}")
    if audit.status is AuditStatus.FAILED:
        lines.append(f"error: {audit.error_code} in {audit.failed_phase or 'unknown phase'}")
        if audit.pages_crawled > 0:
            lines.append(f"stopped early after {audit.pages_crawled} pages; partial results kept")
    by_type = Counter(issue.issue_type for issue in issues)
    lines.extend(f"  {count:5d}  {issue_type}" for issue_type, count in by_type.most_common())
    return "\n".join(lines)


def write_report(path: Path, report: JsonObject) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    tmp.replace(path)
