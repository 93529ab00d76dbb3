"""badseo's failures audited through the Worker's API and the full workflow: a start URL that cannot
be audited fails the audit with its code and sentence, decided once; a site that stops answering
part-way completes with exactly one critical finding, and its crawl stops early."""

from __future__ import annotations

import pytest

from audit.catalogue import SITE_DOWN_STREAK
from crawl import network_probe
from local_platform.runtime import LocalPlatform
from tests.badseo.failing_sites import (
    DOWN_ANSWERED,
    DOWN_PAGES,
    START_FAILURES,
    STOPS_ANSWERING_FIXTURES,
    StartFailureCase,
    closed_port,
    serve_stops_answering,
)
from tests.badseo.site import expected_issues, serve_badseo
from tests.badseo.test_end_to_end import audit, diff, issue_set
from tests.support.loopback_http import LoopbackOnlyHttp


@pytest.mark.parametrize("case", START_FAILURES, ids=lambda case: case.name)
async def test_a_start_url_that_cannot_be_audited_fails_the_audit_once_with_a_sentence(
    platform: LocalPlatform, case: StartFailureCase
) -> None:
    if case.path is None:
        start_url, requested = f"http://127.0.0.1:{closed_port()}/", None
        report = await audit(platform, start_url)
    else:
        with serve_badseo() as site:
            start_url = site.url(case.path)
            report = await audit(platform, start_url)
            requested = sorted(site.requested_paths())

    record = report["audit"]
    assert (record["status"], record["error_code"], record["failed_phase"]) == (
        "failed",
        case.error_code,
        "discovery",
    )
    sentence = record["error_detail"]
    assert sentence.startswith(start_url) and case.words in sentence
    assert record["site_failure"] == sentence
    assert (record["pages_crawled"], report["pages"], report["issues"]) == (0, [], [])
    # Decided once: the start URL and the robots.txt asked for beside it, no retry, no sitemap.
    if requested is not None:
        assert case.path is not None and requested == sorted([case.path, "/robots.txt"])


async def test_a_site_that_stops_answering_part_way_ends_with_one_critical_finding(
    platform: LocalPlatform,
) -> None:
    with serve_stops_answering() as site:
        report = await audit(platform, site.start_url)
        requested = [p for p in site.requested_paths() if p.startswith("/down/")]

    assert report["audit"]["status"] == "completed", report["audit"]
    found = issue_set(report)
    expected = expected_issues(site.origin, fixtures=STOPS_ANSWERING_FIXTURES)
    assert found == expected, diff(found, expected, site.origin)
    (finding,) = [i for i in report["issues"] if i["issue_type"] == "site-stopped-responding"]
    details = finding["details"]
    assert finding["severity"] == "critical"
    assert details["pagesWithoutAnswer"] >= SITE_DOWN_STREAK
    assert details["crawl"] == f"stopped after {SITE_DOWN_STREAK} pages in a row got no answer"
    assert details["failures"] and "None" not in details["failures"]
    assert all(url.startswith(site.origin + "/down/") for url in details["sampleUrls"])
    # The breaker stopped the crawl before it asked for every page of the dead site.
    assert len(requested) < DOWN_PAGES
    answered = [p for p in report["pages"] if p["status_code"] == 200 and "/down/" in p["url"]]
    assert len(answered) == DOWN_ANSWERED


@pytest.mark.parametrize("online", [True, False])
async def test_a_crawl_stopped_by_silence_blames_the_site_only_while_our_network_works(
    platform: LocalPlatform,
    outbound_http: LoopbackOnlyHttp,
    monkeypatch: pytest.MonkeyPatch,
    online: bool,
) -> None:
    # The site stands for one on the internet (a loopback site is never probed: reaching it
    # needs no network), on a machine that is online or has lost its network mid-crawl.
    monkeypatch.setattr(network_probe, "is_blocked_host", lambda host: False)
    outbound_http.online = online
    with serve_stops_answering() as site:
        report = await audit(platform, site.start_url)

    record = report["audit"]
    stopped = [i for i in report["issues"] if i["issue_type"] == "site-stopped-responding"]
    if online:
        assert record["status"] == "completed" and len(stopped) == 1
        return
    assert (record["status"], record["error_code"]) == ("failed", "network_unavailable")
    assert record["error_detail"].startswith(
        f"The crawl stopped after {SITE_DOWN_STREAK} pages in a row got no answer, and siteaudit "
        "could not reach example.com or one.one.one.one either"
    )
    assert record["site_failure"] == record["error_detail"]
    # Nothing is said about the site's silence; what was crawled before is kept.
    assert stopped == [] and record["pages_crawled"] > 0
