"""Per-page rules, steps 1-8 of the original's evaluation order: how the fetch ended.

Source: original system §1.2 steps 1-8 and §4.7. Each status step ends the evaluation: a page that
was blocked, failed or redirected has no content to check. Step 7, the slow response, is judged
after the crawl on a quiet measurement, not here on the crawl's (audit.timing, docs/timing.md).
"""

from __future__ import annotations

from audit.catalogue import CLIENT_ERROR_STATUS, SERVER_ERROR_STATUS, IssueType
from audit.issues import DetectedIssue
from audit.page import PageObservation
from common.fetch_class import FetchClass

__all__ = ["fetch_outcome", "reaches_content", "stops_at_status"]


def _status_issue(issue_type: IssueType, obs: PageObservation) -> list[DetectedIssue]:
    return [DetectedIssue(issue_type, obs.url, {"statusCode": obs.status_code})]


def fetch_outcome(obs: PageObservation) -> list[DetectedIssue]:
    """Steps 1-6: blocked-page, rate-limited-page, (network error: nothing), server-error,
    broken-page, (3xx: nothing; chains and loops are cross-page)."""
    if obs.fetch_class == FetchClass.BLOCKED:
        return _status_issue(IssueType.BLOCKED_PAGE, obs)
    if obs.fetch_class == FetchClass.RATE_LIMITED:
        return _status_issue(IssueType.RATE_LIMITED_PAGE, obs)
    if obs.fetch_class == FetchClass.ERROR:
        return []
    if obs.status_code >= SERVER_ERROR_STATUS:
        return _status_issue(IssueType.SERVER_ERROR, obs)
    if obs.status_code >= CLIENT_ERROR_STATUS:
        return _status_issue(IssueType.BROKEN_PAGE, obs)
    return []


def stops_at_status(obs: PageObservation) -> bool:
    """True when steps 1-6 end the evaluation: any non-ok fetch, or a status of 300 and above."""
    return obs.fetch_class != FetchClass.OK or obs.status_code >= 300


def reaches_content(obs: PageObservation) -> bool:
    """Step 8: content checks need an HTML document (Content-Type text/html) that was analysed."""
    return obs.is_html and obs.facts is not None
