"""Run one page's Lighthouse calls through a provider: both strategies at once, each call with its
own timeout, a 429 retried after the provider's Retry-After (inside the caller's step), and every
failure turned into an error run, never an exception (docs/lighthouse.md).

The workflow runs this inside a step with no step-level retries: a replay returns the step's stored
result, so a call that already counted against the provider's quota is never issued again. The
only repeats are the 429 retries here, which the provider refused and so did not count.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from common.ports import HttpClient
from common.retry_after import Backoff429, fetch_waiting_out_429
from lighthouse.provider import LighthouseProvider, ProviderAnswer
from lighthouse.records import LighthouseRun, Strategy

__all__ = ["CallPolicy", "run_page"]

log = logging.getLogger("siteaudit.lighthouse")

type Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class CallPolicy:
    # A PSI run loads the page in a real browser: typically 10-30 s, sometimes near a minute.
    timeout_s: float = 60.0
    # 429s retried per call, each after Retry-After (or `default_wait_s` without one) when that
    # fits in `max_wait_s`; beyond it the call is an error run, the step's 5 minutes being finite.
    max_429_retries: int = 2
    default_wait_s: float = 5.0
    max_wait_s: float = 30.0


async def run_page(
    provider: LighthouseProvider,
    http: HttpClient,
    url: str,
    policy: CallPolicy = CallPolicy(),
    sleep: Sleep = asyncio.sleep,
) -> list[ProviderAnswer]:
    """Both strategies of `url`, mobile first; never raises for a provider's failure."""
    calls = [_call(provider, http, url, strategy, policy, sleep) for strategy in Strategy]
    return list(await asyncio.gather(*calls))


async def _call(
    provider: LighthouseProvider,
    http: HttpClient,
    url: str,
    strategy: Strategy,
    policy: CallPolicy,
    sleep: Sleep,
) -> ProviderAnswer:
    try:
        backoff = Backoff429(policy.max_429_retries, policy.default_wait_s, policy.max_wait_s)
        request = provider.request(url, strategy, policy.timeout_s)
        response = await fetch_waiting_out_429(http, request, backoff, sleep)
        return provider.parse(strategy, response)
    except Exception as exc:  # a bug or a binding error: one error row, not a failed audit
        log.warning("lighthouse %s %s failed: %s", strategy, url, exc)
        return ProviderAnswer(LighthouseRun.failed(strategy, f"{type(exc).__name__}: {exc}"))
