"""429 handling as a decision table."""

import pytest

from crawl.throttle import (
    COOLDOWN_BUDGET_S,
    MAX_CONSECUTIVE,
    MAX_WAIT_S,
    RateLimitAction,
    decide_429,
    parse_retry_after,
)

RETRY, RECORD, STOP = RateLimitAction.RETRY, RateLimitAction.RECORD, RateLimitAction.STOP


@pytest.mark.parametrize(
    ("attempt", "consecutive", "used", "retry_after", "action", "delay"),
    [
        (1, 1, 0.0, None, RETRY, 1.0),
        (2, 2, 1.0, None, RETRY, 2.0),
        (3, 3, 3.0, None, RECORD, 0.0),
        (1, 1, 0.0, 5.0, RETRY, 5.0),
        (1, 1, 0.0, 0.0, RETRY, 0.0),
        (1, 1, 0.0, MAX_WAIT_S, RETRY, MAX_WAIT_S),
        (1, 1, 0.0, MAX_WAIT_S + 1, STOP, 0.0),
        (3, 3, 0.0, 3600.0, STOP, 0.0),
        (1, MAX_CONSECUTIVE, 0.0, None, RETRY, 1.0),
        (1, MAX_CONSECUTIVE + 1, 0.0, None, STOP, 0.0),
        (1, 1, COOLDOWN_BUDGET_S - 1.0, None, RETRY, 1.0),
        (1, 1, COOLDOWN_BUDGET_S - 0.5, None, STOP, 0.0),
    ],
)
def test_decisions(
    attempt: int,
    consecutive: int,
    used: float,
    retry_after: float | None,
    action: RateLimitAction,
    delay: float,
) -> None:
    decision = decide_429(
        attempt=attempt, consecutive=consecutive, cooldown_used_s=used, retry_after_s=retry_after
    )
    assert (decision.action, decision.delay_s) == (action, delay)


NOW = 1_767_225_600.0  # 2026-01-01T00:00:00Z


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("120", 120.0),
        (" 3 ", 3.0),
        ("0", 0.0),
        ("Thu, 01 Jan 2026 00:00:30 GMT", 30.0),
        ("Wed, 31 Dec 2025 23:00:00 GMT", 0.0),
        ("soon", None),
        ("", None),
        (None, None),
        ("-5", None),
    ],
)
def test_retry_after_parsing(header: str | None, seconds: float | None) -> None:
    assert parse_retry_after(header, NOW) == seconds
