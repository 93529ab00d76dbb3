"""External links as issues: what each check outcome means, and the specification of the
finalize section that turns checked external URLs into issues on every referring page.

An external URL is checked once per audit (crawl.external_check); `external_issue` maps one
(referrer, answer) pair to its issue, and `external_link_issues` is the executable
specification that `durable.finalize_sections.external_section` must equal: one issue per
referring page and checked URL whose outcome is not ok, in (source page id, source URL, URL)
order. URLs left unchecked (past the audit's budget of URLs or of time, by a check step that
stopped, or because DNS does not work where the audit runs) are counted in one
`external-links-unchecked` note on the start URL instead, which says why (`ExternalStop`).

Our side is never the site's defect
-----------------------------------
A host name that does not resolve is the site's dead link only if names resolve where the audit
runs. On a machine without outside DNS (a sandbox, a CI runner without network, a broken
resolver) every name fails exactly as a name that does not exist does ("Name or service not
known"), so one failure says nothing on its own. The audit therefore counts, per distinct
external host *name* (IP literals need no DNS and say nothing either way), whether its lookup
succeeded (`HostReach`), and judges DNS failures against the others (`dns_unavailable`): when
no name resolved, or fewer than `DNS_MIN_RESOLVED_SHARE` of them, DNS failures are the
auditing environment's, the checks they touched are "not run" (one note, no per-link issue);
otherwise a name that does not resolve is a broken link (`UNRESOLVED` → broken-external-link).
The checks stop early once `DNS_PROBE_HOSTS` names failed that way (`dns_stop`): asking more
names of a resolver that answers none only spends the audit's time.
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
    "DNS_MIN_RESOLVED_SHARE",
    "DNS_PROBE_HOSTS",
    "ISSUE_OF",
    "DnsTally",
    "ExternalAnswer",
    "ExternalOutcome",
    "ExternalStop",
    "ExternalUse",
    "HostReach",
    "Unchecked",
    "external_issue",
    "external_link_issues",
    "unchecked_issue",
]

# DNS failures are the auditing environment's, not the site's, when fewer than this share of the
# distinct external host names tried resolved. A working resolver resolves nearly all of a site's
# outbound names (dead domains are the exception: a site whose links were 90% dead domains would
# be a curiosity); an environment without outside DNS resolves none, or only local names
# (`localhost`, an intranet name served by a split resolver). One in ten tells them apart.
DNS_MIN_RESOLVED_SHARE = 0.1
# The checks stop once this many distinct names failed DNS while the share above was not met.
# Even if one name in five a site links were dead, five failures in a row with none resolving
# would happen about three times in ten thousand audits; without DNS, the first wave of checks
# (settings.EXTERNAL.concurrency at once, each failing in milliseconds) reaches five at once.
DNS_PROBE_HOSTS = 5


class ExternalOutcome(StrEnum):
    """What one external URL's check found (crawl.external_links.judge decides)."""

    OK = "ok"  # answered without redirects, not an error
    REDIRECT = "redirect"  # answered, after one or more redirects, not an error
    BROKEN = "broken"  # 4xx/5xx (fetch ok), a redirect loop
    # The host name did not resolve: broken when other names resolve, else not run (see above).
    UNRESOLVED = "unresolved"
    TIMEOUT = "timeout"  # no answer within the timeout
    REFUSED = "refused"  # the connection was refused
    BLOCKED = "blocked"  # an access wall or rate limit for robots (401/403/429, a challenge)
    PRIVATE = "private"  # not requested: the SSRF policy refuses the host (a private address)
    ERROR = "error"  # another network failure (TLS, reset)


class HostReach(StrEnum):
    """How far one check got with its (last) host: what it tells about DNS where we run."""

    ANSWERED = "answered"  # the server answered (any status): the name resolved
    CONNECTED = "connected"  # the name resolved, the connection failed (refused, TLS, private)
    UNRESOLVED = "unresolved"  # the name did not resolve
    SILENT = "silent"  # no answer and no telling why (timeout, other): says nothing of DNS


class ExternalStop(StrEnum):
    """Why some external URLs were not checked (`external-links-unchecked`'s `reason`)."""

    DNS_UNAVAILABLE = "dns-unavailable"  # DNS does not work where the audit runs
    TIME_BUDGET = "time-budget"  # the audit's time budget for the checks ran out
    URL_BUDGET = "url-budget"  # past settings.EXTERNAL.budget_urls distinct URLs
    STOPPED = "stopped"  # a check step failed after its retry


@dataclass(frozen=True, slots=True)
class DnsTally:
    """Distinct external host names (not IP literals) whose lookup resolved, and those that
    did not resolve and never did."""

    resolved: int = 0
    unresolved: int = 0

    @property
    def unavailable(self) -> bool:
        """Whether DNS failures say more about where the audit runs than about the site."""
        tried = self.resolved + self.unresolved
        return self.unresolved > 0 and self.resolved < DNS_MIN_RESOLVED_SHARE * tried

    @property
    def stop(self) -> bool:
        """Whether the checks should stop: enough names failed to call DNS unavailable."""
        return self.unresolved >= DNS_PROBE_HOSTS and self.unavailable


# Every outcome but ok becomes an issue; timeouts, refusals, walls and private addresses are
# reported as what they are, never as broken.
ISSUE_OF = {
    ExternalOutcome.BROKEN: IssueType.BROKEN_EXTERNAL_LINK,
    ExternalOutcome.UNRESOLVED: IssueType.BROKEN_EXTERNAL_LINK,  # only while DNS works
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
    dns: DnsTally = DnsTally(),
) -> list[DetectedIssue]:
    """broken-external-link, then external-redirect, then external-link-unreachable: each in
    (source page id, source URL, URL) order, on every referring page (uncapped, like the
    internal link checks). A name that did not resolve is no issue while `dns` is unavailable
    (it is counted in the unchecked note instead)."""
    by_url = {
        answer.url: answer
        for answer in answers
        if not (dns.unavailable and answer.outcome is ExternalOutcome.UNRESOLVED)
    }
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


@dataclass(frozen=True, slots=True)
class Unchecked:
    """What the external-links-unchecked note reports: why, and the counts."""

    reason: ExternalStop
    unchecked: int  # distinct external URLs without a verdict
    checked: int  # distinct external URLs with one
    budget: int  # settings.EXTERNAL.budget_urls
    time_budget_s: float  # the audit's external_budget_s
    dns: DnsTally = DnsTally()


def unchecked_issue(start_url: str, note: Unchecked) -> DetectedIssue:
    """external-links-unchecked on the start URL: how many external URLs were not checked, why,
    in a sentence."""
    details: JsonObject = {
        "reason": note.reason.value,
        "detail": _unchecked_sentence(note),
        "uncheckedUrls": note.unchecked,
        "checkedUrls": note.checked,
        "budget": note.budget,
        "timeBudgetS": note.time_budget_s,
    }
    if note.reason is ExternalStop.DNS_UNAVAILABLE:
        details["hostNamesResolved"] = note.dns.resolved
        details["hostNamesUnresolved"] = note.dns.unresolved
    return DetectedIssue(IssueType.EXTERNAL_LINKS_UNCHECKED, start_url, details)


def _unchecked_sentence(note: Unchecked) -> str:
    one = note.unchecked == 1
    urls = f"{note.unchecked:,} external URL{'' if one else 's'}"
    were = "was" if one else "were"
    match note.reason:
        case ExternalStop.DNS_UNAVAILABLE:
            tried = note.dns.resolved + note.dns.unresolved
            return (
                f"External links were not checked: {note.dns.resolved} of the {tried} external "
                "host names tried resolved where the audit ran, so DNS does not work there. "
                f"{urls} went unchecked; this says nothing about the links themselves."
            )
        case ExternalStop.TIME_BUDGET:
            return (
                f"The external link checks used their time budget of {note.time_budget_s:g} s: "
                f"{urls} {were} not checked (raise the budget to check them)."
            )
        case ExternalStop.URL_BUDGET:
            return (
                f"An audit checks at most {note.budget:,} distinct external URLs: {urls} past "
                f"that {were} not checked."
            )
        case ExternalStop.STOPPED:
            return f"The external link checks stopped early: {urls} {were} not checked."
