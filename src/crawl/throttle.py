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
