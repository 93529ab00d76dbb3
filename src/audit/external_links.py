"""External links as issues: what each check outcome means, and the specification of the
finalize section that turns checked external URLs into issues on every referring page.

An external URL is checked once per audit (crawl.external_check); `external_issue` maps one
(referrer, answer) pair to its issue, and `external_link_issues` is the executable
specification that `durable.finalize_sections.external_section` must equal: one issue per
referring page and checked URL whose outcome is not ok, in (source page id, source URL, URL)
order, capped per issue type like the broken-link checks. URLs left unchecked (past the audit's
budget, or by a check step that stopped) are counted in one `external-links-unchecked` issue
on the start URL instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from audit.catalogue import IssueType
from audit.issue_ids import page_id
from audit.issues import DetectedIssue
from common.wire import JsonObject

__all__ = [
    "ISSUE_OF",
    "ExternalAnswer",
    "ExternalOutcome",
    "ExternalUse",
    "external_issue",
    "external_link_issues",
    "unchecked_issue",
]


class ExternalOutcome(StrEnum):
    """What one external URL's check found (crawl.external_links.judge decides)."""

    OK = "ok"  # answered without redirects, not an error
    REDIRECT = "redirect"  # answered, after one or more redirects, not an error
    BROKEN = "broken"  # 4xx/5xx (fetch ok), a host name that does not resolve, a redirect loop
    TIMEOUT = "timeout"  # no answer within the timeout
    REFUSED = "refused"  # the connection was refused
    BLOCKED = "blocked"  # an access wall or rate limit for robots (401/403/429, a challenge)
    PRIVATE = "private"  # not requested: the SSRF policy refuses the host (a private address)
    ERROR = "error"  # another network failure (TLS, reset)


# Every outcome but ok becomes an issue; timeouts, refusals, walls and private addresses are
# reported as what they are, never as broken.
ISSUE_OF = {
    ExternalOutcome.BROKEN: IssueType.BROKEN_EXTERNAL_LINK,
    ExternalOutcome.REDIRECT: IssueType.EXTERNAL_REDIRECT,
    ExternalOutcome.TIMEOUT: IssueType.EXTERNAL_LINK_UNREACHABLE,
    ExternalOutcome.REFUSED: IssueType.EXTERNAL_LINK_UNREACHABLE,
    ExternalOutcome.BLOCKED: IssueType.EXTERNAL_LINK_UNREACHABLE,
    ExternalOutcome.PRIVATE: IssueType.EXTERNAL_LINK_UNREACHABLE,
    ExternalOutcome.ERROR: IssueType.EXTERNAL_LINK_UNREACHABLE,
}


@dataclass(frozen=True, slots=True)
class ExternalUse:
    """A page's link to an external URL."""

    source_url: str
    url: str


@dataclass(frozen=True, slots=True)
class ExternalAnswer:
    """A checked external URL (durable.records.ExternalCheck, as finalize reads it)."""

    url: str
    outcome: ExternalOutcome
    status_code: int = 0
    final_url: str | None = None
    reason: str | None = None


def external_issue(source_url: str, answer: ExternalAnswer) -> DetectedIssue | None:
    """The issue `answer` raises on a page that links it (None for ok)."""
    issue_type = ISSUE_OF.get(answer.outcome)
    if issue_type is None:
        return None
    details: JsonObject = {"targetUrl": answer.url, "outcome": answer.outcome.value}
    if answer.status_code:
        details["targetStatus"] = answer.status_code
    if answer.final_url is not None:
        details["finalUrl"] = answer.final_url
    if answer.reason is not None:
        details["reason"] = answer.reason
    return DetectedIssue(issue_type, source_url, details, dedupe_key=answer.url)


def external_link_issues(
    audit_id: str,
    answers: Iterable[ExternalAnswer],
    uses: Iterable[ExternalUse],
) -> list[DetectedIssue]:
    """broken-external-link, then external-redirect, then external-link-unreachable: each in
    (source page id, source URL, URL) order, on every referring page (uncapped, like the
    internal link checks)."""
    by_url = {answer.url: answer for answer in answers}
    hits = sorted(
        (page_id(audit_id, use.source_url), use.source_url, use.url)
        for use in uses
        if use.url in by_url
    )
    issues: list[DetectedIssue] = []
    for issue_type in dict.fromkeys(ISSUE_OF.values()):
        found = [external_issue(source, by_url[url]) for _, source, url in hits]
        issues += [i for i in found if i is not None and i.issue_type is issue_type]
    return issues


def unchecked_issue(start_url: str, unchecked: int, checked: int, budget: int) -> DetectedIssue:
    """external-links-unchecked on the start URL: how many external URLs were not checked."""
    details: JsonObject = {"uncheckedUrls": unchecked, "checkedUrls": checked, "budget": budget}
    return DetectedIssue(IssueType.EXTERNAL_LINKS_UNCHECKED, start_url, details)
