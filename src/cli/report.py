"""The CLI's report: a terminal summary and the --json file.

The API's report holds counts, never rows; the --json file still holds the audit with every page
and issue. `json_report_chunks` writes it while following the lists' cursors, one list page at a
time, so a 100,000-page audit's file never sits in memory; `full_report` is the same document as
one object (what the chunks spell, for tests and small audits).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from typing import TYPE_CHECKING
from urllib.parse import quote

from audit.a11y_catalogue import A11Y_ISSUE_PREFIX
from audit.catalogue import Category
from audit.link_graph import PageLinkLists
from audit.verdict import PENALTY, Action, FindingScope, Scores
from auditdb import repository
from auditdb.exposure_issues import AuditExposure, ExposureStatus
from auditdb.records import AuditRecord, AuditStatus
from auditdb.rendering import RenderSummary
from auditdb.security_grades import AuditSecurity, SecurityStatus
from auditdb.structured_data import StructuredSummary
from auditdb.timing import TimingSummary
from common.wire import JsonObject, JsonValue, as_int, as_list, as_object
from lighthouse.records import LighthouseStatus
from service.scope_report import scope_summary

if TYPE_CHECKING:
    from local_platform.runtime import LocalPlatform

LIST_PAGE_SIZE = 1000  # the API's largest page


LISTS = ("pages", "issues")  # the report's keys that hold every row of a list route
# The per-URL link lists of the HTML report's view, as the stored report's "links" section holds
# them (service.reports): {"kept", "listed", "pages": [...]}. ("links" is taken: the API's routes.)
PAGE_LINKS = "page_links"


def _base(audit_id: str) -> str:
    return f"/api/audits/{quote(audit_id, safe='')}"


async def full_report(platform: LocalPlatform, audit_id: str) -> JsonObject:
    """`{"audit", "summary", "security", "exposure", "links", "pages", "issues", "lighthouse",
    "page_links"}`: the report plus every listed row and the per-URL link lists."""
    report = await _report_with_lighthouse(platform, audit_id)
    for key in LISTS:
        report[key] = [item async for page in list_pages(platform, audit_id, key) for item in page]
    kept, listed, batches = await _page_links(platform, audit_id)
    pages: list[JsonValue] = [lists.to_dict() async for batch in batches for lists in batch]
    report[PAGE_LINKS] = {"kept": kept, "listed": listed, "pages": pages}
    return dict(report)


async def _page_links(
    platform: LocalPlatform, audit_id: str
) -> tuple[bool, int, AsyncIterator[list[PageLinkLists]]]:
    from service.reports import link_lists_in_view, links_in_view  # only a JSON report needs it

    env = platform.core_env
    audit = await repository.get_audit(env.DB, audit_id)
    if audit is None:
        raise RuntimeError(f"no audit with id {audit_id}")
    kept, listed = await links_in_view(env, audit)
    return kept, listed, link_lists_in_view(env, audit, listed)


async def _page_link_chunks(platform: LocalPlatform, audit_id: str) -> AsyncGenerator[bytes]:
    """The `page_links` object as `json.dumps` indents it at the first level, its pages list a
    batch per chunk."""
    kept, listed, batches = await _page_links(platform, audit_id)
    yield f'{{\n    "kept": {json.dumps(kept)},\n    "listed": {listed},\n    "pages": '.encode()
    opened = False
    async for batch in batches:
        text = ",".join("\n      " + _indented(lists.to_dict(), 3) for lists in batch)
        yield (("," if opened else "[") + text).encode()
        opened = True
    yield b"\n    ]\n  }" if opened else b"[]\n  }"


async def _report_with_lighthouse(platform: LocalPlatform, audit_id: str) -> JsonObject:
    """The API's report plus the same Lighthouse section as the stored R2 report
    (service.reports): the phase and every row (at most two per sampled page, so whole)."""
    _, report = await platform.request("GET", f"{_base(audit_id)}/report")
    audit = as_object(report["audit"])
    rows = [row async for page in list_pages(platform, audit_id, "lighthouse") for row in page]
    report["lighthouse"] = {
        "status": audit.get("lighthouse_status"),
        "total": audit.get("lighthouse_total", 0),
        "completed": audit.get("lighthouse_completed", 0),
        "failed": audit.get("lighthouse_failed", 0),
        "results": rows,
    }
    return dict(report)


async def json_report_chunks(platform: LocalPlatform, audit_id: str) -> AsyncGenerator[bytes]:
    """`json.dumps(full_report(...), indent=2, sort_keys=True) + "\n"`, byte for byte, written
    as it is read: the report's own keys whole, the lists one item at a time."""
    report = await _report_with_lighthouse(platform, audit_id)
    yield b"{"
    for n, key in enumerate(sorted({*report, *LISTS, PAGE_LINKS})):
        yield f"{',' if n else ''}\n  {json.dumps(key)}: ".encode()
        if key == PAGE_LINKS:
            async for chunk in _page_link_chunks(platform, audit_id):
                yield chunk
        elif key in LISTS:
            async for chunk in _list_chunks(platform, audit_id, key):
                yield chunk
        else:
            yield _indented(report[key], 1).encode()
    yield b"\n}\n"


async def _list_chunks(platform: LocalPlatform, audit_id: str, key: str) -> AsyncGenerator[bytes]:
    """One list as `json.dumps` indents it at the second level, a list page per chunk."""
    opened = False
    async for page in list_pages(platform, audit_id, key):
        if page:
            text = ",".join("\n    " + _indented(item, 2) for item in page)
            yield (("," if opened else "[") + text).encode()
            opened = True
    yield b"\n  ]" if opened else b"[]"


def _indented(value: JsonValue, level: int) -> str:
    """`value` as `json.dumps(indent=2, sort_keys=True)` writes it `level` levels deep (JSON
    strings hold no raw newline, so every newline is the encoder's)."""
    return json.dumps(value, indent=2, sort_keys=True).replace("\n", "\n" + "  " * level)


async def list_pages(
    platform: LocalPlatform, audit_id: str, key: str
) -> AsyncGenerator[list[JsonValue]]:
    """The items of a paginated list (`/pages` or `/issues`), a page at a time, following
    `next_cursor`."""
    path = f"{_base(audit_id)}/{key}"
    cursor: str | None = None
    while True:
        query = f"?limit={LIST_PAGE_SIZE}" + ("" if cursor is None else f"&cursor={cursor}")
        status, body = await platform.request("GET", path + query)
        if status != 200:
            raise RuntimeError(f"GET {path} answered {status}: {body}")
        yield body[key]
        cursor = body["next_cursor"]
        if cursor is None:
            return


ACTIONS_SHOWN = 10  # the text summary's ranked list; the JSON report and the API have them all


def format_summary(report: JsonObject) -> str:
    """The terminal summary of a report as the API renders it (`{"audit", "summary", ...}`):
    the audit's facts and scores, what to fix first, then the other phases and the findings."""
    audit = AuditRecord.from_dict(as_object(report["audit"]))
    lines = [
        f"status: {audit.status}",
        f"start url: {audit.start_url}",
        *([audit.scheme_note] if audit.scheme_note else []),
        *([audit.robots_note] if audit.robots_note else []),
        *_scope_lines(audit),
        *([f"failed: {audit.site_failure_line}"] if audit.site_failure_line else []),
        f"pages crawled: {audit.pages_crawled}",
        *_score_lines(report, audit),
        *_action_lines(report, audit),
        *_phase_lines(report, audit),
        *_end_lines(audit),
        *_finding_lines(report),
    ]
    return "\n".join(lines)


def _scope_lines(audit: AuditRecord) -> list[str]:
    """`scope: <sentence>` for each option the audit ran with that is not the default, and what
    a list audit did not check: the same sentences as every other report (service.scope_report)."""
    scope = scope_summary(audit.options)
    lines = [f"scope: {fact}" for fact in scope.facts]
    if scope.not_checked_sentence is not None:
        lines.append(f"not checked: {scope.not_checked_sentence}")
    return lines


def _score_lines(report: JsonObject, audit: AuditRecord) -> list[str]:
    """`health score: 55.3 of 100 (crawlability 98.1, ...)` and the notes that explain it."""
    scores = report.get("scores")
    if not isinstance(scores, Mapping):
        return [] if audit.health_score is None else [f"health score: {audit.health_score:g}"]
    verdict = Scores.from_dict(scores)
    if verdict.overall is None:
        return ["health score: none (no page could be scored)"]
    parts = ", ".join(f"{c.label} {c.score:g}" for c in verdict.categories if c.score is not None)
    return [
        f"health score: {verdict.overall:g} of 100 ({parts})",
        *(f"  note: {note}" for note in verdict.notes),
    ]


def _action_lines(report: JsonObject, audit: AuditRecord) -> list[str]:
    """The ranked list: rank, severity, the points fixing it gains, and the sentence."""
    actions = [Action.from_dict(as_object(a)) for a in as_list(report.get("actions") or [])]
    note = report.get("verdict_note")
    if not actions:
        # A site failure has said why already, in its own line.
        said = audit.site_failure is not None or not isinstance(note, str) or not note
        return [] if said else [f"what to fix first: {note}"]
    shown = actions[:ACTIONS_SHOWN]
    rest = len(actions) - len(shown)
    return [
        f"what to fix first ({len(shown)} of {len(actions)}, by the points each fix adds):",
        *(line for action in shown for line in _action_lines_of(action)),
        *([f"  ... {rest} more: siteaudit report {audit.id} --format json"] if rest else []),
    ]


def _action_lines_of(action: Action) -> list[str]:
    """The action's line, and below it what its row says when it concerns the whole site."""
    detail = [f"{'':19}{action.detail}"] if action.detail else []
    return [_action_line(action), *detail]


def _action_line(action: Action) -> str:
    gain = f"+{action.gain:.1f}" if action.gain > 0 else "<0.1" if PENALTY[action.severity] else "-"
    return f"  {action.rank:3d}. {action.severity:<8} {gain:>5}  {action.summary}"


def _phase_lines(report: JsonObject, audit: AuditRecord) -> list[str]:
    """The security grade, exposure and Lighthouse lines; none when the start URL failed (nothing
    was audited at all)."""
    if audit.site_failure is not None:
        return []
    return [
        *_security_line(report),
        *_exposure_line(report),
        *_timing_line(report),
        *_rendering_line(report),
        *_structured_line(report),
        *_accessibility_line(report),
        *_lighthouse_line(audit),
    ]


def _structured_line(report: JsonObject) -> list[str]:
    """What the pages carry as structured data (docs/structured-data.md); nothing for a site
    without any."""
    found = report.get("structured_data")
    if not isinstance(found, Mapping):
        return []
    summary = StructuredSummary.from_dict(found)
    return [f"structured data: {summary.note}"] if summary.pages else []


def _accessibility_line(report: JsonObject) -> list[str]:
    """The accessibility category's score and its failing rules, or that the rules did not run
    (docs/accessibility.md); nothing for an audit without a verdict."""
    scores = report.get("scores")
    if not isinstance(scores, Mapping):
        return []
    category = next(
        (c for c in Scores.from_dict(scores).categories if c.category is Category.ACCESSIBILITY),
        None,
    )
    summary = report.get("summary")
    by_type = summary.get("issues_by_type") if isinstance(summary, Mapping) else None
    failing = {
        t.removeprefix(A11Y_ISSUE_PREFIX): as_int(n)
        for t, n in (by_type.items() if isinstance(by_type, Mapping) else ())
        if t.startswith(A11Y_ISSUE_PREFIX)
    }
    if category is None or (category.score is None and not failing):
        return ["accessibility: not checked (the static rules did not run on the pages)"]
    ranked = sorted(failing.items(), key=lambda item: (-item[1], item[0]))
    rules = ", ".join(f"{rule} on {pages:,}" for rule, pages in ranked[:3])
    more = f" and {len(ranked) - 3} more" if len(ranked) > 3 else ""
    found = f"; failing rules (pages): {rules}{more}" if ranked else "; no rule failed"
    shown = "n/a" if category.score is None else f"{category.score:g}"
    where = _where_decided(Scores.from_dict(scores).accessibility_rendered)
    return [f"accessibility: {shown} of 100{found}; {where}"]


def _where_decided(rendered: int) -> str:
    # Never imply that a page axe-core did not run on passed the rules only it decides.
    rules = "colour contrast, target size and the other rules only a browser decides"
    if rendered <= 0:
        return f"{rules} not checked (no page rendered with axe-core)"
    pages = "page" if rendered == 1 else "pages"
    return f"{rules} checked on the {rendered:,} {pages} rendered with axe-core only"


def _rendering_line(report: JsonObject) -> list[str]:
    """What rendering did, or that it would find more (docs/rendering.md)."""
    found = report.get("rendering")
    if not isinstance(found, Mapping):
        return []
    summary = RenderSummary.from_dict(found)
    if not summary.would_find_more and summary.counts.rendered + summary.counts.failed == 0:
        return []  # nothing needed rendering and nothing was rendered
    return [f"rendering: {summary.note}"]


def _timing_line(report: JsonObject) -> list[str]:
    """What the timing check measured again (docs/timing.md), or why it did not."""
    found = report.get("timing")
    if not isinstance(found, Mapping):
        return []
    summary = TimingSummary.from_dict(found)
    if summary.error:
        return [f"timing: not judged ({summary.error})"]
    if summary.skipped:
        return [f"timing: not measured again ({summary.skipped})"]
    if summary.candidates == 0:
        return [f"timing: no page over {summary.threshold_ms:,} ms during the crawl"]
    parts = [
        f"{summary.slow_pages} of {summary.candidates} pages slow during the crawl were slow "
        "again when measured alone"
    ]
    if summary.median_ms is not None:
        parts.append(f"the site's median {summary.median_ms:,} ms")
    if summary.unconfirmed:
        parts.append(f"{summary.unconfirmed} not measured again in time, so not flagged")
    return ["timing: " + "; ".join(parts)]


def _end_lines(audit: AuditRecord) -> list[str]:
    lines = []
    if audit.status is AuditStatus.FAILED and audit.site_failure is None:
        lines.append(f"error: {audit.error_code} in {audit.failed_phase or 'unknown phase'}")
    if audit.status is AuditStatus.CANCELLED:
        lines.append(f"cancelled; `siteaudit resume {audit.id}` finishes it")
    if audit.status in (AuditStatus.FAILED, AuditStatus.CANCELLED) and audit.pages_crawled > 0:
        lines.append(f"stopped early after {audit.pages_crawled} pages; partial results kept")
    return lines


def _finding_lines(report: JsonObject) -> list[str]:
    """The issue rows' counts, then each finding: most severe first, then most pages."""
    summary = as_object(report["summary"])
    severities = {k: as_int(v) for k, v in as_object(summary["issues_by_severity"]).items()}
    actions = [Action.from_dict(as_object(a)) for a in as_list(report.get("actions") or [])]
    rows = (
        f"{sum(severities.values())} ({severities.get('critical', 0)} critical, "
        f"{severities.get('warning', 0)} warning, {severities.get('info', 0)} info)"
    )
    if not actions:
        lines = [f"issues: {rows}"]
        by_type = {k: as_int(v) for k, v in as_object(summary["issues_by_type"]).items()}
        return [*lines, *(f"  {count:5d}  {issue_type}" for issue_type, count in by_type.items())]
    ordered = sorted(actions, key=lambda a: (a.severity.order, -a.pages, a.issue_type))
    lines = [f"issues: {rows} in {len(actions)} findings"]
    return [*lines, *(_finding_line(action) for action in ordered)]


def _finding_line(action: Action) -> str:
    if action.scope is FindingScope.SITE:
        where = "whole site"
    else:
        where = f"{action.pages:,} page" + ("" if action.pages == 1 else "s")
    line = f"  {action.severity:<8} {where:>12}  {action.title} ({action.issue_type})"
    # A finding about the whole site says what was found (a note that a check could not run
    # says why); the ranked list above shows it for the first ten only.
    return f"{line}: {action.detail}" if action.detail else line


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
    if summary.dns_checked:
        dns = "DNS checked"
    elif summary.dns_error is not None:
        dns = f"DNS not checked: {summary.dns_error}"
    else:
        dns = f"DNS skipped: {summary.dns_skipped}"
    noun = "script" if summary.scripts == 1 else "scripts"
    scripts = f"{summary.scripts} {noun} ({summary.scripts_read} read by content)"
    issues = f"{summary.issues} issue" + ("" if summary.issues == 1 else "s")
    return [f"exposure checks: {issues}, {scripts}; {dns}"]


_LIGHTHOUSE_SKIPPED = {
    LighthouseStatus.DISABLED: "lighthouse: not run (option none)",
    LighthouseStatus.SKIPPED_NO_KEY: "lighthouse: skipped (no PSI_API_KEY configured)",
    LighthouseStatus.SKIPPED_CREDENTIALS: "lighthouse: skipped (PageSpeed Insights cannot send "
    "the audit's credentials)",
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
