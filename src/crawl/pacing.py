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
nothing itself, so its tests are tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from crawl.window import WindowLimits

__all__ = ["HostPacer", "capped_limits", "effective_rate"]


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
        """A request to `url`'s host started at `now`."""
        if self.rate_per_s is not None:
            self._next[_host(url)] = now + 1 / self.rate_per_s


def _host(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()
