"""The rolling window's size rule (original system §4.5), every branch and boundary."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.fetch_class import FetchClass
from common.wire import WireError
from crawl.window import (
    RETRY_WINDOW_LIMITS,
    WINDOW_LIMITS,
    FetchWindow,
    PageOutcome,
    WindowLimits,
    byte_bound,
    next_window,
    start_window,
    window_limits,
)

KIB, MIB = 1024, 1024 * 1024
LIMITS = WindowLimits(initial=10, minimum=5, maximum=40, budget_bytes=8 * MIB, growth_min_sample=25)


def page(
    fetch_class: FetchClass = FetchClass.OK,
    *,
    status: int = 200,
    ms: float = 200,
    size: int = 20 * KIB,
    truncated: bool = False,
    retried: bool = False,
) -> PageOutcome:
    return PageOutcome(fetch_class, status, ms, size, truncated, retried)


FAST = page()
SLOWISH = page(ms=2_000)  # neither fast nor troubled
BAD = page(FetchClass.ERROR, status=0, ms=15_000, size=0)


def test_our_limits_are_v1_range_with_v3_memory_machinery() -> None:
    assert WINDOW_LIMITS == LIMITS
    assert RETRY_WINDOW_LIMITS.to_dict() == {
        "initial": 3,
        "minimum": 2,
        "maximum": 5,
        "budget_bytes": 4 * MIB,
        "growth_min_sample": 25,
    }


@pytest.mark.parametrize(
    ("outcome", "troubled", "fast"),
    [
        (page(), False, True),
        (page(ms=1_500), False, True),
        (page(ms=1_501), False, False),
        (page(ms=9_999), False, False),
        (page(ms=10_000), True, False),
        (page(FetchClass.ERROR, status=0), True, False),
        (page(FetchClass.BLOCKED, status=403), True, False),
        (page(FetchClass.BLOCKED, status=200), True, False),  # a challenge page
        (page(FetchClass.RATE_LIMITED, status=429), True, False),
        (page(status=401), True, True),
        (page(status=403), True, True),
        (page(status=429), True, True),
        (page(status=404), False, True),
        (page(status=500), False, True),
        (page(size=MIB - 1), False, True),
        (page(size=MIB), True, True),
        (page(truncated=True), True, True),
        (page(retried=True), True, True),  # V4: a 429 retry is trouble even if it then worked
    ],
)
def test_what_counts_as_troubled_and_fast(outcome: PageOutcome, troubled: bool, fast: bool) -> None:
    assert (outcome.troubled, outcome.fast) == (troubled, fast)


@pytest.mark.parametrize(
    ("current", "batch", "expected"),
    [
        # Empty batch: unchanged (but clamped into the limits).
        (20, [], 20),
        (2, [], 5),
        (99, [], 40),
        # troubled x 3 >= n: halve, floor, never below the minimum.
        (20, [BAD] * 2 + [FAST] * 4, 10),  # 6 >= 6
        (21, [BAD] * 2 + [FAST] * 4, 10),
        (11, [BAD], 5),
        (9, [BAD], 5),
        (5, [BAD] * 5, 5),
        (40, [BAD] * 25, 20),
        # Some trouble below a third: unchanged, however fast the rest.
        (20, [BAD] * 2 + [FAST] * 5, 20),  # 6 < 7
        (20, [BAD] + [FAST] * 30, 20),
        # No trouble, fast x 2 >= n and n >= 25: grow by 5, never above the maximum.
        (20, [FAST] * 25, 25),
        (35, [FAST] * 25, 40),
        (38, [FAST] * 25, 40),
        (40, [FAST] * 25, 40),
        (20, [FAST] * 13 + [SLOWISH] * 13, 25),  # 26 >= 26
        (20, [FAST] * 12 + [SLOWISH] * 13, 20),  # 24 < 25
        (20, [FAST] * 24, 20),  # too small a sample to grow (V3 GROWTH_MIN_SAMPLE)
        (20, [FAST] * 5, 20),  # the first, 5-page sub-batch never grows the window
        (20, [SLOWISH] * 25, 20),
    ],
)
def test_next_window_rule(current: int, batch: list[PageOutcome], expected: int) -> None:
    assert next_window(current, batch, LIMITS) == expected


@pytest.mark.parametrize(
    ("current", "batch", "expected"),
    [
        (40, [page(size=512 * KIB)] * 25, 16),  # 8 MiB / 512 KiB
        (40, [page(size=200 * KIB)] * 25, 40),  # 8 MiB / 200 KiB = 40.96 -> 40
        (40, [page(size=205 * KIB)] * 25, 39),  # 8 MiB / 205 KiB = 39.96 -> 39
        (40, [page(size=1 * KIB)] * 25, 40),  # tiny pages count as 64 KiB: bound 128
        (40, [page(size=MIB - 1)] * 25, 8),  # just under heavy: no trouble, bound 8
        (10, [page(size=900 * KIB)] * 3, 9),  # bound 9 caps an unchanged window
        (40, [page(FetchClass.BLOCKED, status=403, size=4 * MIB)], 5),  # bound 2 -> minimum
        (35, [page(size=300 * KIB)] * 25, 27),  # grows to 40, then bound 27
    ],
)
def test_byte_bound_caps_the_window(current: int, batch: list[PageOutcome], expected: int) -> None:
    assert next_window(current, batch, LIMITS) == expected


def test_byte_bound_of_an_empty_batch_does_not_bind() -> None:
    assert byte_bound([], LIMITS) == LIMITS.maximum


@pytest.mark.parametrize(
    ("current", "batch", "expected"),
    [(5, [FAST] * 25, 5), (3, [FAST] * 25, 5), (3, [BAD], 2), (9, [], 5), (0, [], 2)],
)
def test_retry_profile(current: int, batch: list[PageOutcome], expected: int) -> None:
    assert next_window(current, batch, RETRY_WINDOW_LIMITS) == expected


@pytest.mark.parametrize(
    ("hint", "is_retry", "expected"),
    [
        (None, False, 10),
        (25, False, 25),
        (99, False, 40),
        (1, False, 5),
        (25, True, 3),
        (None, True, 3),
    ],
)
def test_start_window(hint: int | None, is_retry: bool, expected: int) -> None:
    limits = window_limits(is_retry=is_retry)
    assert start_window(limits, hint, is_retry=is_retry) == expected


@pytest.mark.parametrize(
    "kwargs",
    [
        {"initial": 4},
        {"initial": 41},
        {"minimum": 0, "initial": 0},
        {"budget_bytes": 0},
        {"growth_min_sample": 0},
        {"minimum": 11},
    ],
)
def test_inconsistent_limits_are_refused(kwargs: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        WindowLimits(**kwargs)


@pytest.mark.parametrize("bad", [{"initial": 10.5}, {"maximum": True}, {"minimum": "5"}])
def test_limits_must_be_ints(bad: dict[str, object]) -> None:
    with pytest.raises(WireError):
        WindowLimits.from_dict({**WINDOW_LIMITS.to_dict(), **bad})


def test_limits_accept_integral_js_numbers() -> None:
    # A JS number that crossed a step boundary as 10.0 is the integer 10.
    assert WindowLimits.from_dict({**WINDOW_LIMITS.to_dict(), "initial": 10.0}).initial == 10


@pytest.mark.parametrize("limits", [WINDOW_LIMITS, RETRY_WINDOW_LIMITS])
def test_limits_round_trip_through_dicts(limits: WindowLimits) -> None:
    assert WindowLimits.from_dict(limits.to_dict()) == limits


def test_a_field_missing_from_an_older_payload_takes_its_default() -> None:
    # A step result stored by an older deploy is replayed as it was written (wire's rule).
    data = RETRY_WINDOW_LIMITS.to_dict()
    del data["budget_bytes"]
    assert WindowLimits.from_dict(data).budget_bytes == WINDOW_LIMITS.budget_bytes


# -- property -----------------------------------------------------------------------------------

_outcomes = st.builds(
    PageOutcome,
    st.sampled_from(FetchClass),
    st.sampled_from([0, 200, 202, 301, 401, 403, 404, 429, 500, 503]),
    st.floats(min_value=0, max_value=30_000, allow_nan=False),
    st.integers(min_value=0, max_value=4 * MIB),
    st.booleans(),
    st.booleans(),
)
_limits = st.builds(
    lambda lo, span1, span2, budget, sample: WindowLimits(
        initial=lo + span1,
        minimum=lo,
        maximum=lo + span1 + span2,
        budget_bytes=budget,
        growth_min_sample=sample,
    ),
    st.integers(1, 10),
    st.integers(0, 10),
    st.integers(0, 40),
    st.integers(1, 64 * MIB),
    st.integers(1, 50),
)


@given(
    st.integers(-1000, 1000), st.lists(_outcomes, max_size=60), st.one_of(st.just(LIMITS), _limits)
)
def test_the_window_always_stays_within_its_limits(
    current: int, batch: list[PageOutcome], limits: WindowLimits
) -> None:
    assert limits.minimum <= next_window(current, batch, limits) <= limits.maximum


@pytest.mark.parametrize(
    ("hint", "is_retry", "limits", "size"),
    [
        (None, False, WINDOW_LIMITS, 10),
        (25, False, WINDOW_LIMITS, 25),
        (100, False, WINDOW_LIMITS, 40),
        (1, False, WINDOW_LIMITS, 5),
        (25, True, RETRY_WINDOW_LIMITS, 3),
        (None, True, RETRY_WINDOW_LIMITS, 3),
    ],
)
def test_a_chunk_window_starts_from_the_hint_within_its_profile(
    hint: int | None, is_retry: bool, limits: WindowLimits, size: int
) -> None:
    assert FetchWindow.start(hint, is_retry=is_retry) == FetchWindow(limits, size)


@pytest.mark.parametrize(("in_flight", "room"), [(0, True), (9, True), (10, False), (11, False)])
def test_a_window_has_room_below_its_size(in_flight: int, room: bool) -> None:
    assert FetchWindow(LIMITS, 10).has_room(in_flight) is room


@pytest.mark.parametrize(
    ("batches", "sizes"),
    [
        ([[FAST] * 25, [FAST] * 25], [15, 20]),
        ([[BAD] * 5, [BAD] * 5], [5, 5]),
        ([[FAST] * 25, [BAD] * 5, []], [15, 7, 7]),
        ([[SLOWISH] * 25], [10]),
    ],
)
def test_a_window_learns_from_each_sub_batch_in_turn(
    batches: list[list[PageOutcome]], sizes: list[int]
) -> None:
    window = FetchWindow(LIMITS, 10)
    learned = []
    for batch in batches:
        window.learn(batch)
        learned.append(window.size)
    assert learned == sizes
