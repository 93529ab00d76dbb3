"""The timing-check step (workflow.timing_step) over seeded page rows and an HTTP client double
whose answers take the times a table says: which pages the quiet measurement flags, the
whole-site finding, the budget, the figures it stores (docs/timing.md)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from audit.issue_ids import page_id
from auditdb import repository
from auditdb import timing as timing_db
from auditdb.records import AuditRecord, PageRecord
from auditdb.timing import TimingSummary
from common import ports, settings
from crawl.site_health import NoAnswers
from local_platform.runtime import LocalEnv, LocalPlatform
from workflow.params import AuditParams
from workflow.steps import CrawlSummary
from workflow.timing_step import (
    RATE_LIMITED,
    STOPPED_ANSWERING,
    TimingChecked,
    measure_and_judge,
)

ORIGIN = "https://a.test"
CRAWLED = CrawlSummary(
    attempted=0, pending=0, chunks=1, completed=True, links_truncated=False, rate_limited=False
)
FAST = 20  # ms: the answers of an ordinary page


class TimedHttp:
    """Answers every GET with 200 after the time `times` gives its path (a list: one per request,
    the last one repeated; None: no answer in time), without waiting."""

    def __init__(self, times: Mapping[str, list[int | None]]) -> None:
        self.times = {path: list(each) for path, each in times.items()}
        self.requested: list[str] = []

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        path = request.url.removeprefix(ORIGIN)
        self.requested.append(path)
        queue = self.times.get(path, [FAST])
        ms = queue.pop(0) if len(queue) > 1 else queue[0]
        if ms is None:
            timed_out = f"timed out after {request.timeout_s:g} s"
            return ports.FetchResult(
                request.url, 0, {}, b"", False, request.timeout_s * 1000, timed_out
            )
        return ports.FetchResult(request.url, 200, {"content-type": "text/html"}, b"", False, ms)


type Answering = Callable[[Mapping[str, list[int | None]]], TimedHttp]


@pytest.fixture
def answering() -> Iterator[Answering]:
    """Install a `TimedHttp` for the test's measurements: `answering(times)` returns it."""
    saved = ports.http_client()

    def install(times: Mapping[str, list[int | None]]) -> TimedHttp:
        http = TimedHttp(times)
        ports.configure(http=http)
        return http

    try:
        yield install
    finally:
        ports.configure(http=saved)


async def seed(
    env: LocalEnv, crawl_ms: Mapping[str, int], depth: Mapping[str, int] | None = None
) -> None:
    """An audit whose crawl measured each path of `crawl_ms` at that time (depth 1, "/" at 0)."""
    audit = AuditRecord("t1", f"{ORIGIN}/", "2026-12-01T00:00:00.000Z", owner="alpha")
    await repository.insert_audit(env.DB, audit)
    pages = [
        PageRecord(
            page_id("t1", ORIGIN + path),
            "t1",
            ORIGIN + path,
            audit.created_at,
            200,
            is_html=True,
            response_time_ms=ms,
            crawl_depth=(depth or {}).get(path, 0 if path == "/" else 1),
        )
        for path, ms in crawl_ms.items()
    ]
    await repository.write_crawled_pages(env.DB, pages, [])


async def verdict(
    env: LocalEnv, crawl: CrawlSummary = CRAWLED
) -> tuple[timing_db.TimingSummary, list[tuple[str, str, dict[str, Any]]]]:
    params = AuditParams("t1", f"{ORIGIN}/")
    summary = await measure_and_judge(params, env, crawl)
    rows = await env.DB.prepare(
        "SELECT issue_type, page_url, details_json FROM audit_issues WHERE audit_id = 't1' "
        "ORDER BY issue_type, page_url"
    ).all()
    issues = [
        (r["issue_type"], r["page_url"].removeprefix(ORIGIN), json.loads(r["details_json"]))
        for r in rows["results"]
    ]
    return summary, issues


async def page_times(env: LocalEnv) -> dict[str, int]:
    rows = await env.DB.prepare("SELECT url, response_time_ms FROM audit_pages").all()
    return {r["url"].removeprefix(ORIGIN): r["response_time_ms"] for r in rows["results"]}


SHALLOW = {"/": 30, **{f"/p{i}": 40 for i in range(8)}}  # the nine pages the sample measures


async def test_only_pages_slow_again_when_measured_quietly_are_flagged(
    platform: LocalPlatform, answering: Answering
) -> None:
    """Pages the crawl measured slow, deeper than the sample: one slow every time, one slow
    only in the crawl's crowd, one that does not answer in time now (slow too). Pages the crawl
    measured at or under the threshold are not asked again."""
    deep = {"/always": 1900, "/once": 1700, "/stuck": 1600, "/fine": 1500}
    await seed(platform.env, {**SHALLOW, **deep}, depth=dict.fromkeys(deep, 2))
    http = answering({"/always": [1750], "/stuck": [None]})

    summary, issues = await verdict(platform.env)

    details = {"thresholdMs": 1500, "beyondSiteMedian": False}
    assert issues == [
        ("slow-response", "/always", details),
        ("slow-response", "/stuck", details),
    ]
    assert (summary.sampled, summary.median_ms, summary.site_slow) == (9, FAST, False)
    assert (summary.candidates, summary.remeasured, summary.unconfirmed) == (3, 3, 0)
    assert summary.slow_pages == 2
    assert http.requested[:9] == sorted(SHALLOW)  # the start URL first: "/" sorts first
    assert http.requested[9:] == ["/always", "/once", "/stuck"]  # slowest first
    # Each page measured again keeps the quiet figure it was judged on: a timeout counts as the
    # timeout, twice the bar (3 s); /fine keeps the crawl's.
    times = await page_times(platform.env)
    assert {path: times[path] for path in deep} == {
        "/always": 1750,
        "/once": FAST,
        "/stuck": 3000,
        "/fine": 1500,
    }
    assert all(times[path] == FAST for path in SHALLOW)


async def test_a_sampled_page_is_not_measured_twice(
    platform: LocalPlatform, answering: Answering
) -> None:
    await seed(platform.env, {"/": 30, "/slow": 2500, "/blip": 1600})
    http = answering({"/slow": [1700]})

    _, issues = await verdict(platform.env)

    assert [(t, path) for t, path, _ in issues] == [("slow-response", "/slow")]
    assert sorted(http.requested) == ["/", "/blip", "/slow"]


async def test_a_site_slow_as_a_whole_is_one_finding_and_pages_are_judged_beyond_its_median(
    platform: LocalPlatform, answering: Answering
) -> None:
    crawl = {"/": 1700, **{f"/p{i}": 1800 for i in range(9)}, "/worst": 4000, "/bad": 3500}
    await seed(platform.env, crawl, depth={"/worst": 2, "/bad": 2})
    answering(
        {"/": [1600], **{f"/p{i}": [1650] for i in range(9)}, "/worst": [3500], "/bad": [3000]}
    )

    summary, issues = await verdict(platform.env)

    assert (summary.median_ms, summary.site_slow) == (1650, True)
    # Bar: the median plus the threshold, 3,150 ms; only /worst is beyond it.
    assert issues == [
        ("slow-response", "/worst", {"thresholdMs": 1500, "beyondSiteMedian": True}),
        ("slow-site", "/", {"thresholdMs": 1500, "sampledPages": 9}),
    ]
    assert (summary.candidates, summary.slow_pages) == (2, 1)


async def test_a_crawl_with_no_page_over_the_threshold_asks_the_site_nothing(
    platform: LocalPlatform, answering: Answering
) -> None:
    await seed(platform.env, {"/": 30, "/a": 1500})
    http = answering({})

    summary, issues = await verdict(platform.env)

    assert (issues, http.requested, summary.sampled, summary.candidates) == ([], [], 0, 0)


async def test_a_rate_limited_crawl_is_not_measured_again(
    platform: LocalPlatform, answering: Answering
) -> None:
    await seed(platform.env, {"/": 30, "/slow": 2500})
    http = answering({})

    summary, issues = await verdict(platform.env, dataclasses.replace(CRAWLED, rate_limited=True))

    assert (issues, http.requested, summary.skipped) == ([], [], RATE_LIMITED)


async def test_a_crawl_the_breaker_stopped_is_not_measured_again(
    platform: LocalPlatform, answering: Answering
) -> None:
    await seed(platform.env, {"/": 30, "/slow": 2500})
    http = answering({})
    down = NoAnswers(fetched=25, no_answer=20, streak=20, stopped=True)

    summary, issues = await verdict(platform.env, dataclasses.replace(CRAWLED, no_answers=down))

    assert (issues, http.requested, summary.skipped) == ([], [], STOPPED_ANSWERING)


async def test_pages_left_when_the_budget_runs_out_are_unconfirmed_never_flagged(
    platform: LocalPlatform, answering: Answering, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "TIMING", dataclasses.replace(settings.TIMING, soft_deadline_s=0))
    await seed(platform.env, {"/": 30, "/slow": 2500})
    http = answering({"/slow": [2500]})

    summary, issues = await verdict(platform.env)

    assert (issues, http.requested) == ([], [])
    assert (summary.sampled, summary.median_ms, summary.candidates, summary.unconfirmed) == (
        0,
        None,
        1,
        1,
    )


async def test_a_second_run_of_the_step_replaces_its_issues(
    platform: LocalPlatform, answering: Answering
) -> None:
    """A retried or resumed step leaves no stale row: the page slow in the first run and fast in
    the second is no longer flagged."""
    await seed(platform.env, {"/": 30, "/slow": 2500}, depth={"/slow": 2})
    answering({"/": [30, 30], "/slow": [2500, 40]})
    _, first = await verdict(platform.env)
    await platform.env.DB.prepare(
        "UPDATE audit_pages SET response_time_ms = 2500 WHERE url LIKE '%/slow'"
    ).run()

    _, second = await verdict(platform.env)

    assert ([t for t, _, _ in first], second) == (["slow-response"], [])


@pytest.mark.parametrize(
    "summary",
    [
        TimingSummary(threshold_ms=1000, error="boom"),
        TimingSummary(threshold_ms=800),
    ],
)
def test_the_step_result_reads_back_in_its_new_and_its_old_stored_shape(
    summary: TimingSummary,
) -> None:
    """A workflow in flight across the upgrade replays the step's stored result, which was the
    summary alone before the step carried the pace."""
    checked = TimingChecked(summary, {"a.test": 1_790_000_000.125})
    assert TimingChecked.from_dict(json.loads(json.dumps(checked.to_dict()))) == checked
    assert TimingChecked.from_dict(summary.to_dict()) == TimingChecked(summary)
