"""What the exposure checks found, as findings with a severity, a source and fix advice.

Each `Check` is one catalogue issue type (`ISSUE_OF_CHECK`, `exposure-*`), whose title, source
and advice its descriptor reads (critical / warning / info under the catalogue's policy).
Severities:

* vulnerable JavaScript library: from retire.js's own rating of the worst known vulnerability —
  critical or high → critical, medium → warning, low → info;
* SPF missing, broken (a permanent error under RFC 7208) or permissive, DMARC missing or only
  monitoring (`p=none`): warning — mail claiming to come from the domain cannot be told apart
  from forgeries;
* no DMARC reports, a partial `pct`, no MTA-STS, no CAA, DNSSEC not validated, a software version
  in a header or generator tag: info — hardening and hygiene.

Checks the resolver could not answer make no finding: the report lists the resolver's errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from audit.catalogue import IssueType, Severity, descriptor
from audit.issues import DetectedIssue
from common.wire import JsonRecord, JsonValue
from exposure.disclosure import Disclosure
from exposure.dns_audit import DomainReport
from exposure.domain_checks import DmarcProblem
from exposure.libraries import LibraryFinding
from exposure.retire_data import RetireSeverity
from exposure.spf import SpfProblem

__all__ = [
    "DESCRIPTORS",
    "ISSUE_OF_CHECK",
    "Check",
    "CheckDescriptor",
    "Finding",
    "disclosure_findings",
    "domain_findings",
    "finding_issue",
    "library_findings",
]


class Check(StrEnum):
    VULNERABLE_JS_LIBRARY = "vulnerable_js_library"
    VERSION_DISCLOSED = "version_disclosed"
    SPF_MISSING = "spf_missing"
    SPF_INVALID = "spf_invalid"
    SPF_PERMISSIVE = "spf_permissive"
    DMARC_MISSING = "dmarc_missing"
    DMARC_POLICY_NONE = "dmarc_policy_none"
    DMARC_NO_REPORTS = "dmarc_no_reports"
    DMARC_PARTIAL = "dmarc_partial"
    MTA_STS_MISSING = "mta_sts_missing"
    CAA_MISSING = "caa_missing"
    DNSSEC_NOT_VALIDATED = "dnssec_not_validated"
    DNS_UNCHECKED = "dns_unchecked"  # our resolver failed: the checks above did not run


@dataclass(frozen=True, slots=True)
class CheckDescriptor:
    check: Check
    severity: Severity  # the default; a vulnerable library takes retire.js's rating
    title: str
    source: str
    advice: str


@dataclass(frozen=True, slots=True)
class Finding(JsonRecord):
    check: Check
    severity: Severity
    subject: str  # what it is about: `jquery 1.8.1`, `example.com`, `server: Apache/2.4.41`
    detail: str
    source: str
    advice: str
    url: str | None = None  # the script or page concerned
    identifiers: tuple[str, ...] = ()  # CVE and GHSA ids of a vulnerable library


# The issue type each check becomes in an audit; its title, source and advice are the
# catalogue's (one text for the report, the CLI and the docs).
ISSUE_OF_CHECK: Mapping[Check, IssueType] = MappingProxyType(
    {check: IssueType(f"exposure-{check.value.replace('_', '-')}") for check in Check}
)
# The default severity; a vulnerable library takes retire.js's rating instead.
_DEFAULT_SEVERITY = {
    Check.VULNERABLE_JS_LIBRARY: Severity.WARNING,
    Check.SPF_MISSING: Severity.WARNING,
    Check.SPF_INVALID: Severity.WARNING,
    Check.SPF_PERMISSIVE: Severity.WARNING,
    Check.DMARC_MISSING: Severity.WARNING,
    Check.DMARC_POLICY_NONE: Severity.WARNING,
}


def _descriptor(check: Check) -> CheckDescriptor:
    issue = descriptor(ISSUE_OF_CHECK[check])
    severity = _DEFAULT_SEVERITY.get(check, Severity.INFO)
    return CheckDescriptor(check, severity, issue.title, issue.source, issue.how_to_fix)


DESCRIPTORS = MappingProxyType({check: _descriptor(check) for check in Check})


def _finding(
    check: Check,
    subject: str,
    detail: str,
    *,
    severity: Severity | None = None,
    url: str | None = None,
    identifiers: tuple[str, ...] = (),
) -> Finding:
    descriptor = DESCRIPTORS[check]
    return Finding(
        check=check,
        severity=severity or descriptor.severity,
        subject=subject,
        detail=detail,
        source=descriptor.source,
        advice=descriptor.advice,
        url=url,
        identifiers=identifiers,
    )


_LIBRARY_SEVERITY = {
    RetireSeverity.CRITICAL: Severity.CRITICAL,
    RetireSeverity.HIGH: Severity.CRITICAL,
    RetireSeverity.MEDIUM: Severity.WARNING,
    RetireSeverity.LOW: Severity.INFO,
}


def library_findings(libraries: Iterable[LibraryFinding]) -> list[Finding]:
    """One finding per vulnerable library version (its first script URL stands for the rest)."""
    seen: dict[tuple[str, str], Finding] = {}
    for found in libraries:
        if found.severity is None or (found.library, found.version) in seen:
            continue
        if found.safe_version:
            target = f"; fixed in {found.safe_version}"
        elif found.fixed_in:
            target = f"; first fix {found.fixed_in}, no release fixes all"
        else:
            target = "; no fixed release in this line"
        identifiers = tuple(
            dict.fromkeys(i for v in found.vulnerabilities for i in (*v.cves, v.ghsa or "") if i)
        )
        detail = (
            f"{len(found.vulnerabilities)} known vulnerabilities, worst {found.severity}{target}"
        )
        seen[(found.library, found.version)] = _finding(
            Check.VULNERABLE_JS_LIBRARY,
            f"{found.library} {found.version}",
            detail,
            severity=_LIBRARY_SEVERITY[found.severity],
            url=found.script_url,
            identifiers=identifiers,
        )
    return list(seen.values())


def disclosure_findings(disclosures: Iterable[Disclosure], page_url: str) -> list[Finding]:
    """One finding per header or generator tag that names a version."""
    versions: dict[tuple[str, str], list[str]] = {}
    for d in disclosures:
        if d.discloses_version:
            versions.setdefault((d.source, d.value), []).append(f"{d.product or '?'} {d.version}")
    return [
        _finding(Check.VERSION_DISCLOSED, f"{source}: {value}", ", ".join(named), url=page_url)
        for (source, value), named in versions.items()
    ]


_SPF_INVALID = {
    SpfProblem.MULTIPLE,
    SpfProblem.TOO_MANY_LOOKUPS,
    SpfProblem.INCLUDE_WITHOUT_RECORD,
    SpfProblem.LOOP,
}
_DMARC = {
    DmarcProblem.MISSING: Check.DMARC_MISSING,
    DmarcProblem.MULTIPLE: Check.DMARC_MISSING,
    DmarcProblem.INVALID: Check.DMARC_MISSING,
    DmarcProblem.POLICY_NONE: Check.DMARC_POLICY_NONE,
    DmarcProblem.NO_REPORTS: Check.DMARC_NO_REPORTS,
    DmarcProblem.PARTIAL: Check.DMARC_PARTIAL,
}


def domain_findings(report: DomainReport) -> list[Finding]:
    if report.unchecked is not None:
        # Our resolver failed, not the site's DNS: one note, and no record called missing.
        return [_finding(Check.DNS_UNCHECKED, report.host, report.unchecked)]
    domain = report.mail_domain
    found = _spf_findings(report)
    found += [
        _finding(_DMARC[p], domain, f"DMARC: {p}") for p in report.dmarc.problems if p in _DMARC
    ]
    if not report.mta_sts.present and not report.mta_sts.unresolved:
        found.append(_finding(Check.MTA_STS_MISSING, domain, "no `v=STSv1` record with an id"))
    if not report.caa.present and not report.caa.unresolved:
        found.append(_finding(Check.CAA_MISSING, report.host, "no CAA record up to the domain"))
    if not report.dnssec_validated and not report.resolver_errors:
        found.append(_finding(Check.DNSSEC_NOT_VALIDATED, report.host, "resolver AD flag unset"))
    return found


def _spf_findings(report: DomainReport) -> list[Finding]:
    result, domain = report.spf, report.mail_domain
    problems = set(result.problems)
    if SpfProblem.MISSING in problems:
        return [_finding(Check.SPF_MISSING, domain, "no `v=spf1` TXT record")]
    found = []
    if invalid := sorted(problems & _SPF_INVALID):
        detail = f"{', '.join(invalid)} ({result.lookups} DNS-querying terms)"
        found.append(_finding(Check.SPF_INVALID, domain, detail))
    if SpfProblem.PERMISSIVE_ALL in problems:
        ending = f"{result.all_qualifier}all" if result.all_qualifier else "no all"
        found.append(_finding(Check.SPF_PERMISSIVE, domain, f"policy ends in {ending}"))
    return found


SOURCE = "exposure"  # an issue's details["source"]: what produced it (these checks)


def finding_issue(finding: Finding, page_url: str) -> DetectedIssue:
    """The audit issue of `finding` on `page_url`: its type is the check's catalogue type, its
    row severity the finding's, and its subject tells apart several of one type on a page."""
    details: dict[str, JsonValue] = {
        "source": SOURCE,
        "check": str(finding.check),
        "subject": finding.subject,
        "detail": finding.detail,
        "severity": str(finding.severity),
        "reference": finding.source,
        "howToFix": finding.advice,
        "url": finding.url,
        "identifiers": list(finding.identifiers),
    }
    return DetectedIssue(ISSUE_OF_CHECK[finding.check], page_url, details, finding.subject)
