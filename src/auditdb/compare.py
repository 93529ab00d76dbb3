"""Two audits' issues and pages matched in SQL: what is new, fixed or unchanged, added or removed.

An issue's identity across audits is (issue_type, page_url, dedupe_key) (migration 0008): the row
id cannot serve, since it hashes the audit id too (src/audit/issue_ids.py). Every statement reads
one audit's rows through an index seek on its audit_id and probes the other audit once per row with
an exact seek on audit_issues_identity_idx (audit_id, issue_type, page_url, dedupe_key), or on
audit_pages_audit_url_id_idx (audit_id, url, id) for pages; nothing is loaded into Python but the
counts and the capped lists. tests/auditdb/test_query_plans.py runs EXPLAIN QUERY PLAN over each.

Counts come per severity from each side: `matched` rows of `after` are the unchanged issues, the
rest of `after` are new, and the unmatched rows of `before` are fixed. Each side is counted
against the other on its own, so the figures stay right even for rows written before the dedupe
key existed (two rows of one identity in one audit each count once).

Timing issues (`slow-response`, `slow-site`: audit.timing) match with hysteresis, so a time that
wanders around the threshold between two runs of an unchanged site is neither new nor fixed
(docs/timing.md, "Comparisons"). Their figure is the page's `response_time_ms` (the quiet
re-measurement the verdict used), or for `slow-site` the audit's median (`timing_summary`):

* a row of `after` without a twin in `before` is new only if its figure is at least
  `NEW_SLOW_MS`, or if `before` has no figure for it (a page it did not crawl); otherwise it
  counts as unchanged;
* a row of `before` without a twin in `after` is fixed only if `after`'s figure for it is at most
  `FIXED_SLOW_MS`, or missing; otherwise it is not fixed (it has no row of `after` to list
  among the unchanged ones, so the lists leave it out).

Compare, monitor runs and the `new-issues-since` gate all count through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from audit.catalogue import Severity
from audit.timing import FIXED_SLOW_MS, NEW_SLOW_MS, TIMING_ISSUE_TYPES
from auditdb.listing import Statement
from auditdb.records import IssueRecord
from common.bindings import D1Database, D1Result
from common.wire import as_int, as_str


class IssueChange(StrEnum):
    NEW = "new"  # rows of `after` with no match in `before`
    FIXED = "fixed"  # rows of `before` with no match in `after`
    UNCHANGED = "unchanged"  # rows of `after` with a match in `before`


class PageChange(StrEnum):
    ADDED = "added"  # urls of `after` that `before` did not crawl
    REMOVED = "removed"  # urls of `before` that `after` did not crawl


_SEVERITY_BY_RANK = {severity.order: severity for severity in Severity}

_SAME_ISSUE = (
    "EXISTS (SELECT 1 FROM audit_issues o WHERE o.audit_id = ? AND o.issue_type = i.issue_type "
    "AND o.page_url = i.page_url AND o.dedupe_key = i.dedupe_key)"
)


def _timing_figure(audit: str) -> str:
    """The figure a timing issue row `i` was judged on, in audit `audit` (an SQL expression)."""
    page = (
        "SELECT p.response_time_ms FROM audit_pages p "
        f"WHERE p.audit_id = {audit} AND p.url = i.page_url"
    )
    site = (
        f"SELECT json_extract(a.timing_summary, '$.median_ms') FROM audits a WHERE a.id = {audit}"
    )
    return f"(CASE i.issue_type WHEN 'slow-site' THEN ({site}) ELSE ({page}) END)"


_TIMING_ROW = "i.issue_type IN (" + ", ".join(f"'{t}'" for t in TIMING_ISSUE_TYPES) + ")"
# Rows of `after` (i) matched against `before` (bound twice): a twin, or a timing issue that
# `before` measured and that is not clearly over the threshold.
_MATCHED_IN_BEFORE = (
    f"({_SAME_ISSUE} OR ({_TIMING_ROW} AND {_timing_figure('?')} IS NOT NULL "
    f"AND COALESCE({_timing_figure('i.audit_id')} < {NEW_SLOW_MS}, 0)))"
)
# Rows of `before` (i) matched against `after` (bound twice): a twin, or a timing issue whose
# figure in `after` is not clearly under the threshold.
_MATCHED_IN_AFTER = (
    f"({_SAME_ISSUE} OR ({_TIMING_ROW} AND COALESCE({_timing_figure('?')} > {FIXED_SLOW_MS}, 0)))"
)
_SAME_PAGE = "EXISTS (SELECT 1 FROM audit_pages o WHERE o.audit_id = ? AND o.url = p.url)"

# Walks audit_issues_list_idx (audit_id, severity_rank, ...): grouped in index order, no sort.
_ISSUE_COUNTS = (
    "SELECT i.severity_rank AS severity_rank, COUNT(*) AS total, "
    "COALESCE(SUM({matched}), 0) AS matched FROM audit_issues i WHERE i.audit_id = ? "
    "GROUP BY i.severity_rank"
)
AFTER_COUNTS_SQL = _ISSUE_COUNTS.format(matched=_MATCHED_IN_BEFORE)
BEFORE_COUNTS_SQL = _ISSUE_COUNTS.format(matched=_MATCHED_IN_AFTER)
_ISSUE_COLUMNS = (
    "i.id, i.audit_id, i.page_id, i.page_url, i.issue_type, i.severity, i.details_json, "
    "i.dedupe_key"
)
# The issue lists' order (severity, type, page, id) is audit_issues_list_idx's: no sort, and the
# LIMIT stops the walk.
_ISSUE_ORDER = "ORDER BY i.severity_rank, i.issue_type, i.page_url, i.id LIMIT ?"
PAGES_COUNT_SQL = (
    f"SELECT COUNT(*) AS n FROM audit_pages p WHERE p.audit_id = ? AND NOT {_SAME_PAGE}"
)
PAGES_SQL = (
    f"SELECT p.url AS url FROM audit_pages p WHERE p.audit_id = ? AND NOT {_SAME_PAGE} "
    f"ORDER BY p.url LIMIT ?"
)


@dataclass(frozen=True, slots=True)
class MatchCounts:
    """One audit's issues per severity, and how many of them the other audit also has."""

    total: dict[str, int]
    matched: dict[str, int]

    @property
    def unmatched(self) -> dict[str, int]:
        return {severity: self.total[severity] - self.matched[severity] for severity in self.total}


def after_counts_statement(before_id: str, after_id: str) -> Statement:
    """`after`'s issues per severity, and how many of them `before` also has: the unchanged
    ones (the rest are new)."""
    return Statement(AFTER_COUNTS_SQL, (before_id, before_id, before_id, after_id))


def before_counts_statement(before_id: str, after_id: str) -> Statement:
    """`before`'s issues per severity, and how many of them `after` still has (the rest are
    fixed)."""
    return Statement(BEFORE_COUNTS_SQL, (after_id, after_id, after_id, before_id))


def issues_statement(change: IssueChange, before_id: str, after_id: str, limit: int) -> Statement:
    """The first `limit` issues of one kind of change, in list order."""
    if change is IssueChange.FIXED:
        audit_id, other_id, matched = before_id, after_id, _MATCHED_IN_AFTER
    else:
        audit_id, other_id, matched = after_id, before_id, _MATCHED_IN_BEFORE
    negate = "" if change is IssueChange.UNCHANGED else "NOT "
    sql = (
        f"SELECT {_ISSUE_COLUMNS} FROM audit_issues i WHERE i.audit_id = ? AND {negate}"
        f"{matched} {_ISSUE_ORDER}"
    )
    return Statement(sql, (audit_id, other_id, other_id, other_id, limit))


def _page_sides(change: PageChange, before_id: str, after_id: str) -> tuple[str, str]:
    return (after_id, before_id) if change is PageChange.ADDED else (before_id, after_id)


def pages_count_statement(change: PageChange, before_id: str, after_id: str) -> Statement:
    return Statement(PAGES_COUNT_SQL, _page_sides(change, before_id, after_id))


def pages_statement(change: PageChange, before_id: str, after_id: str, limit: int) -> Statement:
    return Statement(PAGES_SQL, (*_page_sides(change, before_id, after_id), limit))


def match_counts(result: D1Result) -> MatchCounts:
    total = {str(severity): 0 for severity in Severity}
    matched = dict(total)
    for row in result["results"]:
        severity = str(_SEVERITY_BY_RANK[as_int(row["severity_rank"])])
        total[severity] = as_int(row["total"])
        matched[severity] = as_int(row["matched"])
    return MatchCounts(total, matched)


def issue_rows(result: D1Result) -> list[IssueRecord]:
    return [IssueRecord.from_row(row) for row in result["results"]]


def page_count(result: D1Result) -> int:
    return as_int(result["results"][0]["n"])


def page_urls(result: D1Result) -> list[str]:
    return [as_str(row["url"]) for row in result["results"]]


async def run(db: D1Database, statements: Sequence[Statement]) -> list[D1Result]:
    """The statements as one D1 batch: one round trip, and one consistent snapshot of both audits."""
    return await db.batch([statement.prepare(db) for statement in statements])
