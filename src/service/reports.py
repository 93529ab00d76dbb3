"""The full report of an audit: one gzip JSON document in R2, or rebuilt from D1 when R2 has none.

The document (`FORMAT` names its version) holds everything the audit produced:

    {"format": "siteaudit-report/3",
     "audit": {...the audits row...},
     "scope": {"mode", "facts", "not_checked"},  (service.scope_report)
     "summary": {"issues_total", "issues_by_severity", "issues_by_type"},
     "security": {"status", "grade", "score", "reason", "tests"},  (auditdb.security_grades)
     "exposure": {"status", "summary"},  (auditdb.exposure_issues)
     "lighthouse": {"status", "total", "completed", "failed", "results": [...rows]},
     "structured_data": {"pages", "types", "features", "kinds", "issue_types", ...} or null,
     "issues": [...every audit_issues row, in list order...],
     "pages": [...every audit_pages row, in url order...],
     "links": {"kept", "listed", "pages": [...]}}

`links` (added by version 2; a version 1 document has none, which reads as links not kept) holds
the link lists of the pages the HTML report's per-URL view shows (the first
`html_pages.PAGE_VIEWS` by URL), exactly as it shows them (service.page_links.view_links): per
page `{"url", "inlinks_total", "outlinks_total", "inlinks", "outlinks", "complete"}`
(audit.link_graph.PageLinkLists) with at most `listed` links a direction (service.page_links:
10, fewer when more than 5,000 pages are in view), each `{"url",
"anchor", "anchor_kind", "nofollow", "external", "status_code"}`. `kept` is false, and `pages`
empty, for an audit that kept no links (one that did not complete, or finished before siteaudit
kept them); every kept link of one page is `GET /api/audits/{id}/pages/links`.

`structured_data` (added by version 3; absent before, read as none) is the audit's structured-data
summary as finalize stored it (auditdb.structured_data.StructuredSummary), null for an audit that
was not finalized.

It is written as it is read: the rows come one keyset page at a time (`service.lists.iter_issues`
and `iter_pages`), each page is serialised and fed to one gzip compressor, and only the compressed
output accumulates. A 100,000-row audit never exists as a Python list or a JSON string; what is
held is one page of rows plus the compressed bytes, which R2's `put` needs whole.

R2 fails safely (monitoring design, docs/monitoring.md in the project notes; issue 11 item 6):
- `store_report` is called after the caller has written its D1 row; if the put fails it logs and
  returns None ("no report"), never raising, so the run that produced the audit still succeeds.
- `read_report` tries R2 first; when the object is missing or R2 fails, it assembles the same
  document from the D1 rows, so a reader gets the report either way (`ReportBody.source` says
  which). Both paths run the same builder, so the two are equal while the rows are unchanged.
Key scheme: `service.report_keys`.
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import AsyncIterator, Mapping
from contextlib import aclosing
from dataclasses import dataclass
from enum import StrEnum

from audit.link_graph import PageLinkLists
from auditdb import exposure_issues, lighthouse, security_grades, structured_data, summary
from auditdb.listing import PageFilter
from auditdb.records import MAX_LIGHTHOUSE_PAGES, AuditRecord
from common.bindings import Env
from common.wire import JsonObject, JsonRecord, JsonValue, as_list, as_object
from service import lists, page_links
from service.audits import owned_audit
from service.html_pages import PAGE_VIEWS
from service.report_keys import report_key
from service.scope_report import scope_summary

log = logging.getLogger("siteaudit.reports")

FORMAT = "siteaudit-report/3"  # 2: "links"; 3: "structured_data" (the module docstring)
CONTENT_TYPE = "application/json"
CONTENT_ENCODING = "gzip"
# zlib's wbits 16 + 15 writes a gzip member (RFC 1952) with a zeroed mtime, so the same document
# always compresses to the same bytes (zlib manual, deflateInit2).
_GZIP_WBITS = 16 + zlib.MAX_WBITS
_LEVEL = 6  # zlib's default: most of level 9's ratio for a fraction of its CPU


class ReportSource(StrEnum):
    R2 = "r2"
    D1 = "d1"  # rebuilt from the rows: R2 had no object, or failed


@dataclass(frozen=True, slots=True)
class StoredReport(JsonRecord):
    """What a run's D1 row records about its report object."""

    key: str
    size: int  # compressed bytes, as stored


@dataclass(frozen=True, slots=True)
class ReportBody:
    """The gzip-compressed JSON document and where it came from."""

    body: bytes
    source: ReportSource


def _json(value: JsonValue) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


async def _document(env: Env, audit: AuditRecord) -> AsyncIterator[str]:
    """The document as JSON text, in pieces of at most one keyset page of rows."""
    counts = await summary.issue_counts(env.DB, audit.id)
    head: JsonObject = {
        "format": FORMAT,
        "audit": audit.to_dict(),
        "scope": scope_summary(audit.options).to_dict(),
        "summary": {
            "issues_total": counts.total,
            "issues_by_severity": counts.by_severity,
            "issues_by_type": counts.by_type,
        },
        "security": (await security_grades.read_security(env.DB, audit)).to_dict(),
        "exposure": (await exposure_issues.read_exposure(env.DB, audit)).to_dict(),
        "lighthouse": await _lighthouse(env, audit),
        "structured_data": await _structured(env, audit),
    }
    yield _json(head)[:-1] + ',"issues":['
    first = True
    async for issues in lists.iter_issues(env, audit.owner, audit.id):
        yield ("" if first else ",") + ",".join(_json(row.to_dict()) for row in issues)
        first = False
    yield '],"pages":['
    first = True
    async for pages in lists.iter_pages(env, audit.owner, audit.id):
        yield ("" if first else ",") + ",".join(_json(row.to_dict()) for row in pages)
        first = False
    yield "]"
    async for text in _links(env, audit):
        yield text
    yield "}"


async def _links(env: Env, audit: AuditRecord) -> AsyncIterator[str]:
    """The `links` section: the view's lists of the pages in view, a keyset page at a time."""
    kept, listed = await links_in_view(env, audit)
    yield f',"links":{{"kept":{_json(kept)},"listed":{listed},"pages":['
    first = True
    async for batch in link_lists_in_view(env, audit, listed):
        yield ("" if first else ",") + ",".join(_json(page.to_dict()) for page in batch)
        first = False
    yield "]}"


async def links_in_view(env: Env, audit: AuditRecord) -> tuple[bool, int]:
    """Whether the audit kept its links, and how many a direction the view lists a page."""
    kept = await page_links.links_kept(env, audit.id)
    total = await lists.count_pages(env, audit.owner, audit.id, PageFilter())
    return kept, page_links.view_limit(min(total, PAGE_VIEWS))


async def link_lists_in_view(
    env: Env, audit: AuditRecord, listed: int
) -> AsyncIterator[list[PageLinkLists]]:
    """The link lists of the pages the HTML report's per-URL view shows (the first `PAGE_VIEWS`
    by URL), `listed` links a direction, a non-empty batch of `VIEW_BATCH` pages at most at a
    time; nothing for an audit that kept no links."""
    if not await page_links.links_kept(env, audit.id):
        return
    left = PAGE_VIEWS
    async with aclosing(lists.iter_pages(env, audit.owner, audit.id)) as walk:
        async for pages in walk:
            urls = [page.url for page in pages[:left]]
            for start in range(0, len(urls), page_links.VIEW_BATCH):
                part = urls[start : start + page_links.VIEW_BATCH]
                found = await page_links.view_links(env, audit.id, part, listed)
                batch = [found[url] for url in part if url in found]
                if batch:
                    yield batch
            left -= len(urls)
            if left <= 0:
                break


def links_in(document: Mapping[str, object]) -> dict[str, PageLinkLists] | None:
    """The link lists a document holds, by page URL; None when it holds none: a version 1
    document (written before reports had links) or an audit that kept no links."""
    section = document.get("links")
    if not isinstance(section, Mapping) or not section.get("kept"):
        return None
    pages = (PageLinkLists.from_dict(as_object(page)) for page in as_list(section["pages"]))
    return {page.url: page for page in pages}


async def _lighthouse(env: Env, audit: AuditRecord) -> JsonObject:
    """The Lighthouse phase's outcome and every row (at most 2 x MAX_LIGHTHOUSE_PAGES)."""
    rows = await lighthouse.list_results(env.DB, audit.id, limit=2 * MAX_LIGHTHOUSE_PAGES)
    return {
        "status": None if audit.lighthouse_status is None else str(audit.lighthouse_status),
        "total": audit.lighthouse_total,
        "completed": audit.lighthouse_completed,
        "failed": audit.lighthouse_failed,
        "results": [row.to_dict() for row in rows],
    }


async def _structured(env: Env, audit: AuditRecord) -> JsonObject | None:
    summary = await structured_data.read_summary(env.DB, audit.id)
    return None if summary is None else summary.to_dict()


async def build_report(env: Env, audit: AuditRecord) -> bytes:
    """The audit's full report from its D1 rows, gzip-compressed as it is serialised."""
    compressor = zlib.compressobj(_LEVEL, zlib.DEFLATED, _GZIP_WBITS)
    chunks: list[bytes] = []
    async for text in _document(env, audit):
        chunks.append(compressor.compress(text.encode("utf-8")))
    chunks.append(compressor.flush())
    return b"".join(chunks)


async def store_report(env: Env, audit: AuditRecord) -> StoredReport | None:
    """Write the audit's report to R2; None (logged) when R2 refuses the put.

    The caller writes its D1 row first: a missing report never undoes a finished run. Reading
    the rows from D1 is not guarded: D1 failing is the caller's to retry, like any other step.
    """
    body = await build_report(env, audit)
    key = report_key(audit.owner, audit.id)
    try:
        await env.REPORTS.put(
            key, body, httpMetadata={"contentType": CONTENT_TYPE, "contentEncoding": "gzip"}
        )
    except Exception as exc:  # the binding raises JsException, whose type core code cannot name
        log.warning("report %s not stored (%d bytes): %s", key, len(body), exc)
        return None
    return StoredReport(key, len(body))


async def read_report(env: Env, owner: str, audit_id: str) -> ReportBody:
    """The owner's audit report: from R2, else rebuilt from D1 (`AuditNotFound` for another
    owner's audit or an unknown id, checked in D1 before R2 is asked)."""
    audit = await owned_audit(env, owner, audit_id)
    stored = await _stored(env, report_key(audit.owner, audit.id))
    if stored is not None:
        return ReportBody(stored, ReportSource.R2)
    return ReportBody(await build_report(env, audit), ReportSource.D1)


async def _stored(env: Env, key: str) -> bytes | None:
    try:
        found = await env.REPORTS.get(key)
        if found is None:
            return None
        # A memoryview on both platforms (docs/platform.md §7); bytes() copies it out of JS memory.
        return bytes(await found.arrayBuffer())
    except Exception as exc:  # JsException: fall back to the rows
        log.warning("report %s not read from R2, rebuilding it from D1: %s", key, exc)
        return None
