"""Measuring pages again after the crawl, quietly: the figures `slow-response` and `slow-site`
are judged on (audit.timing, docs/timing.md).

One measurement is a GET, as the crawl sent it (same headers, redirects not followed), timed
from the request's start to the response headers: the time the site takes to start answering,
which is what the site controls. The body is read and dropped without parsing, so the connection
goes back to the pool for the next measurement (a fresh connection per measurement would add its
handshakes to every figure). At most `concurrency` requests are in flight and nothing else runs
in the event loop, so neither our own queueing nor our parsing is measured. A request that does
not answer within its timeout counts as that long (it is over the bar either way); one that got
no answer for another reason (refused, DNS) yields no figure.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

from common import ports, settings
from common.net_failure import NetFailure, classify_net_failure

__all__ = ["measure", "measure_all"]


class _Dropped:
    """A body sink that keeps nothing: the body is read (to free the connection), not used."""

    def open(self, status: int, headers: dict[str, str]) -> int:
        return settings.CRAWL.whole_body_max_bytes

    async def feed(self, chunk: bytes) -> None:
        return None


async def measure(
    http: ports.HttpClient, url: str, timeout_s: float, user_agent: str | None = None
) -> int | None:
    """Milliseconds from the request's start to the response headers of one GET of `url`, sent
    with the audit's User-Agent (auditdb.scope; ours by default)."""
    request = ports.FetchRequest(
        url,
        timeout_s,
        settings.CRAWL.whole_body_max_bytes,
        settings.CRAWL.headers_for(user_agent),
        sink=_Dropped(),
    )
    result = await http.fetch(request)
    if result.status != 0:
        return round(result.elapsed_ms)
    if classify_net_failure(result.error) is NetFailure.TIMEOUT:
        return round(timeout_s * 1000)
    return None


async def measure_all(
    http: ports.HttpClient,
    urls: Sequence[str],
    timeout_s: float,
    *,
    concurrency: int,
    deadline: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    user_agent: str | None = None,
) -> dict[str, int | None]:
    """Each of `urls` measured once, in order, `concurrency` at a time; none started at or after
    `deadline` (on `clock`), so the answer may hold fewer URLs than asked."""
    queue = list(reversed(urls))
    times: dict[str, int | None] = {}

    async def worker() -> None:
        while queue and (deadline is None or clock() < deadline):
            url = queue.pop()
            times[url] = await measure(http, url, timeout_s, user_agent)

    await asyncio.gather(*(worker() for _ in range(max(1, concurrency))))
    return {url: times[url] for url in urls if url in times}
