"""Step configuration: durations, defaults and retry back-off (docs/platform.md §4.1).

`step.do(..., config={"retries": {"limit", "delay", "backoff"}, "timeout"})`. Durations are ms
numbers or strings "N <unit>[s]". Missing keys take the production defaults from the Workflows
docs (workflows/build/sleeping-and-retrying): 5 retries, 10 s delay, exponential, 10 min timeout.
Miniflare's local engine uses a 1 s delay instead; we follow production because the CLI's timing
should match what a deployed audit does.
"""

from __future__ import annotations

import re
from typing import Any

from local_platform.errors import JsException

DEFAULT_RETRY_LIMIT = 5
DEFAULT_RETRY_DELAY_MS = 10_000
DEFAULT_BACKOFF = "exponential"
DEFAULT_TIMEOUT = "10 minutes"
BACKOFFS = ("constant", "linear", "exponential")

_UNIT_MS = {
    "second": 1_000,
    "minute": 60_000,
    "hour": 3_600_000,
    "day": 86_400_000,
    "week": 7 * 86_400_000,
    # itty-time's `ms()` (used by the Workflows engine) counts a month as 30 days and a year as
    # 365 days. Assumption: production does the same.
    "month": 30 * 86_400_000,
    "year": 365 * 86_400_000,
}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(second|minute|hour|day|week|month|year)s?\s*$")


def duration_ms(value: Any) -> float:
    """Milliseconds for a ms number or a "N unit(s)" string; anything else is a TypeError."""
    if isinstance(value, bool):
        raise _bad_duration(value)
    if isinstance(value, (int, float)):
        if value < 0:
            raise _bad_duration(value)
        return float(value)
    if isinstance(value, str) and (match := _DURATION.match(value)):
        return float(match.group(1)) * _UNIT_MS[match.group(2)]
    raise _bad_duration(value)


def _bad_duration(value: Any) -> JsException:
    # Assumption: the engine rejects unparseable durations with a TypeError; the text is ours.
    return JsException("TypeError", f"Invalid duration: {value!r}")


def resolve_config(config: dict[str, Any] | None) -> dict[str, Any]:
    """The config the engine runs a step with: the user's keys over the defaults."""
    config = config or {}
    retries = dict(config.get("retries") or {})
    resolved_retries = {
        "limit": int(retries.get("limit", DEFAULT_RETRY_LIMIT)),
        "delay": retries.get("delay", DEFAULT_RETRY_DELAY_MS),
        "backoff": retries.get("backoff", DEFAULT_BACKOFF),
    }
    if resolved_retries["backoff"] not in BACKOFFS:
        raise JsException("TypeError", f"Invalid backoff: {resolved_retries['backoff']!r}")
    duration_ms(resolved_retries["delay"])  # validate now, not after the first failure
    timeout = config.get("timeout", DEFAULT_TIMEOUT)
    duration_ms(timeout)
    resolved = {**config, "retries": resolved_retries, "timeout": timeout}
    return resolved


def retry_delay_ms(config: dict[str, Any], failed_attempt: int) -> float:
    """Wait before the attempt after `failed_attempt` (1-based), as miniflare's
    `calcRetryDuration` computes it: constant = d, linear = d * n, exponential = d * 2^(n-1).
    """
    retries = config["retries"]
    delay: float = duration_ms(retries["delay"])
    if retries["backoff"] == "exponential":
        factor: int = 2 ** (failed_attempt - 1)  # int ** int is Any to mypy (could be a float)
        return delay * factor
    if retries["backoff"] == "linear":
        return delay * failed_attempt
    return delay
