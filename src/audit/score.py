"""Health score and issue counts of one audit.

Health score = share of *scored* pages that carry no critical issue, 0-100 with one decimal.

Which pages are scored (decided here; docs/field.md §1.1 and §6):
* Ahrefs divides internal URLs without Error-level issues by all internal URLs, and its users
  complain that asset URLs inflate the score. We count HTML pages only, so assets cannot move it.
* Pages with a verdict are scored: 2xx HTML pages, 4xx/5xx responses (a server error *is* a bad
  page, so it must lower the score), and blocked pages (critical `blocked-page`).
* Pages without a verdict are not: redirects (hops, judged as chains/loops on their head),
  network errors and rate-limited fetches (we learned nothing about the page), non-HTML 2xx.
* No scored page -> no score (None), rather than a misleading 0 or 100.
Warnings and infos do not lower the score, as at Ahrefs; they are reported as counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from audit.catalogue import Severity
from audit.issues import DetectedIssue
from common.fetch_class import FetchClass
from common.wire import JsonObject, WireError, as_float, as_int, as_str

__all__ = [
    "ScoreSummary",
    "ScoredPage",
    "counts_by_severity",
    "counts_by_type",
    "health_score",
    "is_scored",
    "summarise",
]


class ScoredPage(Protocol):
    """What scoring needs of a page row (PageObservation and stored rows both fit)."""

    @property
    def url(self) -> str: ...
    @property
    def status_code(self) -> int: ...
    @property
    def fetch_class(self) -> str: ...
    @property
    def is_html(self) -> bool: ...


def is_scored(page: ScoredPage) -> bool:
    """True for pages the audit reached a verdict on (see the module docstring)."""
    if page.fetch_class == FetchClass.BLOCKED:
        return True
    if page.fetch_class != FetchClass.OK:
        return False
    if 300 <= page.status_code < 400:
        return False
    return page.status_code >= 400 or page.is_html


def percent_one_decimal(part: int, whole: int) -> float:
    """`part / whole` as a percentage with one decimal (the health score's rounding)."""
    # Integer round-half-up, so 2/3 -> 66.7 and 1/8 -> 12.5 exactly, free of float drift.
    tenths = (2000 * part + whole) // (2 * whole)
    return tenths / 10


def health_score(pages: Iterable[ScoredPage], issues: Iterable[DetectedIssue]) -> float | None:
    """Percentage of scored pages without a critical issue; None when no page is scored."""
    return summarise(pages, issues).health_score


def counts_by_severity(issues: Iterable[DetectedIssue]) -> dict[str, int]:
    """Issue count per severity, every severity present, critical first."""
    counts = Counter(issue.severity for issue in issues)
    return {severity.value: counts[severity] for severity in Severity}


def counts_by_type(issues: Iterable[DetectedIssue]) -> dict[str, int]:
    """Issue count per type that occurred, ordered by severity then id."""
    counts = Counter(issue.issue_type for issue in issues)
    ordered = sorted(counts, key=lambda t: (t.severity.order, t.value))
    return {issue_type.value: counts[issue_type] for issue_type in ordered}


@dataclass(frozen=True, slots=True)
class ScoreSummary:
    health_score: float | None
    scored_pages: int
    healthy_pages: int
    by_severity: dict[str, int]
    by_type: dict[str, int]

    def to_dict(self) -> JsonObject:
        return {
            "healthScore": self.health_score,
            "scoredPages": self.scored_pages,
            "healthyPages": self.healthy_pages,
            "bySeverity": dict(self.by_severity),
            "byType": dict(self.by_type),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ScoreSummary:
        """Read the camelCase form `to_dict` writes (the original system's report keys)."""
        score = data["healthScore"]
        return cls(
            health_score=None if score is None else as_float(score),
            scored_pages=as_int(data["scoredPages"]),
            healthy_pages=as_int(data["healthyPages"]),
            by_severity=_counts(data["bySeverity"]),
            by_type=_counts(data["byType"]),
        )


def _counts(value: object) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise WireError(f"expected an object of counts, got {type(value).__name__}")
    return {as_str(key): as_int(count) for key, count in value.items()}


def summarise(pages: Iterable[ScoredPage], issues: Iterable[DetectedIssue]) -> ScoreSummary:
    issue_list = list(issues)
    critical_urls = {i.page_url for i in issue_list if i.severity is Severity.CRITICAL}
    scored = {page.url for page in pages if is_scored(page)}
    healthy = len(scored - critical_urls)
    return ScoreSummary(
        health_score=percent_one_decimal(healthy, len(scored)) if scored else None,
        scored_pages=len(scored),
        healthy_pages=healthy,
        by_severity=counts_by_severity(issue_list),
        by_type=counts_by_type(issue_list),
    )
