"""/mcp in-process through `handle_request`: the Streamable HTTP rules, JSON-RPC errors, version
negotiation, and the tools' answers and refusals over a seeded audit."""

from __future__ import annotations

import json
from typing import Any

import pytest

from api.http import ApiResponse
from api.mcp.protocol import LATEST_VERSION, SUPPORTED_VERSIONS
from audit.catalogue import IssueType, descriptor
from auditdb import repository
from auditdb.records import AuditRecord, AuditStatus, IssueRecord, PageRecord
from common import ports
from local_platform.runtime import LocalPlatform
from service import keys
from service.audits import LOCAL_OWNER
from tests.api.client import send

JSON = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}


async def post(
    platform: LocalPlatform,
    message: object,
    headers: dict[str, str] | None = None,
    key: str | None = None,
) -> ApiResponse:
    raw = message if isinstance(message, bytes) else json.dumps(message).encode()
    token = key or await platform.local_key()
    return await send(platform.env, "POST", "/mcp", token, raw, {**JSON, **(headers or {})})


async def rpc(
    platform: LocalPlatform, method: str, params: dict[str, Any] | None = None, **kw: Any
) -> Any:
    message = {"jsonrpc": "2.0", "id": "r1", "method": method, "params": params or {}}
    response = await post(platform, message, **kw)
    assert response.status == 200, response.body
    return response.json()


async def tool(platform: LocalPlatform, name: str, key: str | None = None, **arguments: Any) -> Any:
    return (await rpc(platform, "tools/call", {"name": name, "arguments": arguments}, key=key))[
        "result"
    ]


# -- HTTP --------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT"])
async def test_only_post_is_served_and_405_says_so(platform: LocalPlatform, method: str) -> None:
    response = await send(platform.env, method, "/mcp", await platform.local_key())
    assert (response.status, response.headers["allow"]) == (405, "POST")


@pytest.mark.parametrize(
    ("headers", "body", "status", "code"),
    [
        ({"content-type": "text/plain"}, PING, 415, -32600),
        ({"accept": "text/event-stream"}, PING, 406, -32600),
        ({"accept": "application/json;q=0, text/event-stream"}, PING, 406, -32600),
        ({"mcp-protocol-version": "2099-01-01"}, PING, 400, -32600),
        ({"mcp-protocol-version": "2025-03-26"}, PING, 400, -32600),
        ({}, b"{", 400, -32700),
        ({}, [PING], 400, -32600),
        ({}, {"jsonrpc": "2.0", "id": 1}, 400, -32600),
    ],
)
async def test_transport_refusals_are_http_errors_with_a_json_rpc_body(
    platform: LocalPlatform, headers: dict[str, str], body: object, status: int, code: int
) -> None:
    response = await post(platform, body, headers)
    assert response.status == status
    assert response.json()["id"] is None
    assert response.json()["error"]["code"] == code


async def test_an_unsupported_version_header_names_the_supported_ones(
    platform: LocalPlatform,
) -> None:
    response = await post(platform, PING, {"mcp-protocol-version": "2099-01-01"})
    assert response.json()["error"]["data"] == {"supported": list(SUPPORTED_VERSIONS)}


@pytest.mark.parametrize(
    "headers",
    [
        {},  # no version header: a client that predates it
        {"mcp-protocol-version": "2025-06-18"},
        {"mcp-protocol-version": "2025-11-25"},
        {"accept": "*/*"},
        {"accept": "application/json"},
        {"content-type": "application/json; charset=utf-8"},
    ],
)
async def test_acceptable_requests(platform: LocalPlatform, headers: dict[str, str]) -> None:
    response = await post(platform, PING, headers)
    assert response.status == 200
    assert response.json() == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert response.headers["content-type"].startswith("application/json")


@pytest.mark.parametrize(
    "message",
    [
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}},
        {"jsonrpc": "2.0", "id": 9, "result": {}},
    ],
)
async def test_notifications_and_responses_are_accepted_without_a_body(
    platform: LocalPlatform, message: object
) -> None:
    response = await post(platform, message)
    assert (response.status, response.body) == (202, b"")


async def test_no_key_or_a_wrong_key_is_the_apis_401(platform: LocalPlatform) -> None:
    missing = await send(platform.env, "POST", "/mcp", None, json.dumps(PING).encode(), JSON)
    wrong = await post(platform, PING, key="sa_not-a-key")
    assert (missing.status, wrong.status) == (401, 401)
    assert missing.headers["www-authenticate"] == 'Bearer realm="siteaudit"'
    assert wrong.headers["www-authenticate"] == 'Bearer realm="siteaudit", error="invalid_token"'


async def test_an_unlisted_origin_is_403_before_anything_else(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platform.env, "CORS_ORIGINS", "https://app.test", raising=False)
    evil = {**JSON, "origin": "https://evil.test"}
    anonymous = await send(platform.env, "POST", "/mcp", None, json.dumps(PING).encode(), evil)
    listed = await post(platform, PING, {"origin": "https://app.test"})

    assert anonymous.status == 403 and anonymous.json()["error"]["code"] == -32600
    assert listed.status == 200
    assert listed.headers["access-control-allow-origin"] == "https://app.test"


async def test_a_listed_origin_gets_its_preflight(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platform.env, "CORS_ORIGINS", "https://app.test", raising=False)
    preflight = {"origin": "https://app.test", "access-control-request-method": "POST"}
    response = await send(platform.env, "OPTIONS", "/mcp", headers=preflight)
    assert response.status == 204
    assert "MCP-Protocol-Version" in response.headers["access-control-allow-headers"]


async def test_every_mcp_request_is_charged_like_an_api_request(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platform.env, "RATE_LIMIT_REQUESTS_PER_MINUTE", "2", raising=False)
    key = (await keys.create_key(platform.env, "acme")).secret
    first = await post(platform, PING, key=key)
    second = await send(platform.env, "GET", "/api/audits", key)
    refused = await post(platform, PING, key=key)
    assert (first.status, second.status, refused.status) == (200, 200, 429)
    assert int(refused.headers["retry-after"]) > 0


# -- JSON-RPC ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "params", "code"),
    [
        ("resources/list", {}, -32601),
        ("server/discover", {}, -32601),  # a newer client's probe: it falls back to initialize
        ("tools/call", {"arguments": {}}, -32602),
        ("tools/call", {"name": "no_such_tool"}, -32602),
        ("tools/call", {"name": "get_audit_status", "arguments": []}, -32602),
        ("tools/list", {"cursor": "next"}, -32602),
    ],
)
async def test_protocol_errors_answer_the_request_id(
    platform: LocalPlatform, method: str, params: dict[str, Any], code: int
) -> None:
    answer = await rpc(platform, method, params)
    assert answer["id"] == "r1" and "result" not in answer
    assert answer["error"]["code"] == code


@pytest.mark.parametrize(
    ("requested", "agreed"),
    [
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2024-11-05", LATEST_VERSION),  # unsupported: the server's latest; the client decides
        ("2099-01-01", LATEST_VERSION),
        (None, LATEST_VERSION),
    ],
)
async def test_initialize_negotiates_the_version(
    platform: LocalPlatform, requested: str | None, agreed: str
) -> None:
    params: dict[str, object] = {"capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    if requested is not None:
        params["protocolVersion"] = requested
    # The version header is not checked on initialize: negotiation happens in the body.
    result = (await rpc(platform, "initialize", params, headers={"mcp-protocol-version": "x"}))[
        "result"
    ]
    assert result["protocolVersion"] == agreed
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert result["serverInfo"]["name"] == "siteaudit"


async def test_tools_list_describes_the_tools(platform: LocalPlatform) -> None:
    listed = (await rpc(platform, "tools/list"))["result"]["tools"]
    assert [(t["name"], t["annotations"]["readOnlyHint"]) for t in listed] == [
        ("run_site_audit", False),
        ("get_audit_status", True),
        ("get_audit_issues", True),
        ("get_audit_pages", True),
        ("get_audit_actions", True),
        ("verify_host", False),
        ("check_host_verification", False),
        ("list_host_verifications", True),
        ("delete_host_verification", False),
    ]
    destructive = [t["name"] for t in listed if t["annotations"]["destructiveHint"]]
    assert destructive == ["delete_host_verification"]
    assert all(t["inputSchema"]["type"] == "object" and t["description"] for t in listed)


# -- tools ---------------------------------------------------------------------------------------

AUDIT = "audit-1"
TYPES = [IssueType.MISSING_TITLE, IssueType.THIN_CONTENT, IssueType.BROKEN_INTERNAL_LINK]
COUNTS = dict(zip(TYPES, (25, 16, 8), strict=True))  # page n carries TYPES[: 1 + n % 3]


@pytest.fixture
async def seeded(platform: LocalPlatform) -> LocalPlatform:
    """25 pages (every fifth a 404) and 1-3 issues on each, for the CLI's owner."""
    db = platform.env.DB
    now = ports.iso_now()
    record = AuditRecord(
        AUDIT, "https://a.test/", now, owner=LOCAL_OWNER, status=AuditStatus.COMPLETED
    )
    await repository.insert_audit(db, record)
    pages = [
        PageRecord(
            f"p{n:02d}",
            AUDIT,
            f"https://a.test/{n:02d}",
            now,
            status_code=404 if n % 5 == 0 else 200,
            # Structured data: a Product on every fourth page, eligible for the snippet on every
            # eighth, a missing required property on the pages two after those.
            structured_types=["Product"] if n % 4 == 0 else [],
            eligible_features=["product-snippet"] if n % 8 == 0 else [],
            structured_findings={"missing-required": 1} if n % 4 == 2 else {},
        )
        for n in range(25)
    ]
    issues = [
        IssueRecord(f"i{n:02d}-{t}", AUDIT, page.url, str(t), str(descriptor(t).severity))
        for n, page in enumerate(pages)
        for t in TYPES[: 1 + n % 3]
    ]
    await repository.write_crawled_pages(db, pages, issues)
    return platform


def structured(result: Any) -> Any:
    assert result["isError"] is False, result
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
    return result["structuredContent"]


async def test_issues_come_with_a_summary_per_type_and_how_to_fix(seeded: LocalPlatform) -> None:
    found = structured(await tool(seeded, "get_audit_issues", audit_id=AUDIT, limit=5))

    assert found["audit_id"] == AUDIT and found["total"] == sum(COUNTS.values()) == 49
    assert len(found["issues"]) == 5
    # Most severe first, then the most frequent (the report's order).
    order = sorted(COUNTS, key=lambda t: (descriptor(t).severity.order, -COUNTS[t], str(t)))
    assert [(row["issue_type"], row["count"]) for row in found["summary"]] == [
        (str(t), COUNTS[t]) for t in order
    ]
    for row in found["summary"]:
        known = descriptor(IssueType(row["issue_type"]))
        assert (row["title"], row["how_to_fix"], row["severity"]) == (
            known.title,
            known.how_to_fix,
            str(known.severity),
        )


@pytest.mark.parametrize(
    ("arguments", "total", "types"),
    [
        ({"issue_type": "thin-content"}, 16, {"thin-content"}),
        ({"severity": str(descriptor(IssueType.MISSING_TITLE).severity)}, None, None),
        ({"issue_type": "thin-content", "severity": "info"}, None, None),
    ],
)
async def test_issue_filters_narrow_the_rows_and_the_summary(
    seeded: LocalPlatform, arguments: dict[str, Any], total: int | None, types: set[str] | None
) -> None:
    found = structured(await tool(seeded, "get_audit_issues", audit_id=AUDIT, **arguments))
    expected = {
        str(t): n
        for t, n in COUNTS.items()
        if arguments.get("issue_type", str(t)) == str(t)
        and arguments.get("severity", str(descriptor(t).severity)) == str(descriptor(t).severity)
    }
    assert {row["issue_type"]: row["count"] for row in found["summary"]} == expected
    assert found["total"] == sum(expected.values()) == len(found["issues"])
    assert {issue["issue_type"] for issue in found["issues"]} == set(expected)
    if total is not None:
        assert (found["total"], set(expected)) == (total, types)


@pytest.mark.parametrize(
    ("arguments", "total"),
    [
        ({}, 25),
        ({"status_code": 404}, 5),
        ({"status_class": "2xx"}, 20),
        ({"status_class": "5xx"}, 0),
        ({"has_issue": "broken-internal-link"}, 8),
        ({"url_contains": "a.test/1"}, 10),
        ({"status_code": 404, "has_issue": "thin-content"}, 3),
        ({"structured_type": "Product"}, 7),
        ({"structured_type": "Product", "status_code": 404}, 2),
        ({"eligible_feature": "product-snippet"}, 4),
        ({"structured_finding": "missing-required"}, 6),
    ],
)
async def test_pages_filter_and_total_counts_every_kept_page(
    seeded: LocalPlatform, arguments: dict[str, Any], total: int
) -> None:
    found = structured(await tool(seeded, "get_audit_pages", audit_id=AUDIT, limit=3, **arguments))
    assert found["total"] == total
    assert len(found["pages"]) == min(3, total)
    urls = [page["url"] for page in found["pages"]]
    assert urls == sorted(urls)


async def test_without_an_audit_id_the_newest_audit_is_read(seeded: LocalPlatform) -> None:
    status = structured(await tool(seeded, "get_audit_status"))
    pages = structured(await tool(seeded, "get_audit_pages", limit=1))
    assert (status["audit"]["id"], pages["audit_id"]) == (AUDIT, AUDIT)
    assert status["audit"]["status"] == "completed" and status["audit"]["stopped_early"] is False


def refusal(result: Any) -> str:
    assert result["isError"] is True and "structuredContent" not in result, result
    text: str = result["content"][0]["text"]
    return text


async def test_another_owners_audit_is_refused_exactly_as_an_unknown_one(
    seeded: LocalPlatform,
) -> None:
    other = (await keys.create_key(seeded.env, "someone-else")).secret
    for name in ("get_audit_status", "get_audit_issues", "get_audit_pages", "get_audit_actions"):
        theirs = refusal(await tool(seeded, name, key=other, audit_id=AUDIT))
        unknown = refusal(await tool(seeded, name, key=other, audit_id="nope"))
        assert theirs == f"no audit with id {AUDIT}"
        assert unknown == "no audit with id nope"
    assert "no audits yet" in refusal(await tool(seeded, "get_audit_status", key=other))


@pytest.mark.parametrize(
    ("arguments", "text"),
    [
        ({"url": "ftp://a.test/"}, "only http and https URLs can be audited"),
        ({"url": "http://10.0.0.1/"}, "10.0.0.1"),
        (
            {"url": "https://a.test/", "max_pages": 100_001},
            "max_pages must be an integer from 1 to 100000",
        ),
        ({"url": "https://a.test/", "colour": "red"}, "unknown fields ['colour']"),
    ],
)
async def test_run_site_audit_refusals_are_readable(
    platform: LocalPlatform, arguments: dict[str, Any], text: str
) -> None:
    assert text in refusal(await tool(platform, "run_site_audit", **arguments))
    assert await repository.get_owned_audit(platform.env.DB, LOCAL_OWNER, "any") is None


async def test_the_deployments_limits_refuse_as_tool_errors(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platform.env, "MAX_PAGES_LIMIT", "20", raising=False)
    monkeypatch.setattr(platform.env, "MAX_RUNNING_AUDITS_PER_OWNER", "1", raising=False)
    too_big = await tool(platform, "run_site_audit", url="https://a.test/", max_pages=21)
    assert refusal(too_big) == "max_pages must be at most 20"

    now = ports.iso_now()
    running = AuditRecord("r-1", "https://a.test/", now, owner=LOCAL_OWNER, started_at=now)
    await repository.insert_audit(platform.env.DB, running)
    refused = refusal(await tool(platform, "run_site_audit", url="https://a.test/", max_pages=10))
    assert refused == "at most 1 audits may run at once; wait for one to finish; retry in 60 s"


async def test_run_site_audit_starts_audits_without_lighthouse(
    platform: LocalPlatform, small_site: Any
) -> None:
    started = structured(
        await tool(platform, "run_site_audit", url=small_site.url("/"), max_pages=2)
    )
    assert started["audit"]["options"]["lighthouse"] == "none"
    await platform.wait_for_workflow(started["audit"]["id"], timeout_s=60)
    audit = await repository.get_owned_audit(platform.env.DB, LOCAL_OWNER, started["audit"]["id"])
    assert audit is not None and audit.lighthouse_status == "disabled"


async def test_actions_say_why_there_is_no_verdict_for_an_audit_without_one(
    seeded: LocalPlatform,
) -> None:
    # The seeded audit was written completed without a finalize: it has no stored tally.
    found = structured(await tool(seeded, "get_audit_actions", audit_id=AUDIT))
    assert (found["scores"], found["actions"], found["total"]) == (None, [], 0)
    assert "before scores by category existed" in found["note"]
