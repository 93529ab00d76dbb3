"""Checking external links: one URL hop by hop, and a batch politely (crawl.external_links).

Each hop is one answer from `resource_check.head_or_get` (HEAD, or a capped GET where HEAD is
refused), requested only after the SSRF policy accepted its host, as security.observe and
crawl.redirects do; redirects are followed here, never by the platform. A batch runs under a
deadline (the step's, or what is left of the audit's time budget): URLs not launched by then
are handed back. It learns host names as checks end (`HostNames`): a URL whose host name was
found not to resolve gets that answer again without a request, and once DNS looks unavailable
where the audit runs (audit.external_links.DnsTally.stop) the batch launches nothing more and
waits for the checks in flight: a name that does not exist fails in milliseconds while a live
one answers only after a round trip, so the first names to finish are the dead ones even where
DNS works, and only the whole wave tells. If the verdict still holds once nothing is in flight,
the batch stops and hands everything left back, to be reported as not checked; otherwise it
goes on. Answers are handed to `record` as they come, at most every `RECORD_EVERY_S`, so the
progress feed counts them while the batch runs (and a retried step has less to redo).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from common import ports, settings
from common.fetch_class import classify_fetch
from crawl.external_links import (
    HostNames,
    host_of,
    judge,
    next_hop,
    next_ready,
    private_target,
    too_many_redirects,
    unresolved_again,
)
from crawl.resource_check import head_or_get
from durable.records import ExternalCheck
from urls.private_hosts import PrivateHosts, host_refused

__all__ = ["RECORD_EVERY_S", "BatchOutcome", "check_external_url", "check_external_urls"]

# How often a batch hands its new answers to `record`: the progress feed's pace (the CLI reads it
# each second), a few scratchpad writes a second at most.
RECORD_EVERY_S = 1.0

type Record = Callable[[list[ExternalCheck]], Awaitable[object]]


async def check_external_url(
    http: ports.HttpClient,
    url: str,
    private_hosts: PrivateHosts,
    timeout_s: float,
    headers: dict[str, str] | None = None,
) -> ExternalCheck:
    """`url` hop by hop, each hop sent with `headers` (the audit's, its User-Agent; the crawl's
    by default)."""
    current = url
    max_hops = settings.EXTERNAL.max_hops
    for hops in range(max_hops + 1):
        if host_refused(host_of(current), private_hosts):
            return private_target(url, current, hops)
        result = await head_or_get(http, current, timeout_s, headers)
        target = next_hop(current, result.status, result.header("location"))
        if target is None:
            body_head = result.body[: settings.CRAWL.body_head_chars].decode("latin-1")
            fetch_class = classify_fetch(result.status, result.headers, body_head)
            return judge(url, current, hops, result.status, fetch_class, result.error)
        if hops == max_hops:
            return too_many_redirects(url, current, result.status, max_hops)
        current = target
    raise AssertionError("unreachable: the loop returns on its last hop")


@dataclass(slots=True)
class BatchOutcome:
    checks: list[ExternalCheck] = field(default_factory=list)
    unlaunched: list[str] = field(default_factory=list)  # past the deadline or a stop: release
    dns_stopped: bool = False  # stopped because DNS does not work where the audit runs


async def check_external_urls(
    http: ports.HttpClient,
    urls: list[str],
    private_hosts: PrivateHosts,
    timeout_s: float,
    deadline_s: float,
    clock: Callable[[], float] = time.monotonic,
    names: HostNames | None = None,
    record: Record | None = None,
    headers: dict[str, str] | None = None,
) -> BatchOutcome:
    """Check `urls` at most `per_host` at a time per host and `concurrency` in all, each host's
    requests `host_spacing_s` apart, launching nothing after `deadline_s` (from now); `names`
    (what earlier batches learnt of host names) is updated as checks end, and every answer is
    handed to `record` (when given) before the batch returns; each request carries `headers`
    (the audit's User-Agent: `check_external_url`)."""
    batch = _Batch(http, private_hosts, timeout_s, names or HostNames(), record, headers)
    await batch.run(deque(urls), clock, deadline_s)
    await batch.flush()
    return batch.outcome


@dataclass(slots=True)
class _Batch:
    http: ports.HttpClient
    private_hosts: PrivateHosts
    timeout_s: float
    names: HostNames
    record: Record | None = None
    headers: dict[str, str] | None = None
    outcome: BatchOutcome = field(default_factory=BatchOutcome)
    recorded: int = 0  # answers already handed to `record`
    recorded_at: float = 0.0
    busy: dict[str, int] = field(default_factory=dict)
    free_at: dict[str, float] = field(default_factory=dict)
    running: dict[asyncio.Future[ExternalCheck], str] = field(default_factory=dict)
    pausing: bool = False  # DNS looks unavailable: launch nothing until the checks in flight end

    async def run(self, queue: deque[str], clock: Callable[[], float], deadline_s: float) -> None:
        config = settings.EXTERNAL
        started = clock()
        self.pausing = self.names.tally.stop
        while queue or self.running:
            now = clock()
            if self.pausing and not self.running:
                self.outcome.dns_stopped = True  # the verdict held through the whole wave
                break
            if now - started < deadline_s and not self.pausing:
                self._answer_known(queue)
            while (
                queue
                and not self.pausing
                and len(self.running) < config.concurrency
                and now - started < deadline_s
            ):
                if not self._launch_next(queue, now):
                    break
            if not self.running:
                if not queue or now - started >= deadline_s:
                    break
                await asyncio.sleep(max(0.01, min(self.free_at.values(), default=now) - now))
                continue
            # Wake when a check ends, or when a host's pause may have ended (no pause: no timer).
            done, _ = await asyncio.wait(
                self.running,
                timeout=config.host_spacing_s or None,
                return_when=asyncio.FIRST_COMPLETED,
            )
            for finished in done:
                host = host_of(self.running.pop(finished))
                self.busy[host] -= 1
                self._record(finished.result())
            if clock() - self.recorded_at >= RECORD_EVERY_S:
                self.recorded_at = clock()
                await self.flush()
        self.outcome.unlaunched = list(queue)

    async def flush(self) -> None:
        """Hand the answers not yet recorded to `record`."""
        fresh = self.outcome.checks[self.recorded :]
        if self.record is not None and fresh:
            await self.record(fresh)
        self.recorded = len(self.outcome.checks)

    def _answer_known(self, queue: deque[str]) -> None:
        """Answer at once the queued URLs whose host name is known not to resolve."""
        known = [url for url in queue if self.names.known_unresolved(url)]
        for url in known:
            queue.remove(url)
            self._record(unresolved_again(url))

    def _launch_next(self, queue: deque[str], now: float) -> bool:
        """Launch the next URL whose host has room; False when none has."""
        index = next_ready(queue, self.busy, self.free_at, now, settings.EXTERNAL.per_host)
        if index is None:
            return False
        url = queue[index]
        del queue[index]
        host = host_of(url)
        self.busy[host] = self.busy.get(host, 0) + 1
        self.free_at[host] = now + settings.EXTERNAL.host_spacing_s
        check = check_external_url(self.http, url, self.private_hosts, self.timeout_s, self.headers)
        self.running[asyncio.ensure_future(check)] = url
        return True

    def _record(self, check: ExternalCheck) -> None:
        self.outcome.checks.append(check)
        self.names.learn(check)
        self.pausing = self.names.tally.stop
