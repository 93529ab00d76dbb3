"""audit.timing: the site's median, a page's bar and the issues' details (docs/timing.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.catalogue import SLOW_RESPONSE_MS, IssueType
from audit.timing import (
    FIXED_SLOW_MS,
    NEW_SLOW_MS,
    page_bar,
    site_is_slow,
    site_median,
    slow_response_issue,
    slow_site_issue,
)


@pytest.mark.parametrize(
    ("times", "median"),
    [
        ([], None),
        ([None, None], None),
        ([20], 20),
        ([20, 30, 10_000], 30),  # one odd page cannot move it
        ([20, 30, 40, 50], 30),  # an even count: the lower middle, a time some page took
        ([None, 1600, 1700], 1600),  # pages that did not answer are left out
    ],
)
def test_the_site_median_is_a_measured_time(times: list[int | None], median: int | None) -> None:
    assert site_median(times) == median


@pytest.mark.parametrize(
    ("median", "slow", "bar"),
    [
        (None, False, SLOW_RESPONSE_MS),
        (20, False, SLOW_RESPONSE_MS),
        (SLOW_RESPONSE_MS, False, SLOW_RESPONSE_MS),
        (SLOW_RESPONSE_MS + 1, True, 2 * SLOW_RESPONSE_MS + 1),
        (4000, True, 4000 + SLOW_RESPONSE_MS),
    ],
)
def test_on_a_slow_site_a_page_is_slow_only_beyond_the_median(
    median: int | None, slow: bool, bar: int
) -> None:
    assert (site_is_slow(median), page_bar(median)) == (slow, bar)


@given(st.lists(st.integers(min_value=0, max_value=60_000) | st.none(), max_size=12))
def test_the_bar_is_never_under_the_threshold_nor_the_median(times: list[int | None]) -> None:
    median = site_median(times)
    assert page_bar(median) >= max(SLOW_RESPONSE_MS, median or 0)


def test_the_hysteresis_band_holds_the_threshold() -> None:
    assert FIXED_SLOW_MS < SLOW_RESPONSE_MS < NEW_SLOW_MS


def test_details_carry_no_measured_time() -> None:
    """Two audits of an unchanged site must give identical issues: no raw figure in them."""
    assert slow_response_issue("https://a.test/p", site_slow=False).details == {
        "thresholdMs": SLOW_RESPONSE_MS,
        "beyondSiteMedian": False,
    }
    issue = slow_site_issue("https://a.test/", 9)
    assert (issue.issue_type, issue.page_url) == (IssueType.SLOW_SITE, "https://a.test/")
    assert issue.details == {"thresholdMs": SLOW_RESPONSE_MS, "sampledPages": 9}
