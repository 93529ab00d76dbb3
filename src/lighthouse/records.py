"""What one Lighthouse run of one page produced, as records that cross steps and D1 rows.

A run is one page under one strategy (mobile or desktop). Lab data comes from the Lighthouse run
itself (category scores 0-100, LCP, CLS, INP, TTFB); field data, when the provider has it, is the
Chrome UX Report's 75th percentile of real visits to the URL and to its origin, each metric with
the provider's category. A provider error is a run too: every metric None and `error_message`
set, so a failed call is a row, never a failed audit (docs/lighthouse.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from common.wire import JsonRecord

__all__ = [
    "FieldData",
    "FieldMetric",
    "FieldScope",
    "LighthouseMode",
    "LighthouseRun",
    "LighthouseStatus",
    "Strategy",
]


class Strategy(StrEnum):
    """The device Lighthouse emulates (PSI's `strategy`); every sampled page gets both."""

    MOBILE = "mobile"
    DESKTOP = "desktop"


class LighthouseMode(StrEnum):
    """An audit's `lighthouse` option (the original's `lighthouseStrategy`)."""

    AUTO = "auto"  # sample pages and run both strategies when a provider is configured
    NONE = "none"  # no Lighthouse phase at all


class LighthouseStatus(StrEnum):
    """What became of an audit's Lighthouse phase (`audits.lighthouse_status`, migration 0013).

    NULL in the row (None here) means the phase has not been reached yet, or the audit predates it.
    """

    DISABLED = "disabled"  # the audit's option was `none`
    SKIPPED_NO_KEY = "skipped_no_key"  # no PSI_API_KEY: the phase was skipped
    # The audit's credentials were to go to Lighthouse (`send_to_lighthouse`), which PageSpeed
    # Insights cannot take: it fetches the page from Google's side, without request headers.
    SKIPPED_CREDENTIALS = "skipped_credentials"
    RUNNING = "running"  # the sample is chosen; rows arrive group by group
    COMPLETED = "completed"  # every sampled page has its two rows (some may carry errors)


class FieldScope(StrEnum):
    """Which CrUX population field data describes: the exact URL or its whole origin."""

    URL = "url"
    ORIGIN = "origin"


@dataclass(frozen=True, slots=True)
class FieldMetric(JsonRecord):
    """One CrUX metric: the 75th percentile of real visits and the provider's category
    (PSI: FAST, AVERAGE or SLOW). CLS is a plain score here (PSI sends it multiplied by 100)."""

    percentile: float
    category: str | None = None


@dataclass(frozen=True, slots=True)
class FieldData(JsonRecord):
    """Core Web Vitals of real Chrome users over the provider's collection period (28 days)."""

    scope: FieldScope
    overall_category: str | None = None
    lcp_ms: FieldMetric | None = None
    inp_ms: FieldMetric | None = None
    cls: FieldMetric | None = None
    ttfb_ms: FieldMetric | None = None


@dataclass(frozen=True, slots=True)
class LighthouseRun(JsonRecord):
    """One page under one strategy: lab scores and metrics, field data, or the error."""

    strategy: Strategy
    performance_score: int | None = None
    accessibility_score: int | None = None
    best_practices_score: int | None = None
    seo_score: int | None = None
    lcp_ms: float | None = None
    cls: float | None = None
    inp_ms: float | None = None
    ttfb_ms: float | None = None
    field_url: FieldData | None = None
    field_origin: FieldData | None = None
    error_message: str | None = None

    @classmethod
    def failed(cls, strategy: Strategy, message: str) -> LighthouseRun:
        return cls(strategy=strategy, error_message=message or "unknown provider error")

    @property
    def ok(self) -> bool:
        return self.error_message is None
