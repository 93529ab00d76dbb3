"""A start URL without an answer blames the site only when our own network works
(crawl.network_probe): the reference sites are asked, and when none answers the audit fails with
`network_unavailable` (our side) instead of `site_dns_error` or `site_timeout`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from common import ports, settings
from common.failures import ErrorCode
from crawl.discovery import resolve_start
from crawl.network_probe import PROBED_CODES, network_down
from crawl.start_verdict import StartFailure
from local_platform.runtime import LocalPlatform
from tests.support.loopback_http import LoopbackOnlyHttp
from urls.private_hosts import PrivateHosts

SITE = "https://shop.example.net/"
NO_NAME = "cannot resolve shop.example.net: [Errno -2] Name or service not known"
NO_DNS = "cannot resolve {host}: [Errno -3] Temporary failure in name resolution"
PROBES = settings.CRAWL.network_probe_urls


class Network:
    """Answers by URL; the others get `error` (no answer)."""

    def __init__(self, answers: Mapping[str, int], error: str = NO_NAME) -> None:
        self.answers, self.error, self.urls = answers, error, list[str]()

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        self.urls.append(request.url)
        status = self.answers.get(request.url, 0)
        error = None if status else self.error.format(host=request.url)
        return ports.FetchResult(request.url, status, {}, b"", False, 1.0, error)


@pytest.mark.parametrize(
    ("code", "final_url", "probed"),
    [
        (ErrorCode.SITE_DNS_ERROR, SITE, True),
        (ErrorCode.SITE_CONNECTION_FAILED, SITE, True),
        (ErrorCode.SITE_TIMEOUT, SITE, True),
        (ErrorCode.SITE_NETWORK_ERROR, SITE, True),
        (ErrorCode.SITE_DNS_ERROR, "https://93.184.215.14/", True),  # a public address
        # An answer of any kind proves the network reached the site.
        (ErrorCode.SITE_TLS_ERROR, SITE, False),
        (ErrorCode.SITE_HTTP_ERROR, SITE, False),
        (ErrorCode.START_NOT_HTML, SITE, False),
        (ErrorCode.SITE_PRIVATE_ADDRESS, SITE, False),
        # Reaching a loopback or LAN site does not go through the internet.
        (ErrorCode.SITE_CONNECTION_FAILED, "http://127.0.0.1:8001/", False),
        (ErrorCode.SITE_CONNECTION_FAILED, "http://localhost:8001/", False),
        (ErrorCode.SITE_TIMEOUT, "http://192.168.1.20/", False),
    ],
)
async def test_which_failures_are_worth_asking_the_reference_sites_about(
    code: ErrorCode, final_url: str, probed: bool
) -> None:
    # With no reference site answering, the failure is ours exactly where it is probed.
    network = Network({})
    assert (code in PROBED_CODES and await network_down(network, final_url)) is probed


@pytest.mark.parametrize(
    ("answers", "works"),
    [
        ({}, False),
        ({PROBES[0]: 200}, True),
        ({PROBES[-1]: 503}, True),  # any HTTP answer: the network reached it
    ],
)
async def test_the_network_works_when_any_reference_site_answers(
    answers: dict[str, int], works: bool
) -> None:
    network = Network(answers)
    assert await network_down(network, SITE) is not works
    assert sorted(network.urls) == sorted(PROBES)


async def test_a_start_url_that_answers_asks_no_reference_site() -> None:
    network = Network({SITE: 200})
    start = await resolve_start(network, SITE, private_hosts=PrivateHosts.DENY)
    assert network.urls == [SITE]
    assert start.failure is not None  # no HTML page: the double sends no content type
    assert start.failure.error_code is ErrorCode.START_NOT_HTML


async def resolve(network: Network) -> StartFailure | None:
    start = await resolve_start(network, SITE, private_hosts=PrivateHosts.DENY)
    return start.failure


async def test_a_name_that_does_not_resolve_is_the_sites_failure_while_the_network_works() -> None:
    network = Network({PROBES[0]: 200})
    found = await resolve(network)
    assert found is not None and found.error_code is ErrorCode.SITE_DNS_ERROR
    assert network.urls == [SITE, *PROBES]


async def test_with_no_reference_site_answering_the_failure_is_ours_and_says_so() -> None:
    network = Network({}, NO_DNS)
    found = await resolve(network)
    assert found is not None and found.error_code is ErrorCode.NETWORK_UNAVAILABLE
    assert not found.error_code.is_site_failure
    assert found.detail == (
        "siteaudit could not reach https://shop.example.net/ (its host name did not resolve), nor "
        "example.com or one.one.one.one, which are always up: the network or DNS of the machine "
        "running siteaudit is not working, so nothing was learned about the site. Audit it again "
        "once that machine is online."
    )


async def test_a_private_site_that_refuses_is_never_probed() -> None:
    network = Network({}, "cannot connect to 127.0.0.1:9: [Errno 111] Connect call failed")
    start = await resolve_start(network, "http://127.0.0.1:9/", private_hosts=PrivateHosts.ALLOW)
    assert start.failure is not None
    assert start.failure.error_code is ErrorCode.SITE_CONNECTION_FAILED
    assert network.urls == ["http://127.0.0.1:9/"]


async def audit_of(platform: LocalPlatform, url: str) -> dict[str, Any]:
    status, body = await platform.request("POST", "/api/audits", {"url": url})
    assert status == 201, body
    audit_id = body["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=60)
    status, body = await platform.request("GET", f"/api/audits/{audit_id}")
    audit: dict[str, Any] = body["audit"]
    return audit


async def test_an_audit_on_a_machine_offline_fails_on_our_side(
    platform: LocalPlatform, outbound_http: LoopbackOnlyHttp
) -> None:
    outbound_http.online = False
    audit = await audit_of(platform, "https://shop.invalid/")
    assert (audit["status"], audit["error_code"]) == ("failed", "network_unavailable")
    assert "nor example.com or one.one.one.one" in audit["error_detail"]
    outbound_http.online = True
    audit = await audit_of(platform, "https://shop.invalid/")
    assert (audit["status"], audit["error_code"]) == ("failed", "site_dns_error")
