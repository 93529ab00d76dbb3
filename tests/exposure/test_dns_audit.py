"""The DNS driver against a DoH double on 127.0.0.1 answering recorded JSON shapes."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from common import settings
from exposure.dns_audit import check_domain, dns_skip_reason, mail_domain
from exposure.dns_records import RecordType
from exposure.domain_checks import DmarcPolicy
from exposure.spf import SpfProblem
from tests.exposure.dns_helpers import Zone, body, doh_double, quoted

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
    with doh_double(zone) as site:
        previous = settings.EXPOSURE
        url = site.url("/dns-query")
        settings.EXPOSURE = dataclasses.replace(previous, doh_resolver_url=url, **changes)  # type: ignore[arg-type]
        try:
            yield
        finally:
            settings.EXPOSURE = previous


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
async def test_an_unreachable_resolver_is_reported_not_raised() -> None:
    with doh_double({}) as site:
        url = site.url("/nowhere")
    previous = settings.EXPOSURE
    settings.EXPOSURE = dataclasses.replace(previous, doh_resolver_url=url, doh_timeout_s=2.0)
    try:
        report = await check_domain("example.com")
    finally:
        settings.EXPOSURE = previous
    assert report.resolver_errors
    assert report.spf.problems == (SpfProblem.UNRESOLVED,)


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
