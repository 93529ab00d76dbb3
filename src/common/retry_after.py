"""Retry-After (RFC 9110 §10.2.3): how long a server asked us to wait, as seconds; and a
paid API's 429 waited out by it."""

from __future__ import annotations

import email.utils
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from common import ports
from common.ports import FetchRequest, FetchResult, HttpClient

__all__ = ["Backoff429", "fetch_waiting_out_429", "parse_retry_after"]


def parse_retry_after(value: str | None, now_s: float) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP-date), or None."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - now_s)


@dataclass(frozen=True, slots=True)
class Backoff429:
    """How a paid API's 429 is waited out: at most `max_retries` more calls, each after the
    answer's Retry-After (or `default_wait_s` without one) when that fits in `max_wait_s`; beyond
    it the 429 stands and the caller reports it. Shared by the Lighthouse runner and the
    Browser Rendering renderer, whose providers refuse a call with 429 without counting it."""

    max_retries: int
    default_wait_s: float
    max_wait_s: float


async def fetch_waiting_out_429(
    http: HttpClient,
    request: FetchRequest,
    backoff: Backoff429,
    sleep: Callable[[float], Awaitable[None]],
    before_each: Callable[[], Awaitable[None]] | None = None,
) -> FetchResult:
    """`request`'s answer, sent again after each 429 per `backoff`; `before_each` runs before
    every call (a renderer's pacing)."""
    for attempt in range(backoff.max_retries + 1):
        if before_each is not None:
            await before_each()
        response = await http.fetch(request)
        if response.status != 429 or attempt == backoff.max_retries:
            break
        wait = parse_retry_after(response.header("retry-after"), ports.now_ms() / 1000)
        wait = backoff.default_wait_s if wait is None else wait
        if wait > backoff.max_wait_s:
            break
        await sleep(wait)
    return response
