"""An audit's issue counts, computed in SQL in one place, and example pages per issue type.

`issue_counts` is the single source of the counts by severity and by type: the report renders it,
and `repository.score_counts` (finalize's health score) reads its severity totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from audit.catalogue import Severity
from auditdb.records import IssueRecord
from common.bindings import D1Database
from common.wire import as_int, as_str

_SEVERITY_BY_RANK = {severity.order: severity for severity in Severity}

# One covering walk of audit_issues_list_idx (audit_id, severity_rank, issue_type, ...): already
# grouped in index order, so no sort.
COUNTS_SQL = (
    "SELECT severity_rank, issue_type, COUNT(*) AS n FROM audit_issues WHERE audit_id = ? "
    "GROUP BY severity_rank, issue_type"
)
# A seek on audit_issues_identity_idx (audit_id, issue_type, page_url, ...): covering, in order.
EXAMPLES_SQL = (
    "SELECT DISTINCT page_url FROM audit_issues WHERE audit_id = ? AND issue_type = ? "
    "ORDER BY page_url LIMIT ?"
)


@dataclass(frozen=True, slots=True)
class TypeCount:
    issue_type: str
    severity: Severity
    count: int


@dataclass(frozen=True, slots=True)
class IssueCounts:
    """Issues per (severity, type), in severity rank then type order."""

    rows: tuple[TypeCount, ...]

    @property
    def by_severity(self) -> dict[str, int]:
        counts = {str(severity): 0 for severity in Severity}
        for row in self.rows:
            counts[row.severity] += row.count
        return counts

    @property
    def by_type(self) -> dict[str, int]:
        """Most severe first, then most issues, then by type name (a type's rows all share one
        severity, but for the security grade's tests, whose severity is their score's)."""
        totals: dict[str, int] = {}
        ranks: dict[str, int] = {}
        for row in self.rows:
            totals[row.issue_type] = totals.get(row.issue_type, 0) + row.count
            ranks[row.issue_type] = min(ranks.get(row.issue_type, 9), row.severity.order)
        order = sorted(totals, key=lambda t: (ranks[t], -totals[t], t))
        return {issue_type: totals[issue_type] for issue_type in order}

    @property
    def total(self) -> int:
        return sum(row.count for row in self.rows)

    def top(self, n: int) -> list[TypeCount]:
        """The `n` types to look at first: by severity rank, then most issues, then name."""
        ranked = sorted(self.rows, key=lambda r: (r.severity.order, -r.count, r.issue_type))
        return ranked[:n]


async def issue_counts(db: D1Database, audit_id: str) -> IssueCounts:
    result = await db.prepare(COUNTS_SQL).bind(audit_id).all()
    rows = tuple(
        TypeCount(
            issue_type=as_str(row["issue_type"]),
            severity=_SEVERITY_BY_RANK[as_int(row["severity_rank"])],
            count=as_int(row["n"]),
        )
        for row in result["results"]
    )
    return IssueCounts(rows)


async def example_pages(
    db: D1Database, audit_id: str, issue_types: Sequence[str], per_type: int
) -> dict[str, list[str]]:
    """Up to `per_type` page URLs (in url order) for each type, in one batch."""
    if not issue_types:
        return {}
    statements = [
        db.prepare(EXAMPLES_SQL).bind(audit_id, issue_type, per_type) for issue_type in issue_types
    ]
    results = await db.batch(statements)
    return {
        issue_type: [as_str(row["page_url"]) for row in result["results"]]
        for issue_type, result in zip(issue_types, results, strict=True)
    }


# The first row of a type, in identity order (a seek on audit_issues_identity_idx).
FIRST_ISSUE_SQL = (
    "SELECT * FROM audit_issues WHERE audit_id = ? AND issue_type = ? "
    "ORDER BY page_url, dedupe_key LIMIT 1"
)


async def first_issues(
    db: D1Database, audit_id: str, issue_types: Sequence[str]
) -> dict[str, IssueRecord]:
    """Each type's first row, in one batch (types without a row are left out)."""
    if not issue_types:
        return {}
    statements = [db.prepare(FIRST_ISSUE_SQL).bind(audit_id, t) for t in issue_types]
    results = await db.batch(statements)
    return {
        issue_type: IssueRecord.from_row(result["results"][0])
        for issue_type, result in zip(issue_types, results, strict=True)
        if result["results"]
    }
