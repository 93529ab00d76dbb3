"""Cron expressions, `next_fire_ms`, the controller and the scheduler (docs/platform.md §5)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from local_platform.clock import ManualClock
from local_platform.cron import CronScheduler, ScheduledController, next_fire_ms, parse_cron


def ms(text: str) -> int:
    """'2026-01-01 00:00' (UTC) -> epoch ms."""
    return int(dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC).timestamp()) * 1000


# 2026-01-01 is a Thursday.
@pytest.mark.parametrize(
    ("expr", "after", "expected"),
    [
        ("* * * * *", "2026-01-01 00:00", "2026-01-01 00:01"),
        ("* * * * *", "2026-01-01 00:00:30", "2026-01-01 00:01"),
        ("*/15 * * * *", "2026-01-01 00:00", "2026-01-01 00:15"),
        ("*/15 * * * *", "2026-01-01 00:59", "2026-01-01 01:00"),
        ("5 * * * *", "2026-01-01 00:05", "2026-01-01 01:05"),
        ("0 3 * * *", "2026-01-01 03:00", "2026-01-02 03:00"),
        ("30 2 1 * *", "2026-01-01 03:00", "2026-02-01 02:30"),
        ("0 0 1 JAN *", "2026-01-01 00:00", "2027-01-01 00:00"),
        ("0 0 * * MON", "2026-01-01 00:00", "2026-01-05 00:00"),
        ("0 0 * * 7", "2026-01-01 00:00", "2026-01-04 00:00"),  # 7 is Sunday too
        ("0 0 * * 0", "2026-01-01 00:00", "2026-01-04 00:00"),
        ("0 9 * * mon-fri", "2026-01-02 09:00", "2026-01-05 09:00"),
        ("10-20/5 * * * *", "2026-01-01 00:16", "2026-01-01 00:20"),
        ("10/20 * * * *", "2026-01-01 00:31", "2026-01-01 00:50"),
        ("0 0,12 * * *", "2026-01-01 00:00", "2026-01-01 12:00"),
        ("0 0 29 2 *", "2026-01-01 00:00", "2028-02-29 00:00"),
        ("0 0 31 * *", "2026-01-31 00:00", "2026-03-31 00:00"),
        ("59 23 31 DEC *", "2026-06-01 00:00", "2026-12-31 23:59"),
    ],
)
def test_next_fire(expr: str, after: str, expected: str) -> None:
    assert next_fire_ms(expr, ms(after)) == ms(expected)


@pytest.mark.parametrize(
    ("expr", "after", "expected"),
    [
        # Both day fields restricted: either matches (the 15th, or any Friday).
        ("0 0 15 * FRI", "2026-01-01 00:00", "2026-01-02 00:00"),
        ("0 0 15 * FRI", "2026-01-09 00:00", "2026-01-15 00:00"),
        # A `*`-led day field does not restrict: both must match, i.e. Fridays only.
        ("0 0 * * FRI", "2026-01-02 00:00", "2026-01-09 00:00"),
        ("0 0 */1 * FRI", "2026-01-02 00:00", "2026-01-09 00:00"),
    ],
)
def test_day_of_month_and_day_of_week_use_crons_or_rule(
    expr: str, after: str, expected: str
) -> None:
    assert next_fire_ms(expr, ms(after)) == ms(expected)


@pytest.mark.parametrize(
    ("expr", "field"),
    [
        ("60 * * * *", "minute"),
        ("* 24 * * *", "hour"),
        ("* * 0 * *", "day-of-month"),
        ("* * * 13 *", "month"),
        ("* * * FOO *", "month"),
        ("* * * * 8", "day-of-week"),
        ("* * * * L", "day-of-week"),
        ("*/0 * * * *", "minute"),
        ("5-1 * * * *", "minute"),
        ("* * 1W * *", "day-of-month"),
        ("a * * * *", "minute"),
    ],
)
def test_invalid_field_names_the_field(expr: str, field: str) -> None:
    with pytest.raises(ValueError, match=f"invalid {field} field"):
        parse_cron(expr)


@pytest.mark.parametrize("expr", ["* * * *", "* * * * * *", ""])
def test_wrong_field_count(expr: str) -> None:
    with pytest.raises(ValueError, match="must have 5 fields"):
        parse_cron(expr)


def test_expression_that_never_fires() -> None:
    with pytest.raises(ValueError, match="never fires"):
        next_fire_ms("0 0 30 2 *", ms("2026-01-01 00:00"))
    with pytest.raises(ValueError, match="never fires"):
        CronScheduler(["0 0 31 4 *"], ManualClock())


@given(
    minute=st.integers(0, 59),
    hour=st.integers(0, 23),
    after=st.integers(ms("2000-01-01 00:00"), ms("2100-01-01 00:00")),
)
def test_next_fire_is_the_first_matching_minute_after(minute: int, hour: int, after: int) -> None:
    fired = next_fire_ms(f"{minute} {hour} * * *", after)
    when = dt.datetime.fromtimestamp(fired / 1000, dt.UTC)
    assert (when.minute, when.hour, when.second) == (minute, hour, 0)
    assert after < fired <= after + 86_400_000


def test_controller() -> None:
    controller = ScheduledController("*/15 * * * *", 1_767_225_600_000)
    assert (controller.cron, controller.scheduledTime) == ("*/15 * * * *", 1_767_225_600_000)
    assert controller.retry_allowed
    controller.noRetry()
    assert not controller.retry_allowed


def test_scheduler_fires_each_cron_once_per_firing() -> None:
    clock = ManualClock(ms("2026-01-01 00:00"))
    scheduler = CronScheduler(["*/15 * * * *", "0 * * * *"], clock)
    assert scheduler.due(ms("2026-01-01 00:14")) == []
    assert scheduler.due(ms("2026-01-01 00:15")) == [("*/15 * * * *", ms("2026-01-01 00:15"))]
    assert scheduler.due(ms("2026-01-01 00:15")) == []
    assert scheduler.due(ms("2026-01-01 01:00:05")) == [
        ("*/15 * * * *", ms("2026-01-01 01:00")),
        ("0 * * * *", ms("2026-01-01 01:00")),
    ]


def test_scheduler_does_not_catch_up_after_a_long_sleep() -> None:
    clock = ManualClock(ms("2026-01-01 00:00"))
    scheduler = CronScheduler(["* * * * *", "0 0 1 * *"], clock)
    # Seventy days asleep: one firing per cron, at its latest scheduled time.
    assert scheduler.due(ms("2026-03-12 10:30:10")) == [
        ("* * * * *", ms("2026-03-12 10:30")),
        ("0 0 1 * *", ms("2026-03-01 00:00")),
    ]


def test_scheduler_with_no_crons() -> None:
    scheduler = CronScheduler([], ManualClock())
    assert scheduler.due(ms("2030-01-01 00:00")) == []
