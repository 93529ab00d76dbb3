"""What to do when a site answers 429 Too Many Requests (pure decisions, table-tested).

A 429 pauses every new fetch of the audit for the requested time and retries the URL; a URL still
limited after `MAX_ATTEMPTS` is recorded as `rate_limited`. A site that asks for more patience
than one audit can give (a Retry-After beyond `MAX_WAIT_S`, or cumulative waits beyond
`COOLDOWN_BUDGET_S`), or that keeps refusing (`MAX_CONSECUTIVE` 429s in a row with no other
answer between), stops the crawl: the audit completes with what it has and a crawl-rate-limited
issue instead of hammering a site or sleeping for hours. (docs/original-system.md §4.6, #272:
a Shopify storefront 429'd 93% of an audit whose crawler ignored Retry-After.)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from common.retry_after import parse_retry_after

__all__ = [
    "RateLimitAction",
    "RateLimitDecision",
    "RateLimitPauses",
    "decide_429",
    "parse_retry_after",  # the crawl's 429 handling reads it from here
]

MAX_ATTEMPTS = 3  # the original's MAX_RETRIES for a 429'd URL
MAX_WAIT_S = 60.0  # the longest single pause a chunk takes inline (its soft deadline is 90 s)
COOLDOWN_BUDGET_S = 180.0  # total pausing per chunk before the crawl gives up on the site
MAX_CONSECUTIVE = 6  # 429s in a row, with no other response between them
DEFAULT_BACKOFF_S = 1.0  # without Retry-After: 1 s, then 2 s


class RateLimitAction(StrEnum):
    RETRY = "retry"  # pause new fetches for `delay_s`, then fetch the URL again
    RECORD = "record"  # give up on this URL: record it as rate_limited
    STOP = "stop"  # stop the crawl; the URL goes back unrecorded


@dataclass(frozen=True, slots=True)
class RateLimitDecision:
    action: RateLimitAction
    delay_s: float = 0.0


def decide_429(
    *, attempt: int, consecutive: int, cooldown_used_s: float, retry_after_s: float | None
) -> RateLimitDecision:
    """`attempt` is the attempt that just got a 429 (1-based); `consecutive` includes it."""
    delay = retry_after_s if retry_after_s is not None else DEFAULT_BACKOFF_S * 2 ** (attempt - 1)
    if consecutive > MAX_CONSECUTIVE or delay > MAX_WAIT_S:
        return RateLimitDecision(RateLimitAction.STOP)
    if attempt >= MAX_ATTEMPTS:
        return RateLimitDecision(RateLimitAction.RECORD)
    if cooldown_used_s + delay > COOLDOWN_BUDGET_S:
        return RateLimitDecision(RateLimitAction.STOP)
    return RateLimitDecision(RateLimitAction.RETRY, delay)


@dataclass(slots=True)
class RateLimitPauses:
    """One chunk's 429 state, fed each answer as it comes: the pause every new fetch waits out,
    the pausing spent so far, the 429s in a row, and whether the site made the chunk stop.

    Times are the chunk's monotonic clock, passed in, so the object reads no clock of its own."""

    until: float = 0.0  # no new fetch starts before this time
    cooldown_s: float = 0.0  # pausing added up, overlaps counted once (COOLDOWN_BUDGET_S)
    consecutive: int = 0  # 429s since the last other answer (MAX_CONSECUTIVE)
    stopped: bool = False  # the site asked for more patience than an audit has

    def answered(self) -> None:
        """An answer other than 429 breaks the run of 429s."""
        self.consecutive = 0

    def on_429(self, attempt: int, retry_after_s: float | None, now: float) -> RateLimitAction:
        """Decide about the 429 that ended `attempt` (1-based); a retry extends the pause."""
        self.consecutive += 1
        decision = decide_429(
            attempt=attempt,
            consecutive=self.consecutive,
            cooldown_used_s=self.cooldown_s,
            retry_after_s=retry_after_s,
        )
        if decision.action is RateLimitAction.STOP:
            self.stopped = True
        elif decision.action is RateLimitAction.RETRY:
            self._pause(now + decision.delay_s, now)
        return decision.action

    def _pause(self, resume_at: float, now: float) -> None:
        # A pause inside one already running costs only the part that outlasts it.
        self.cooldown_s += max(0.0, resume_at - max(self.until, now))
        self.until = max(self.until, resume_at)

    def holds(self, now: float) -> bool:
        return now < self.until

    def remaining(self, now: float) -> float:
        return max(0.0, self.until - now)
