"""A sampled page's Lighthouse runs as issues: poor performance score, and LCP, INP or CLS over
Google's "poor" thresholds, lab and field kept apart (thresholds in `audit.catalogue`).

One issue per page and type, whichever strategies cross the line: `details` lists each crossing
strategy's value (`values`, e.g. {"mobile": 5120.0}), the threshold, whether the value is lab or
field and, for field data, whether it describes the URL or, lacking URL data, its origin.
Field data is the same for both strategies' runs only in PSI's answer shape; each run's own is
read, so a provider that reports per-device field data is judged per device.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from audit.catalogue import (
    POOR_CLS_HUNDREDTHS,
    POOR_INP_MS,
    POOR_LCP_MS,
    POOR_PERFORMANCE_SCORE,
    IssueType,
    descriptor,
)
from audit.issues import DetectedIssue
from common.wire import JsonValue
from lighthouse.records import FieldData, FieldMetric, LighthouseRun

__all__ = ["LIGHTHOUSE_ISSUE_TYPES", "SOURCE", "page_issues"]

SOURCE = "lighthouse"  # details["source"]
_POOR_CLS = POOR_CLS_HUNDREDTHS / 100

type Reading = Callable[[LighthouseRun], tuple[float | None, str | None]]


def _lab(name: str) -> Reading:
    def read(run: LighthouseRun) -> tuple[float | None, str | None]:
        value = getattr(run, name)
        return (None if value is None else float(value)), None

    return read


def _field(name: str) -> Reading:
    def read(run: LighthouseRun) -> tuple[float | None, str | None]:
        data: FieldData | None = run.field_url or run.field_origin
        metric: FieldMetric | None = None if data is None else getattr(data, name)
        if data is None or metric is None:
            return None, None
        return metric.percentile, str(data.scope)

    return read


def _below(limit: float) -> Callable[[float], bool]:
    return lambda value: value < limit


def _above(limit: float) -> Callable[[float], bool]:
    return lambda value: value > limit


# type -> (reading, is poor, threshold as stated, lab or field)
_CHECKS: dict[IssueType, tuple[Reading, Callable[[float], bool], float, str]] = {
    IssueType.LIGHTHOUSE_POOR_PERFORMANCE: (
        _lab("performance_score"),
        _below(POOR_PERFORMANCE_SCORE),
        POOR_PERFORMANCE_SCORE,
        "lab",
    ),
    IssueType.LAB_POOR_LCP: (_lab("lcp_ms"), _above(POOR_LCP_MS), POOR_LCP_MS, "lab"),
    IssueType.LAB_POOR_INP: (_lab("inp_ms"), _above(POOR_INP_MS), POOR_INP_MS, "lab"),
    IssueType.LAB_POOR_CLS: (_lab("cls"), _above(_POOR_CLS), _POOR_CLS, "lab"),
    IssueType.FIELD_POOR_LCP: (_field("lcp_ms"), _above(POOR_LCP_MS), POOR_LCP_MS, "field"),
    IssueType.FIELD_POOR_INP: (_field("inp_ms"), _above(POOR_INP_MS), POOR_INP_MS, "field"),
    IssueType.FIELD_POOR_CLS: (_field("cls"), _above(_POOR_CLS), _POOR_CLS, "field"),
}
LIGHTHOUSE_ISSUE_TYPES = tuple(_CHECKS)


def page_issues(page_url: str, runs: Sequence[LighthouseRun]) -> list[DetectedIssue]:
    """The issues of one page's runs (error runs carry no values and raise nothing)."""
    issues = []
    for issue_type, (read, is_poor, threshold, kind) in _CHECKS.items():
        values: dict[str, JsonValue] = {}
        scope: str | None = None
        for run in runs:
            value, run_scope = read(run)
            if value is not None and is_poor(value):
                values[str(run.strategy)] = value
                scope = scope or run_scope
        if values:
            details: dict[str, JsonValue] = {
                "source": SOURCE,
                "data": kind,
                "values": values,
                "threshold": threshold,
                "howToFix": descriptor(issue_type).how_to_fix,
            }
            if scope is not None:
                details["fieldScope"] = scope
            issues.append(DetectedIssue(issue_type, page_url, details))
    return issues
