"""An audit's verdict tally (`audit.verdict.Tally`), added up in SQL at finalize and kept in the
audits row's `verdict` column (migration 0021), from which every report reads its scores, findings
and actions.

Two statements, each one walk: the scored pages' count and importance (audit_pages_audit_url_idx
rows of the audit), and the issue types with their distinct pages, each page's importance looked up
once by (audit_id, url). The importance (`audit.verdict.importance`) is spelt in SQL here; the
property test tests/auditdb/test_verdict_tally.py holds the two definitions together.
"""

from __future__ import annotations

import json

from audit.catalogue import Severity
from audit.verdict import IMPORTANCE_UNITS, MAX_WEIGHTED_DEPTH, Tally, TypeTally
from auditdb.repository import SCORED_PAGE
from common.bindings import D1Database
from common.wire import JsonObject, WireError, as_int, as_str

__all__ = ["SITE_SQL", "TYPES_SQL", "tally", "tally_of_audit", "to_column"]

_SEVERITY_BY_RANK = {severity.order: severity for severity in Severity}
# Integer division of integers: whole sixtieths, summed exactly whatever the row order.
_IMPORTANCE = (
    f"{IMPORTANCE_UNITS} / (1 + MIN(MAX(COALESCE(p.crawl_depth, {MAX_WEIGHTED_DEPTH}), 0), "
    f"{MAX_WEIGHTED_DEPTH}))"
)
_HTML_2XX = "(p.fetch_class = 'ok' AND p.is_html = 1 AND p.status_code BETWEEN 200 AND 299)"

SITE_SQL = (
    f"SELECT COUNT(*) AS scored, COALESCE(SUM({_IMPORTANCE}), 0) AS weight, "
    f"COALESCE(SUM({_HTML_2XX}), 0) AS html, COALESCE(MAX(p.a11y_checked), 0) AS a11y, "
    "COALESCE(SUM(p.a11y_rendered), 0) AS a11y_rendered "
    "FROM audit_pages p "
    f"WHERE p.audit_id = ? AND {SCORED_PAGE}"
)
# Per (type, page) first (a covering walk of audit_issues_identity_idx would need severity_rank
# and details too, so rows are read), then per type with the page's importance when it is scored.
# Only the security grade's tests carry a score modifier worth reading.
TYPES_SQL = (
    "SELECT a.issue_type, MIN(a.severity_rank) AS severity_rank, SUM(a.n) AS rows_, "
    f"COUNT(*) AS pages, COALESCE(SUM(CASE WHEN {SCORED_PAGE} THEN {_IMPORTANCE} END), 0) "
    "AS weight, COALESCE(MIN(a.modifier), 0) AS modifier FROM ("
    "SELECT issue_type, page_url, MIN(severity_rank) AS severity_rank, COUNT(*) AS n, "
    "MIN(CASE WHEN issue_type LIKE 'security-%' THEN json_extract(details_json, '$.scoreModifier') "
    "END) AS modifier FROM audit_issues WHERE audit_id = ? GROUP BY issue_type, page_url) a "
    "LEFT JOIN audit_pages p ON p.audit_id = ? AND p.url = a.page_url "
    "GROUP BY a.issue_type ORDER BY a.issue_type"
)


async def tally(db: D1Database, audit_id: str, security_score: int | None) -> Tally:
    """Add up the audit's pages and issues as they are now (finalize calls it last)."""
    site = await db.prepare(SITE_SQL).bind(audit_id).first() or {}
    result = await db.prepare(TYPES_SQL).bind(audit_id, audit_id).all()
    return Tally(
        scored_pages=as_int(site.get("scored", 0)),
        html_pages=as_int(site.get("html", 0)),
        scored_weight=as_int(site.get("weight", 0)),
        security_score=security_score,
        accessibility_checked=bool(as_int(site.get("a11y", 0))),
        accessibility_rendered=as_int(site.get("a11y_rendered", 0)),
        types=tuple(_type_tally(row) for row in result["results"]),
    )


def _type_tally(row: JsonObject) -> TypeTally:
    return TypeTally(
        issue_type=as_str(row["issue_type"]),
        severity=_SEVERITY_BY_RANK[as_int(row["severity_rank"])],
        rows=as_int(row["rows_"]),
        pages=as_int(row["pages"]),
        weight=as_int(row["weight"]),
        score_modifier=as_int(row["modifier"]),
    )


def to_column(value: Tally) -> str:
    return json.dumps(value.to_dict(), sort_keys=True, separators=(",", ":"))


async def tally_of_audit(db: D1Database, audit_id: str) -> Tally | None:
    """The stored tally; None for an audit not finalized (or finalized before migration 0021)."""
    row = await db.prepare("SELECT verdict FROM audits WHERE id = ?").bind(audit_id).first()
    text = None if row is None else row.get("verdict")
    if not isinstance(text, str) or not text:
        return None
    try:
        return Tally.from_dict(json.loads(text))
    except (ValueError, WireError):
        return None  # a column written by a newer or broken writer: no verdict rather than a 500
