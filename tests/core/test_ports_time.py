"""common.ports: timestamps as the D1 tables store them."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common import ports


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (0, "1970-01-01T00:00:00.000Z"),
        (999, "1970-01-01T00:00:00.999Z"),
        (1000, "1970-01-01T00:00:01.000Z"),
        (1_796_083_200_123.9, "2026-12-01T00:00:00.123Z"),  # fractions of a ms are dropped
    ],
)
def test_milliseconds_format_as_iso_utc(ms: float, text: str) -> None:
    assert ports.iso_from_ms(ms) == text


@given(st.integers(min_value=0, max_value=4_102_444_800_000))  # up to 2100
def test_every_instant_formats_as_datetime_does(ms: int) -> None:
    expected = dt.datetime.fromtimestamp(ms / 1000, dt.UTC).strftime("%Y-%m-%dT%H:%M:%S")
    assert ports.iso_from_ms(ms) == f"{expected}.{ms % 1000:03d}Z"
