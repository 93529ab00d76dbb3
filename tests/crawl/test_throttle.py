"""429 handling as a decision table."""

import pytest

from crawl.throttle import (
    COOLDOWN_BUDGET_S,
    MAX_CONSECUTIVE,
    MAX_WAIT_S,
    RateLimitAction,
    RateLimitPauses,
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


# A chunk's 429 state over a run of answers: a row is (attempt, Retry-After, now) for a 429, or
# None for any other answer. Times are the chunk's clock in seconds.
Answer = tuple[int, float | None, float] | None
AT_ONCE = (1, 0.0, 0.0)  # a 429 asking for no pause
Pauses = RateLimitPauses


@pytest.mark.parametrize(
    ("answers", "actions", "after"),
    [
        ([(1, None, 10.0)], [RETRY], Pauses(11.0, 1.0, 1)),
        ([(1, 5.0, 10.0), (2, None, 15.0)], [RETRY] * 2, Pauses(17.0, 7.0, 2)),
        # a second URL's 429 while paused: only the part past the running pause counts
        ([(1, 5.0, 10.0), (1, 5.0, 12.0)], [RETRY] * 2, Pauses(17.0, 7.0, 2)),
        # a shorter pause inside the running one costs nothing and ends nothing early
        ([(1, 5.0, 10.0), (1, 1.0, 11.0)], [RETRY] * 2, Pauses(15.0, 5.0, 2)),
        (
            [(1, None, 0.0), (2, None, 1.0), (3, None, 3.0)],
            [RETRY] * 2 + [RECORD],
            Pauses(3.0, 3.0, 3),
        ),
        ([(1, MAX_WAIT_S + 1, 10.0)], [STOP], Pauses(consecutive=1, stopped=True)),
        # another answer breaks the run of 429s
        ([AT_ONCE, None], [RETRY], Pauses()),
        (
            [AT_ONCE] * (MAX_CONSECUTIVE + 1),
            [RETRY] * MAX_CONSECUTIVE + [STOP],
            Pauses(consecutive=MAX_CONSECUTIVE + 1, stopped=True),
        ),
        (
            [AT_ONCE] * MAX_CONSECUTIVE + [None, AT_ONCE],
            [RETRY] * (MAX_CONSECUTIVE + 1),
            Pauses(consecutive=1),
        ),
        # the cooldown budget: three minute-long pauses fit, one second more does not
        (
            [(1, 60.0, 0.0), (1, 60.0, 60.0), (1, 60.0, 120.0), (1, 1.0, 180.0)],
            [RETRY] * 3 + [STOP],
            Pauses(180.0, COOLDOWN_BUDGET_S, 4, stopped=True),
        ),
    ],
)
def test_pauses_over_a_run_of_answers(
    answers: list[Answer], actions: list[RateLimitAction], after: RateLimitPauses
) -> None:
    pauses = RateLimitPauses()
    taken = []
    for answer in answers:
        if answer is None:
            pauses.answered()
        else:
            taken.append(pauses.on_429(*answer))
    assert (taken, pauses) == (actions, after)


@pytest.mark.parametrize(
    ("now", "holds", "remaining"),
    [
        (9.0, True, 2.0),
        (10.999, True, pytest.approx(0.001)),
        (11.0, False, 0.0),
        (12.0, False, 0.0),
    ],
)
def test_a_pause_holds_new_fetches_until_it_ends(now: float, holds: bool, remaining: float) -> None:
    pauses = RateLimitPauses(until=11.0)
    assert (pauses.holds(now), pauses.remaining(now)) == (holds, remaining)
