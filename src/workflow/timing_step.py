"""The timing-check step: `slow-response` and `slow-site` judged on quiet measurements
(docs/timing.md; the judgement is audit.timing's, the measuring crawl.remeasure's).

It runs right after the crawl, and asks the site nothing when the crawl measured no page over the
threshold. Otherwise the site's typical time is first measured on its shallowest pages
(`settings.TIMING.sample_pages`), which sets each page's bar (audit.timing.page_bar); the pages
the crawl measured over that bar are then measured again, slowest first, within the step's
budget, and those slow again are flagged. Each page measured again keeps its quiet time on its
row (`response_time_ms`), which comparisons read for their hysteresis.

The issues replace the audit's timing issues, the times and the `TimingSummary` are stored in one
guarded batch (auditdb.timing), so the step is idempotent; its result is the summary. A crawl the
site rate-limited is not measured again (the site asked for fewer requests, not more). A failure
of the step is recorded in the summary with no issues, and never fails the audit.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Self

from audit import timing
from audit.issues import DetectedIssue
from auditdb import repository
from auditdb import timing as timing_db
from auditdb.timing import TimingSummary
from common import ports, settings
from common.bindings import Env
from common.wire import JsonRecord, from_json
from crawl.pacing import PacedHttp
from crawl.remeasure import measure_all
from workflow import step_configs
from workflow.audit_run import AuditRun
from workflow.pace import paced, site_rate
from workflow.params import AuditParams
from workflow.steps import CrawlSummary, optional_step

log = logging.getLogger("siteaudit.workflow")

STEP_NAME = "timing-check"
RATE_LIMITED = "the site rate-limited the crawl, so its pages were not requested again"
STOPPED_ANSWERING = (
    "the site stopped answering during the crawl, so its pages were not requested again"
)


def _skipped(crawl: CrawlSummary) -> str | None:
    """Why the site is not asked again: it asked for patience, or it stopped answering."""
    if crawl.rate_limited:
        return RATE_LIMITED
    return STOPPED_ANSWERING if crawl.no_answers.stopped else None


@dataclass(frozen=True, slots=True)
class TimingChecked(JsonRecord):
    """timing-check: the summary stored with the audit, and the pace the step leaves (per host,
    the epoch second its next request may start: workflow.pace)."""

    summary: TimingSummary
    next_request_at: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        """Also the step's result as stored before it carried the pace: the summary alone (a
        workflow in flight across the upgrade replays it, and must not fail on it)."""
        if "summary" not in data:
            return cls(TimingSummary.from_dict(data))
        return from_json(cls, data)


async def check_timing(run: AuditRun, crawl: CrawlSummary) -> TimingChecked:
    params, env = run.params, run.env
    clients: list[PacedHttp] = []  # this attempt's, for the pace it leaves even if it fails

    async def timing_check() -> TimingChecked:
        # Measured at the audit's rate, from where the crawl left it (workflow.pace): a paced
        # request waits before it starts, and its time is counted from its start.
        http = paced(await run.http(), await site_rate(run), run)
        clients.append(http)
        return TimingChecked(await measure_and_judge(params, env, crawl, http=http), http.carried())

    def failed(exc: Exception) -> TimingChecked:
        return TimingChecked(_failed(params, exc), clients[-1].carried() if clients else run.pace)

    async def keep(result: TimingChecked) -> None:
        await timing_db.record_timing(env.DB, params.audit_id, [], {}, result.summary)

    return await optional_step(
        run.step,
        STEP_NAME,
        step_configs.TIMING_STEP,
        TimingChecked,
        timing_check,
        failed=failed,
        keep=keep,
    )


def _failed(params: AuditParams, exc: Exception) -> TimingSummary:
    reason = str(exc) or type(exc).__name__
    log.info("audit %s timing check stopped: %s", params.audit_id, reason)
    return TimingSummary(threshold_ms=timing.page_bar(None), error=reason)


async def measure_and_judge(
    params: AuditParams,
    env: Env,
    crawl: CrawlSummary,
    *,
    http: ports.HttpClient | None = None,
) -> TimingSummary:
    """Measure the sample and the candidates again (through `http`, the platform's client by
    default), judge them and record the verdict."""
    client = http or ports.http_client()
    skipped = _skipped(crawl)
    if skipped is not None:
        summary = TimingSummary(threshold_ms=timing.page_bar(None), skipped=skipped)
        await timing_db.record_timing(env.DB, params.audit_id, [], {}, summary)
        return summary
    config = settings.TIMING
    threshold = timing.page_bar(None)
    if await timing_db.count_over(env.DB, params.audit_id, threshold) == 0:
        # Noise only adds time: a crawl with no page over the threshold has none to judge, and a
        # site median over it is impossible. The site is not asked anything again.
        summary = TimingSummary(threshold_ms=threshold)
        await timing_db.record_timing(env.DB, params.audit_id, [], {}, summary)
        return summary
    deadline = time.monotonic() + config.soft_deadline_s
    sample = await timing_db.sample_pages(env.DB, params.audit_id, config.sample_pages)
    sample_timeout_s = _timeout_s(params, threshold)
    sampled = await _measure(params, client, sample, sample_timeout_s, deadline)
    median = timing.site_median(sampled.values())
    bar = timing.page_bar(median)
    found, total = await timing_db.candidates(env.DB, params.audit_id, bar, config.max_remeasured)
    # A candidate the sample measured already is judged on that quiet figure, unless it is the
    # sample's timeout, which says only "at least that long".
    known = {
        c.url: ms
        for c in found
        if (ms := sampled.get(c.url)) is not None and ms < sample_timeout_s * 1000
    }
    fresh = [c.url for c in found if c.url not in known]
    measured = known | await _measure(params, client, fresh, _timeout_s(params, bar), deadline)
    slow = sorted(url for url, ms in measured.items() if ms is not None and ms > bar)
    issues = await _issues(params, env, slow, median, len(sample))
    summary = TimingSummary(
        threshold_ms=threshold,
        sampled=len(sampled),
        median_ms=median,
        site_slow=timing.site_is_slow(median),
        candidates=total,
        remeasured=len(measured),
        unconfirmed=total - len(measured),
        slow_pages=len(slow),
    )
    times = {url: ms for url, ms in (*sampled.items(), *measured.items()) if ms is not None}
    await timing_db.record_timing(env.DB, params.audit_id, issues, times, summary)
    return summary


def _timeout_s(params: AuditParams, bar_ms: int) -> float:
    """Twice the bar, never more than the audit's fetch timeout (settings.TIMING)."""
    return min(params.options.fetch_timeout_s, settings.TIMING.timeout_bar_factor * bar_ms / 1000)


async def _measure(
    params: AuditParams,
    http: ports.HttpClient,
    urls: list[str],
    timeout_s: float,
    deadline: float,
) -> dict[str, int | None]:
    return await measure_all(
        http,
        urls,
        timeout_s,
        concurrency=settings.TIMING.concurrency,
        deadline=deadline,
        user_agent=params.options.scope.user_agent,
    )


async def _issues(
    params: AuditParams, env: Env, slow: list[str], median: int | None, sampled: int
) -> list[DetectedIssue]:
    site_slow = timing.site_is_slow(median)
    issues = [timing.slow_response_issue(url, site_slow=site_slow) for url in slow]
    if site_slow:
        audit = await repository.get_audit(env.DB, params.audit_id)
        start = (audit.final_url if audit else None) or params.start_url
        issues.append(timing.slow_site_issue(start, sampled))
    return issues


__all__ = ["STEP_NAME", "TimingChecked", "check_timing", "measure_and_judge"]
