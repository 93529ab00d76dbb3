"""The CLI's report: a terminal summary and the --json file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any


def format_summary(report: dict[str, Any]) -> str:
    audit = report["audit"]
    severities = Counter(issue["severity"] for issue in report["issues"])
    lines = [
        f"status: {audit['status']}",
        f"start url: {audit['start_url']}",
        f"pages crawled: {audit['pages_crawled']}",
        f"issues: {len(report['issues'])} ({severities['critical']} critical, "
        f"{severities['warning']} warning, {severities['info']} info)",
    ]
    if audit.get("health_score") is not None:
        lines.append(f"health score: {audit['health_score']:g}")
    if audit["status"] == "failed":
        lines.append(
            f"error: {audit.get('error_code')} in {audit.get('failed_phase') or 'unknown phase'}"
        )
        if audit.get("stopped_early"):
            lines.append(
                f"stopped early after {audit['pages_crawled']} pages; partial results kept"
            )
    by_type = Counter(issue["issue_type"] for issue in report["issues"])
    lines.extend(f"  {count:5d}  {issue_type}" for issue_type, count in by_type.most_common())
    return "\n".join(lines)


def write_report(path: Path, report: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n")
    tmp.replace(path)
