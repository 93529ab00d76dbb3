"""/mcp driven by the official MCP Python SDK client against a real `siteaudit serve` on loopback.

The server runs as its own process with a key made by `siteaudit keys create`, exactly as a user
would run it; the client audits the badseo fixture site (127.0.0.1, so private hosts are allowed)
through the four tools, the way an agent would: start, poll, read issues, read pages.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import TextContent

from tests.badseo.site import BadSeoSite, serve_badseo
from tests.support.cli_process import running_serve, siteaudit

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class Server:
    mcp_url: str
    key: str


@pytest.fixture(scope="module")
def badseo() -> Iterator[BadSeoSite]:
    with serve_badseo() as site:
        yield site


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    state = tmp_path_factory.mktemp("mcp") / "state"
    made = siteaudit("keys", "create", "--owner", "agent", state_dir=state)
    assert made.returncode == 0, made.stderr
    key = made.stdout.splitlines()[1]
    with running_serve(state) as api:  # http://127.0.0.1:PORT/api/audits
        yield Server(api.removesuffix("/api/audits") + "/mcp", key)


@asynccontextmanager
async def session(server: Server, key: str | None = None) -> AsyncIterator[ClientSession]:
    headers = {"authorization": f"Bearer {key or server.key}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30)) as http,
        streamable_http_client(server.mcp_url, http_client=http) as (read, write),
        ClientSession(read, write) as client,
    ):
        yield client


async def call(client: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    structured = result.structured_content
    assert structured is not None
    # The same object as text, for clients that read only content.
    assert json.loads(result.content[0].text) == structured  # type: ignore[union-attr]
    return structured


async def test_an_agent_audits_a_site_through_the_tools(server: Server, badseo: BadSeoSite) -> None:
    async with session(server) as client:
        init = await client.initialize()
        assert init.protocol_version == "2025-11-25"
        assert init.capabilities.tools is not None
        assert init.server_info.name == "siteaudit"
        listed = await client.list_tools()
        assert [tool.name for tool in listed.tools] == [
            "run_site_audit",
            "get_audit_status",
            "get_audit_issues",
            "get_audit_pages",
            "get_audit_actions",
            "verify_host",
            "check_host_verification",
            "list_host_verifications",
            "delete_host_verification",
        ]
        await client.send_ping()

        started = await call(client, "run_site_audit", url=badseo.start_url, max_pages=40)
        audit_id = started["audit"]["id"]
        assert started["audit"]["status"] == "running"
        audit = await _finished(client, audit_id)
        assert audit["status"] == "completed" and audit["pages_crawled"] > 10

        await _check_issues(client, audit_id)
        await _check_pages(client, audit_id, badseo)
        await _check_actions(client, audit_id)
        # No audit_id: the caller's newest audit.
        assert (await call(client, "get_audit_status"))["audit"]["id"] == audit_id


async def _finished(client: ClientSession, audit_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 90
    while (audit := (await call(client, "get_audit_status", audit_id=audit_id))["audit"])[
        "status"
    ] == "running":
        assert time.monotonic() < deadline, audit
        await anyio.sleep(0.2)
    return audit


async def _check_issues(client: ClientSession, audit_id: str) -> None:
    everything = await call(client, "get_audit_issues", audit_id=audit_id, limit=1000)
    summary = everything["summary"]
    assert everything["total"] == sum(row["count"] for row in summary) == len(everything["issues"])
    assert all(row["title"] and row["how_to_fix"] for row in summary)
    ranks = [{"critical": 0, "warning": 1, "info": 2}[row["severity"]] for row in summary]
    assert ranks == sorted(ranks)

    warnings = await call(
        client, "get_audit_issues", audit_id=audit_id, severity="warning", limit=2
    )
    assert {row["severity"] for row in warnings["summary"]} == {"warning"}
    assert len(warnings["issues"]) == 2 < warnings["total"]
    assert all(issue["severity"] == "warning" for issue in warnings["issues"])

    one_type = summary[0]["issue_type"]
    typed = await call(client, "get_audit_issues", audit_id=audit_id, issue_type=one_type)
    assert [row["issue_type"] for row in typed["summary"]] == [one_type]
    assert {issue["issue_type"] for issue in typed["issues"]} == {one_type}
    assert typed["total"] == summary[0]["count"]


async def _check_pages(client: ClientSession, audit_id: str, badseo: BadSeoSite) -> None:
    pages = await call(client, "get_audit_pages", audit_id=audit_id, limit=3)
    assert len(pages["pages"]) == 3 and pages["total"] > 10
    by_class = {
        status_class: await call(
            client, "get_audit_pages", audit_id=audit_id, status_class=status_class, limit=1000
        )
        for status_class in ("1xx", "2xx", "3xx", "4xx", "5xx")
    }
    assert sum(found["total"] for found in by_class.values()) == pages["total"]
    for status_class, found in by_class.items():
        assert found["total"] == len(found["pages"])
        assert {str(page["status_code"])[0] for page in found["pages"]} <= {status_class[0]}
    assert by_class["2xx"]["total"] > 0
    home = await call(client, "get_audit_pages", audit_id=audit_id, url_contains=badseo.origin)
    assert home["total"] == pages["total"]


async def _check_actions(client: ClientSession, audit_id: str) -> None:
    top = await call(client, "get_audit_actions", audit_id=audit_id, limit=3)
    everything = await call(client, "get_audit_actions", audit_id=audit_id, limit=100)
    assert len(top["actions"]) == 3 < top["total"] == len(everything["actions"])
    assert top["actions"] == everything["actions"][:3]
    assert top["note"] is None
    # badseo has critical findings: its overall score cannot be 100, and it agrees with the row
    scores = everything["scores"]
    assert scores["overall"] < 100
    audit = (await call(client, "get_audit_status", audit_id=audit_id))["audit"]
    assert audit["health_score"] == scores["overall"]
    gains = [action["gain"] for action in everything["actions"]]
    assert gains == sorted(gains, reverse=True) and gains[0] > 0
    assert all(action["summary"] and action["fix"] for action in everything["actions"])


async def test_refusals_are_tool_errors_the_client_can_read(server: Server) -> None:
    async with session(server) as client:
        await client.initialize()
        cases: list[tuple[str, dict[str, Any], str]] = [
            ("get_audit_status", {"audit_id": "no-such-audit"}, "no audit with id no-such-audit"),
            ("run_site_audit", {"url": "ftp://example.test/"}, "http and https"),
            ("get_audit_issues", {"limit": 5000}, "limit must be an integer from 1 to 1000"),
        ]
        for tool, arguments, text in cases:
            result = await client.call_tool(tool, arguments)
            assert result.is_error, (tool, result)
            content = result.content[0]
            assert isinstance(content, TextContent) and text in content.text


async def test_a_wrong_key_is_a_401_with_a_bearer_challenge(server: Server) -> None:
    answer = httpx.post(
        server.mcp_url,
        json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
        headers={"authorization": "Bearer sa_wrong", "accept": "application/json"},
        timeout=10,
    )
    assert answer.status_code == 401
    assert answer.headers["www-authenticate"].startswith('Bearer realm="siteaudit"')
    with pytest.raises(Exception):  # noqa: B017  the SDK's error type for an HTTP 401
        async with session(server, key="sa_wrong") as client:
            await client.initialize()


async def test_the_sdks_default_client_falls_back_to_the_initialize_handshake(
    server: Server,
) -> None:
    """`mcp.Client` first probes `server/discover` (revision 2026-07-28, not served here); the
    refusal sends it to `initialize`, and the tools work as with a `ClientSession`."""
    headers = {"authorization": f"Bearer {server.key}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30)) as http,
        Client(streamable_http_client(server.mcp_url, http_client=http)) as client,
    ):
        handshake = client.session.initialize_result
        assert handshake is not None and handshake.protocol_version == "2025-11-25"
        result = await client.call_tool("get_audit_status", {"audit_id": "nope"})
        assert result.is_error
