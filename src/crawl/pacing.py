"""How fast an audit may fetch from one host: the effective rate, and the pacer that keeps it.

Today's pacing without options is the fetch window alone (crawl.window: 5 to 40 page fetches in
flight, adapting to the site) with the 429 pauses (crawl.throttle); no fixed rate. Two sources
may set a rate on top, and the lowest wins:

* robots.txt's `Crawl-delay` for our group (crawl.robots reads it; it is not in RFC 9309, and
  Bing and Yandex read it as seconds between requests): one request every `delay` seconds.
* the audit's `rate_per_s` option (auditdb.scope): the person running the audit may always ask
  for *less*. Asking for more than a Crawl-delay allows is for an owner who proved control of
  the host (issue 28, item 2): `effective_rate(..., verified=True)` then lets their rate stand.

`concurrency` (auditdb.scope) caps the window's size (`capped_limits`), never raising it.

`HostPacer` is pure bookkeeping on the caller's monotonic clock: when the next request to a host
may start. The chunk asks it before each launch (crawl.chunk); it reads no clock and sleeps on
nothing itself, so its tests are tables. `PacedHttp` is the same bookkeeping in front of any
`HttpClient`, for the steps after the crawl (the timing re-measure, the security grade, the
exposure checks' scripts, external link checks): each request, every redirect hop and HEAD's GET
fallback included, waits for its host's turn.

A pacer lives as long as one Workflow step, but the rate holds across steps: a new step's first
request to a host must not go at once when the last step's last one went a moment ago. The
state crosses the step boundary as `carried`: per host, the wall-clock time (epoch seconds)
when the next request may start. Never a monotonic reading: a retried or resumed step may run
on another instance, whose monotonic clock has another origin. `HostPacer.resumed` turns it back
into the new step's monotonic clock.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from common import ports
from crawl.window import WindowLimits

__all__ = [
    "HostPacer",
    "NoTurnLeft",
    "PacedHttp",
    "StampedHttp",
    "capped_limits",
    "effective_rate",
    "epoch_s",
]


def effective_rate(
    user_rate: float | None, crawl_delay: float | None, *, verified: bool = False
) -> float | None:
    """Requests a second to one host, or None for no fixed rate (the window paces).

    `verified`: the audit's owner proved control of the host (issue 28, item 2), so their own
    rate stands even above the Crawl-delay; without a rate of their own the Crawl-delay holds."""
    robots_rate = 1 / crawl_delay if crawl_delay else None
    if verified and user_rate is not None:
        return user_rate
    rates = [rate for rate in (user_rate, robots_rate) if rate is not None]
    return min(rates) if rates else None


def capped_limits(limits: WindowLimits, concurrency: int | None) -> WindowLimits:
    """The window's limits with at most `concurrency` fetches in flight."""
    if concurrency is None or concurrency >= limits.maximum:
        return limits
    return replace(
        limits,
        maximum=concurrency,
        initial=min(limits.initial, concurrency),
        minimum=min(limits.minimum, concurrency),
    )


@dataclass(slots=True)
class HostPacer:
    """When the next request to each host may start, at `rate_per_s` (None: at once)."""

    rate_per_s: float | None = None
    _next: dict[str, float] = field(default_factory=dict)

    def wait_s(self, url: str, now: float) -> float:
        """Seconds until a request to `url`'s host may start (0: now)."""
        if self.rate_per_s is None:
            return 0.0
        return max(0.0, self._next.get(_host(url), now) - now)

    def started(self, url: str, now: float) -> None:
        """A request to `url`'s host really started at `now`: its next turn is 1/rate later (or
        later still, if a reservation put it there)."""
        self._book(url, now)

    def reserve(self, url: str, now: float) -> None:
        """A request to `url`'s host takes its turn at `now`, to start a moment later (the crawl
        chunk's launch, before the task runs: `StampedHttp` then marks the real start)."""
        self._book(url, now)

    def _book(self, url: str, now: float) -> None:
        if self.rate_per_s is not None:
            host = _host(url)
            self._next[host] = max(self._next.get(host, now), now + 1 / self.rate_per_s)

    @classmethod
    def resumed(
        cls, rate_per_s: float | None, carried: Mapping[str, float], now: float, epoch: float
    ) -> HostPacer:
        """A pacer at `rate_per_s` whose hosts wait as a previous step's pacer `carried` them
        (epoch seconds), read at `now` on this step's monotonic clock and `epoch` on the wall's."""
        pacer = cls(rate_per_s)
        pacer._next = {host: now + (at - epoch) for host, at in carried.items() if at > epoch}
        return pacer

    def carried(self, now: float, epoch: float) -> dict[str, float]:
        """For the next step: per host still to wait for, the epoch second its next request may
        start (`now` on this pacer's monotonic clock is `epoch` on the wall's)."""
        # Rounded up to the millisecond: a turn carried over may come late, never early.
        return {
            host: math.ceil((epoch + at - now) * 1000) / 1000
            for host, at in sorted(self._next.items())
            if at > now
        }


def epoch_s() -> float:
    """The wall clock in seconds since the epoch (common.ports, so tests can move it)."""
    return ports.now_ms() / 1000


@dataclass(slots=True)
class StampedHttp:
    """`http` telling `pacer` when each request really starts.

    The chunk reserves a request's turn when it launches the request's task (so it launches no
    second one in the same turn), but the task runs when the event loop gets to it: a process
    descheduled for 10 ms starts that request 10 ms late and the next one, launched on time,
    only 1/rate - 10 ms after it. Stamping again at the fetch itself pushes the next turn back."""

    http: ports.HttpClient
    pacer: HostPacer
    clock: Callable[[], float] = time.monotonic

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.pacer.started(request.url, self.clock())
        return await self.http.fetch(request)


class NoTurnLeft(Exception):
    """A request's turn at the audit's rate would come after its step's deadline: the step
    ends its requests there (a step that overran would be killed by its timeout instead)."""


@dataclass(slots=True)
class PacedHttp:
    """`http` with every request waiting for its host's turn at `pacer`'s rate; a request whose
    turn comes after `deadline` (on `clock`) raises `NoTurnLeft` instead of waiting."""

    http: ports.HttpClient
    pacer: HostPacer
    clock: Callable[[], float] = time.monotonic
    deadline: float | None = None
    # One waiter per host at a time, its turn counted from when the last request really started
    # (a sleep may end late): never two starts closer than 1/rate, fetches still overlapping.
    _turns: dict[str, asyncio.Lock] = field(default_factory=dict)

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        async with self._turns.setdefault(_host(request.url), asyncio.Lock()):
            wait = self.pacer.wait_s(request.url, self.clock())
            if self.deadline is not None and self.clock() + wait > self.deadline:
                raise NoTurnLeft(
                    f"at the audit's rate of {self.pacer.rate_per_s:g} requests a second to "
                    f"{_host(request.url)}, no request could start before the step's deadline"
                )
            if wait > 0:
                await asyncio.sleep(wait)
            self.pacer.started(request.url, self.clock())
        return await self.http.fetch(request)

    @classmethod
    def resumed(
        cls,
        http: ports.HttpClient,
        rate_per_s: float | None,
        carried: Mapping[str, float],
        budget_s: float | None = None,
    ) -> PacedHttp:
        """`http` at `rate_per_s` per host, from where a previous step `carried` the pace; no
        request starts more than `budget_s` from now."""
        now = time.monotonic()
        pacer = HostPacer.resumed(rate_per_s, carried, now, epoch_s())
        return cls(http, pacer, deadline=None if budget_s is None else now + budget_s)

    def carried(self) -> dict[str, float]:
        """The pace for the next step (`HostPacer.carried`)."""
        return self.pacer.carried(self.clock(), epoch_s())


def _host(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()
