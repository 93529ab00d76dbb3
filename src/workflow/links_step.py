"""The keep-links-N steps: the link graph the report keeps, copied to D1 before finalize wipes the
scratchpad (audit.link_graph).

Right after the Lighthouse phase and before `finalize`, each step copies the kept lists of up to
`PAGES_PER_STEP` crawled pages, in URL order from where the previous step stopped: it reads them
from the scratchpad an answer at a time (`Scratchpad.link_graph`, durable.link_graph: a few
hundred pages, at most about 1 MB) and writes each answer as one D1 batch
(auditdb.page_links.write_page_links), so it holds one answer whatever the crawl's size, and its
D1 statements and RPC calls stay a few dozen, far under a Worker invocation's 1,000 D1 queries
(docs/platform.md §3.2). The step returns where the next one starts; a retried step starts from
the same URL and rewrites the same rows (INSERT OR REPLACE on the page), so a page's row is
written once however often its step runs. A 100,000-page audit takes 20 steps.

A step that finds its audit no longer running (cancelled or deleted while the terminate had not
reached this instance) copies nothing, and the run stops there, as the external-links steps do.
"""

from __future__ import annotations

from dataclasses import dataclass

from auditdb import repository
from auditdb.page_links import write_page_links
from auditdb.records import AuditPhase
from common.bindings import D1Database
from common.wire import JsonRecord
from durable.client import Scratchpad
from durable.link_graph import DEFAULT_PAGES, LinkGraphRequest
from workflow import step_configs
from workflow.audit_run import AuditRun
from workflow.steps import durable_step

__all__ = ["PAGES_PER_STEP", "LinksReport", "copy_links", "keep_links"]

PAGES_PER_STEP = 5_000


@dataclass(frozen=True, slots=True)
class LinksReport(JsonRecord):
    """What one keep-links-N step returns: how many pages' links it wrote, and the URL the next
    step starts after (None: every crawled page's links are kept)."""

    pages: int
    next_after: str | None
    running: bool = True  # False: the audit was no longer running, nothing was copied


async def keep_links(run: AuditRun) -> int:
    """Run keep-links-1, -2, ... until every crawled page's links are in D1; returns the pages."""
    after, step_no, pages = "", 0, 0
    while True:
        step_no += 1
        report = await _links_step(run, step_no, after)
        if not report.running:
            # Raised outside the step, from its stored result, so a replay raises it again.
            raise run.non_retryable(f"audit {run.audit_id} is no longer running")
        pages += report.pages
        if report.next_after is None:
            return pages
        after = report.next_after


async def _links_step(run: AuditRun, step_no: int, after: str) -> LinksReport:
    async def keep() -> LinksReport:
        if not await run.still_running():
            return LinksReport(0, None, running=False)
        if step_no == 1:
            await repository.set_phase(run.env.DB, run.audit_id, AuditPhase.FINALIZING)
        return await copy_links(run.env.DB, run.scratchpad(), run.audit_id, after)

    name = f"keep-links-{step_no}"
    return await durable_step(run.step, name, step_configs.LINKS_STEP, LinksReport, keep)


async def copy_links(
    db: D1Database, pad: Scratchpad, audit_id: str, after: str, limit: int = PAGES_PER_STEP
) -> LinksReport:
    """Copy the kept lists of up to `limit` crawled pages after `after` from the scratchpad to
    D1, one scratchpad answer (and one D1 batch) at a time."""
    copied = 0
    while copied < limit:
        answer = await pad.link_graph(LinkGraphRequest(after, min(DEFAULT_PAGES, limit - copied)))
        copied += await write_page_links(db, audit_id, answer.rows)
        if answer.next_after is None:
            return LinksReport(copied, None)
        after = answer.next_after
    return LinksReport(copied, after)
