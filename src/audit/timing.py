"""Judging response times: which pages are slow, whether the whole site is (sans-IO).

Theory of operation (docs/timing.md)
------------------------------------
A time measured during the crawl is the site's time plus ours: up to 40 requests in flight, the
parsing of other pages in the same event loop, a machine busy with other work, a server whose
listen backlog overflows under our concurrency (a dropped SYN costs a second). Noise only ever
adds time, so a page measured fast is fast, and a page measured slow may not be. The crawl's
figure is therefore only a reason to look again: after the crawl, with few requests in flight
and nothing parsed, a candidate is measured once more (time to the response headers), and only
that quiet figure is judged, as the smallest of repeated timings is the one least disturbed by
other work (Python's `timeit` documentation says the same of its repeats).

The site's own distribution decides what "slow" means for a page. Its typical time is the median
of a quiet measurement of its shallowest pages (`settings.TIMING.sample_pages`):

* a site whose median is above `SLOW_RESPONSE_MS` is slow as a whole: one `slow-site` finding,
  not one per page; a page is then slow on its own account only when its time exceeds the
  median by the threshold again (`page_bar`);
* otherwise a page is slow when its quiet time exceeds the threshold.

Comparisons across audits (auditdb.compare) add hysteresis: a page not flagged before is new only
at `NEW_SLOW_MS` or more, and a page flagged before is fixed only at `FIXED_SLOW_MS` or less, so a
page whose time wanders around the threshold is neither new nor fixed from one run to the next.
The measured times never enter an issue's details (an issue set must not change because a page
took 1,702 ms instead of 1,742 ms): they stay on the page rows (`response_time_ms`), and the
step's summary keeps the median.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable

from audit.catalogue import SLOW_RESPONSE_MS, IssueType
from audit.issues import DetectedIssue

__all__ = [
    "FIXED_SLOW_MS",
    "NEW_SLOW_MS",
    "TIMING_ISSUE_TYPES",
    "page_bar",
    "site_is_slow",
    "site_median",
    "slow_response_issue",
    "slow_site_issue",
]

TIMING_ISSUE_TYPES = (IssueType.SLOW_RESPONSE, IssueType.SLOW_SITE)
# The hysteresis band around SLOW_RESPONSE_MS, +-20 %: its upper edge is where web.dev calls a
# Time to First Byte "poor" (above 1.8 s; "good" is 0.8 s or less: web.dev/articles/ttfb), its
# lower edge the same distance below. A quiet re-measurement of one page varies by a few tens of
# milliseconds even beside two processes spinning on both cores (docs/timing.md, "Figures"), far
# inside the band's 300 ms either side.
NEW_SLOW_MS = 1800
FIXED_SLOW_MS = 1200


def site_median(times_ms: Iterable[int | None]) -> int | None:
    """The median of the times measured (the lower middle one of an even count, so it is a
    time some page took); None when nothing answered."""
    answered = [ms for ms in times_ms if ms is not None]
    return statistics.median_low(answered) if answered else None


def site_is_slow(median_ms: int | None) -> bool:
    return median_ms is not None and median_ms > SLOW_RESPONSE_MS


def page_bar(median_ms: int | None) -> int:
    """The time a page must exceed to be slow on its own account: the threshold, or on a site
    slow as a whole, the threshold beyond the site's median."""
    if median_ms is None or not site_is_slow(median_ms):
        return SLOW_RESPONSE_MS
    return median_ms + SLOW_RESPONSE_MS


def slow_response_issue(url: str, *, site_slow: bool) -> DetectedIssue:
    details = {"thresholdMs": SLOW_RESPONSE_MS, "beyondSiteMedian": site_slow}
    return DetectedIssue(IssueType.SLOW_RESPONSE, url, details)


def slow_site_issue(start_url: str, sampled_pages: int) -> DetectedIssue:
    details = {"thresholdMs": SLOW_RESPONSE_MS, "sampledPages": sampled_pages}
    return DetectedIssue(IssueType.SLOW_SITE, start_url, details)
