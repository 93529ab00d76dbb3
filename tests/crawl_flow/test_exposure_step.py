"""The workflow's exposure-checks step: libraries by URL and by content on every crawled page,
version disclosures from crawled headers, DNS skipped for an IP-literal host, and the checks
never failing the audit."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Awaitable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from auditdb import repository
from auditdb.exposure_issues import ExposureSummary
from cli.report import format_summary
from common import settings
from exposure import scripts
from exposure.dns_records import RecordType
from local_platform.runtime import LocalPlatform
from service.audits import LOCAL_OWNER
from service.exports import Export
from service.html_report import export_html
from service.sarif import export_sarif
from tests.crawl_flow.test_audit_crawl import audit_site, page
from tests.exposure.dns_helpers import Zone, body, quoted
from tests.exposure.fixture_libraries import JS, jquery
from tests.exposure.test_dns_audit import serving
from tests.support.site_server import Reply, html_page, serve_site
from workflow import exposure_step

TXT, A = RecordType.TXT, RecordType.A


def exposure_issues(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [i for i in report["issues"] if i["issue_type"].startswith("exposure-")]


def routes() -> dict[str, Reply]:
    shop = html_page(
        "Shop",
        "<h1>Shop</h1><script src='/js/jquery-1.8.1.min.js'></script>"
        "<script src='/js/bundle.js'></script><script src='/js/current.js'></script>",
    )
    return {
        "/": page("Home", "/shop", "/about"),
        "/shop": Reply(body=shop),
        "/about": Reply(
            body=html_page("About", "<h1>About</h1>"),
            headers={"content-type": "text/html; charset=utf-8", "x-powered-by": "PHP/7.4.3"},
        ),
        # Served (the resource check must not call it broken); its name alone tells the version.
        "/js/jquery-1.8.1.min.js": Reply(body=b"/* a stand-in */", headers=JS),
        "/js/bundle.js": Reply(body=jquery("1.12.4").encode(), headers=JS),
        "/js/current.js": Reply(body=jquery("3.7.1").encode(), headers=JS),
    }


async def test_an_audit_reports_libraries_and_disclosures_where_the_crawl_saw_them(
    platform: LocalPlatform,
) -> None:
    with serve_site(routes()) as site:
        report = await audit_site(platform, site.url("/"))
        # GETs only: the crawl's resource check sends each script one HEAD (broken-resource)
        fetched = [r.path for r in site.requests if r.method == "GET"]

    assert report["audit"]["status"] == "completed"
    found = {
        (i["issue_type"], i["page_url"], i["details"]["subject"]) for i in exposure_issues(report)
    }
    assert found == {
        ("exposure-vulnerable-js-library", site.url("/shop"), "jquery 1.8.1"),  # by file name
        ("exposure-vulnerable-js-library", site.url("/shop"), "jquery 1.12.4"),  # by content
        ("exposure-version-disclosed", site.url("/about"), "x-powered-by: PHP/7.4.3"),
    }
    # by URL costs no fetch; the same-site scripts it cannot name are read once each
    assert "/js/jquery-1.8.1.min.js" not in fetched
    assert fetched.count("/js/bundle.js") == fetched.count("/js/current.js") == 1
    by_content = next(
        i for i in exposure_issues(report) if i["details"]["subject"] == "jquery 1.12.4"
    )
    assert by_content["details"]["url"] == site.url("/js/bundle.js")
    assert by_content["details"]["source"] == "exposure"
    assert by_content["severity"] in {"critical", "warning"}
    assert any(i.startswith("CVE-") for i in by_content["details"]["identifiers"])
    shop_row = next(p for p in report["pages"] if p["url"] == site.url("/shop"))
    assert by_content["page_id"] == shop_row["id"]
    # A vulnerable library is a security finding about the whole site (docs/scoring.md).
    categories = {c["category"]: c["score"] for c in report["scores"]["categories"]}
    assert categories["security"] < report["security"]["score"]
    library = next(
        a for a in report["actions"] if a["issue_type"] == "exposure-vulnerable-js-library"
    )
    assert (library["severity"], library["scope"]) == (by_content["severity"], "site")
    assert library["gain"] > 0
    assert report["exposure"] == {
        "status": "checked",
        "summary": {
            "issues": 3,
            "scripts": 3,
            "scripts_read": 2,
            "bytes_read": len(jquery("1.12.4")) + len(jquery("3.7.1")),
            "dns_checked": False,
            "dns_skipped": "127.0.0.1 is an IP address: no DNS records to check",
            "error": None,
            "dns_error": None,
        },
    }
    assert (
        "exposure checks: 3 issues, 3 scripts (2 read by content); DNS skipped: 127.0.0.1 is an "
        "IP address: no DNS records to check"
    ) in format_summary(report).splitlines()

    audit_id = report["audit"]["id"]
    sarif = json.loads(await body_of(export_sarif(platform.core_env, LOCAL_OWNER, audit_id)))
    results = {r["ruleId"] for r in sarif["runs"][0]["results"]}
    assert {"exposure-vulnerable-js-library", "exposure-version-disclosed"} <= results
    html = (await body_of(export_html(platform.core_env, LOCAL_OWNER, audit_id))).decode()
    assert "exposure-vulnerable-js-library" in html and "jquery 1.12.4" in html


async def body_of(pending: Awaitable[Export]) -> bytes:
    return b"".join([chunk async for chunk in (await pending).chunks])


async def test_checks_that_break_leave_the_audit_completed(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("resolver on fire")

    monkeypatch.setattr(scripts, "scan_contents", broken)
    with serve_site(routes()) as site:
        report = await audit_site(platform, site.url("/"))

    assert report["audit"]["status"] == "completed"
    assert exposure_issues(report) == []
    assert report["exposure"]["status"] == "not_checked"
    assert report["exposure"]["summary"]["error"] == "resolver on fire"
    assert "exposure checks: stopped (resolver on fire)" in format_summary(report).splitlines()


async def test_dns_and_email_checks_ask_the_configured_resolver(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The DoH double answers for the fixture's host, as if 127.0.0.1 were a domain name (an IP
    literal is skipped otherwise): a permissive SPF, no DMARC, MTA-STS or CAA, signed answers."""
    host = "127.0.0.1"
    zone: Zone = {
        (host, "TXT"): body(host, TXT, quoted("v=spf1 +all")),
        (host, "A"): body(host, A, host, ad=True),
    }
    monkeypatch.setattr(exposure_step, "dns_skip_reason", lambda _: None)
    with serving(zone), serve_site({"/": page("Home")}) as site:
        report = await audit_site(platform, site.url("/"))

    found = {(i["issue_type"], i["page_url"]) for i in exposure_issues(report)}
    assert found == {
        (f"exposure-{check}", site.url("/"))
        for check in ("spf-permissive", "dmarc-missing", "mta-sts-missing", "caa-missing")
    }
    spf = next(i for i in exposure_issues(report) if i["issue_type"] == "exposure-spf-permissive")
    assert (spf["severity"], spf["details"]["subject"]) == ("warning", host)


async def test_a_resolver_that_answers_nothing_means_dns_was_not_checked(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every DoH question fails (the resolver cannot be reached): no per-record issue, one note,
    and the summary says `dns_checked: false` with the error."""
    with serve_site({}) as gone:
        resolver = gone.url("/dns-query")  # closed when it is asked: refused
    monkeypatch.setattr(exposure_step, "dns_skip_reason", lambda _: None)
    monkeypatch.setattr(
        settings, "EXPOSURE", dataclasses.replace(settings.EXPOSURE, doh_resolver_url=resolver)
    )
    with serve_site({"/": page("Home")}) as site:
        report = await audit_site(platform, site.url("/"))

    (note,) = exposure_issues(report)
    assert (note["issue_type"], note["severity"], note["page_url"]) == (
        "exposure-dns-unchecked",
        "info",
        site.url("/"),
    )
    summary = report["exposure"]["summary"]
    assert (summary["dns_checked"], summary["issues"]) == (False, 1)
    assert summary["dns_error"].startswith(f"the DNS-over-HTTPS resolver {resolver} answered none")
    assert note["details"]["detail"] == summary["dns_error"]
    line = next(x for x in format_summary(report).splitlines() if x.startswith("exposure checks"))
    assert line.endswith(f"DNS not checked: {summary['dns_error']}")


async def test_an_ip_literal_host_skips_dns_and_says_why(
    platform: LocalPlatform, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="siteaudit.workflow")
    with serve_site({"/": page("Home")}) as site:
        report = await audit_site(platform, site.url("/"))

    reason = "127.0.0.1 is an IP address: no DNS records to check"
    audit_id = report["audit"]["id"]
    assert f"audit {audit_id} DNS checks skipped: {reason}" in caplog.messages
    assert report["exposure"]["summary"]["dns_skipped"] == reason
    assert exposure_issues(report) == []


async def test_a_cancel_while_the_checks_run_leaves_no_exposure_issues(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner cancels while scripts are being read: the step's batch, every statement
    guarded by `status = 'running'`, writes nothing into the cancelled audit."""
    scan = scripts.scan_contents

    async def cancelled_meanwhile(*args: Any, **kwargs: Any) -> Any:
        (running,) = await repository.list_running_before(platform.env.DB, "9999", 10)
        assert await repository.cancel_audit(platform.env.DB, running.id, finished_at="t")
        return await scan(*args, **kwargs)

    monkeypatch.setattr(scripts, "scan_contents", cancelled_meanwhile)
    with serve_site(routes()) as site:
        report = await audit_site(platform, site.url("/"))

    assert report["audit"]["status"] == "cancelled"
    assert exposure_issues(report) == []
    assert report["exposure"] == {"status": "not_checked", "summary": None}


@given(
    st.builds(
        ExposureSummary,
        st.integers(0, 10**6),
        st.integers(0, 10**6),
        st.integers(0, 10**6),
        st.integers(0, 2**40),
        st.booleans(),
        st.none() | st.text(max_size=30),
        st.none() | st.text(max_size=30),
    )
)
def test_the_step_result_round_trips(result: ExposureSummary) -> None:
    assert ExposureSummary.from_dict(json.loads(json.dumps(result.to_dict()))) == result
