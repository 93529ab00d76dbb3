"""One `crawl-chunk-N` step: lease URLs, fetch them through a rolling window, persist as we go.

The window keeps up to `window` fetches in flight and launches the next leased URL the moment one
settles, so one slow page never stalls the chunk (no fixed batches waiting on their slowest
member). Finished pages are grouped into sub-batches (5 first, so the window learns page weight
early, then 25); each sub-batch re-sizes the window and is persisted while fetching continues, one
sub-batch at a time (pipelined with fetching, serialized with itself). A soft deadline stops
launching; URLs never launched go back to the frontier. Every write is idempotent, so a retried
chunk gets back its unfinished URLs and rewrites the same rows. (docs/original-system.md §4.4-4.5)

Fetches that get no answer at all are counted (crawl.site_health); once the site has clearly
stopped answering, the chunk stops launching as a rate limit's stop does, and reports it.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from auditdb import repository
from auditdb.records import PageRecord
from common import ports, settings
from common.bindings import D1Database
from common.wire import JsonRecord
from crawl.page_pipeline import CrawlScope, ProcessedPage
from crawl.page_stream import PageStream
from crawl.resource_check import check_resource
from crawl.site_health import NoAnswers, NoAnswerTally
from crawl.throttle import RateLimitAction, decide_429, parse_retry_after
from crawl.window import next_window, start_window, window_limits
from durable.client import Scratchpad
from durable.records import (
    BatchResult,
    CrawledEntry,
    DiscoveredUrl,
    LeasedUrl,
    LinkBatch,
    RecordBatch,
    ResourceCheck,
)

FIRST_PERSIST_BATCH_SIZE = 5
PERSIST_BATCH_SIZE = 25
MAX_QUEUED_PERSIST_BATCHES = 2
# Resources (crawl.references) a chunk checks after its pages, within its soft deadline: a HEAD
# costs a fraction of a page, so several per page keep up with what pages reference.
RESOURCE_CHECKS_PER_CHUNK = 400
# Newly discovered URLs sent to the scratchpad per RPC call: an RPC message is capped at 32 MiB;
# a sub-batch with more sends the rest in further `record_links` calls first.
MAX_DISCOVERED_PER_BATCH = 20_000


@dataclass(frozen=True, slots=True)
class ChunkPlan:
    chunk_no: int
    limit: int
    window_hint: int | None = None
    soft_deadline_s: float = settings.CRAWL.chunk_soft_deadline_s
    fetch_timeout_s: float = settings.CRAWL.fetch_timeout_s
    max_pages: int = 50
    no_answer_streak: int = 0  # fetches in a row without an answer when the last chunk ended


@dataclass(frozen=True, slots=True)
class ChunkReport(JsonRecord):
    """What a chunk step returns: counters only."""

    chunk_no: int
    claimed: int
    is_retry: bool
    attempted_in_chunk: int
    attempted: int
    pending: int
    seen: int
    released: int
    window_end: int
    deadline_hit: bool
    links_truncated: bool
    rate_limited: bool = False
    cooldown_s: float = 0.0
    skipped: dict[str, int] = field(default_factory=dict)
    resources_checked: int = 0
    resources_pending: int = 0  # unleased resources left after this chunk's claim
    no_answers: NoAnswers = field(default_factory=NoAnswers)  # crawl.site_health


@dataclass
class ChunkIO:
    """The chunk's collaborators: the audit's scratchpad, D1, and outbound HTTP."""

    pad: Scratchpad
    db: D1Database
    http: ports.HttpClient
    clock: Callable[[], float] = time.monotonic


async def run_chunk(scope: CrawlScope, plan: ChunkPlan, io: ChunkIO) -> ChunkReport:
    claim = await io.pad.claim_chunk(plan.chunk_no, plan.limit)
    leased = list(claim.urls)
    runner = _ChunkRunner(scope, plan, io, is_retry=claim.is_retry)
    await runner.run(leased)
    released = await runner.release_unlaunched()
    checked, resources_pending = await check_resources(plan, io, runner)
    stats = await io.pad.stats()
    return ChunkReport(
        chunk_no=plan.chunk_no,
        claimed=runner.claimed,
        is_retry=runner.is_retry,
        attempted_in_chunk=runner.finished,
        attempted=stats.crawled,
        pending=stats.pending + stats.leased,
        seen=stats.seen,
        released=released,
        window_end=runner.window,
        deadline_hit=runner.deadline_hit,
        links_truncated=stats.links_truncated,
        rate_limited=runner.rate_limited,
        cooldown_s=round(runner.cooldown_s, 3),
        skipped=runner.skipped,
        resources_checked=checked,
        resources_pending=resources_pending,
        no_answers=runner.no_answers.counts(),
    )


async def check_resources(plan: ChunkPlan, io: ChunkIO, runner: _ChunkRunner) -> tuple[int, int]:
    """Check the resources leased to this chunk, `runner.window` at a time, until the soft
    deadline; record the answers and release what was not checked. Returns (checked, pending)."""
    if runner.stopped:
        return 0, 0
    claim = await io.pad.claim_resources(plan.chunk_no, RESOURCE_CHECKS_PER_CHUNK)
    queue = deque(claim.urls)
    checks: list[ResourceCheck] = []
    in_flight: set[asyncio.Future[ResourceCheck]] = set()
    while queue or in_flight:
        while queue and len(in_flight) < max(1, runner.window) and not runner.past_deadline():
            url = queue.popleft()
            in_flight.add(asyncio.ensure_future(check_resource(io.http, url, plan.fetch_timeout_s)))
        if not in_flight:
            break
        done, in_flight = await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
        checks.extend(task.result() for task in done)
    if checks:
        await io.pad.record_resources(checks)
    if queue:
        await io.pad.release_resources(list(queue))
    return len(checks), claim.pending + len(queue)


class _ChunkRunner:
    def __init__(self, scope: CrawlScope, plan: ChunkPlan, io: ChunkIO, *, is_retry: bool) -> None:
        self.scope, self.plan, self.io, self.is_retry = scope, plan, io, is_retry
        self.limits = window_limits(is_retry=is_retry)
        self.window = start_window(self.limits, plan.window_hint, is_retry=is_retry)
        self.queue: deque[LeasedUrl] = deque()
        self.in_flight: set[asyncio.Future[ProcessedPage | None]] = set()
        self.batch: list[ProcessedPage] = []
        self.batch_target = FIRST_PERSIST_BATCH_SIZE
        self.persisting: asyncio.Task[None] | None = None
        self.queued_persists = 0
        self.finished = 0
        self.deadline_hit = False
        self.skipped: dict[str, int] = {}
        self.started = io.clock()
        # 429 handling: a pause holds every new fetch; a stop ends the chunk (see crawl.throttle).
        self.paused_until = 0.0
        self.cooldown_s = 0.0
        self.consecutive_429 = 0
        self.rate_limited = False
        self.unrecorded: list[LeasedUrl] = []
        self.no_answers = NoAnswerTally(plan.no_answer_streak)
        # Refills (`_refill`): URLs leased so far, pages persisted, and how many were persisted
        # when the last refill was asked for.
        self.claimed = 0
        self.persisted = 0
        self.refill_mark = 0

    async def run(self, leased: list[LeasedUrl]) -> None:
        self.queue.extend(leased)
        self.claimed = len(leased)
        try:
            await self._fetch_all()
            self.queue.extend(self.unrecorded)  # stopped by rate limiting: back to the frontier
            self._flush()
            if self.persisting is not None:
                await self.persisting
        finally:
            await self._cancel_in_flight()

    async def _fetch_all(self) -> None:
        while True:
            self._launch_while_room()
            if not self.queue and await self._refill():
                continue
            if not self.in_flight:
                if not self.queue or self.deadline_hit or self.stopped:
                    return
                await self._wait_for_room()
                continue
            done, _ = await asyncio.wait(self.in_flight, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                self.in_flight.discard(task)
                page = task.result()
                if page is not None:
                    self._finished(page)

    async def _refill(self) -> bool:
        """Lease more URLs when the chunk's own ran out before its limit; True if it got some.

        A chunk claims what the frontier holds when it starts, which can be far under its limit
        (the first chunk gets the start URL alone); the pages it has persisted since put their
        links in the frontier. Asked only once new pages were persisted, and never on a retry
        (which finishes its own URLs, `crawl.window`'s retry profile)."""
        if not self.in_flight:
            self._flush()
            await self._wait_for_persistence()
        if (
            self.is_retry
            or self.claimed >= self.plan.limit
            or self.persisted <= self.refill_mark
            or self.stopped
            or self.past_deadline()
        ):
            return False
        self.refill_mark = self.persisted
        claim = await self.io.pad.claim_more(self.plan.chunk_no, self.plan.limit - self.claimed)
        self.claimed += len(claim.urls)
        self.queue.extend(claim.urls)
        return bool(claim.urls)

    def _launch_while_room(self) -> None:
        while self.queue and len(self.in_flight) < self.window and self._may_launch():
            leased = self.queue.popleft()
            self.in_flight.add(asyncio.ensure_future(self._fetch(leased)))

    @property
    def stopped(self) -> bool:
        """The site asked for more patience than an audit has, or stopped answering."""
        return self.rate_limited or self.no_answers.stopped

    def _may_launch(self) -> bool:
        if self.stopped or self.io.clock() < self.paused_until:
            return False
        if self.past_deadline():
            return False
        return self.queued_persists <= MAX_QUEUED_PERSIST_BATCHES

    def past_deadline(self) -> bool:
        if self.io.clock() - self.started >= self.plan.soft_deadline_s:
            self.deadline_hit = True
        return self.deadline_hit

    async def _wait_for_room(self) -> None:
        """Nothing in flight but URLs left: wait out a 429 pause, or for the writer to catch up."""
        pause = self.paused_until - self.io.clock()
        if pause > 0:
            await asyncio.sleep(pause)
        else:
            await self._wait_for_persistence()

    async def _fetch(self, leased: LeasedUrl) -> ProcessedPage | None:
        attempt = 1
        while True:
            # The body streams into the page as it arrives (crawl.page_stream); a page with
            # many links sends them to the scratchpad in batches while it is parsed.
            page = PageStream(self.scope, leased, self.io.pad.record_links)
            request = ports.FetchRequest(
                url=leased.url,
                timeout_s=self.plan.fetch_timeout_s,
                max_bytes=settings.CRAWL.fetch_max_bytes,
                headers=settings.CRAWL.request_headers,
                sink=page,
            )
            result = await self.io.http.fetch(request)
            if result.status != 429:
                self.consecutive_429 = 0
                self.no_answers.record(leased.url, result.status, result.error)
                return page.finish(result, retried_after_429=attempt > 1)
            action = self._on_429(result, attempt)
            if action is RateLimitAction.RECORD:
                self.no_answers.record(leased.url, result.status, result.error)
                return page.finish(result, retried_after_429=attempt > 1)
            if action is RateLimitAction.STOP:
                self.unrecorded.append(leased)
                return None
            attempt += 1
            await asyncio.sleep(max(0.0, self.paused_until - self.io.clock()))

    def _on_429(self, result: ports.FetchResult, attempt: int) -> RateLimitAction:
        self.consecutive_429 += 1
        decision = decide_429(
            attempt=attempt,
            consecutive=self.consecutive_429,
            cooldown_used_s=self.cooldown_s,
            retry_after_s=parse_retry_after(result.header("retry-after"), ports.now_ms() / 1000),
        )
        if decision.action is RateLimitAction.STOP:
            self.rate_limited = True
        elif decision.action is RateLimitAction.RETRY:
            resume_at = self.io.clock() + decision.delay_s
            self.cooldown_s += max(0.0, resume_at - max(self.paused_until, self.io.clock()))
            self.paused_until = max(self.paused_until, resume_at)
        return decision.action

    def _finished(self, page: ProcessedPage) -> None:
        self.finished += 1
        for reason, count in page.skipped.items():
            self.skipped[reason] = self.skipped.get(reason, 0) + count
        self.batch.append(page)
        if len(self.batch) >= self.batch_target:
            self._flush()

    def _flush(self) -> None:
        if not self.batch:
            return
        batch, self.batch = self.batch, []
        self.batch_target = PERSIST_BATCH_SIZE
        self.window = next_window(self.window, [page.outcome for page in batch], self.limits)
        self.queued_persists += 1
        self.persisting = asyncio.ensure_future(self._persist_after(self.persisting, batch))

    async def _persist_after(
        self, previous: Awaitable[None] | None, batch: list[ProcessedPage]
    ) -> None:
        if previous is not None:
            await previous
        try:
            await persist_batch(self.scope, self.plan, self.io, batch)
            self.persisted += len(batch)
        finally:
            self.queued_persists -= 1

    async def _wait_for_persistence(self) -> None:
        if self.persisting is not None:
            await asyncio.shield(self.persisting)

    async def _cancel_in_flight(self) -> None:
        for task in self.in_flight:
            task.cancel()
        if self.in_flight:
            await asyncio.gather(*self.in_flight, return_exceptions=True)
        self.in_flight.clear()

    async def release_unlaunched(self) -> int:
        if not self.queue:
            return 0
        urls = [leased.url for leased in self.queue]
        self.queue.clear()
        return (await self.io.pad.release_urls(urls)).released


async def persist_batch(
    scope: CrawlScope, plan: ChunkPlan, io: ChunkIO, batch: list[ProcessedPage]
) -> BatchResult:
    """Write one sub-batch: page rows and issues to D1, then the scratchpad, then progress.

    D1 first: if the scratchpad write never happens, the URLs stay leased and a retry rewrites the
    same rows (deterministic ids, upserts), so nothing is lost or doubled. Links a link-heavy page
    sent while it was parsed (`record_links`, crawl.page_stream) reached the scratchpad earlier;
    they move no URL's state, and a retry's rewrite of them stores and counts nothing twice.
    """
    await repository.write_crawled_pages(
        io.db, [page.record for page in batch], [issue for page in batch for issue in page.issues]
    )
    discovered = _first_of_each(item for page in batch for item in page.discovered)
    while len(discovered) > MAX_DISCOVERED_PER_BATCH:
        extra, discovered = (
            discovered[:MAX_DISCOVERED_PER_BATCH],
            discovered[MAX_DISCOVERED_PER_BATCH:],
        )
        await io.pad.record_links(LinkBatch(discovered=tuple(extra)))
    result = await io.pad.record_batch(
        RecordBatch(
            crawled=tuple(page.record.url for page in batch),
            pages=tuple(page.mirror for page in batch),
            links=tuple(link for page in batch for link in page.links),
            discovered=tuple(discovered),
            progress=tuple(_progress_entry(page.record) for page in batch),
            facts=tuple(fact for page in batch for fact in page.facts),
            fragment_targets=tuple(
                page.fragment_targets for page in batch if page.fragment_targets is not None
            ),
            fragment_links=tuple(link for page in batch for link in page.fragment_links),
            resources=tuple(ref for page in batch for ref in page.resources),
            external=tuple(ref for page in batch for ref in page.external),
        )
    )
    stats = result.stats
    await repository.update_progress(
        io.db, scope.audit_id, stats.crawled, min(stats.seen, plan.max_pages)
    )
    return result


def _first_of_each(items: Iterable[DiscoveredUrl]) -> list[DiscoveredUrl]:
    """Each URL once, as first found: the pages of a sub-batch share most of their links
    (navigation), and the frontier keeps a URL's first row anyway (durable.scratchpad._enqueue),
    so the repeats would cross the RPC boundary for nothing."""
    firsts: dict[str, DiscoveredUrl] = {}
    for item in items:
        firsts.setdefault(item.url, item)
    return list(firsts.values())


def _progress_entry(record: PageRecord) -> CrawledEntry:
    return CrawledEntry(
        record.url,
        record.status_code,
        record.fetch_class,
        record.response_time_ms,
        record.crawled_at,
    )
