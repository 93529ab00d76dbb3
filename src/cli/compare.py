"""`siteaudit compare A B`: what changed from audit A to audit B, as readable text.

The text is rendered from the API's answer (`GET /api/audits/A/compare/B`), like the audit
summary in cli/report.py, so the terminal shows what an API client would get.
"""

from __future__ import annotations

from collections.abc import Mapping

from common.wire import as_float, as_int, as_list, as_object, as_str

type Obj = Mapping[str, object]  # a JSON object as `as_object` hands it over
_SEVERITIES = ("critical", "warning", "info")


def format_comparison(comparison: Obj) -> str:
    before, after = as_object(comparison["before"]), as_object(comparison["after"])
    lines = [
        f"from {as_str(before['id'])} ({_when(before)}, {as_str(before['status'])})",
        f"  to {as_str(after['id'])} ({_when(after)}, {as_str(after['status'])})",
        f"site: {as_str(after['start_url'])}",
        _score_line(as_object(comparison["health_score"])),
    ]
    if warning := comparison.get("warning"):
        lines.insert(0, f"warning: {as_str(warning)}")
    for title, name in (("new", "new_issues"), ("fixed", "fixed_issues")):
        lines.extend(_issue_section(title, as_object(comparison[name])))
    unchanged = as_object(comparison["unchanged_issues"])
    lines.append(f"unchanged issues: {as_int(unchanged['total'])}")
    for title, name in (("added", "pages_added"), ("removed", "pages_removed")):
        lines.extend(_page_section(title, as_object(comparison[name])))
    return "\n".join(lines)


def _when(audit: Obj) -> str:
    return as_str(audit["created_at"])[:16].replace("T", " ")


def _score_line(score: Obj) -> str:
    if score["delta"] is None:
        return "health score: not scored on both sides"
    before, after, delta = (as_float(score[k]) for k in ("before", "after", "delta"))
    return f"health score: {before:g} -> {after:g} ({delta:+g})"


def _issue_section(title: str, changes: Obj) -> list[str]:
    counts = {k: as_int(n) for k, n in as_object(changes["by_severity"]).items()}
    breakdown = ", ".join(f"{counts[s]} {s}" for s in _SEVERITIES if counts.get(s))
    lines = [
        f"{title} issues: {as_int(changes['total'])}" + (f" ({breakdown})" if breakdown else "")
    ]
    for issue in map(as_object, as_list(changes["issues"])):
        detail = as_str(issue["dedupe_key"])
        target = f" -> {detail}" if detail else ""
        lines.append(
            f"  {as_str(issue['severity']):8s} {as_str(issue['issue_type'])}  "
            f"{as_str(issue['page_url'])}{target}"
        )
    lines.extend(_more(changes, len(as_list(changes["issues"]))))
    return lines


def _page_section(title: str, changes: Obj) -> list[str]:
    urls = [as_str(url) for url in as_list(changes["urls"])]
    lines = [f"pages {title}: {as_int(changes['total'])}", *(f"  {url}" for url in urls)]
    lines.extend(_more(changes, len(urls)))
    return lines


def _more(changes: Obj, shown: int) -> list[str]:
    hidden = as_int(changes["total"]) - shown
    return [f"  ... and {hidden} more"] if changes["truncated"] else []
