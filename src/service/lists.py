"""Lists of audits, pages and issues one keyset page at a time, and the report's summary.

A list call reads `limit + 1` rows: the extra row only says whether a next page exists, and the
next page starts after the last row returned (its sort key, which the API turns into an opaque
cursor). `iter_pages` and `iter_issues` walk a whole audit the same way for exports, holding one
page of rows at a time.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass, field
from functools import partial

from auditdb import (
    exposure_issues,
    lighthouse,
    listing,
    rendering,
    security_grades,
    structured_data,
    summary,
    timing,
)
from auditdb.exposure_issues import AuditExposure
from auditdb.lighthouse import LighthouseRow
from auditdb.listing import AuditFilter, IssueFilter, Keyed, PageFilter, SortKey
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from auditdb.rendering import RenderSummary
from auditdb.security_grades import AuditSecurity
from auditdb.structured_data import StructuredSummary
from auditdb.summary import IssueCounts
from auditdb.timing import TimingSummary
from common.bindings import Env
from service.audits import owned_audit

DEFAULT_LIMIT = 100
MAX_LIMIT = 1000
EXPORT_PAGE_SIZE = 500  # rows per keyset page when walking a whole audit
TOP_ISSUE_TYPES = 10
EXAMPLES_PER_TYPE = 3


@dataclass(frozen=True, slots=True)
class Paging:
    """Where a page starts (None: at the beginning) and how many rows it holds."""

    after: SortKey | None = None
    limit: int = DEFAULT_LIMIT

    def __post_init__(self) -> None:
        if not 1 <= self.limit <= MAX_LIMIT:
            raise ValueError(f"limit must be between 1 and {MAX_LIMIT}")


@dataclass(frozen=True, slots=True)
class ListPage[T]:
    items: list[T]
    next_after: SortKey | None  # the sort key to continue after; None on the last page


@dataclass(frozen=True, slots=True)
class TopIssue:
    issue_type: str
    severity: str
    count: int
    example_pages: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The audit with its counts and the issue types to look at first; never every row."""

    audit: AuditRecord
    counts: IssueCounts
    top_issues: list[TopIssue]
    security: AuditSecurity  # the site's security grade with its 12 test outcomes
    exposure: AuditExposure  # what the exposure checks looked at (their findings are issues)
    timing: TimingSummary | None = None  # what the timing check measured again (docs/timing.md)
    rendering: RenderSummary | None = None  # what rendering did (docs/rendering.md)
    # What the pages carry as structured data (docs/structured-data.md); None before finalize.
    structured: StructuredSummary | None = None


async def list_audits(
    env: Env, owner: str, filter_: AuditFilter, paging: Paging
) -> ListPage[AuditRecord]:
    keyed = await listing.read_audits(env.DB, owner, filter_, paging.after, paging.limit + 1)
    return page_of(keyed, paging.limit)


async def list_pages(
    env: Env, owner: str, audit_id: str, filter_: PageFilter, paging: Paging
) -> ListPage[PageRecord]:
    await owned_audit(env, owner, audit_id)
    keyed = await listing.read_pages(env.DB, audit_id, filter_, paging.after, paging.limit + 1)
    return page_of(keyed, paging.limit)


async def count_pages(env: Env, owner: str, audit_id: str, filter_: PageFilter) -> int:
    """How many of the audit's pages the filter keeps (one COUNT over the list's own index)."""
    await owned_audit(env, owner, audit_id)
    return await listing.count_pages(env.DB, audit_id, filter_)


async def list_issues(
    env: Env, owner: str, audit_id: str, filter_: IssueFilter, paging: Paging
) -> ListPage[IssueRecord]:
    await owned_audit(env, owner, audit_id)
    keyed = await listing.read_issues(env.DB, audit_id, filter_, paging.after, paging.limit + 1)
    return page_of(keyed, paging.limit)


async def issue_counts(env: Env, owner: str, audit_id: str) -> IssueCounts:
    """The audit's issues per (severity, type), from the one SQL place that counts them."""
    audit = await owned_audit(env, owner, audit_id)
    return await summary.issue_counts(env.DB, audit.id)


async def latest_audit(env: Env, owner: str) -> AuditRecord | None:
    """The owner's newest audit, or None when it has none."""
    page = await list_audits(env, owner, AuditFilter(), Paging(limit=1))
    return page.items[0] if page.items else None


def page_of[T](keyed: list[Keyed[T]], limit: int) -> ListPage[T]:
    """The first `limit` rows; a row beyond them means another page follows the last one."""
    more = len(keyed) > limit
    kept = keyed[:limit]
    return ListPage([row for _, row in kept], kept[-1][0] if more else None)


async def iter_pages(
    env: Env,
    owner: str,
    audit_id: str,
    filter_: PageFilter | None = None,
    page_size: int = EXPORT_PAGE_SIZE,
) -> AsyncGenerator[list[PageRecord]]:
    """Every page row of the audit in url order, `page_size` rows at a time."""
    await owned_audit(env, owner, audit_id)
    wanted = filter_ or PageFilter()
    async with aclosing(
        _walk(partial(listing.read_pages, env.DB, audit_id, wanted), page_size)
    ) as walk:
        async for rows in walk:
            yield rows


async def iter_issues(
    env: Env,
    owner: str,
    audit_id: str,
    filter_: IssueFilter | None = None,
    page_size: int = EXPORT_PAGE_SIZE,
) -> AsyncGenerator[list[IssueRecord]]:
    """Every issue row of the audit in list order, `page_size` rows at a time."""
    await owned_audit(env, owner, audit_id)
    wanted = filter_ or IssueFilter()
    async with aclosing(
        _walk(partial(listing.read_issues, env.DB, audit_id, wanted), page_size)
    ) as walk:
        async for rows in walk:
            yield rows


async def _walk[T](
    read: Callable[[SortKey | None, int], Awaitable[list[Keyed[T]]]], page_size: int
) -> AsyncGenerator[list[T]]:
    """Keyset pages until a short one: only the current page is held."""
    after: SortKey | None = None
    while True:
        keyed = await read(after, page_size)
        if keyed:
            yield [row for _, row in keyed]
        if len(keyed) < page_size:
            return
        after = keyed[-1][0]


async def audit_report(env: Env, owner: str, audit_id: str) -> AuditReport:
    audit = await owned_audit(env, owner, audit_id)
    counts = await summary.issue_counts(env.DB, audit.id)
    top = counts.top(TOP_ISSUE_TYPES)
    examples = await summary.example_pages(
        env.DB, audit.id, [t.issue_type for t in top], EXAMPLES_PER_TYPE
    )
    top_issues = [
        TopIssue(t.issue_type, str(t.severity), t.count, examples.get(t.issue_type, []))
        for t in top
    ]
    security = await security_grades.read_security(env.DB, audit)
    exposure = await exposure_issues.read_exposure(env.DB, audit)
    timing_summary = await timing.read_timing_summary(env.DB, audit.id)
    rendered = await rendering.read_render_summary(env.DB, audit.id)
    structured = await structured_data.read_summary(env.DB, audit.id)
    return AuditReport(
        audit, counts, top_issues, security, exposure, timing_summary, rendered, structured
    )


async def list_lighthouse(
    env: Env, owner: str, audit_id: str, paging: Paging
) -> ListPage[LighthouseRow]:
    """The owner's audit's Lighthouse rows in id order, one keyset page; readable while the phase
    runs and after a failure (each group lands whole)."""
    await owned_audit(env, owner, audit_id)
    after = "" if paging.after is None else str(paging.after[0])
    rows = await lighthouse.list_results(env.DB, audit_id, after=after, limit=paging.limit + 1)
    return page_of([((row.id,), row) for row in rows], paging.limit)
