"""Checking external links: one URL hop by hop, and a batch politely (crawl.external_links).

Each hop is one answer from `resource_check.head_or_get` (HEAD, or a capped GET where HEAD is
refused), requested only after the SSRF policy accepted its host, as security.observe and
crawl.redirects do; redirects are followed here, never by the platform. A batch runs under a
soft deadline: URLs not launched by then are handed back to be leased again.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from common import ports, settings
from common.fetch_class import classify_fetch
from crawl.external_links import (
    host_of,
    judge,
    next_hop,
    next_ready,
    private_target,
    too_many_redirects,
)
from crawl.resource_check import head_or_get
from durable.records import ExternalCheck
from urls.private_hosts import PrivateHosts, host_refused

__all__ = ["BatchOutcome", "check_external_url", "check_external_urls"]


async def check_external_url(
    http: ports.HttpClient, url: str, private_hosts: PrivateHosts, timeout_s: float
) -> ExternalCheck:
    current = url
    max_hops = settings.EXTERNAL.max_hops
    for hops in range(max_hops + 1):
        if host_refused(host_of(current), private_hosts):
            return private_target(url, current, hops)
        result = await head_or_get(http, current, timeout_s)
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
    unlaunched: list[str] = field(default_factory=list)  # past the deadline: to release


async def check_external_urls(
    http: ports.HttpClient,
    urls: list[str],
    private_hosts: PrivateHosts,
    timeout_s: float,
    deadline_s: float,
    clock: Callable[[], float] = time.monotonic,
) -> BatchOutcome:
    """Check `urls` at most `per_host` at a time per host and `concurrency` in all, each host's
    requests `host_spacing_s` apart, launching nothing after `deadline_s` (from now)."""
    config = settings.EXTERNAL
    started = clock()
    queue = deque(urls)
    busy: dict[str, int] = {}
    free_at: dict[str, float] = {}
    running: dict[asyncio.Future[ExternalCheck], str] = {}
    outcome = BatchOutcome()
    while queue or running:
        now = clock()
        while queue and len(running) < config.concurrency and now - started < deadline_s:
            index = next_ready(queue, busy, free_at, now, config.per_host)
            if index is None:
                break
            url = queue[index]
            del queue[index]
            host = host_of(url)
            busy[host] = busy.get(host, 0) + 1
            free_at[host] = now + config.host_spacing_s
            check = check_external_url(http, url, private_hosts, timeout_s)
            running[asyncio.ensure_future(check)] = host
        if not running:
            if not queue or now - started >= deadline_s:
                break
            await asyncio.sleep(max(0.01, min(free_at.values()) - now))
            continue
        # Wake when a check ends, or when a host's pause may have ended (no pause: no timer).
        done, _ = await asyncio.wait(
            running, timeout=config.host_spacing_s or None, return_when=asyncio.FIRST_COMPLETED
        )
        for finished in done:
            host = running.pop(finished)
            busy[host] -= 1
            outcome.checks.append(finished.result())
    outcome.unlaunched = list(queue)
    return outcome
