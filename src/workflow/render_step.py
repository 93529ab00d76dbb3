"""Rendering, in steps of its own after each crawl chunk that queued pages (issue 30,
docs/rendering.md):

    render-N-K    after crawl-chunk-N queued pages (ChunkReport.render_queued), K = 1, 2, ...
                  until none waits: up to PAGES_PER_STEP pages rendered, RENDER_CONCURRENCY at
                  once, each audited with the page rules (crawl.rendered_pages) and written over
                  its raw rows, its new links queued as script links; NO retries

Rendering never runs inside the raw crawl: a render costs about as much as hundreds of raw
fetches (docs/rendering.md, "Local figures"). As with the Lighthouse phase
(workflow.lighthouse_step), a render step has no retries, so a replay hands back its stored
counters instead of rendering again (a render is charged browser time); a step that fails anyway
(its timeout) leaves its pages leased, which the tally counts as failed, and the audit goes on.
The results stay in the AuditScratchpad (durable.render_queue); step results are counters.

Each render keeps the audit's robots.txt (crawl.render_robots: a request it disallows on the
audited site is refused and recorded) and its per-host pace: a step starts from the pace the
step before it left (workflow.pace), the local renderer's every fetch waits for its host's turn,
and the step hands its pace on (`RenderReport.next_request_at`) to the next render step or crawl
chunk.

Accessibility (issue 31 item 2): the first AXE_PAGES pages an audit renders are rendered with
`RenderBudget.accessibility`, so a renderer that can run axe-core does (the local Chromium:
docs/accessibility.md, "Rendered pages") and the rendered page's observation carries its merged
findings (crawl.rendered_pages). The bound is kept across steps through the render queue's
tally: a step asks it of at most AXE_PAGES minus the pages already rendered.

Nothing is rendered when the audit's option is `never` or no renderer is configured: each queued
page is marked skipped with the reason, and finalize says how many app shells rendering would
have shown (`RenderTally.shells_not_rendered`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace

from audit.rendering_rules import RenderNotDoneReason
from auditdb import repository
from auditdb.rendering import RenderSummary, record_render_summary
from common import settings
from common.deployment import DeploymentVars
from common.ports import HttpClient
from common.wire import JsonRecord
from crawl.chunk import ChunkIO, ChunkPlan, persist_batch
from crawl.discovery import fetch_robots
from crawl.host_robots import HostRobots, ReadRobots
from crawl.page_pipeline import CrawlScope
from crawl.render_robots import RenderRobots
from crawl.rendered_pages import RenderedPair, not_rendered_issues, rendered_pair
from durable.records import BatchResult, RenderCandidate, RenderOutcome
from durable.render_queue import RenderState
from render.records import RenderBudget, RenderedPage, RenderMode
from render.renderer import Renderer
from render.renderers import close_renderer, configured_renderer
from workflow import step_configs
from workflow.audit_run import AuditRun
from workflow.pace import paced, site_rate
from workflow.steps import durable_step

__all__ = [
    "AXE_PAGES",
    "PAGES_PER_STEP",
    "RenderReport",
    "budgets",
    "record_summary",
    "render_queued",
]

log = logging.getLogger("siteaudit.workflow")

# Pages one render step renders: at the budget's 20 s a page, two at a time, 80 s at most.
PAGES_PER_STEP = 8
RENDER_CONCURRENCY = 2
# Pages one step marks skipped when nothing renders: a row write each, no browser.
SKIPS_PER_STEP = 500
# Render steps after one chunk at most (a chunk claims at most CRAWL.chunk_target_pages pages).
MAX_STEPS_PER_CHUNK = 1_000
NEVER_REASON = "the audit's render option is never"
# Rendered pages per audit that axe-core runs on: a run costs up to a11y.axe.AXE_TIME_S on top
# of the render, and a site's templates repeat, so the first pages rendered (app shells first,
# then auto's sample: render.decision) show most of what it finds.
AXE_PAGES = 10


@dataclass(frozen=True, slots=True)
class RenderReport(JsonRecord):
    """render-N-K: pages claimed, what became of them, pages still waiting after the claim, and
    URLs the rendered pages brought into the frontier (script links)."""

    claimed: int = 0
    rendered: int = 0
    failed: int = 0
    skipped: int = 0
    pending: int = 0
    discovered: int = 0
    # The frontier's URLs pending or leased after the step's writes; None when it wrote none.
    frontier_pending: int | None = None
    # The pace the step leaves: per host, the epoch second its next request may start
    # (workflow.pace).
    next_request_at: dict[str, float] = field(default_factory=dict)


type ScopeOf = Callable[[], Awaitable[CrawlScope]]


async def render_queued(run: AuditRun, scope_of: ScopeOf, chunk_no: int) -> RenderReport:
    """Render what crawl-chunk-N queued, step after step; the counters summed. `scope_of` reads
    the audit's crawl scope inside each step (workflow.site_audit.crawl_scope). Each step starts
    from the pace the one before it left, and the total carries the last one's."""
    total = RenderReport(next_request_at=run.pace)
    for k in range(1, MAX_STEPS_PER_CHUNK + 1):
        report = await _render_step(replace(run, pace=total.next_request_at), scope_of, chunk_no, k)
        total = RenderReport(
            claimed=total.claimed + report.claimed,
            rendered=total.rendered + report.rendered,
            failed=total.failed + report.failed,
            skipped=total.skipped + report.skipped,
            pending=report.pending,
            discovered=total.discovered + report.discovered,
            frontier_pending=(
                total.frontier_pending
                if report.frontier_pending is None
                else report.frontier_pending
            ),
            next_request_at=report.next_request_at,
        )
        if report.claimed == 0 or report.pending == 0:
            break
    return total


async def _render_step(run: AuditRun, scope_of: ScopeOf, chunk_no: int, k: int) -> RenderReport:
    async def render_pages() -> RenderReport:
        if not await run.still_running():
            return RenderReport()  # cancelled: spend no browser time on it
        scope = await scope_of()
        http = await run.http()
        # At the audit's rate, from where the step before left it (workflow.pace).
        site_http = paced(http, await site_rate(run), run)
        robots = RenderRobots(
            scope.policy, HostRobots(scope.policy, _robots_reader(run, site_http))
        )
        deployment = DeploymentVars.from_env(run.env)
        private_hosts = run.params.options.private_hosts
        renderer = configured_renderer(deployment, http, private_hosts, robots, site_http)
        try:
            report = await _render_claimed(run, scope, renderer, _step_key(chunk_no, k))
        finally:
            await close_renderer(renderer)
        return replace(report, next_request_at=site_http.carried())

    try:
        return await durable_step(
            run.step, f"render-{chunk_no}-{k}", step_configs.RENDER_STEP, RenderReport, render_pages
        )
    except Exception as exc:  # its timeout: its pages stay leased (failed); the audit goes on
        log.warning("audit %s: render-%d-%d failed: %s", run.audit_id, chunk_no, k, exc)
        return RenderReport(next_request_at=run.pace)


def _step_key(chunk_no: int, k: int) -> int:
    """The lease key of render-N-K in the render queue, unique within the audit."""
    return chunk_no * MAX_STEPS_PER_CHUNK + k


async def _render_claimed(
    run: AuditRun, scope: CrawlScope, renderer: Renderer, key: int
) -> RenderReport:
    pad = run.scratchpad()
    reason = skip_reason(run.params.options.render, renderer)
    claim = await pad.claim_renders(key, SKIPS_PER_STEP if reason else PAGES_PER_STEP)
    candidates = claim.candidates
    if reason is not None:
        skipped = [RenderOutcome(c.url, RenderState.SKIPPED.value, reason) for c in candidates]
        never = run.params.options.render is RenderMode.NEVER  # as skip_reason decided
        why = RenderNotDoneReason.MODE_NEVER if never else RenderNotDoneReason.NOT_CONFIGURED
        await _not_rendered(run, scope, [(c, why, reason) for c in candidates])
        await pad.record_renders(skipped)
        return RenderReport(claimed=len(candidates), skipped=len(skipped), pending=claim.pending)
    rendered_before = (await pad.render_tally()).rendered
    pages = await _rendered(renderer, candidates, budgets(len(candidates), rendered_before))
    pairs = [
        rendered_pair(scope, candidate, page)
        for candidate, page in zip(candidates, pages, strict=True)
        if page.ok
    ]
    written = await _persist(run, scope, pairs)
    failed = [
        (c, RenderNotDoneReason.RENDER_FAILED, _failure(p))
        for c, p in zip(candidates, pages, strict=True)
        if not p.ok
    ]
    await _not_rendered(run, scope, failed)
    await pad.record_renders([_outcome(c, p) for c, p in zip(candidates, pages, strict=True)])
    return RenderReport(
        claimed=len(candidates),
        rendered=len(pairs),
        failed=len(candidates) - len(pairs),
        pending=claim.pending,
        discovered=0 if written is None else written.enqueued,
        frontier_pending=None if written is None else written.stats.pending + written.stats.leased,
    )


async def _not_rendered(
    run: AuditRun,
    scope: CrawlScope,
    pages: Sequence[tuple[RenderCandidate, RenderNotDoneReason, str]],
) -> None:
    """`rendering-not-done` on each app shell among `pages` (crawl.rendered_pages); its id is
    deterministic, so a replay inserts nothing twice."""
    issues = [
        issue
        for candidate, why, detail in pages
        for issue in not_rendered_issues(scope, candidate, why, detail)
    ]
    if issues:
        await repository.insert_issues(run.env.DB, issues)


def _failure(page: RenderedPage) -> str:
    return page.error or (page.failure.value if page.failure is not None else "the render failed")


def skip_reason(mode: RenderMode, renderer: Renderer) -> str | None:
    """Why nothing is rendered (the option, or no renderer), or None: render."""
    if mode is RenderMode.NEVER:
        return NEVER_REASON
    return renderer.unavailable


def budgets(count: int, rendered_before: int) -> list[RenderBudget]:
    """The budgets of a step's `count` pages, when the audit rendered `rendered_before` pages
    before it: accessibility asked of the first ones while the audit's AXE_PAGES last."""
    allowance = max(0, AXE_PAGES - rendered_before)
    return [RenderBudget(accessibility=n < allowance) for n in range(count)]


async def _rendered(
    renderer: Renderer, candidates: Sequence[RenderCandidate], budgets: Sequence[RenderBudget]
) -> list[RenderedPage]:
    """Each page rendered within its budget, at most RENDER_CONCURRENCY at once; a render never
    raises."""
    gate = asyncio.Semaphore(RENDER_CONCURRENCY)

    async def render(candidate: RenderCandidate, budget: RenderBudget) -> RenderedPage:
        async with gate:
            return await renderer.render(candidate.url, budget)

    return list(
        await asyncio.gather(*(render(c, b) for c, b in zip(candidates, budgets, strict=True)))
    )


def _outcome(candidate: RenderCandidate, page: RenderedPage) -> RenderOutcome:
    if page.ok:
        return RenderOutcome(candidate.url, RenderState.RENDERED.value)
    return RenderOutcome(candidate.url, RenderState.FAILED.value, _failure(page))


async def _persist(
    run: AuditRun, scope: CrawlScope, pairs: Sequence[RenderedPair]
) -> BatchResult | None:
    """Write the rendered pages over their raw rows (None: there were none)."""
    if not pairs:
        return None
    # Each pair's issues hold the rendered page's findings and the raw-versus-rendered ones
    # (crawl.rendered_pages.rendered_pair).
    http = await run.http()
    options = run.params.options
    io = ChunkIO(pad=run.scratchpad(), db=run.env.DB, http=http)
    plan = ChunkPlan(chunk_no=0, limit=0, max_pages=options.max_pages)
    return await persist_batch(
        scope,
        plan,
        io,
        [pair.page for pair in pairs],
        HostRobots(scope.policy, _robots_reader(run, http)),
        from_rendered=True,
    )


def _robots_reader(run: AuditRun, http: HttpClient) -> ReadRobots:
    """An origin's robots.txt text, read through `http` as the crawl reads it."""
    options = run.params.options
    headers = settings.CRAWL.headers_for(options.scope.user_agent)

    async def read_robots(origin: str) -> str:
        return (
            await fetch_robots(http, origin, private_hosts=options.private_hosts, headers=headers)
        )[1]

    return read_robots


async def record_summary(run: AuditRun) -> RenderSummary:
    """The render queue's tally, stored on the audit for its reports (auditdb.rendering); part
    of the finalize step, before the scratchpad is wiped."""
    counts = await run.scratchpad().render_tally()
    summary = RenderSummary(run.params.options.render, counts)
    await record_render_summary(run.env.DB, run.audit_id, summary)
    return summary
