"""Reads and writes of the D1 tables, through `env.DB` as the Workers SDK presents it.

Every write is idempotent on a stable key (insert-or-replace for pages, insert-or-ignore for
issues, status-guarded updates for audits) because workflow steps are retried. D1 allows 100 bound
parameters per statement, so multi-row inserts are cut into statements under that limit and sent as
one atomic `batch`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import lru_cache

from auditdb.records import AuditPhase, AuditRecord, AuditStatus, IssueRecord, PageRecord
from auditdb.summary import issue_counts
from common.bindings import D1Database, D1PreparedStatement, SqlValue
from common.wire import JsonObject, JsonValue, as_int, as_str

D1_MAX_BOUND_PARAMETERS = 100
# The statuses a resume may reopen: both kept their scratchpad and their partial results.
RESUMABLE = frozenset({AuditStatus.FAILED, AuditStatus.CANCELLED})
_AUDIT_COLUMNS = (
    "id",
    "owner",
    "start_url",
    "final_url",
    "scheme_assumed",
    "options_json",
    "status",
    "current_phase",
    "workflow_instance_id",
    "created_at",
    "started_at",
    "credentials_sealed",
)


async def insert_audit(db: D1Database, audit: AuditRecord, sealed: str | None = None) -> None:
    """Insert the audit's row; `sealed` is its credentials, sealed (crawl.credentials)."""
    values = [
        audit.id,
        audit.owner,
        audit.start_url,
        audit.final_url,
        int(audit.scheme_assumed),
        json.dumps(audit.options.to_dict(), sort_keys=True),
        str(audit.status),
        None if audit.current_phase is None else str(audit.current_phase),
        audit.workflow_instance_id,
        audit.created_at,
        audit.started_at,
        sealed,
    ]
    placeholders = ", ".join("?" for _ in _AUDIT_COLUMNS)
    sql = f"INSERT INTO audits ({', '.join(_AUDIT_COLUMNS)}) VALUES ({placeholders})"
    await db.prepare(sql).bind(*values).run()


async def sealed_credentials(db: D1Database, audit_id: str) -> str | None:
    """The audit's sealed credentials, for the instance a resume or a re-run starts."""
    sql = "SELECT credentials_sealed FROM audits WHERE id = ?"
    row = await db.prepare(sql).bind(audit_id).first()
    value = None if row is None else row.get("credentials_sealed")
    return None if value is None else as_str(value)


async def delete_audit(db: D1Database, audit_id: str) -> None:
    await db.prepare("DELETE FROM audits WHERE id = ?").bind(audit_id).run()


async def get_audit(db: D1Database, audit_id: str) -> AuditRecord | None:
    row = await db.prepare("SELECT * FROM audits WHERE id = ?").bind(audit_id).first()
    return None if row is None else AuditRecord.from_row(row)


async def get_owned_audit(db: D1Database, owner: str, audit_id: str) -> AuditRecord | None:
    """The audit if `owner` owns it: one query, so another owner's id and an unknown id take the
    same path and answer the same (no existence leak)."""
    row = (
        await db.prepare("SELECT * FROM audits WHERE id = ? AND owner = ?")
        .bind(audit_id, owner)
        .first()
    )
    return None if row is None else AuditRecord.from_row(row)


async def set_phase(db: D1Database, audit_id: str, phase: AuditPhase) -> None:
    await (
        db.prepare("UPDATE audits SET current_phase = ? WHERE id = ? AND status = 'running'")
        .bind(str(phase), audit_id)
        .run()
    )


async def set_final_url(
    db: D1Database, audit_id: str, final_url: str, scheme_note: str | None = None
) -> None:
    """Where discovery's start URL led, and (for a start URL typed without a scheme) which scheme
    the audit took."""
    await (
        db.prepare("UPDATE audits SET final_url = ?, scheme_note = ? WHERE id = ?")
        .bind(final_url, scheme_note, audit_id)
        .run()
    )


async def update_progress(
    db: D1Database, audit_id: str, pages_crawled: int, pages_total: int
) -> None:
    await (
        db.prepare(
            "UPDATE audits SET pages_crawled = ?, pages_total = ? WHERE id = ? AND status = 'running'"
        )
        .bind(pages_crawled, pages_total, audit_id)
        .run()
    )


async def complete_audit(
    db: D1Database,
    audit_id: str,
    *,
    finished_at: str,
    pages_crawled: int,
    counts: dict[str, int],
    health_score: float | None,
    verdict: str | None = None,
) -> bool:
    """Mark a running audit completed; returns False if it was no longer running (failed, or
    cancelled by its owner while the workflow was finishing: the cancel stands)."""
    result = (
        await db.prepare(
            "UPDATE audits SET status = 'completed', current_phase = 'completed', finished_at = ?, "
            "pages_crawled = ?, pages_total = ?, issues_total = ?, critical_count = ?, "
            "warning_count = ?, info_count = ?, health_score = ?, verdict = ?, issues_checked = 1 "
            "WHERE id = ? AND status = 'running'"
        )
        .bind(
            finished_at,
            pages_crawled,
            pages_crawled,
            counts.get("total", 0),
            counts.get("critical", 0),
            counts.get("warning", 0),
            counts.get("info", 0),
            health_score,
            verdict,
            audit_id,
        )
        .run()
    )
    return bool(result["meta"].get("changes", 0))


async def fail_audit(
    db: D1Database,
    audit_id: str,
    *,
    error_code: str,
    error_detail: str | None,
    failed_phase: str | None,
    finished_at: str,
) -> bool:
    """Mark a running audit failed; a completed, cancelled or already failed audit is left
    alone."""
    result = (
        await db.prepare(
            "UPDATE audits SET status = 'failed', current_phase = 'failed', error_code = ?, "
            "error_detail = ?, failed_phase = ?, finished_at = ? WHERE id = ? AND status = 'running'"
        )
        .bind(error_code, error_detail, failed_phase, finished_at, audit_id)
        .run()
    )
    return bool(result["meta"].get("changes", 0))


async def cancel_audit(db: D1Database, audit_id: str, *, finished_at: str) -> bool:
    """Mark a running audit cancelled; False if it was no longer running (it completed or failed
    first, or another cancel won). Its pages and issues stay, like a failed audit's."""
    result = (
        await db.prepare(
            "UPDATE audits SET status = 'cancelled', current_phase = 'cancelled', finished_at = ? "
            "WHERE id = ? AND status = 'running'"
        )
        .bind(finished_at, audit_id)
        .run()
    )
    return bool(result["meta"].get("changes", 0))


async def reopen_audit(
    db: D1Database,
    audit_id: str,
    status: AuditStatus,
    instance_id: str,
    resume_count: int,
    phase: AuditPhase = AuditPhase.CRAWLING,
) -> bool:
    """Turn a failed or cancelled audit back into a running one for a resume, in `phase`
    (discovery for one that starts over); False if it no longer has the `status` it was read
    with (another resume reopened it first)."""
    if status not in RESUMABLE:
        raise ValueError(f"a {status} audit cannot be reopened")
    result = (
        await db.prepare(
            "UPDATE audits SET status = 'running', current_phase = ?, error_code = NULL, "
            "error_detail = NULL, failed_phase = NULL, finished_at = NULL, workflow_instance_id = ?, "
            "resume_count = ? WHERE id = ? AND status = ?"
        )
        .bind(str(phase), instance_id, resume_count, audit_id, str(status))
        .run()
    )
    return bool(result["meta"].get("changes", 0))


async def insert_issues(db: D1Database, issues: Sequence[IssueRecord]) -> None:
    rows = [issue.to_row() for issue in issues]
    await _write_rows(db, "INSERT OR IGNORE INTO audit_issues", rows)


async def write_crawled_pages(
    db: D1Database, pages: Sequence[PageRecord], issues: Sequence[IssueRecord]
) -> None:
    """Upsert page rows and insert their issues in one atomic D1 batch."""
    statements = _page_statements(db, pages, issues)
    if statements:
        await db.batch(statements)


def _page_statements(
    db: D1Database, pages: Sequence[PageRecord], issues: Sequence[IssueRecord]
) -> list[D1PreparedStatement]:
    return [
        db.prepare(sql).bind(*values)
        for verb, rows in (
            ("INSERT OR REPLACE INTO audit_pages", [page.to_row() for page in pages]),
            ("INSERT OR IGNORE INTO audit_issues", [issue.to_row() for issue in issues]),
        )
        if rows
        for sql, values in _multi_row_inserts(verb, rows)
    ]


# A rendered page's issues replace its raw HTML's (workflow.render_step): its page ids as one JSON
# array (a render step writes a few pages at a time).
_DELETE_PAGE_ISSUES_SQL = (
    "DELETE FROM audit_issues WHERE page_id IN (SELECT value FROM json_each(?)) AND audit_id = ?"
)


async def replace_crawled_pages(
    db: D1Database, pages: Sequence[PageRecord], issues: Sequence[IssueRecord]
) -> None:
    """Rewrite pages already written, with their issues: the pages' old issues deleted, then
    the rows written as `write_crawled_pages` writes them, in one atomic D1 batch."""
    if not pages:
        return
    ids = json.dumps([page.id for page in pages])
    delete = db.prepare(_DELETE_PAGE_ISSUES_SQL).bind(ids, pages[0].audit_id)
    await db.batch([delete, *_page_statements(db, pages, issues)])


async def count_crawled_pages(db: D1Database, audit_id: str) -> int:
    row = (
        await db.prepare("SELECT COUNT(*) AS n FROM audit_pages WHERE audit_id = ?")
        .bind(audit_id)
        .first()
    )
    return 0 if row is None else as_int(row["n"])


# URLs bound as one JSON array per lookup: 500 URLs of even 2 KB stay under D1's 2 MB a value.
_URL_LOOKUP_BATCH = 500
_CRAWLED_AMONG_SQL = (
    "SELECT url FROM audit_pages WHERE audit_id = ? AND url IN (SELECT value FROM json_each(?))"
)


async def crawled_among(db: D1Database, audit_id: str, urls: Iterable[str]) -> set[str]:
    """Which of `urls` have a page row in the audit. Callers ask about the URLs they hold (a
    page of issues), never load every URL of an audit: at 100,000 pages that set alone is tens
    of MB (bench/scale_bench.py)."""
    wanted = sorted(set(urls))
    found: set[str] = set()
    for start in range(0, len(wanted), _URL_LOOKUP_BATCH):
        batch = json.dumps(wanted[start : start + _URL_LOOKUP_BATCH])
        result = await db.prepare(_CRAWLED_AMONG_SQL).bind(audit_id, batch).raw()
        found.update(as_str(row[0]) for row in result)
    return found


async def list_running_before(db: D1Database, started_before: str, limit: int) -> list[AuditRecord]:
    """Running audits started before a cutoff, oldest first (the watchdog's sweep)."""
    result = (
        await db.prepare(
            "SELECT * FROM audits WHERE status = 'running' AND "
            "(started_at IS NULL OR started_at < ?) ORDER BY started_at, id LIMIT ?"
        )
        .bind(started_before, limit)
        .all()
    )
    return [AuditRecord.from_row(row) for row in result["results"]]


# Oldest finish first through audits_finished_idx (0010); the run check seeks monitor_runs_audit_idx.
DELETE_FINISHED_SQL = (
    "DELETE FROM audits WHERE id IN (SELECT id FROM audits WHERE status != 'running' "
    "AND finished_at < ? AND NOT EXISTS (SELECT 1 FROM monitor_runs "
    "WHERE monitor_runs.audit_id = audits.id) ORDER BY finished_at LIMIT ?)"
)


async def delete_finished_before(db: D1Database, finished_before: str, limit: int) -> int:
    """Delete up to `limit` finished ad-hoc audits (pages and issues cascade); returns how many.

    A monitor run's audit is left alone: it lives as long as its run (service.run_retention,
    which also deletes its R2 report), so the run's history never names a deleted audit."""
    result = await db.prepare(DELETE_FINISHED_SQL).bind(finished_before, limit).run()
    return result["meta"].get("changes", 0)


# Mirrors audit.score.is_scored: blocked pages, and ok pages that are HTML or an error response;
# redirects, network errors, rate-limited fetches and non-HTML assets are not scored.
SCORED_PAGE = (
    "(p.fetch_class = 'blocked' OR (p.fetch_class = 'ok' AND NOT (p.status_code BETWEEN 300 AND 399) "
    "AND (p.status_code >= 400 OR p.is_html = 1)))"
)


async def score_counts(db: D1Database, audit_id: str) -> dict[str, int]:
    """The audit's issue totals per severity, and in all."""
    counts = (await issue_counts(db, audit_id)).by_severity
    return {**counts, "total": sum(counts.values())}


def is_running(audit: AuditRecord | None) -> bool:
    """Whether an audit is still running: it exists (None: deleted) and no write that ends an
    audit (completion, failure, the watchdog, its owner's cancel) has landed. The one answer the
    workflow's phases and the service ask for."""
    return audit is not None and audit.status is AuditStatus.RUNNING


async def _write_rows(db: D1Database, verb: str, rows: list[JsonObject]) -> None:
    if not rows:
        return
    await db.batch(insert_statements(db, verb, rows))


def insert_statements(
    db: D1Database, verb: str, rows: list[JsonObject]
) -> list[D1PreparedStatement]:
    """Multi-row inserts of `rows` (none for no rows), for the caller's own batch."""
    if not rows:
        return []
    return [db.prepare(sql).bind(*values) for sql, values in _multi_row_inserts(verb, rows)]


# What a write to a running audit's rows is conditioned on (the audits row's own guard).
RUNNING_GUARD = "EXISTS (SELECT 1 FROM audits WHERE id = ? AND status = 'running')"


def insert_statements_while_running(
    db: D1Database, verb: str, rows: list[JsonObject], audit_id: str
) -> list[D1PreparedStatement]:
    """Like `insert_statements`, but each statement inserts only while `audit_id` is running.

    Inside one D1 batch (a transaction) this ties the rows to the batch's guarded UPDATE of the
    audits row: an owner's cancel that landed first leaves the batch writing nothing.
    """
    if not rows:
        return []
    return [
        db.prepare(sql).bind(*values, audit_id)
        for sql, values in _multi_row_inserts(verb, rows, guarded=True)
    ]


def replace_issues_while_running(
    db: D1Database, audit_id: str, issue_types: Sequence[str], rows: list[JsonObject]
) -> list[D1PreparedStatement]:
    """Statements deleting the audit's issues of `issue_types`, then inserting `rows`, each only
    while the audit runs: one step's issues rewritten whole, so a retried or resumed step never
    leaves an older run's rows behind, and a cancelled audit is left alone."""
    marks = ", ".join("?" for _ in issue_types)
    delete = db.prepare(
        f"DELETE FROM audit_issues WHERE audit_id = ? AND issue_type IN ({marks}) "
        f"AND {RUNNING_GUARD}"
    ).bind(audit_id, *issue_types, audit_id)
    verb = "INSERT OR IGNORE INTO audit_issues"
    return [delete, *insert_statements_while_running(db, verb, rows, audit_id)]


def _multi_row_inserts(
    verb: str, rows: list[JsonObject], *, guarded: bool = False
) -> Iterable[tuple[str, list[SqlValue]]]:
    columns = list(rows[0])
    per_statement = max(1, (D1_MAX_BOUND_PARAMETERS - guarded) // len(columns))
    full = _insert_sql(verb, tuple(columns), per_statement, guarded)  # every group but the last
    for start in range(0, len(rows), per_statement):
        group = rows[start : start + per_statement]
        sql = (
            full
            if len(group) == per_statement
            else _insert_sql(verb, tuple(columns), len(group), guarded)
        )
        yield sql, _bindable_values(group, columns)


@lru_cache(maxsize=64)
def _insert_sql(verb: str, columns: tuple[str, ...], rows: int, guarded: bool) -> str:
    """The insert of `rows` rows of `columns`: a crawl writes the same few texts thousands of
    times (a chunk's pages and issues, ten issues a statement)."""
    row_placeholder = "(" + ", ".join("?" for _ in columns) + ")"
    values = ", ".join(row_placeholder for _ in range(rows))
    if guarded:
        # VALUES as a subquery names its columns column1..N, in the insert's column order.
        body = f"SELECT * FROM (VALUES {values}) WHERE {RUNNING_GUARD}"
    else:
        body = f"VALUES {values}"
    return f"{verb} ({', '.join(columns)}) {body}"


def _bindable_values(group: list[JsonObject], columns: list[str]) -> list[SqlValue]:
    """The group's values, row by row, each one D1 can bind: rows come from `to_row()`, which
    flattens lists to JSON text. Checked by their exact types in one pass, and one by one only
    when some value is of another type (a subclass of a scalar, or a refused one)."""
    values = [row[column] for row in group for column in columns]
    if set(map(type, values)) <= _SQL_SCALARS:
        return values  # type: ignore[return-value]  # every value's exact type checked above
    return [_bindable(value) for value in values]


_SQL_SCALARS = frozenset({str, int, float, type(None)})


def _bindable(value: JsonValue) -> SqlValue:
    if value is None or isinstance(value, str | int | float):
        return value
    raise TypeError(f"cannot bind a {type(value).__name__} to a D1 parameter")
