"""The finalize step: cross-page checks in the scratchpad, issues to D1, score, completion."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from audit.catalogue import IssueType
from audit.issue_ids import page_id
from audit.issues import DetectedIssue
from audit.verdict import Tally, judge
from auditdb import repository, structured_data, verdict
from auditdb.queue_messages import announce_audit_end
from auditdb.records import AuditPhase, AuditStatus, IssueRecord
from common import ports, settings
from common.bindings import D1Database, Env
from common.events import TerminalStatus, log_terminal
from durable.client import Scratchpad
from durable.finalize import FinalizeOptions
from workflow.steps import FinalizeSummary


async def finalize_audit(
    env: Env,
    pad: Scratchpad,
    audit_id: str,
    *,
    start_url: str,
    crawl_completed: bool,
    rate_limited: bool = False,
    crawl_issues: Sequence[DetectedIssue] = (),
    external_budget_s: float = settings.EXTERNAL.default_budget_s,
    list_mode: bool = False,
) -> FinalizeSummary:
    """`crawl_issues`: findings about the crawl run itself (Scope.CRAWL) the workflow decided,
    such as `site-stopped-responding` (crawl.site_health). `list_mode`: the audit followed no
    link (auditdb.scope), so orphan pages are not checked."""
    await repository.set_phase(env.DB, audit_id, AuditPhase.FINALIZING)
    options = FinalizeOptions(
        audit_id=audit_id,
        start_url=start_url,
        crawl_completed=crawl_completed,
        robots_blocked_sitemap_urls=tuple(await pad.all_sitemap_blocked_urls()),
        external_budget_s=external_budget_s,
        list_mode=list_mode,
    )
    issues_written = await _write_cross_page_issues(env.DB, pad, audit_id, options)
    if rate_limited:
        crawl_issues = (*crawl_issues, _crawl_rate_limited(start_url))
    if crawl_issues:
        # Crawl-level issues belong to no page row, so their page_id stays empty.
        records = [_record(audit_id, issue, {}) for issue in crawl_issues]
        await repository.insert_issues(env.DB, records)
        issues_written += len(records)
    # Every page and issue row is written: the structured-data summary adds them up (issue 32).
    await structured_data.record_summary(env.DB, audit_id)
    counts = await repository.score_counts(env.DB, audit_id)
    tally = await _tally(env.DB, audit_id)
    health = judge(tally).scores.overall
    pages = await repository.count_crawled_pages(env.DB, audit_id)
    changed = await repository.complete_audit(
        env.DB,
        audit_id,
        finished_at=ports.iso_now(),
        pages_crawled=pages,
        counts=counts,
        health_score=health,
        verdict=verdict.to_column(tally),
    )
    if changed:
        log_terminal(
            audit_id,
            TerminalStatus.COMPLETED,
            error_code=None,
            failed_phase=None,
            pages=pages,
            reconciled_by=None,
        )
    if changed or await _was_completed(env.DB, audit_id):
        await pad.destroy()
    # Whoever ended the audit (this completion, or a cancel that landed first), a monitor run
    # waiting on it is finished by the queue consumer; a repeat is harmless (service.run_finish).
    await announce_audit_end(env, audit_id)
    return FinalizeSummary(
        pages_crawled=pages,
        cross_page_issues=issues_written,
        health_score=health,
        issues=counts["total"],
    )


async def _tally(db: D1Database, audit_id: str) -> Tally:
    """What the verdict is computed from: every issue is written by now (the security grade and
    the exposure checks ran before finalize, and stored the grade's score)."""
    audit = await repository.get_audit(db, audit_id)
    security = None if audit is None else audit.security_score
    return await verdict.tally(db, audit_id, security)


async def _was_completed(db: D1Database, audit_id: str) -> bool:
    """A retried finalize finds its audit already completed and still owes the cleanup; an audit
    cancelled (or failed) before the completion landed keeps its scratchpad for a resume."""
    audit = await repository.get_audit(db, audit_id)
    return audit is not None and audit.status is AuditStatus.COMPLETED


async def _write_cross_page_issues(
    db: D1Database, pad: Scratchpad, audit_id: str, options: FinalizeOptions
) -> int:
    written = 0
    while True:
        page = await pad.run_finalize_checks(options)
        issues = [DetectedIssue.from_dict(dict(item)) for item in page.issues]
        # Only this page's URLs are looked up: the audit's whole URL set is never held.
        crawled = await repository.crawled_among(db, audit_id, (i.page_url for i in issues))
        # A page's issues come together (a link-heavy page has thousands): each id hashed once.
        ids = {url: page_id(audit_id, url) for url in crawled}
        await repository.insert_issues(db, [_record(audit_id, issue, ids) for issue in issues])
        written += len(issues)
        if not page.next_cursor:
            return written
        options = replace(options, cursor=page.next_cursor)


def _crawl_rate_limited(start_url: str) -> DetectedIssue:
    return DetectedIssue(
        IssueType.CRAWL_RATE_LIMITED, start_url, {"reason": "rate limited by the site"}
    )


def _record(audit_id: str, issue: DetectedIssue, page_ids: dict[str, str]) -> IssueRecord:
    """The issue's row, with its page's id where its page was crawled (`page_ids` by URL)."""
    return IssueRecord.from_detected(audit_id, issue, page_ids.get(issue.page_url))
