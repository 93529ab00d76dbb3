"""Comparing two audits of one owner: new, fixed and unchanged issues, score change, pages.

`compare_audits(env, owner, before_id, after_id)` reads from `before` to `after` whatever their
dates: new issues are in `after` only, fixed ones in `before` only (matching: auditdb.compare,
with hysteresis for timing issues, so a page's time wandering around the threshold is neither
new nor fixed).
Either id belonging to another owner is refused exactly like an unknown id (`AuditNotFound`).
Lists are capped at `limit` rows in list order, each with its total, so a comparison of two
100,000-issue audits stays one small answer; `truncated` says when a list holds fewer than its
total.

The record grows by fields: a security grade, once audits have one, becomes a `grade` change next
to `health_score`, and readers that do not know it ignore it (common.wire ignores unknown keys).
"""

from __future__ import annotations

from dataclasses import dataclass

from auditdb import compare
from auditdb.compare import IssueChange, PageChange
from auditdb.records import AuditRecord, AuditStatus, IssueRecord
from common.bindings import Env
from common.wire import JsonRecord
from service.audits import owned_audit
from urls.normalise import same_site

DEFAULT_LIMIT = 100
MAX_LIMIT = 1000
_SCORE_DECIMALS = 2  # health scores are stored with at most one decimal; this hides float noise


@dataclass(frozen=True, slots=True)
class ComparedAudit(JsonRecord):
    id: str
    start_url: str
    status: AuditStatus
    created_at: str
    finished_at: str | None
    health_score: float | None
    pages_crawled: int
    issues_total: int

    @classmethod
    def of(cls, audit: AuditRecord) -> ComparedAudit:
        return cls(
            audit.id,
            audit.start_url,
            audit.status,
            audit.created_at,
            audit.finished_at,
            audit.health_score,
            audit.pages_crawled,
            audit.issues_total,
        )


@dataclass(frozen=True, slots=True)
class ScoreChange(JsonRecord):
    """A score before and after; `delta` is after - before, None when either is missing."""

    before: float | None
    after: float | None
    delta: float | None

    @classmethod
    def of(cls, before: float | None, after: float | None) -> ScoreChange:
        if before is None or after is None:
            return cls(before, after, None)
        return cls(before, after, round(after - before, _SCORE_DECIMALS))


@dataclass(frozen=True, slots=True)
class IssueChanges(JsonRecord):
    total: int
    by_severity: dict[str, int]
    issues: list[IssueRecord]  # the first `limit` in list order (severity, type, page, id)
    truncated: bool


@dataclass(frozen=True, slots=True)
class PageChanges(JsonRecord):
    total: int
    urls: list[str]  # the first `limit` in url order
    truncated: bool


@dataclass(frozen=True, slots=True)
class AuditComparison(JsonRecord):
    before: ComparedAudit
    after: ComparedAudit
    health_score: ScoreChange
    new_issues: IssueChanges
    fixed_issues: IssueChanges
    unchanged_issues: IssueChanges
    pages_added: PageChanges
    pages_removed: PageChanges
    # Set when the audits are of different sites: the comparison still answers (an owner may
    # compare a site with its new domain), but every issue and page differs by its URL alone.
    warning: str | None = None


async def compare_audits(
    env: Env, owner: str, before_id: str, after_id: str, limit: int = DEFAULT_LIMIT
) -> AuditComparison:
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be between 1 and {MAX_LIMIT}")
    before = await owned_audit(env, owner, before_id)
    after = await owned_audit(env, owner, after_id)
    statements = [
        compare.after_counts_statement(before.id, after.id),
        compare.before_counts_statement(before.id, after.id),
        *(compare.issues_statement(change, before.id, after.id, limit) for change in IssueChange),
        *(compare.pages_count_statement(change, before.id, after.id) for change in PageChange),
        *(compare.pages_statement(change, before.id, after.id, limit) for change in PageChange),
    ]
    results = await compare.run(env.DB, statements)
    after_counts, before_counts = (compare.match_counts(r) for r in results[:2])
    new, fixed, unchanged = (compare.issue_rows(r) for r in results[2:5])
    added_n, removed_n = (compare.page_count(r) for r in results[5:7])
    added, removed = (compare.page_urls(r) for r in results[7:9])
    return AuditComparison(
        before=ComparedAudit.of(before),
        after=ComparedAudit.of(after),
        health_score=ScoreChange.of(before.health_score, after.health_score),
        new_issues=_issue_changes(after_counts.unmatched, new),
        fixed_issues=_issue_changes(before_counts.unmatched, fixed),
        unchanged_issues=_issue_changes(after_counts.matched, unchanged),
        pages_added=PageChanges(added_n, added, added_n > len(added)),
        pages_removed=PageChanges(removed_n, removed, removed_n > len(removed)),
        warning=different_sites_warning(before, after),
    )


def different_sites_warning(before: AuditRecord, after: AuditRecord) -> str | None:
    """A warning when the audits are of different sites, by the crawl's own rule (`same_site`:
    hosts equal but for `www.`, the same port; http and https on default ports are one site),
    applied to the URLs audited and to where their redirects ended."""
    if same_site(before.start_url, after.start_url) or same_site(_site(before), _site(after)):
        return None
    return (
        f"these audits are of different sites ({_site(before)} and {_site(after)}): "
        "their issues and pages differ by URL, so all of them show as new, fixed, added or removed"
    )


def _site(audit: AuditRecord) -> str:
    return audit.final_url or audit.start_url


def _issue_changes(by_severity: dict[str, int], issues: list[IssueRecord]) -> IssueChanges:
    total = sum(by_severity.values())
    return IssueChanges(total, by_severity, issues, total > len(issues))
