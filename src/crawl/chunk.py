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

The runner composes one small object per concern, each holding its own state: the window's size
(`crawl.window.FetchWindow`) and the fetches in flight (`crawl.in_flight`), the 429 pauses
(`crawl.throttle.RateLimitPauses`), the lease refill (`LeaseRefill`) and the persistence pipeline
(`crawl.persister`). The soft deadline is a value (`Deadline`) whose check changes nothing; the
runner records `deadline_hit` itself where it stops at the deadline.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from auditdb import repository
from auditdb.records import PageRecord
from common import ports, settings
from common.bindings import D1Database
from common.wire import JsonRecord
from crawl.discovery import fetch_robots
from crawl.host_robots import HostRobots
from crawl.in_flight import InFlight
from crawl.pacing import HostPacer, StampedHttp, capped_limits, epoch_s
from crawl.page_pipeline import CrawlScope, ProcessedPage
from crawl.page_stream import PageStream
from crawl.persister import Persister, SubBatches
from crawl.resource_check import check_resource
from crawl.site_health import NoAnswers, NoAnswerTally
from crawl.throttle import RateLimitAction, RateLimitPauses, parse_retry_after
from crawl.window import FetchWindow, start_window, window_limits
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
    # -- speed options (auditdb.scope, crawl.pacing) --
    user_agent: str | None = None  # sent instead of ours (settings.CrawlSettings.headers_for)
    rate_per_s: float | None = None  # the effective rate per host (crawl.pacing.effective_rate)
    concurrency: int | None = None  # at most this many fetches in flight
    # Per host, the epoch second its next request may start, as the last chunk left it
    # (ChunkReport.next_request_at, crawl.pacing): the rate holds across the chunks' boundary.
    next_request_at: dict[str, float] = field(default_factory=dict)

    @property
    def headers(self) -> dict[str, str]:
        return settings.CRAWL.headers_for(self.user_agent)


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
    render_queued: int = 0  # pages this chunk queued for rendering (render.decision)
    no_answers: NoAnswers = field(default_factory=NoAnswers)  # crawl.site_health
    # Per host, the epoch second the next request may start at the audit's rate (crawl.pacing);
    # the next step's pacer starts from it.
    next_request_at: dict[str, float] = field(default_factory=dict)


@dataclass
class ChunkIO:
    """The chunk's collaborators: the audit's scratchpad, D1, and outbound HTTP."""

    pad: Scratchpad
    db: D1Database
    http: ports.HttpClient
    clock: Callable[[], float] = time.monotonic  # monotonic: a deadline once passed stays passed
    epoch: Callable[[], float] = epoch_s  # the wall's, for the pace carried across steps


@dataclass(frozen=True, slots=True)
class Deadline:
    """The chunk's soft deadline on its monotonic clock; checking it changes nothing."""

    started: float
    seconds: float

    def passed(self, now: float) -> bool:
        return now - self.started >= self.seconds


@dataclass(slots=True)
class LeaseRefill:
    """URLs a chunk has leased against its limit, and the pages persisted when it last asked
    for more: a new claim can only find the links of pages persisted since."""

    limit: int
    claimed: int = 0
    asked_at: int = 0  # pages persisted when more were last asked for

    def due(self, persisted: int) -> bool:
        return self.claimed < self.limit and persisted > self.asked_at

    def asked(self, persisted: int) -> None:
        self.asked_at = persisted

    @property
    def wanted(self) -> int:
        return self.limit - self.claimed

    def leased(self, count: int) -> None:
        self.claimed += count


async def run_chunk(scope: CrawlScope, plan: ChunkPlan, io: ChunkIO) -> ChunkReport:
    claim = await io.pad.claim_chunk(plan.chunk_no, plan.limit)
    leased = list(claim.urls)
    runner = _ChunkRunner(scope, plan, io, is_retry=claim.is_retry)
    await runner.run(leased)
    released = await runner.release_unlaunched()
    resources = ResourceRound()
    if not runner.stopped:
        resources = await check_resources(
            plan, io, runner.window.size, runner.deadline, runner.pacer
        )
    stats = await io.pad.stats()
    return ChunkReport(
        chunk_no=plan.chunk_no,
        claimed=runner.refill.claimed,
        is_retry=runner.is_retry,
        attempted_in_chunk=runner.finished,
        attempted=stats.crawled,
        pending=stats.pending + stats.leased,
        seen=stats.seen,
        released=released,
        window_end=runner.window.size,
        deadline_hit=runner.deadline_hit or resources.deadline_hit,
        links_truncated=stats.links_truncated,
        rate_limited=runner.pauses.stopped,
        cooldown_s=round(runner.pauses.cooldown_s, 3),
        skipped=_summed(runner.skipped, runner.host_robots.counts()),
        resources_checked=resources.checked,
        resources_pending=resources.pending,
        no_answers=runner.no_answers.counts(),
        next_request_at=runner.pacer.carried(io.clock(), io.epoch()),
        render_queued=runner.render_queued,
    )


@dataclass(frozen=True, slots=True)
class ResourceRound:
    """What `check_resources` did: resources checked, unleased ones left, and whether it stopped
    at the soft deadline."""

    checked: int = 0
    pending: int = 0
    deadline_hit: bool = False


async def check_resources(
    plan: ChunkPlan,
    io: ChunkIO,
    window: int,
    deadline: Deadline,
    pacer: HostPacer | None = None,
) -> ResourceRound:
    """Check the resources leased to this chunk, `window` at a time, until the soft deadline,
    at the audit's rate per host (`pacer`); record the answers and release what was not
    checked."""
    pacer = pacer or HostPacer()
    claim = await io.pad.claim_resources(plan.chunk_no, RESOURCE_CHECKS_PER_CHUNK)
    queue = deque(claim.urls)
    http = StampedHttp(io.http, pacer, io.clock)
    checks: list[ResourceCheck] = []
    in_flight: InFlight[ResourceCheck] = InFlight()
    deadline_hit = False
    while queue or in_flight:
        while queue and len(in_flight) < max(1, window):
            if deadline.passed(io.clock()):
                deadline_hit = True
                break
            if pacer.wait_s(queue[0], io.clock()) > 0:
                break
            pacer.reserve(queue[0], io.clock())
            in_flight.start(
                check_resource(http, queue.popleft(), plan.fetch_timeout_s, plan.headers)
            )
        if not in_flight:
            if deadline_hit or not queue:
                break
            await asyncio.sleep(pacer.wait_s(queue[0], io.clock()))
            continue
        checks.extend(await in_flight.settle(_pace_s(pacer, queue, io.clock())))
    if checks:
        await io.pad.record_resources(checks)
    if queue:
        await io.pad.release_resources(list(queue))
    return ResourceRound(len(checks), claim.pending + len(queue), deadline_hit)


class _ChunkRunner:
    """Launches, collects and persists one chunk's pages, composing one object per concern: the
    fetch window (its size and the fetches in flight), the 429 pauses, the lease refill and the
    persistence pipeline."""

    def __init__(self, scope: CrawlScope, plan: ChunkPlan, io: ChunkIO, *, is_retry: bool) -> None:
        self.scope, self.plan, self.io, self.is_retry = scope, plan, io, is_retry
        self.deadline = Deadline(io.clock(), plan.soft_deadline_s)
        self.deadline_hit = False  # set where the runner stops at the deadline
        self.queue: deque[LeasedUrl] = deque()  # leased, not launched yet
        limits = capped_limits(window_limits(is_retry=is_retry), plan.concurrency)
        self.window = FetchWindow(limits, start_window(limits, plan.window_hint, is_retry=is_retry))
        # The audit's rate per host (crawl.pacing), from where the last step left it.
        self.pacer = HostPacer.resumed(
            plan.rate_per_s, plan.next_request_at, io.clock(), io.epoch()
        )
        self.http = StampedHttp(io.http, self.pacer, io.clock)
        # Hosts only the `subdomains` option brings in: their own robots.txt (crawl.host_robots).
        self.host_robots = HostRobots(scope.policy, self._read_robots)
        self.in_flight: InFlight[ProcessedPage | None] = InFlight()
        # 429 handling: a pause holds every new fetch; a stop ends the chunk (see crawl.throttle).
        self.pauses = RateLimitPauses()
        self.unrecorded: list[LeasedUrl] = []  # stopped by rate limiting: back to the frontier
        self.no_answers = NoAnswerTally(plan.no_answer_streak)
        self.refill = LeaseRefill(plan.limit)
        self.batches: SubBatches[ProcessedPage] = SubBatches()
        self.persister = Persister(self._write)
        self.finished = 0
        self.skipped: dict[str, int] = {}
        self.render_queued = 0

    async def run(self, leased: list[LeasedUrl]) -> None:
        self.queue.extend(leased)
        self.refill.leased(len(leased))
        try:
            await self._fetch_all()
            self.queue.extend(self.unrecorded)
            self._flush()
            await self.persister.drain()
        finally:
            await self.in_flight.cancel_all()

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
            for page in await self.in_flight.settle(_pace_s(self.pacer, self.queue, self._now())):
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
            await self.persister.caught_up()
        persisted = self.persister.persisted
        if self.is_retry or not self.refill.due(persisted) or self.stopped:
            return False
        if self.deadline.passed(self.io.clock()):
            self.deadline_hit = True
            return False
        self.refill.asked(persisted)
        claim = await self.io.pad.claim_more(self.plan.chunk_no, self.refill.wanted)
        self.refill.leased(len(claim.urls))
        self.queue.extend(claim.urls)
        return bool(claim.urls)

    def _launch_while_room(self) -> None:
        while self.queue and self.window.has_room(len(self.in_flight)) and self._may_launch():
            leased = self.queue.popleft()
            self.pacer.reserve(leased.url, self._now())
            self.in_flight.start(self._fetch(leased))

    def _now(self) -> float:
        return self.io.clock()

    @property
    def stopped(self) -> bool:
        """The site asked for more patience than an audit has, or stopped answering."""
        return self.pauses.stopped or self.no_answers.stopped

    def _may_launch(self) -> bool:
        if self.stopped or self.pauses.holds(self.io.clock()):
            return False
        if self.queue and self.pacer.wait_s(self.queue[0].url, self._now()) > 0:
            return False
        if self.deadline.passed(self.io.clock()):
            self.deadline_hit = True
            return False
        return self.persister.keeps_up

    async def _wait_for_room(self) -> None:
        """Nothing in flight but URLs left: wait out a 429 pause, or for the writer to catch up."""
        pause = self.pauses.remaining(self.io.clock())
        if self.queue:
            pause = max(pause, self.pacer.wait_s(self.queue[0].url, self._now()))
        if pause > 0:
            await asyncio.sleep(pause)
        else:
            await self.persister.caught_up()

    async def _fetch(self, leased: LeasedUrl) -> ProcessedPage | None:
        attempt = 1
        while True:
            # The body streams into the page as it arrives (crawl.page_stream); a page with
            # many links sends them to the scratchpad in batches while it is parsed.
            page = PageStream(self.scope, leased, self._record_links)
            result = await self.http.fetch(self._request(leased.url, page))
            action = self._on_answer(result, attempt)
            if action is RateLimitAction.RECORD:
                self.no_answers.record(leased.url, result.status, result.error)
                return page.finish(result, retried_after_429=attempt > 1)
            if action is RateLimitAction.STOP:
                self.unrecorded.append(leased)
                return None
            attempt += 1
            await asyncio.sleep(self.pauses.remaining(self.io.clock()))

    def _request(self, url: str, page: PageStream) -> ports.FetchRequest:
        return ports.FetchRequest(
            url=url,
            timeout_s=self.plan.fetch_timeout_s,
            max_bytes=settings.CRAWL.fetch_max_bytes,
            headers=self.plan.headers,
            sink=page,
        )

    def _on_answer(self, result: ports.FetchResult, attempt: int) -> RateLimitAction:
        """RECORD for any answer but a 429; for a 429, what the pauses decide."""
        if result.status != 429:
            self.pauses.answered()
            return RateLimitAction.RECORD
        retry_after_s = parse_retry_after(result.header("retry-after"), ports.now_ms() / 1000)
        return self.pauses.on_429(attempt, retry_after_s, self.io.clock())

    def _finished(self, page: ProcessedPage) -> None:
        self.finished += 1
        self.render_queued += page.render is not None
        for reason, count in page.skipped.items():
            self.skipped[reason] = self.skipped.get(reason, 0) + count
        self._persist(self.batches.add(page))

    def _flush(self) -> None:
        self._persist(self.batches.take())

    def _persist(self, batch: list[ProcessedPage] | None) -> None:
        """Each sub-batch re-sizes the window as it goes to the writer."""
        if batch is not None:
            self.window.learn([page.outcome for page in batch])
            self.persister.submit(batch)

    async def _write(self, batch: list[ProcessedPage]) -> None:
        await persist_batch(self.scope, self.plan, self.io, batch, self.host_robots)

    async def _read_robots(self, origin: str) -> str:
        policy = self.scope.policy
        read = fetch_robots(
            self.io.http, origin, private_hosts=policy.private_hosts, headers=self.plan.headers
        )
        return (await read)[1]

    async def _record_links(self, batch: LinkBatch) -> object:
        return await self.io.pad.record_links(await self.host_robots.batch(batch))

    async def release_unlaunched(self) -> int:
        if not self.queue:
            return 0
        urls = [leased.url for leased in self.queue]
        self.queue.clear()
        return (await self.io.pad.release_urls(urls)).released


async def persist_batch(
    scope: CrawlScope,
    plan: ChunkPlan,
    io: ChunkIO,
    batch: list[ProcessedPage],
    host_robots: HostRobots | None = None,
    *,
    from_rendered: bool = False,
) -> BatchResult:
    """Write one sub-batch: page rows and issues to D1, then the scratchpad, then progress.

    D1 first: if the scratchpad write never happens, the URLs stay leased and a retry rewrites the
    same rows (deterministic ids, upserts), so nothing is lost or doubled. Links a link-heavy page
    sent while it was parsed (`record_links`, crawl.page_stream) reached the scratchpad earlier;
    they move no URL's state, and a retry's rewrite of them stores and counts nothing twice.
    """
    pages, issues = [page.record for page in batch], [i for page in batch for i in page.issues]
    if from_rendered:  # the raw HTML's issues give way to the rendered page's
        await repository.replace_crawled_pages(io.db, pages, issues)
    else:
        await repository.write_crawled_pages(io.db, pages, issues)
    discovered = _first_of_each(item for page in batch for item in page.discovered)
    if host_robots is not None:
        discovered = await host_robots.keep(discovered)
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
            render=tuple(page.render for page in batch if page.render is not None),
            from_rendered=from_rendered,
        )
    )
    stats = result.stats
    await repository.update_progress(
        io.db, scope.audit_id, stats.crawled, min(stats.seen, plan.max_pages)
    )
    return result


def _summed(first: dict[str, int], second: dict[str, int]) -> dict[str, int]:
    return {key: first.get(key, 0) + second.get(key, 0) for key in first.keys() | second.keys()}


def _pace_s(pacer: HostPacer, queue: deque[LeasedUrl] | deque[str], now: float) -> float | None:
    """How long to wait for a fetch to settle before the pacer lets the next URL go: None (as
    long as it takes) when nothing waits for the pacer."""
    if not queue:
        return None
    head = queue[0]
    wait = pacer.wait_s(head if isinstance(head, str) else head.url, now)
    return wait if wait > 0 else None


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
