"""An audit's pages or issues as CSV (RFC 4180) or NDJSON, produced one keyset page at a time.

`export_rows` turns the pages of records that `service.lists.iter_pages`/`iter_issues` yield into
encoded chunks: a header line first (CSV), then one chunk per page of rows, so whoever streams the
chunks never holds more than one page of rows. `export_pages` and `export_issues` check the owner
first, so a refusal comes before the first byte, and hand the API an `Export` to stream
(`GET /api/audits/{id}/pages.csv` and its siblings in api/routes.py).

Spreadsheet safety: a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is read
as a formula by Excel, LibreOffice and Google Sheets (OWASP "CSV Injection"), and crawled pages
carry text chosen by whoever wrote the site (titles, URLs). Such cells get a leading apostrophe,
which spreadsheets show as text and hide. NDJSON is for programs and is written unchanged.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Sequence
from contextlib import aclosing
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import TYPE_CHECKING

from auditdb import lighthouse
from auditdb.listing import IssueFilter, PageFilter
from auditdb.records import MAX_LIGHTHOUSE_PAGES, IssueRecord, PageRecord
from common.bindings import Env
from service.audits import owned_audit
from service.lists import iter_issues, iter_pages

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


class ExportFormat(StrEnum):
    CSV = "csv"
    NDJSON = "ndjson"

    @property
    def media_type(self) -> str:
        if self is ExportFormat.CSV:
            return "text/csv; charset=utf-8; header=present"  # RFC 4180 §3, RFC 7111
        return "application/x-ndjson"


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NEEDS_QUOTES = frozenset(',"\r\n')

# Columns, in export order: the records' own fields (lists and objects become JSON text in CSV).
PAGE_COLUMNS = tuple(f.name for f in fields(PageRecord))
ISSUE_COLUMNS = tuple(f.name for f in fields(IssueRecord))
LIGHTHOUSE_COLUMNS = (
    "page_url",
    "strategy",
    "performance_score",
    "accessibility_score",
    "best_practices_score",
    "seo_score",
    "lcp_ms",
    "cls",
    "inp_ms",
    "ttfb_ms",
    "field_scope",
    "field_lcp_ms",
    "field_inp_ms",
    "field_cls",
    "error_message",
    "r2_key",
    "payload_size_bytes",
    "page_id",
    "id",
)


def csv_cell(value: object) -> str:
    """One CSV field: text, numbers, booleans as true/false, lists and objects as JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        # Only text can smuggle a formula; a number such as -5 is a number.
        text = "'" + value if value.startswith(_FORMULA_STARTS) else value
    elif isinstance(value, int | float):
        text = str(value)
    else:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    if _NEEDS_QUOTES.intersection(text):
        text = '"' + text.replace('"', '""') + '"'
    return text


def csv_line(values: Sequence[object]) -> str:
    """One CSV record with the CRLF line break RFC 4180 §2 asks for."""
    cells = [csv_cell(value) for value in values]
    if cells == [""]:
        cells = ['""']  # a lone empty field written bare would read back as no field at all
    return ",".join(cells) + "\r\n"


def _row(record: DataclassInstance, columns: Sequence[str]) -> list[object]:
    return [getattr(record, name) for name in columns]


def _ndjson_line(record: PageRecord | IssueRecord) -> str:
    return json.dumps(record.to_dict(), sort_keys=True, ensure_ascii=False) + "\n"


async def export_rows(
    pages: AsyncGenerator[list[PageRecord]] | AsyncGenerator[list[IssueRecord]],
    columns: Sequence[str],
    fmt: ExportFormat,
) -> AsyncGenerator[bytes]:
    """Encoded chunks: the CSV header, then one chunk per page of records.

    Closing it closes `pages` at once (a client that went away stops the walk), rather than
    leaving the walk for the garbage collector's finalizer to close later."""
    async with aclosing(pages):
        if fmt is ExportFormat.CSV:
            yield csv_line(columns).encode()
        async for rows in pages:
            if fmt is ExportFormat.CSV:
                chunk = "".join(csv_line(_row(row, columns)) for row in rows)
            else:
                chunk = "".join(_ndjson_line(row) for row in rows)
            yield chunk.encode()


def file_name(audit_id: str, what: str, fmt: ExportFormat) -> str:
    """A download name that says what the file holds: `siteaudit-<audit id>-pages.csv`."""
    return f"siteaudit-{audit_id}-{what}.{fmt.value}"


@dataclass(frozen=True, slots=True)
class Export:
    """An export ready to stream: its download name, media type and encoded chunks."""

    file_name: str
    media_type: str
    chunks: AsyncGenerator[bytes]


async def export_pages(
    env: Env, owner: str, audit_id: str, filter_: PageFilter, fmt: ExportFormat
) -> Export:
    """The audit's pages (filtered as the list is) in url order; `AuditNotFound` before any row.

    `iter_pages` checks the owner again when the first page is read: one more indexed read, and
    the walk stays safe on its own."""
    audit = await owned_audit(env, owner, audit_id)
    pages = iter_pages(env, owner, audit.id, filter_)
    chunks = export_rows(pages, PAGE_COLUMNS, fmt)
    return Export(file_name(audit.id, "pages", fmt), fmt.media_type, chunks)


async def export_issues(
    env: Env, owner: str, audit_id: str, filter_: IssueFilter, fmt: ExportFormat
) -> Export:
    """The audit's issues (filtered as the list is) in list order; `AuditNotFound` before any row."""
    audit = await owned_audit(env, owner, audit_id)
    issues = iter_issues(env, owner, audit.id, filter_)
    chunks = export_rows(issues, ISSUE_COLUMNS, fmt)
    return Export(file_name(audit.id, "issues", fmt), fmt.media_type, chunks)


async def export_lighthouse(env: Env, owner: str, audit_id: str) -> Export:
    """The audit's Lighthouse rows as CSV, one line per page and strategy (at most 100 rows,
    so one chunk); `AuditNotFound` before any row."""
    audit = await owned_audit(env, owner, audit_id)
    rows = await lighthouse.list_results(env.DB, audit.id, limit=2 * MAX_LIGHTHOUSE_PAGES)
    fmt = ExportFormat.CSV

    async def chunks() -> AsyncGenerator[bytes]:
        flat = [row.flat() for row in rows]
        yield csv_line(LIGHTHOUSE_COLUMNS).encode()
        yield "".join(csv_line([row[c] for c in LIGHTHOUSE_COLUMNS]) for row in flat).encode()

    return Export(file_name(audit.id, "lighthouse", fmt), fmt.media_type, chunks())
