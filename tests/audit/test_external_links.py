"""External links as issues: when a name that does not resolve is the site's defect and when it
is the auditing environment's, and the one note that says the checks could not run."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.external_links import (
    DNS_PROBE_HOSTS,
    DnsTally,
    ExternalAnswer,
    ExternalOutcome,
    ExternalStop,
    ExternalUse,
    Unchecked,
    external_link_issues,
    unchecked_issue,
)


@pytest.mark.parametrize(
    ("resolved", "unresolved", "unavailable", "stop"),
    [
        (0, 0, False, False),  # nothing tried yet
        (3, 0, False, False),
        (0, 1, True, False),  # the only name failed: no other tells it apart
        (0, DNS_PROBE_HOSTS - 1, True, False),  # not yet enough to stop early
        (0, DNS_PROBE_HOSTS, True, True),  # the first five names all failed: no DNS here
        (1, 5, False, False),  # one in six resolved: the five are dead names
        (1, 9, False, False),  # one in ten: still DNS that works
        (1, 10, True, True),  # below one in ten: only a local name resolves
        (45, 400, False, False),  # 10.1% of the names tried resolved
        (44, 400, True, True),  # 9.9%
    ],
)
def test_dns_failures_are_the_sites_only_while_other_names_resolve(
    resolved: int, unresolved: int, unavailable: bool, stop: bool
) -> None:
    tally = DnsTally(resolved, unresolved)
    assert (tally.unavailable, tally.stop) == (unavailable, stop)


@given(st.integers(0, 1_000), st.integers(0, 1_000))
def test_the_checks_stop_only_when_dns_is_unavailable(resolved: int, unresolved: int) -> None:
    tally = DnsTally(resolved, unresolved)
    assert not tally.stop or tally.unavailable
    assert not tally.unavailable or unresolved > 0


AUDIT, PAGE = "audit-1", "https://site.test/a"
GONE = ExternalAnswer("https://gone.invalid/", ExternalOutcome.UNRESOLVED, 0, None, "dns")
MISSING = ExternalAnswer("https://up.test/missing", ExternalOutcome.BROKEN, 404, None, "HTTP 404")


@pytest.mark.parametrize(
    ("dns", "broken"),
    [
        (DnsTally(resolved=1, unresolved=1), ["https://gone.invalid/", "https://up.test/missing"]),
        # No DNS where the audit ran: the dead name is no issue, the 404 (an answer) still is.
        (DnsTally(resolved=0, unresolved=1), ["https://up.test/missing"]),
    ],
)
def test_a_name_that_does_not_resolve_is_broken_only_while_dns_works(
    dns: DnsTally, broken: list[str]
) -> None:
    uses = [ExternalUse(PAGE, GONE.url), ExternalUse(PAGE, MISSING.url)]
    issues = external_link_issues(AUDIT, [GONE, MISSING], uses, dns)
    assert [i.issue_type.value for i in issues] == ["broken-external-link"] * len(broken)
    assert sorted(str(i.details["targetUrl"]) for i in issues) == broken


@pytest.mark.parametrize(
    ("reason", "says"),
    [
        (ExternalStop.DNS_UNAVAILABLE, "0 of the 5 external host names tried resolved"),
        (ExternalStop.TIME_BUDGET, "time budget of 60 s: 7 external URLs were not checked"),
        (ExternalStop.URL_BUDGET, "at most 2,000 distinct external URLs: 7 external URLs past"),
        (ExternalStop.STOPPED, "stopped early: 7 external URLs were not checked"),
    ],
)
def test_the_unchecked_note_says_why_in_a_sentence(reason: ExternalStop, says: str) -> None:
    note = Unchecked(reason, 7, 3, 2_000, 60.0, DnsTally(0, 5))
    issue = unchecked_issue(PAGE, note)
    assert issue.issue_type.value == "external-links-unchecked"
    assert issue.severity.value == "info"
    assert issue.details["reason"] == reason.value
    assert says in str(issue.details["detail"])
    assert (issue.details["uncheckedUrls"], issue.details["checkedUrls"]) == (7, 3)
    assert ("hostNamesResolved" in issue.details) is (reason is ExternalStop.DNS_UNAVAILABLE)


def test_one_unchecked_url_is_spoken_of_in_the_singular() -> None:
    note = Unchecked(ExternalStop.TIME_BUDGET, 1, 0, 2_000, 5.0)
    assert "1 external URL was not checked" in str(unchecked_issue(PAGE, note).details["detail"])
