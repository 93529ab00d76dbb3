"""The start URL's fate on the local platform, through every entry point that starts an audit: a URL
given without a scheme is read as browsers read it (https, then http when https cannot connect),
one rule for the API, MCP and monitors; a start URL that cannot be audited fails the audit with
its sentence, and a resume audits it again from the start once the site is back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from auditdb import monitors as table
from local_platform.runtime import LocalPlatform
from maintenance.monitor_producer import MonitorDue
from service import monitors
from service.audits import LOCAL_OWNER
from service.monitor_runs import RunOutcome, run_monitor
from service.monitors import UpdateMonitor
from tests.api.mcp.test_transport import tool
from tests.badseo.failing_sites import closed_port
from tests.support.site_server import Reply, Site, html_page, serve_site

ROUTES = {
    "/": Reply(body=html_page("Home of the plain-http site", "<h1>Home</h1><a href='/a'>A</a>")),
    "/a": Reply(body=html_page("Page A of the plain-http site", "<h1>A</h1><a href='/'>Home</a>")),
}


@pytest.fixture
def plain_http() -> Iterator[Site]:
    with serve_site(dict(ROUTES)) as site:
        yield site


def bare(site: Site) -> str:
    """The site as a user types it: `127.0.0.1:PORT`, no scheme."""
    return site.origin.removeprefix("http://")


def fell_back_note(site: Site) -> str:
    host = bare(site)
    return f"no scheme given: https://{host}/ did not connect (TLS failed), auditing http://{host}/"


async def audit_of(platform: LocalPlatform, audit_id: str, resume: int = 0) -> dict[str, Any]:
    """The audit once its workflow instance (`resume`: the n-th resume's) has ended."""
    instance = f"{audit_id}-r{resume}" if resume else audit_id
    await platform.wait_for_workflow(instance, timeout_s=60)
    status, body = await platform.request("GET", f"/api/audits/{audit_id}")
    assert status == 200
    audit: dict[str, Any] = body["audit"]
    return audit


async def test_the_api_reads_a_bare_host_of_a_plain_http_site_as_http(
    platform: LocalPlatform, plain_http: Site
) -> None:
    status, body = await platform.request("POST", "/api/audits", {"url": bare(plain_http)})
    assert status == 201
    started = body["audit"]
    assert (started["start_url"], started["scheme_assumed"]) == (
        f"https://{bare(plain_http)}/",
        True,
    )

    audit = await audit_of(platform, started["id"])
    assert audit["status"] == "completed", audit
    assert audit["final_url"] == plain_http.url("/")
    assert audit["scheme_note"] == fell_back_note(plain_http)
    assert audit["pages_crawled"] == len(ROUTES)


async def test_a_url_with_a_scheme_is_never_switched(
    platform: LocalPlatform, plain_http: Site
) -> None:
    url = f"https://{bare(plain_http)}/"
    status, body = await platform.request("POST", "/api/audits", {"url": url})
    assert status == 201 and body["audit"]["scheme_assumed"] is False

    audit = await audit_of(platform, body["audit"]["id"])
    assert (audit["status"], audit["error_code"]) == ("failed", "site_tls_error")
    assert audit["scheme_note"] is None
    assert audit["error_detail"].startswith(f"{url} could not be reached securely")


async def test_mcp_reads_a_bare_host_by_the_same_rule(
    platform: LocalPlatform, plain_http: Site
) -> None:
    started = (await tool(platform, "run_site_audit", url=bare(plain_http)))["structuredContent"]
    assert started["audit"]["scheme_assumed"] is True
    await platform.wait_for_workflow(started["audit"]["id"], timeout_s=60)

    status = await tool(platform, "get_audit_status", audit_id=started["audit"]["id"])
    assert status["structuredContent"]["audit"]["scheme_note"] == fell_back_note(plain_http)
    assert fell_back_note(plain_http) in status["content"][0]["text"]


async def test_mcp_shows_the_sentence_of_an_audit_the_site_made_fail(
    platform: LocalPlatform,
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/"
    started = (await tool(platform, "run_site_audit", url=url))["structuredContent"]
    await platform.wait_for_workflow(started["audit"]["id"], timeout_s=60)

    status = await tool(platform, "get_audit_status", audit_id=started["audit"]["id"])
    audit = status["structuredContent"]["audit"]
    assert audit["error_code"] == "site_connection_failed"
    assert audit["site_failure"] == audit["error_detail"]
    assert audit["site_failure"].startswith(f"{url} refused the connection")
    assert (
        json.loads(status["content"][0]["text"])["audit"]["site_failure"] == audit["site_failure"]
    )


async def test_each_run_of_a_monitor_made_with_a_bare_host_applies_the_rule(
    platform: LocalPlatform, plain_http: Site
) -> None:
    env = platform.env
    created = await monitors.create_monitor(
        env, LOCAL_OWNER, monitors.CreateMonitor(bare(plain_http))
    )
    monitor = created.monitor
    assert (monitor.url, monitor.scheme_assumed) == (f"https://{bare(plain_http)}/", True)
    # Another setting changed: still a bare host. A new URL decides afresh.
    kept = await monitors.update_monitor(env, LOCAL_OWNER, monitor.id, UpdateMonitor(hour=3))
    assert kept.scheme_assumed is True

    stored = await table.get_monitor(env.DB, monitor.id)
    assert stored is not None and stored.scheme_assumed is True
    result = await run_monitor(env, MonitorDue(stored.id, stored.next_due_at))
    assert result.outcome is RunOutcome.STARTED and result.audit_id is not None
    audit = await audit_of(platform, result.audit_id)
    assert (audit["status"], audit["scheme_assumed"]) == ("completed", True)
    assert audit["scheme_note"] == fell_back_note(plain_http)

    typed = await monitors.update_monitor(
        env, LOCAL_OWNER, monitor.id, UpdateMonitor(url=plain_http.url("/"))
    )
    assert (typed.url, typed.scheme_assumed) == (plain_http.url("/"), False)


async def test_a_resume_audits_a_start_url_that_failed_again_from_the_start(
    platform: LocalPlatform,
) -> None:
    port = closed_port()
    status, body = await platform.request(
        "POST", "/api/audits", {"url": f"http://127.0.0.1:{port}/"}
    )
    audit_id = body["audit"]["id"]
    failed = await audit_of(platform, audit_id)
    assert (failed["status"], failed["error_code"]) == ("failed", "site_connection_failed")

    # Still down: the resume fails the same way, with the same sentence.
    assert (await platform.request("POST", f"/api/audits/{audit_id}/resume"))[0] == 202
    again = await audit_of(platform, audit_id, resume=1)
    assert (again["status"], again["error_code"], again["resume_count"]) == (
        "failed",
        "site_connection_failed",
        1,
    )
    assert again["error_detail"] == failed["error_detail"]

    # Back up on the same port: the next resume crawls it from discovery and completes.
    with serve_site(dict(ROUTES), port=port):
        status, body = await platform.request("POST", f"/api/audits/{audit_id}/resume")
        assert status == 202 and body["audit"]["current_phase"] == "discovery"
        done = await audit_of(platform, audit_id, resume=2)
    assert (done["status"], done["error_code"], done["site_failure"]) == ("completed", None, None)
    assert done["pages_crawled"] == len(ROUTES)
