"""The badseo site audited through the Worker's API and the full workflow: issues == golden."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from audit.external_links import DNS_PROBE_HOSTS
from cli.report import full_report
from common import settings
from local_platform.runtime import LocalPlatform
from tests.badseo.site import (
    DEAD_NAME_FIXTURES,
    EXTERNAL_BUDGET_FIXTURES,
    EXTERNAL_BUDGET_URLS,
    EXTERNAL_TIMEOUT_S,
    NO_DNS_FIXTURES,
    NO_DNS_LINKS_PER_NAME,
    NO_DNS_NAMES,
    NO_DNS_PAGES,
    ROBOTS_DISALLOWED,
    expected_issues,
    serve_badseo,
    serve_dead_name,
    serve_external_budget,
    serve_no_dns,
    serve_rate_limit_stop,
    serve_slow_site,
)
from tests.support.loopback_http import LoopbackOnlyHttp

MAX_PAGES = 300


@pytest.fixture(autouse=True)
def short_external_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other site's slow page must time out in a second, not in the product's 10 s."""
    external = dataclasses.replace(settings.EXTERNAL, timeout_s=EXTERNAL_TIMEOUT_S)
    monkeypatch.setattr(settings, "EXTERNAL", external)


async def audit(platform: LocalPlatform, url: str) -> dict[str, Any]:
    request = {"url": url, "max_pages": MAX_PAGES, "check_external": True}
    status, body = await platform.request("POST", "/api/audits", request)
    assert status == 201, body
    audit_id = body["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=120)
    report = await full_report(platform, audit_id)
    return report


def issue_set(report: dict[str, Any]) -> set[tuple[str, str]]:
    return {(issue["issue_type"], issue["page_url"]) for issue in report["issues"]}


def diff(found: set[tuple[str, str]], expected: set[tuple[str, str]], origin: str) -> str:
    def show(items: set[tuple[str, str]]) -> str:
        return "\n".join(f"  {t} {u.removeprefix(origin)}" for t, u in sorted(items)) or "  (none)"

    return f"missing:\n{show(expected - found)}\nextra:\n{show(found - expected)}"


async def test_the_audit_reports_exactly_the_golden_issues(
    platform: LocalPlatform, outbound_http: LoopbackOnlyHttp
) -> None:
    with serve_badseo() as site:
        report = await audit(platform, site.start_url)
        requested = site.requested_paths()
        asset_requests = Counter(
            (r.method, r.path) for r in site.site.requests if r.path.startswith("/assets/")
        )
        external_requests = Counter((r.method, r.path) for r in site.external.requests)

    assert report["audit"]["status"] == "completed", report["audit"]
    found, expected = issue_set(report), expected_issues(site.origin)
    assert found == expected, diff(found, expected, site.origin)
    assert ROBOTS_DISALLOWED not in requested
    fragments = {
        (i["details"]["targetUrl"].removeprefix(site.origin), i["details"]["fragment"])
        for i in report["issues"]
        if i["issue_type"] == "broken-fragment"
    }
    assert fragments == {
        ("/links/fragment-target", "missing-section"),
        ("/links/fragment-target", "Present"),
        ("/links/broken-fragment", "nowhere"),
        ("/links/fragment-target", "after-the-thousandth"),  # the 4,999th of 5,000 links
        ("/links/long-table-of-contents", "s1499"),  # the 1,500th bare #fragment link
    }
    resources = {
        (
            i["page_url"].removeprefix(site.origin),
            i["details"]["resourceUrl"].removeprefix(site.origin),
            i["details"]["kind"],
        )
        for i in report["issues"]
        if i["issue_type"] == "broken-resource"
    }
    assert resources == BROKEN_RESOURCES
    # One request per distinct resource, HEAD first; GET only where HEAD was refused.
    assert asset_requests[("HEAD", "/assets/pixel.png")] == 1
    assert asset_requests[("GET", "/assets/pixel.png")] == 0
    assert asset_requests[("HEAD", "/assets/head-refused.png")] == 1
    assert asset_requests[("GET", "/assets/head-refused.png")] == 1
    assert all(count == 1 for count in asset_requests.values()), asset_requests
    # Each external URL once, HEAD first, GET only where HEAD was refused, the redirect followed
    # by hand; the private address never requested.
    assert external_requests == Counter(
        {
            ("HEAD", "/missing"): 1,
            ("HEAD", "/moved"): 1,
            ("HEAD", "/landing"): 1,
            ("HEAD", "/slow"): 1,
            ("HEAD", "/head-refused"): 1,
            ("GET", "/head-refused"): 1,
        }
    )
    assert not [url for url in outbound_http.urls if "10.11.12.13" in url]
    external = {
        (i["issue_type"], i["details"]["outcome"], i["details"].get("finalUrl"))
        for i in report["issues"]
        if i["issue_type"] in EXTERNAL_TYPES
    }
    assert external == {
        ("broken-external-link", "broken", None),
        ("external-redirect", "redirect", site.external.origin + "/landing"),
        ("external-link-unreachable", "timeout", None),
        ("external-link-unreachable", "private", None),
    }


EXTERNAL_TYPES = ("broken-external-link", "external-redirect", "external-link-unreachable")
BROKEN_RESOURCES = {
    ("/refs/missing-image", "/assets/missing-image.png", "img"),
    ("/refs/missing-srcset", "/assets/missing-2x.png", "srcset"),
    ("/refs/missing-picture-source", "/assets/missing.webp", "srcset"),
    ("/refs/missing-script", "/assets/missing.js", "script"),
    ("/refs/missing-stylesheet", "/assets/missing.css", "link"),
    ("/refs/missing-icon", "/assets/missing.ico", "link"),
    ("/refs/missing-video", "/assets/missing.mp4", "media"),
    ("/refs/missing-poster", "/assets/missing-poster.png", "poster"),
    ("/refs/missing-audio", "/assets/missing.mp3", "media"),
    ("/refs/missing-embed", "/assets/missing.svg", "embed"),
    ("/refs/missing-object", "/assets/missing.pdf", "object"),
    ("/refs/head-refused-gone", "/assets/head-refused-gone.png", "img"),
}


async def test_a_site_that_asks_for_hours_of_patience_stops_the_crawl(
    platform: LocalPlatform,
) -> None:
    with serve_rate_limit_stop() as site:
        report = await audit(platform, site.start_url)

    assert report["audit"]["status"] == "completed"
    found, expected = issue_set(report), expected_issues(site.origin, fixtures=_stop_fixtures())
    assert ("crawl-rate-limited", site.start_url) in found
    assert found == expected, diff(found, expected, site.origin)


async def test_a_site_slow_as_a_whole_is_one_finding(platform: LocalPlatform) -> None:
    """Both pages of the slow variant wait 1.55 s: measured again after the crawl, the site's
    median is over the threshold, so its start page gets slow-site, and no page gets
    slow-response, none being that much slower than the site."""
    from tests.badseo.site import SLOW_SITE_FIXTURES

    with serve_slow_site() as site:
        report = await audit(platform, site.start_url)

    found, expected = issue_set(report), expected_issues(site.origin, fixtures=SLOW_SITE_FIXTURES)
    assert ("slow-site", site.start_url) in found
    assert found == expected, diff(found, expected, site.origin)


def _stop_fixtures() -> Any:
    from tests.badseo.site import RATE_LIMIT_STOP_FIXTURES

    return RATE_LIMIT_STOP_FIXTURES


async def test_external_urls_past_the_budget_are_reported_unchecked(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    external = dataclasses.replace(settings.EXTERNAL, budget_urls=EXTERNAL_BUDGET_URLS)
    monkeypatch.setattr(settings, "EXTERNAL", external)
    with serve_external_budget() as site:
        report = await audit(platform, site.start_url)
        checked = len(site.external.requests)

    found = issue_set(report)
    assert found == expected_issues(site.origin, fixtures=EXTERNAL_BUDGET_FIXTURES)
    (unchecked,) = [i for i in report["issues"] if i["issue_type"] == "external-links-unchecked"]
    assert unchecked["details"] == {
        "reason": "url-budget",
        "detail": "An audit checks at most 2 distinct external URLs: 1 external URL past that "
        "was not checked.",
        "uncheckedUrls": 1,
        "checkedUrls": 2,
        "budget": 2,
        "timeBudgetS": 60.0,
    }
    assert checked == EXTERNAL_BUDGET_URLS


async def test_without_dns_the_external_checks_stop_early_and_say_so_once(
    platform: LocalPlatform, outbound_http: LoopbackOnlyHttp
) -> None:
    """The README's first command where no outside name resolves: a small site linking other
    sites is audited, its external checks stop after one wave, no link is called broken, and
    one note says why. (Its wall time is measured in the issue's report, not here.)"""
    with serve_no_dns() as site:
        report = await audit(platform, site.start_url)

    assert report["audit"]["status"] == "completed"
    found = issue_set(report)
    assert found == expected_issues(site.origin, fixtures=NO_DNS_FIXTURES)
    types = Counter(i["issue_type"] for i in report["issues"])
    assert types["broken-external-link"] == types["external-link-unreachable"] == 0
    (note,) = [i for i in report["issues"] if i["issue_type"] == "external-links-unchecked"]
    urls = NO_DNS_NAMES * NO_DNS_LINKS_PER_NAME * NO_DNS_PAGES
    details = note["details"]
    assert (details["reason"], details["uncheckedUrls"], details["checkedUrls"]) == (
        "dns-unavailable",
        urls,
        0,
    )
    assert details["hostNamesResolved"] == 0
    assert "DNS does not work there" in details["detail"]
    # It stopped early: one wave of checks asked about a few names, not all of them.
    asked = {url.split("/")[2] for url in outbound_http.urls if ".invalid" in url}
    assert DNS_PROBE_HOSTS <= len(asked) <= settings.EXTERNAL.concurrency < NO_DNS_NAMES


async def test_a_dead_name_is_broken_where_other_names_resolve(platform: LocalPlatform) -> None:
    with serve_dead_name() as site:
        report = await audit(platform, site.start_url)
    assert issue_set(report) == expected_issues(site.origin, fixtures=DEAD_NAME_FIXTURES)
    (broken,) = [i for i in report["issues"] if i["issue_type"] == "broken-external-link"]
    assert (broken["details"]["targetUrl"], broken["details"]["outcome"]) == (
        "https://gone.invalid/",
        "unresolved",
    )
