"""What the exposure checks found, as findings with a severity, a source and fix advice.

Each `Check` has one descriptor (title, severity, source, advice), in the shape of the audit's
issue catalogue (`audit.catalogue`: critical / warning / info under the same policy), so each can
become a catalogue issue type. Severities:

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

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from audit.catalogue import Severity
from common.wire import JsonRecord
from exposure.disclosure import Disclosure
from exposure.dns_audit import DomainReport
from exposure.domain_checks import DmarcProblem
from exposure.libraries import LibraryFinding
from exposure.retire_data import RetireSeverity
from exposure.spf import SpfProblem

__all__ = [
    "DESCRIPTORS",
    "Check",
    "CheckDescriptor",
    "Finding",
    "disclosure_findings",
    "domain_findings",
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


def _d(check: Check, severity: Severity, title: str, source: str, advice: str) -> CheckDescriptor:
    return CheckDescriptor(check, severity, title, source, advice)


_W, _I = Severity.WARNING, Severity.INFO
DESCRIPTORS = MappingProxyType(
    {
        d.check: d
        for d in (
            _d(
                Check.VULNERABLE_JS_LIBRARY,
                _W,
                "JavaScript library with known vulnerabilities",
                "retire.js vulnerability repository (github.com/RetireJS/retire.js)",
                "Upgrade the library to the version named (or later) and redeploy; load it from "
                "a source you update, and remove it if nothing uses it any more.",
            ),
            _d(
                Check.VERSION_DISCLOSED,
                _I,
                "Software version disclosed",
                "RFC 9110 §10.2.4; OWASP Secure Headers Project",
                "Remove the version from the header or generator tag (e.g. nginx "
                "`server_tokens off`, Apache `ServerTokens Prod`, PHP `expose_php = Off`, "
                "the CMS's generator setting) and keep the software updated.",
            ),
            _d(
                Check.SPF_MISSING,
                _W,
                "No SPF record",
                "RFC 7208 §4.5",
                "Publish one TXT record `v=spf1 … -all` at the domain listing the servers that "
                "send its mail; a domain that sends none publishes `v=spf1 -all`.",
            ),
            _d(
                Check.SPF_INVALID,
                _W,
                "SPF record causes a permanent error",
                "RFC 7208 §4.5, §4.6.4, §5.2",
                "Keep exactly one SPF record, at most 10 DNS-querying terms (include, a, mx, "
                "ptr, exists, redirect) counted through includes, and include only domains that "
                "publish SPF; flatten includes into ip4/ip6 ranges if needed.",
            ),
            _d(
                Check.SPF_PERMISSIVE,
                _W,
                "SPF record does not end in -all or ~all",
                "RFC 7208 §5.1, §4.7",
                "End the record with `-all` (or `~all` while testing) so mail from other servers "
                "fails SPF.",
            ),
            _d(
                Check.DMARC_MISSING,
                _W,
                "No valid DMARC record",
                "RFC 7489 §6.4, §6.6.3",
                "Publish one TXT record at `_dmarc.<domain>`: `v=DMARC1; p=quarantine; "
                "rua=mailto:…`, and move to `p=reject` once reports look clean.",
            ),
            _d(
                Check.DMARC_POLICY_NONE,
                _W,
                "DMARC policy only monitors (p=none)",
                "RFC 7489 §6.3",
                "Raise the policy to `p=quarantine`, then `p=reject`, after checking the "
                "aggregate reports for legitimate senders that fail.",
            ),
            _d(
                Check.DMARC_NO_REPORTS,
                _I,
                "DMARC record asks for no aggregate reports",
                "RFC 7489 §6.3 (rua), §7.2",
                "Add `rua=mailto:<address>` to receive daily reports of who sends as the domain.",
            ),
            _d(
                Check.DMARC_PARTIAL,
                _I,
                "DMARC policy applies to part of the mail (pct below 100)",
                "RFC 7489 §6.3 (pct)",
                "Raise `pct` to 100 (or remove it) once the policy is known to be safe.",
            ),
            _d(
                Check.MTA_STS_MISSING,
                _I,
                "No MTA-STS policy",
                "RFC 8461 §3.1",
                "Publish `_mta-sts.<domain>` TXT `v=STSv1; id=…` and the policy file at "
                "https://mta-sts.<domain>/.well-known/mta-sts.txt so senders require TLS.",
            ),
            _d(
                Check.CAA_MISSING,
                _I,
                "No CAA record",
                "RFC 8659 §3, §4",
                'Publish CAA records (`0 issue "<your CA>"`) naming the certificate '
                "authorities allowed to issue for the domain.",
            ),
            _d(
                Check.DNSSEC_NOT_VALIDATED,
                _I,
                "DNS answers not validated with DNSSEC",
                "RFC 4033; RFC 4035 §3.2.3 (AD bit)",
                "Sign the zone at the DNS provider and publish the DS record at the registrar.",
            ),
        )
    }
)


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
