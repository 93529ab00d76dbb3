"""The DNS driver against a DoH double on 127.0.0.1 answering recorded JSON shapes."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from common import settings
from exposure.dns_audit import check_domain, dns_skip_reason, judge, mail_domain, resolver_down
from exposure.dns_records import RecordType, failed_answer
from exposure.domain_checks import DmarcPolicy
from exposure.findings import Check, domain_findings
from exposure.spf import SpfProblem
from tests.exposure.dns_helpers import Zone, body, doh_double, quoted, txt
from tests.support.loopback_http import LoopbackOnlyHttp
from tests.support.site_server import serve_site

TXT, CAA, A = RecordType.TXT, RecordType.CAA, RecordType.A

GOOD_ZONE: Zone = {
    ("example.com", "TXT"): body(
        "example.com", TXT, quoted("v=spf1 include:_spf.mail.test -all"), quoted("hello")
    ),
    ("_spf.mail.test", "TXT"): body("_spf.mail.test", TXT, quoted("v=spf1 ip4:192.0.2.0/24 ~all")),
    ("_dmarc.example.com", "TXT"): body(
        "_dmarc.example.com", TXT, quoted("v=DMARC1; p=reject; rua=mailto:r@example.com")
    ),
    ("_mta-sts.example.com", "TXT"): body(
        "_mta-sts.example.com", TXT, "v=STSv1; id=1"
    ),  # Google's bare spelling
    ("example.com", "CAA"): body("example.com", CAA, '0 issue "letsencrypt.org"'),
    ("www.example.com", "A"): body("www.example.com", A, "192.0.2.10", ad=True),
}


@contextmanager
def serving(zone: Zone, **changes: object) -> Iterator[None]:
    """The DoH double answering `zone`, installed as the resolver for the block."""
    with doh_double(zone) as site, pytest.MonkeyPatch.context() as patch:
        url = site.url("/dns-query")
        exposure = dataclasses.replace(settings.EXPOSURE, doh_resolver_url=url, **changes)  # type: ignore[arg-type]
        patch.setattr(settings, "EXPOSURE", exposure)
        yield


@pytest.mark.usefixtures("fetch_pool_closed")  # DoH lookups use the test loop's fetch pool
async def test_a_well_configured_domain() -> None:
    with serving(GOOD_ZONE):
        report = await check_domain("WWW.Example.com.")
    assert report.mail_domain == "example.com"
    assert (report.spf.all_qualifier, report.spf.lookups, report.spf.problems) == ("-", 1, ())
    assert report.spf.visited == ("_spf.mail.test",)
    assert report.dmarc.policy is DmarcPolicy.REJECT and report.dmarc.problems == ()
    assert report.mta_sts.present
    assert report.caa.found_at == "example.com" and report.caa.issuers == ("letsencrypt.org",)
    assert report.dnssec_validated
    assert report.resolver_errors == ()
    assert type(report).from_dict(report.to_dict()) == report


@pytest.mark.usefixtures("fetch_pool_closed")  # DoH lookups use the test loop's fetch pool
async def test_a_domain_with_nothing_published() -> None:
    with serving({("www.example.com", "A"): body("www.example.com", A, "192.0.2.10")}):
        report = await check_domain("www.example.com")
    assert report.spf.problems == (SpfProblem.MISSING,)
    assert report.dmarc.policy is None and not report.mta_sts.present
    assert not report.caa.present and not report.dnssec_validated


@pytest.mark.usefixtures("fetch_pool_closed")  # DoH lookups use the test loop's fetch pool
async def test_an_unreachable_resolver_means_the_checks_did_not_run(
    outbound_http: LoopbackOnlyHttp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our resolver failing is not the site's DNS failing: no record is called missing, the
    report says the checks did not run and why, and nothing past the first round is asked."""
    with doh_double({}) as site:
        url = site.url("/dns-query")  # the server is gone when it is asked: refused
    exposure = dataclasses.replace(settings.EXPOSURE, doh_resolver_url=url, doh_timeout_s=2.0)
    monkeypatch.setattr(settings, "EXPOSURE", exposure)
    report = await check_domain("example.com")
    assert report.unchecked is not None
    assert report.unchecked.startswith(
        f"the DNS-over-HTTPS resolver {url} answered none of 3 questions (the connection was "
        "refused: "
    )
    assert report.unchecked.endswith("so the DNS and email checks were not run")
    assert len(report.resolver_errors) == 3
    assert len([u for u in outbound_http.urls if u.startswith(url)]) == 3  # no CAA, no A
    (finding,) = domain_findings(report)
    assert (finding.check, finding.severity.value) == (Check.DNS_UNCHECKED, "info")
    assert type(report).from_dict(report.to_dict()) == report


@pytest.mark.usefixtures("fetch_pool_closed")
async def test_a_resolver_answering_errors_only_means_the_checks_did_not_run() -> None:
    with _erring_resolver():
        report = await check_domain("example.com")
    assert report.unchecked is not None
    assert "(resolver answered HTTP 404)" in report.unchecked
    assert [f.check for f in domain_findings(report)] == [Check.DNS_UNCHECKED]


@contextmanager
def _erring_resolver() -> Iterator[None]:
    """A resolver that answers 404 to every question."""
    with serve_site({}) as site, pytest.MonkeyPatch.context() as patch:
        exposure = dataclasses.replace(settings.EXPOSURE, doh_resolver_url=site.url("/gone"))
        patch.setattr(settings, "EXPOSURE", exposure)
        yield


FAILED = failed_answer("example.com", RecordType.TXT, "timed out after 5 s")


@pytest.mark.parametrize(
    ("answers", "down"),
    [
        ([], False),  # nothing asked: nothing to say
        ([FAILED], True),
        ([FAILED, FAILED], True),
        # One answer (NXDOMAIN, SERVFAIL: the domain's DNS, not our resolver) is enough.
        ([FAILED, txt("example.com")], False),
        ([FAILED, txt("example.com", status=2)], False),
    ],
)
def test_the_resolver_is_down_only_when_it_answered_nothing(answers: list[Any], down: bool) -> None:
    assert (resolver_down(answers) is not None) is down


def test_a_partly_answering_resolver_keeps_the_findings_it_can_make() -> None:
    report = judge("example.com", {"example.com": txt("example.com")}, {}, FAILED)
    assert report.unchecked is None
    assert Check.SPF_MISSING in {f.check for f in domain_findings(report)}


@pytest.mark.parametrize(
    ("host", "domain"),
    [
        ("www.example.com", "example.com"),
        ("example.com", "example.com"),
        ("www.com", "www.com"),
        ("shop.example.com", "shop.example.com"),
    ],
)
def test_mail_domain(host: str, domain: str) -> None:
    assert mail_domain(host) == domain


@pytest.mark.parametrize(
    ("host", "reason"),
    [
        ("127.0.0.1", "127.0.0.1 is an IP address: no DNS records to check"),
        ("::1", "::1 is an IP address: no DNS records to check"),
        ("[2001:db8::1]", "[2001:db8::1] is an IP address: no DNS records to check"),
        ("0x7f.1", "0x7f.1 is an IP address: no DNS records to check"),
        ("localhost", "localhost is a loopback name, not in the public DNS"),
        ("shop.localhost.", "shop.localhost is a loopback name, not in the public DNS"),
        ("intranet", "intranet is not a domain name"),
        ("www.example.com", None),
        ("Example.COM.", None),
    ],
)
def test_hosts_without_public_dns_are_skipped_with_a_reason(host: str, reason: str | None) -> None:
    assert dns_skip_reason(host) == reason
