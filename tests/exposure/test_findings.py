"""Findings from results: severities, subjects and advice, as tables."""

from __future__ import annotations

import json

import pytest

from audit.catalogue import Severity
from exposure.disclosure import header_disclosures
from exposure.dns_audit import judge
from exposure.dns_records import DnsAnswer, RecordType, parse_answer
from exposure.findings import (
    DESCRIPTORS,
    Check,
    disclosure_findings,
    domain_findings,
    library_findings,
)
from exposure.libraries import scan_url
from tests.exposure.dns_helpers import body, txt_zone


def test_every_check_has_a_descriptor_with_source_and_advice() -> None:
    assert set(DESCRIPTORS) == set(Check)
    assert all(d.title and d.source and d.advice.endswith(".") for d in DESCRIPTORS.values())


ANGULARJS = "https://cdnjs.cloudflare.com/ajax/libs/angular.js/1.8.3/angular.min.js"


@pytest.mark.parametrize(
    ("url", "severity", "detail_end"),
    [
        # worst known vulnerability medium; 3.5.0 is the first release none affects
        ("https://code.jquery.com/jquery-1.8.1.min.js", Severity.WARNING, "fixed in 3.5.0"),
        (ANGULARJS, Severity.CRITICAL, "first fix 1.8.4, no release fixes all"),
        ("https://code.jquery.com/jquery-3.7.1.min.js", None, None),
    ],
)
def test_library_findings(url: str, severity: Severity | None, detail_end: str | None) -> None:
    findings = library_findings(scan_url(url) * 2)  # the same version twice: one finding
    if severity is None or detail_end is None:
        assert findings == []
        return
    [finding] = findings
    assert finding.check is Check.VULNERABLE_JS_LIBRARY and finding.severity is severity
    assert finding.detail.endswith(detail_end)
    assert finding.url == url
    assert finding.identifiers and all(i.startswith(("CVE-", "GHSA-")) for i in finding.identifiers)
    assert type(finding).from_dict(finding.to_dict()) == finding


def test_disclosure_findings_only_for_versions() -> None:
    headers = {"server": "nginx", "x-powered-by": "PHP/8.1.2", "x-aspnet-version": "4.0.30319"}
    findings = disclosure_findings(header_disclosures(headers), "https://example.com/")
    assert [(f.subject, f.detail, f.severity) for f in findings] == [
        ("x-powered-by: PHP/8.1.2", "PHP 8.1.2", Severity.INFO),
        ("x-aspnet-version: 4.0.30319", "ASP.NET 4.0.30319", Severity.INFO),
    ]


def _answer(name: str, rtype: RecordType, *data: str, ad: bool = False) -> DnsAnswer:
    return parse_answer(name, rtype, json.dumps(body(name, rtype, *data, ad=ad)).encode())


HOST = "www.example.com"
GOOD = {
    "example.com": ("v=spf1 mx -all",),
    "_dmarc.example.com": ("v=DMARC1; p=reject; rua=mailto:d@example.com",),
    "_mta-sts.example.com": ("v=STSv1; id=1",),
}
CAA = {
    HOST: _answer(HOST, RecordType.CAA),
    "example.com": _answer("example.com", RecordType.CAA, '0 issue "pki.goog"'),
}
SIGNED = _answer(HOST, RecordType.A, "192.0.2.1", ad=True)


@pytest.mark.parametrize(
    ("changes", "checks"),
    [
        ({}, []),
        ({"example.com": ()}, [Check.SPF_MISSING]),
        ({"example.com": ("v=spf1 -all", "v=spf1 ~all")}, [Check.SPF_INVALID]),
        ({"example.com": ("v=spf1 mx ?all",)}, [Check.SPF_PERMISSIVE]),
        ({"_dmarc.example.com": ()}, [Check.DMARC_MISSING]),
        (
            {"_dmarc.example.com": ("v=DMARC1; p=none",)},
            [Check.DMARC_POLICY_NONE, Check.DMARC_NO_REPORTS],
        ),
        (
            {"_dmarc.example.com": ("v=DMARC1; p=reject; pct=10; rua=mailto:x@y.test",)},
            [Check.DMARC_PARTIAL],
        ),
        ({"_mta-sts.example.com": ()}, [Check.MTA_STS_MISSING]),
    ],
)
def test_domain_findings(changes: dict[str, tuple[str, ...]], checks: list[Check]) -> None:
    report = judge(HOST, txt_zone(GOOD | changes), CAA, SIGNED)
    assert [f.check for f in domain_findings(report)] == checks


def test_caa_and_dnssec_findings() -> None:
    caa = {name: _answer(name, RecordType.CAA) for name in (HOST, "example.com")}
    report = judge(HOST, txt_zone(GOOD), caa, _answer(HOST, RecordType.A, "192.0.2.1"))
    assert [(f.check, f.subject, f.severity) for f in domain_findings(report)] == [
        (Check.CAA_MISSING, HOST, Severity.INFO),
        (Check.DNSSEC_NOT_VALIDATED, HOST, Severity.INFO),
    ]


def test_unanswered_questions_make_no_findings() -> None:
    failed = parse_answer(HOST, RecordType.A, b"not json")
    report = judge(HOST, {}, {}, failed)
    assert report.resolver_errors
    # A resolver that answered nothing: no record is called missing, one note says so.
    assert [f.check for f in domain_findings(report)] == [Check.DNS_UNCHECKED]
    partly = judge(HOST, txt_zone(GOOD), {}, failed)
    assert partly.unchecked is None
    assert Check.DNSSEC_NOT_VALIDATED not in {f.check for f in domain_findings(partly)}
