"""The production renderer: Browser Rendering's `/content` called through the Worker's fetch.

The calls are paced to the account's documented fill rate (one every `1 / requests_per_second`
seconds, shared by every render this renderer makes, since the limit is the account's and a burst
is refused even under the per-minute figure), and a 429 is waited out per its Retry-After (or the
Free plan's 10 s fill interval without one) up to a bound, after which the page is a failed
render that says so. A page URL the SSRF policy refuses is never sent. The audit's robots.txt
goes with each call as `rejectRequestPattern` entries (`RobotsGate.rejected_patterns`): the
endpoint refuses those requests but does not say which it refused, so a render from here reports
no `BlockReason.ROBOTS_TXT` request (docs/rendering.md). The request building and
the answer's reading are render.browser_rendering's; here is only the I/O and the time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from common import ports
from common.retry_after import Backoff429, fetch_waiting_out_429
from render.browser_rendering import BrowserRenderingApi
from render.records import BlockedRequest, RenderBudget, RenderedPage, RenderFailure
from render.request_policy import RobotsGate, page_refusal
from urls.private_hosts import PrivateHosts

__all__ = ["BrowserRenderingRenderer", "CallPolicy", "next_call"]

type Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class CallPolicy:
    # The Workers Paid plan's REST rate (Browser Rendering limits page; 10 a second since
    # March 2026); a Free account sets 6 a minute (BROWSER_RENDERING_REQUESTS_PER_MINUTE).
    requests_per_second: float = 10.0
    # Without Retry-After a 429 is waited out for the Free plan's fill interval (10 s).
    backoff: Backoff429 = field(default_factory=lambda: Backoff429(3, 10.0, 30.0))


def next_call(now: float, next_free: float, interval: float) -> tuple[float, float]:
    """Pacing at a fixed fill rate: how long to wait before calling, and when the next call may
    go. A call never waits for a slot that passed while no one called (no burst is saved up)."""
    start = max(now, next_free)
    return start - now, start + interval


class BrowserRenderingRenderer:
    """`render.renderer.Renderer` over Browser Rendering's REST `/content`."""

    def __init__(
        self,
        api: BrowserRenderingApi,
        http: ports.HttpClient,
        private_hosts: PrivateHosts = PrivateHosts.DENY,
        policy: CallPolicy = CallPolicy(),
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float] = time.monotonic,
        robots: RobotsGate | None = None,
    ) -> None:
        self.api, self.http, self.private_hosts = api, http, private_hosts
        self.robots = robots
        self.policy, self.sleep, self.clock = policy, sleep, clock
        self._next_free = 0.0
        self._pacing = asyncio.Lock()

    @property
    def name(self) -> str:
        return self.api.name

    @property
    def unavailable(self) -> str | None:
        return None

    async def render(self, url: str, budget: RenderBudget) -> RenderedPage:
        refusal = page_refusal(url, self.private_hosts)
        if refusal is not None:
            page = RenderedPage.failed(url, self.name, RenderFailure.REFUSED_URL, str(refusal))
            return _with_block(page, BlockedRequest(url, refusal, "document"))
        started = self.clock()
        response = await self._call(url, budget)
        return self.api.parse(url, response, (self.clock() - started) * 1000)

    async def _call(self, url: str, budget: RenderBudget) -> ports.FetchResult:
        rejected = () if self.robots is None else self.robots.rejected_patterns()
        request = self.api.content_request(url, budget, rejected)
        backoff = self.policy.backoff
        return await fetch_waiting_out_429(self.http, request, backoff, self.sleep, self._paced)

    async def _paced(self) -> None:
        async with self._pacing:
            interval = 1 / self.policy.requests_per_second
            delay, self._next_free = next_call(self.clock(), self._next_free, interval)
            if delay > 0:
                await self.sleep(delay)


def _with_block(page: RenderedPage, blocked: BlockedRequest) -> RenderedPage:
    return RenderedPage(
        page.url, page.renderer, blocked=[blocked], failure=page.failure, error=page.error
    )
