"""`Scratchpad`: the typed caller side of the AuditScratchpad Durable Object.

Wraps the RPC stub (`bindings.ScratchpadStub`, JSON in and out) so callers send and receive the
records of `durable.records` and `durable.finalize`; each method is one row of `durable.rpc`,
which converts both ways, so nothing outside that module indexes a dict an RPC returned. One
object per audit, addressed by `idFromName(audit id)`. Beyond the table: `for_audit` and the
paged reads to their end, `all_sitemap_blocked_urls` and `all_site_facts`.
"""

from __future__ import annotations

from collections.abc import Sequence

from audit.external_links import ExternalStop
from common.bindings import Env, ScratchpadStub
from durable import rpc
from durable.finalize import FinalizeOptions, FinalizePage
from durable.link_graph import LinkGraphPage, LinkGraphRequest
from durable.records import (
    BatchResult,
    Claim,
    ClaimRequest,
    ConfigSaved,
    CrawlConfig,
    Destroyed,
    ExternalCheck,
    ExternalClaim,
    ExternalClaimRequest,
    ExternalStopped,
    FrontierStats,
    LinkBatch,
    Progress,
    ProgressRequest,
    RecordBatch,
    ReleaseResult,
    RenderClaim,
    RenderOutcome,
    ResourceCheck,
    ResourceClaim,
    ResumeState,
    SeedResult,
    SiteFact,
    SiteFactKind,
    SiteFactsPage,
    SiteFactsRequest,
    SitemapBlockedPage,
    SitemapBlockedRequest,
)
from render.records import RenderCounts

__all__ = ["Scratchpad"]


class Scratchpad:
    def __init__(self, stub: ScratchpadStub) -> None:
        self.stub = stub

    @classmethod
    def for_audit(cls, env: Env, audit_id: str) -> Scratchpad:
        namespace = env.AUDIT_SCRATCHPAD
        return cls(namespace.get(namespace.idFromName(audit_id)))

    # -- lifecycle and configuration --------------------------------------------------------

    async def destroy(self) -> Destroyed:
        return await rpc.DESTROY.call(self.stub)

    async def save_crawl_config(self, config: CrawlConfig) -> ConfigSaved:
        return await rpc.SAVE_CRAWL_CONFIG.call(self.stub, config)

    async def crawl_config(self) -> CrawlConfig:
        return await rpc.CRAWL_CONFIG.call(self.stub)

    # -- seeding ----------------------------------------------------------------------------

    async def seed_start(self, url: str) -> SeedResult:
        return await rpc.SEED_START.call(self.stub, url)

    async def seed_sitemap_urls(self, urls: Sequence[str]) -> SeedResult:
        return await rpc.SEED_SITEMAP_URLS.call(self.stub, urls)

    async def note_sitemap_blocked(self, urls: Sequence[str]) -> SeedResult:
        return await rpc.NOTE_SITEMAP_BLOCKED.call(self.stub, urls)

    async def sitemap_blocked_urls(self, request: SitemapBlockedRequest) -> SitemapBlockedPage:
        return await rpc.SITEMAP_BLOCKED_URLS.call(self.stub, request)

    async def all_sitemap_blocked_urls(self) -> list[str]:
        """Every robots-blocked sitemap URL, in URL order, read page by page."""
        urls: list[str] = []
        while page := (
            await self.sitemap_blocked_urls(SitemapBlockedRequest(urls[-1] if urls else ""))
        ).urls:
            urls.extend(page)
        return urls

    # -- the crawl's security and exposure facts --------------------------------------------

    async def site_facts(self, request: SiteFactsRequest) -> SiteFactsPage:
        return await rpc.SITE_FACTS.call(self.stub, request)

    async def all_site_facts(self, kind: SiteFactKind) -> list[SiteFact]:
        """Every fact of `kind`, in value order, read page by page."""
        facts: list[SiteFact] = []
        while page := (
            await self.site_facts(SiteFactsRequest(kind, facts[-1].value if facts else ""))
        ).facts:
            facts.extend(page)
        return facts

    # -- the frontier -----------------------------------------------------------------------

    async def claim_chunk(self, chunk_no: int, limit: int) -> Claim:
        return await rpc.CLAIM_CHUNK.call(self.stub, ClaimRequest(chunk_no, limit))

    async def claim_more(self, chunk_no: int, limit: int) -> Claim:
        return await rpc.CLAIM_MORE.call(self.stub, ClaimRequest(chunk_no, limit))

    async def release_urls(self, urls: Sequence[str]) -> ReleaseResult:
        return await rpc.RELEASE_URLS.call(self.stub, urls)

    async def record_batch(self, batch: RecordBatch) -> BatchResult:
        return await rpc.RECORD_BATCH.call(self.stub, batch)

    async def record_links(self, batch: LinkBatch) -> BatchResult:
        return await rpc.RECORD_LINKS.call(self.stub, batch)

    async def claim_resources(self, chunk_no: int, limit: int) -> ResourceClaim:
        return await rpc.CLAIM_RESOURCES.call(self.stub, ClaimRequest(chunk_no, limit))

    async def record_resources(self, checks: Sequence[ResourceCheck]) -> SeedResult:
        return await rpc.RECORD_RESOURCES.call(self.stub, checks)

    async def release_resources(self, urls: Sequence[str]) -> ReleaseResult:
        return await rpc.RELEASE_RESOURCES.call(self.stub, urls)

    async def claim_external(self, lease_no: int, limit: int, budget: int) -> ExternalClaim:
        request = ExternalClaimRequest(lease_no, limit, budget)
        return await rpc.CLAIM_EXTERNAL.call(self.stub, request)

    async def record_external(self, checks: Sequence[ExternalCheck]) -> SeedResult:
        return await rpc.RECORD_EXTERNAL.call(self.stub, checks)

    async def release_external(self, urls: Sequence[str]) -> ReleaseResult:
        return await rpc.RELEASE_EXTERNAL.call(self.stub, urls)

    async def stop_external(self, reason: ExternalStop) -> ExternalStopped:
        return await rpc.STOP_EXTERNAL.call(self.stub, reason)

    async def stats(self) -> FrontierStats:
        return await rpc.STATS.call(self.stub)

    async def recent_pages(self, limit: int = 300) -> Progress:
        """The live progress feed: the newest crawled URLs (at most 300) and frontier counts."""
        return await rpc.RECENT_PAGES.call(self.stub, ProgressRequest(limit))

    async def prepare_resume(self) -> ResumeState:
        return await rpc.PREPARE_RESUME.call(self.stub)

    # -- finalize ---------------------------------------------------------------------------

    async def run_finalize_checks(self, options: FinalizeOptions) -> FinalizePage:
        return await rpc.RUN_FINALIZE_CHECKS.call(self.stub, options)

    async def link_graph(self, request: LinkGraphRequest) -> LinkGraphPage:
        """The kept links of the crawled pages after `request.after` (durable.link_graph)."""
        return await rpc.LINK_GRAPH.call(self.stub, request)

    async def claim_renders(self, step_key: int, limit: int) -> RenderClaim:
        """Lease up to `limit` pages to render to the render step keyed `step_key`."""
        return await rpc.CLAIM_RENDERS.call(self.stub, ClaimRequest(step_key, limit))

    async def record_renders(self, outcomes: Sequence[RenderOutcome]) -> SeedResult:
        return await rpc.RECORD_RENDERS.call(self.stub, outcomes)

    async def render_tally(self) -> RenderCounts:
        return await rpc.RENDER_TALLY.call(self.stub)
