"""An audit's Lighthouse results in D1 (`audit_lighthouse_results`, `audits.lighthouse_*`) and the
R2 key scheme of their full payloads.

Every write is idempotent: rows are upserts on their deterministic id (SHA-256 of
`auditId|pageId|strategy`), issues are INSERT OR IGNORE on theirs, and the counters are recounted
from the rows rather than incremented, so a retried persist step lands the same state. Each group's
rows, issues and counters go in one batch: a reader sees a group whole or not at all, while the
phase runs and after a failure (the original system lost partial results, §7).

Payload keys: `lighthouse/<audit id>/<page id>-<strategy>.json` in the REPORTS bucket, the audit
id percent-encoded like report keys (service.report_keys) so it cannot add a level; page ids are
hex. The object is gzip-compressed JSON (contentEncoding gzip).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Self
from urllib.parse import quote

from audit.issue_ids import lighthouse_result_id
from audit.issues import DetectedIssue
from auditdb.records import IssueRecord
from auditdb.repository import insert_statements
from common.bindings import R2_MAX_DELETE_KEYS, D1Database, D1PreparedStatement, R2Bucket
from common.wire import JsonObject, JsonRecord, as_int, as_str
from lighthouse.records import FieldData, LighthouseRun, LighthouseStatus, Strategy
from lighthouse.sample import SampledPage

__all__ = [
    "LighthouseRow",
    "StoredPayload",
    "crawled_pages",
    "delete_payloads",
    "expired_payload_keys",
    "finished_page_ids",
    "list_results",
    "payload_key",
    "payload_keys",
    "record_group",
    "set_status",
    "start_phase",
]

PAYLOAD_PREFIX = "lighthouse/"


def payload_key(audit_id: str, page_id: str, strategy: Strategy) -> str:
    return f"{PAYLOAD_PREFIX}{quote(audit_id, safe='')}/{quote(page_id, safe='')}-{strategy}.json"


@dataclass(frozen=True, slots=True)
class StoredPayload(JsonRecord):
    """Where a run's full payload went in R2 (absent when R2 refused or there was none)."""

    key: str
    size: int  # compressed bytes, as stored


@dataclass(frozen=True, slots=True)
class CrawledPage(JsonRecord):
    id: str
    url: str
    status_code: int
    fetch_class: str


@dataclass(frozen=True, slots=True)
class LighthouseRow(JsonRecord):
    """One `audit_lighthouse_results` row, with its page's URL when read back."""

    id: str
    audit_id: str
    page_id: str
    run: LighthouseRun
    page_url: str | None = None
    r2_key: str | None = None
    payload_size_bytes: int | None = None

    @classmethod
    def of(
        cls, audit_id: str, page: SampledPage, run: LighthouseRun, stored: StoredPayload | None
    ) -> Self:
        return cls(
            lighthouse_result_id(audit_id, page.page_id, str(run.strategy)),
            audit_id,
            page.page_id,
            run,
            page.url,
            None if stored is None else stored.key,
            None if stored is None else stored.size,
        )

    def to_row(self) -> JsonObject:
        run = self.run.to_dict()
        field = {"url": run.pop("field_url"), "origin": run.pop("field_origin")}
        has_field = any(value is not None for value in field.values())
        return {
            "id": self.id,
            "audit_id": self.audit_id,
            "page_id": self.page_id,
            **run,
            "field_json": json.dumps(field, sort_keys=True) if has_field else None,
            "r2_key": self.r2_key,
            "payload_size_bytes": self.payload_size_bytes,
        }

    @classmethod
    def from_row(cls, row: Mapping[str, object]) -> Self:
        field = json.loads(as_str(row.get("field_json") or "{}"))
        run = LighthouseRun.from_dict(
            {
                **row,
                "field_url": field.get("url"),
                "field_origin": field.get("origin"),
            }
        )
        return cls(
            as_str(row["id"]),
            as_str(row["audit_id"]),
            as_str(row["page_id"]),
            run,
            None if row.get("page_url") is None else as_str(row["page_url"]),
            None if row.get("r2_key") is None else as_str(row["r2_key"]),
            None if row.get("payload_size_bytes") is None else as_int(row["payload_size_bytes"]),
        )

    def flat(self) -> JsonObject:
        """The row as one level of columns (the CSV export): field data from the URL's own CrUX
        data, else its origin's, with `field_scope` saying which."""
        run = self.run
        data: FieldData | None = run.field_url or run.field_origin
        return {
            "page_url": self.page_url,
            "strategy": str(run.strategy),
            "performance_score": run.performance_score,
            "accessibility_score": run.accessibility_score,
            "best_practices_score": run.best_practices_score,
            "seo_score": run.seo_score,
            "lcp_ms": run.lcp_ms,
            "cls": run.cls,
            "inp_ms": run.inp_ms,
            "ttfb_ms": run.ttfb_ms,
            "field_scope": None if data is None else str(data.scope),
            "field_lcp_ms": _percentile(data, "lcp_ms"),
            "field_inp_ms": _percentile(data, "inp_ms"),
            "field_cls": _percentile(data, "cls"),
            "error_message": run.error_message,
            "r2_key": self.r2_key,
            "payload_size_bytes": self.payload_size_bytes,
            "page_id": self.page_id,
            "id": self.id,
        }


def _percentile(data: FieldData | None, name: str) -> float | None:
    metric = None if data is None else getattr(data, name)
    return None if metric is None else float(metric.percentile)


# The frontier's order (depth, then URL; pages reached only through the sitemap last), as
# auditdb.timing reads it: the order fetches finish in varies from run to run, and the first page
# of a template must not (identical crawls sample the same pages).
_PAGES_SQL = (
    "SELECT id, url, status_code, fetch_class FROM audit_pages WHERE audit_id = ? "
    "ORDER BY crawl_depth IS NULL, crawl_depth, url"
)
_START_SQL = (
    "UPDATE audits SET current_phase = 'lighthouse', lighthouse_status = 'running', "
    "lighthouse_total = ?, lighthouse_completed = 0, lighthouse_failed = 0 "
    "WHERE id = ? AND status = 'running'"
)
_STATUS_SQL = "UPDATE audits SET lighthouse_status = ? WHERE id = ? AND status = 'running'"
_COUNT_SQL = (
    "UPDATE audits SET "
    "lighthouse_completed = (SELECT COUNT(*) FROM audit_lighthouse_results "
    "WHERE audit_id = ?1 AND error_message IS NULL), "
    "lighthouse_failed = (SELECT COUNT(*) FROM audit_lighthouse_results "
    "WHERE audit_id = ?1 AND error_message IS NOT NULL) "
    "WHERE id = ?1 AND status = 'running'"
)
_LIST_SQL = (
    "SELECT r.*, p.url AS page_url FROM audit_lighthouse_results r "
    "JOIN audit_pages p ON p.id = r.page_id WHERE r.audit_id = ? AND r.id > ? "
    "ORDER BY r.id LIMIT ?"
)
_KEYS_SQL = "SELECT r2_key FROM audit_lighthouse_results WHERE audit_id = ? AND r2_key IS NOT NULL"
_DONE_SQL = (
    "SELECT page_id FROM audit_lighthouse_results WHERE audit_id = ? "
    "GROUP BY page_id HAVING COUNT(*) >= ?"
)


async def crawled_pages(db: D1Database, audit_id: str) -> list[CrawledPage]:
    """The audit's pages in crawl order (what the sample chooses from)."""
    result = await db.prepare(_PAGES_SQL).bind(audit_id).all()
    return [CrawledPage.from_dict(row) for row in result["results"]]


async def start_phase(db: D1Database, audit_id: str, total: int, *, done: bool) -> None:
    """Enter the phase with `total` runs planned; the counters are recounted from the rows a
    failed earlier instance left (a resume does not run those pages again)."""
    statements = [
        db.prepare(_START_SQL).bind(total, audit_id),
        db.prepare(_COUNT_SQL).bind(audit_id),
    ]
    if done:
        statements.append(db.prepare(_STATUS_SQL).bind(str(LighthouseStatus.COMPLETED), audit_id))
    await db.batch(statements)


async def finished_page_ids(db: D1Database, audit_id: str) -> set[str]:
    """Pages that already have both strategies' rows (stored by an earlier instance)."""
    result = await db.prepare(_DONE_SQL).bind(audit_id, len(Strategy)).all()
    return {as_str(row["page_id"]) for row in result["results"]}


async def set_status(db: D1Database, audit_id: str, status: LighthouseStatus) -> None:
    await db.prepare(_STATUS_SQL).bind(str(status), audit_id).run()


async def record_group(
    db: D1Database,
    audit_id: str,
    rows: Sequence[LighthouseRow],
    issues: Sequence[tuple[DetectedIssue, str]],
    *,
    last: bool,
) -> None:
    """One group's rows and issues (each with its page id), the recounted counters, and, after
    the last group, the phase's `completed` status: one atomic batch."""
    statements: list[D1PreparedStatement] = insert_statements(
        db, "INSERT OR REPLACE INTO audit_lighthouse_results", [row.to_row() for row in rows]
    )
    issue_rows = [IssueRecord.from_detected(audit_id, i, pid).to_row() for i, pid in issues]
    statements += insert_statements(db, "INSERT OR IGNORE INTO audit_issues", issue_rows)
    statements.append(db.prepare(_COUNT_SQL).bind(audit_id))
    if last:
        statements.append(db.prepare(_STATUS_SQL).bind(str(LighthouseStatus.COMPLETED), audit_id))
    await db.batch(statements)


async def list_results(
    db: D1Database, audit_id: str, *, after: str = "", limit: int = 100
) -> list[LighthouseRow]:
    """A page of the audit's rows in id order, after the row id `after` (keyset)."""
    result = await db.prepare(_LIST_SQL).bind(audit_id, after, limit).all()
    return [LighthouseRow.from_row(row) for row in result["results"]]


async def payload_keys(db: D1Database, audit_id: str) -> list[str]:
    result = await db.prepare(_KEYS_SQL).bind(audit_id).all()
    return [as_str(row["r2_key"]) for row in result["results"]]


# The audits the daily cleanup deletes next (auditdb.repository.DELETE_FINISHED_SQL's selection).
_EXPIRED_KEYS_SQL = (
    "SELECT r.r2_key FROM audit_lighthouse_results r WHERE r.r2_key IS NOT NULL AND r.audit_id IN "
    "(SELECT id FROM audits WHERE status != 'running' AND finished_at < ? AND NOT EXISTS "
    "(SELECT 1 FROM monitor_runs WHERE monitor_runs.audit_id = audits.id) "
    "ORDER BY finished_at LIMIT ?)"
)


async def expired_payload_keys(db: D1Database, finished_before: str, limit: int) -> list[str]:
    """The payload keys of the ad-hoc audits `repository.delete_finished_before` deletes next."""
    result = await db.prepare(_EXPIRED_KEYS_SQL).bind(finished_before, limit).all()
    return [as_str(row["r2_key"]) for row in result["results"]]


async def delete_payloads(bucket: R2Bucket, keys: Sequence[str]) -> None:
    """Delete payload objects, 1,000 keys per call; R2 refusing raises (the binding's error), so
    the caller keeps the rows that name them and a later run retries."""
    for start in range(0, len(keys), R2_MAX_DELETE_KEYS):
        await bucket.delete(list(keys[start : start + R2_MAX_DELETE_KEYS]))
