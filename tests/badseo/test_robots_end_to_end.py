"""badseo's site closed by robots.txt (robots_closed.py), audited through the Worker's API and the
full workflow: without a verified owner it is never crawled, and the audit says robots.txt stopped
it; with one it is audited whole, and every report says robots.txt was ignored."""

from __future__ import annotations

import json
from typing import Any

import pytest

from audit.catalogue import Severity
from cli.report import format_summary, full_report
from local_platform.runtime import LocalPlatform
from service import keys
from service.audits import LOCAL_OWNER
from service.exports import Export
from service.html_report import export_html
from service.junit import export_junit
from service.sarif import export_sarif
from tests.badseo.robots_closed import CLOSED_FIXTURES, ClosedSite, serve_closed
from tests.badseo.site import expected_issues
from tests.badseo.test_end_to_end import MAX_PAGES, audit, diff, issue_set


async def test_a_site_robots_txt_closes_is_not_audited_and_the_audit_says_why(
    platform: LocalPlatform,
) -> None:
    with serve_closed() as site:
        report = await audit(platform, site.start_url)
        requested = set(site.requested_paths())

    record = report["audit"]
    assert (record["status"], record["error_code"]) == ("failed", "start_robots_disallowed")
    sentence = record["error_detail"]
    assert f"{site.origin}/robots.txt disallows {site.start_url}" in sentence
    assert "verify" in sentence and record["site_failure"] == sentence
    assert (record["pages_crawled"], report["pages"], report["issues"]) == (0, [], [])
    # Only robots.txt and the start URL's probe (its headers: is it there, is it HTML) were asked
    # for: no page, no sitemap.
    assert requested <= {"/", "/robots.txt"}
    assert record["robots_override"] is None  # ignore_robots was not asked for


# -- verification through the API -------------------------------------------------------------


async def verify(
    platform: LocalPlatform, site: ClosedSite, method: str, key: str | None = None
) -> dict[str, Any]:
    """Ask for a verification of the site's host, publish its token, check it."""
    status, body = await platform.request(
        "POST", "/api/verifications", {"host": site.host, "method": method}, key=key
    )
    assert status == 201, body
    verification = body["verification"]
    site.publish(method, verification["token"])
    status, body = await platform.request(
        "POST", f"/api/verifications/{verification['id']}/check", key=key
    )
    assert status == 200, body
    checked: dict[str, Any] = body["verification"]
    return checked


async def audit_ignoring_robots(platform: LocalPlatform, site: ClosedSite) -> dict[str, Any]:
    request = {"url": site.start_url, "max_pages": MAX_PAGES, "ignore_robots": True}
    status, body = await platform.request("POST", "/api/audits", request)
    assert status == 201, body
    audit_id = body["audit"]["id"]
    await platform.wait_for_workflow(audit_id, timeout_s=120)
    return await full_report(platform, audit_id)


async def text_of(export: Export) -> str:
    return b"".join([chunk async for chunk in export.chunks]).decode()


@pytest.mark.parametrize("method", ["file", "meta"])
async def test_a_verified_owner_audits_the_closed_site_whole_and_every_report_says_so(
    platform: LocalPlatform, method: str
) -> None:
    with serve_closed() as site:
        checked = await verify(platform, site, method)
        assert (checked["status"], checked["method"]) == ("verified", method)
        report = await audit_ignoring_robots(platform, site)
        requested = site.requested_paths()

    record = report["audit"]
    assert record["status"] == "completed", record
    found, expected = issue_set(report), expected_issues(site.origin, CLOSED_FIXTURES)
    assert found == expected, diff(found, expected, site.origin)
    assert {p["url"] for p in report["pages"]} >= {
        site.url(p) for f in CLOSED_FIXTURES for p in f.paths
    }
    assert "/robots.txt" in requested  # still read (its facts are reported), just not obeyed
    day = checked["verified_at"][:10]
    note = f"robots.txt was ignored (host verified by {method} on {day})"
    assert record["robots_override"]["note"] == note
    assert (record["robots_override"]["ignored"], record["robots_override"]["verified"]) == (
        True,
        True,
    )
    # ... and every format says it.
    env, audit_id = platform.core_env, record["id"]
    assert note in format_summary(report)
    assert note in await text_of(await export_html(env, LOCAL_OWNER, audit_id))
    sarif = json.loads(await text_of(await export_sarif(env, LOCAL_OWNER, audit_id)))
    run = sarif["runs"][0]
    assert run["properties"]["robots"] == note
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert {"level": "note", "message": {"text": note}} in notes
    junit = await text_of(
        await export_junit(env, LOCAL_OWNER, audit_id, frozenset({Severity.CRITICAL}))
    )
    assert f'<property name="robots" value="{note}" />' in junit


async def test_a_proof_gone_before_the_audit_fails_closed_and_the_report_says_why(
    platform: LocalPlatform,
) -> None:
    with serve_closed() as site:
        checked = await verify(platform, site, "file")
        assert checked["status"] == "verified"
        site.withdraw()  # the owner took the file down after verifying
        report = await audit_ignoring_robots(platform, site)
        requested = set(site.requested_paths())
        _, after = await platform.request("GET", f"/api/verifications/{checked['id']}")

    record = report["audit"]
    # The audit obeyed robots.txt: it could audit nothing, and says both things.
    assert (record["status"], record["error_code"]) == ("failed", "start_robots_disallowed")
    decision = record["robots_override"]
    assert decision["ignored"] is False
    assert decision["note"].startswith("robots.txt was obeyed, not ignored as asked: the file ")
    assert "checked again before the audit, failed" in decision["note"]
    assert "answered 404" in decision["note"]
    assert decision["note"] in format_summary(report)
    assert requested <= {"/", "/robots.txt", "/.well-known/siteaudit-verification.txt"}
    # The re-check is stored: the verification failed.
    assert after["verification"]["status"] == "failed"


async def test_ignore_robots_without_a_verification_is_refused_with_the_way_to_verify(
    platform: LocalPlatform,
) -> None:
    with serve_closed() as site:
        request = {"url": site.start_url, "ignore_robots": True}
        status, body = await platform.request("POST", "/api/audits", request)
        assert (status, body["error"]["code"]) == (403, "host_not_verified")
        message = body["error"]["message"]
        assert f"{site.host} is not verified" in message
        assert "POST /api/verifications" in message
        # A verification asked for, not yet checked, is not enough either.
        await platform.request("POST", "/api/verifications", {"host": site.host, "method": "file"})
        status, body = await platform.request("POST", "/api/audits", request)
        assert (status, body["error"]["code"]) == (403, "host_not_verified")
        assert "has not passed a check yet" in body["error"]["message"]
        status, _ = await platform.request("GET", "/api/audits")
        assert site.requested_paths() == []  # nothing was fetched for a refused audit


async def test_another_owner_s_verification_does_not_count(platform: LocalPlatform) -> None:
    other = (await keys.create_key(platform.core_env, "someone-else")).secret
    with serve_closed() as site:
        checked = await verify(platform, site, "file", key=other)
        assert checked["status"] == "verified"
        request = {"url": site.start_url, "ignore_robots": True}
        status, body = await platform.request("POST", "/api/audits", request)
        assert (status, body["error"]["code"]) == (403, "host_not_verified")
        # ... nor can it be seen, checked or deleted by this owner.
        path = f"/api/verifications/{checked['id']}"
        assert (await platform.request("GET", path))[0] == 404
        assert (await platform.request("POST", path + "/check"))[0] == 404
        assert (await platform.request("DELETE", path))[0] == 404
        _, mine = await platform.request("GET", "/api/verifications")
        assert mine == {"verifications": []}


async def test_a_monitor_with_ignore_robots_is_refused_without_a_verification(
    platform: LocalPlatform,
) -> None:
    with serve_closed() as site:
        monitor = {"url": site.start_url, "ignore_robots": True}
        status, body = await platform.request("POST", "/api/monitors", monitor)
        assert (status, body["error"]["code"]) == (403, "host_not_verified")
        status, body = await platform.request("POST", "/api/monitors", {"url": site.start_url})
        assert status == 201, body
        path = f"/api/monitors/{body['monitor']['id']}"
        status, body = await platform.request("PATCH", path, {"ignore_robots": True})
        assert (status, body["error"]["code"]) == (403, "host_not_verified")
        await verify(platform, site, "file")
        status, body = await platform.request("PATCH", path, {"ignore_robots": True})
        assert (status, body["monitor"]["ignore_robots"]) == (200, True)
        status, body = await platform.request("GET", path)
        assert body["monitor"]["ignore_robots"] is True
