"""`Scratchpad`: the typed caller side of the AuditScratchpad Durable Object.

Wraps the RPC stub (`bindings.ScratchpadStub`, JSON in and out) so callers send and receive the
records of `durable.records` and `durable.finalize`; nothing outside this module indexes a dict
an RPC returned. One object per audit, addressed by `idFromName(audit id)`.
"""

from __future__ import annotations

from collections.abc import Sequence

from audit.external_links import ExternalStop
from common.bindings import Env, ScratchpadStub
from durable.finalize import FinalizeOptions, FinalizePage
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
    FrontierStats,
    LinkBatch,
    Progress,
    ProgressRequest,
    RecordBatch,
    ReleaseResult,
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
        return Destroyed.from_dict(await self.stub.destroy())

    async def save_crawl_config(self, config: CrawlConfig) -> ConfigSaved:
        return ConfigSaved.from_dict(await self.stub.save_crawl_config(config.to_dict()))

    async def crawl_config(self) -> CrawlConfig:
        return CrawlConfig.from_dict(await self.stub.crawl_config())

    # -- seeding ----------------------------------------------------------------------------

    async def seed_start(self, url: str) -> SeedResult:
        return SeedResult.from_dict(await self.stub.seed_start(url))

    async def seed_sitemap_urls(self, urls: Sequence[str]) -> SeedResult:
        return SeedResult.from_dict(await self.stub.seed_sitemap_urls(list(urls)))

    async def note_sitemap_blocked(self, urls: Sequence[str]) -> SeedResult:
        return SeedResult.from_dict(await self.stub.note_sitemap_blocked(list(urls)))

    async def sitemap_blocked_urls(self, request: SitemapBlockedRequest) -> SitemapBlockedPage:
        return SitemapBlockedPage.from_dict(await self.stub.sitemap_blocked_urls(request.to_dict()))

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
        return SiteFactsPage.from_dict(await self.stub.site_facts(request.to_dict()))

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
        request = ClaimRequest(chunk_no, limit)
        return Claim.from_dict(await self.stub.claim_chunk(request.to_dict()))

    async def claim_more(self, chunk_no: int, limit: int) -> Claim:
        request = ClaimRequest(chunk_no, limit)
        return Claim.from_dict(await self.stub.claim_more(request.to_dict()))

    async def release_urls(self, urls: Sequence[str]) -> ReleaseResult:
        return ReleaseResult.from_dict(await self.stub.release_urls(list(urls)))

    async def record_batch(self, batch: RecordBatch) -> BatchResult:
        # Large: sent as one JSON string (common.wire.JsonRecord.to_json_text).
        return BatchResult.from_dict(await self.stub.record_batch(batch.to_json_text()))

    async def record_links(self, batch: LinkBatch) -> BatchResult:
        return BatchResult.from_dict(await self.stub.record_links(batch.to_json_text()))

    async def claim_resources(self, chunk_no: int, limit: int) -> ResourceClaim:
        request = ClaimRequest(chunk_no, limit)
        return ResourceClaim.from_dict(await self.stub.claim_resources(request.to_dict()))

    async def record_resources(self, checks: Sequence[ResourceCheck]) -> None:
        await self.stub.record_resources([check.to_dict() for check in checks])

    async def release_resources(self, urls: Sequence[str]) -> ReleaseResult:
        return ReleaseResult.from_dict(await self.stub.release_resources(list(urls)))

    async def claim_external(self, lease_no: int, limit: int, budget: int) -> ExternalClaim:
        request = ExternalClaimRequest(lease_no, limit, budget)
        return ExternalClaim.from_dict(await self.stub.claim_external(request.to_dict()))

    async def record_external(self, checks: Sequence[ExternalCheck]) -> None:
        await self.stub.record_external([check.to_dict() for check in checks])

    async def release_external(self, urls: Sequence[str]) -> ReleaseResult:
        return ReleaseResult.from_dict(await self.stub.release_external(list(urls)))

    async def stop_external(self, reason: ExternalStop) -> None:
        await self.stub.stop_external(reason.value)

    async def stats(self) -> FrontierStats:
        return FrontierStats.from_dict(await self.stub.stats())

    async def recent_pages(self, limit: int = 300) -> Progress:
        """The live progress feed: the newest crawled URLs (at most 300) and frontier counts."""
        request = ProgressRequest(limit).to_dict()
        return Progress.from_dict(await self.stub.recent_pages(request))

    async def prepare_resume(self) -> ResumeState:
        return ResumeState.from_dict(await self.stub.prepare_resume())

    # -- finalize ---------------------------------------------------------------------------

    async def run_finalize_checks(self, options: FinalizeOptions) -> FinalizePage:
        return FinalizePage.from_dict(await self.stub.run_finalize_checks(options.to_dict()))
