"""A monitor's slots: its hour on every day, on Mondays, or on the 1st; always strictly later."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from auditdb.frequency import Frequency
from maintenance.monitor_schedule import (
    HOUR_MS,
    RECENCY_HOURS,
    next_due_at,
    next_slot_ms,
    recency_cutoffs,
)


def ms(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC).timestamp() * 1000


@pytest.mark.parametrize(
    ("frequency", "hour", "after", "expected"),
    [
        # 2026-12-01 is a Tuesday.
        (Frequency.DAILY, 10, "2026-12-01T09:59:59", "2026-12-01T10:00:00.000Z"),
        (Frequency.DAILY, 10, "2026-12-01T10:00:00", "2026-12-02T10:00:00.000Z"),
        (Frequency.DAILY, 0, "2026-12-31T23:30:00", "2027-01-01T00:00:00.000Z"),
        (Frequency.WEEKLY, 6, "2026-12-01T05:00:00", "2026-12-07T06:00:00.000Z"),
        (Frequency.WEEKLY, 6, "2026-12-07T05:59:00", "2026-12-07T06:00:00.000Z"),
        (Frequency.WEEKLY, 6, "2026-12-07T06:00:00", "2026-12-14T06:00:00.000Z"),
        (Frequency.MONTHLY, 3, "2026-12-01T02:00:00", "2026-12-01T03:00:00.000Z"),
        (Frequency.MONTHLY, 3, "2026-12-01T03:00:00", "2027-01-01T03:00:00.000Z"),
        (Frequency.MONTHLY, 23, "2027-02-15T00:00:00", "2027-03-01T23:00:00.000Z"),
    ],
)
def test_next_slot(frequency: Frequency, hour: int, after: str, expected: str) -> None:
    assert next_due_at(frequency, hour, ms(after)) == expected


@given(
    frequency=st.sampled_from(Frequency),
    hour=st.integers(0, 23),
    after=st.integers(1_700_000_000_000, 2_000_000_000_000),
)
def test_a_slot_is_later_on_the_hour_on_its_day_and_within_one_period(
    frequency: Frequency, hour: int, after: int
) -> None:
    slot = next_slot_ms(frequency, hour, after)
    when = dt.datetime.fromtimestamp(slot / 1000, dt.UTC)

    assert (
        after < slot <= after + {"daily": 1, "weekly": 7, "monthly": 31}[frequency] * 24 * HOUR_MS
    )
    assert (when.hour, when.minute, when.second) == (hour, 0, 0)
    assert frequency is not Frequency.WEEKLY or when.weekday() == 0
    assert frequency is not Frequency.MONTHLY or when.day == 1


def test_recency_cutoffs_are_12_60_and_240_hours_back() -> None:
    now = ms("2026-12-11T12:00:00")
    cutoffs = recency_cutoffs(now)

    assert (cutoffs.daily, cutoffs.weekly, cutoffs.monthly) == (
        "2026-12-11T00:00:00.000Z",
        "2026-12-09T00:00:00.000Z",
        "2026-12-01T12:00:00.000Z",
    )
    assert RECENCY_HOURS == {Frequency.DAILY: 12, Frequency.WEEKLY: 60, Frequency.MONTHLY: 240}
