"""What every request is held to before a handler reads it (issue 26, item 2): a body's size
and nesting, strict JSON types in bodies, the query parameters a route declares, and cursors in
range before they reach SQL. Each refusal is a 400 (413 for size) in the API's error shape, or a
JSON-RPC error on /mcp."""

from __future__ import annotations

import base64
import json

import pytest

from api.hardening import MAX_BODY_BYTES
from api.json_body import MAX_DEPTH
from api.routes import ROUTES
from api.routing import Access, Route
from auditdb import repository
from auditdb.listing import ListKind
from auditdb.records import AuditRecord
from local_platform.runtime import LocalEnv, LocalPlatform
from service import keys
from tests.api.client import send

ADMIN_TOKEN = "admin-token-for-the-limit-tests-0123456"
BODY_ROUTES = [route for route in ROUTES if route.operation.body is not None]
MCP_HEADERS = {"content-type": "application/json", "accept": "application/json"}


@pytest.fixture
async def env(platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch) -> LocalEnv:
    monkeypatch.setattr(platform.env, "ADMIN_TOKEN", ADMIN_TOKEN, raising=False)
    return platform.env


@pytest.fixture
async def key(env: LocalEnv) -> str:
    secret = (await keys.create_key(env, "acme")).secret
    audit = AuditRecord("audit-1", "https://a.test/", "2026-12-01T00:00:00.000Z", owner="acme")
    await repository.insert_audit(env.DB, audit)
    return secret


def concrete(route: Route) -> str:
    ids = {
        "audit_id": "audit-1",
        "other_id": "audit-1",
        "monitor_id": "m-0",
        "key_id": "key_0",
        "verification_id": "ver_0",
    }
    return route.template.format(**ids)


def token_for(route: Route, key: str) -> str | None:
    return {Access.ADMIN: ADMIN_TOKEN, Access.KEY: key}.get(route.access)


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


# -- bodies: nesting and size -------------------------------------------------------------------


@pytest.mark.parametrize("route", BODY_ROUTES, ids=lambda r: f"{r.method} {r.template}")
@pytest.mark.parametrize(
    "body",
    [nested(10_000), b'{"url": ' + nested(MAX_DEPTH) + b"}"],
    ids=["arrays-10000-deep", "one-level-too-deep"],
)
async def test_a_body_nested_too_deep_is_a_400_on_every_body_route(
    env: LocalEnv, key: str, route: Route, body: bytes
) -> None:
    response = await send(env, route.method, concrete(route), token_for(route, key), body)

    assert response.status == 400
    assert response.json()["error"]["code"] == "invalid_json"
    assert f"deeper than {MAX_DEPTH}" in response.json()["error"]["message"]


@pytest.mark.parametrize("route", BODY_ROUTES, ids=lambda r: f"{r.method} {r.template}")
async def test_a_body_over_the_size_limit_is_a_413_on_every_body_route(
    env: LocalEnv, key: str, route: Route
) -> None:
    body = b'{"url": "' + b"a" * MAX_BODY_BYTES + b'"}'
    response = await send(env, route.method, concrete(route), token_for(route, key), body)

    assert (response.status, response.json()["error"]["code"]) == (413, "payload_too_large")


@pytest.mark.parametrize(
    "body",
    [
        b'{"url": "https://a.test/", "max_pages": NaN}',
        b'{"url": "https://a.test/", "alert_score_drop": Infinity}',
        b'{"url": "\\ud800"}',  # a lone surrogate: no UTF-8 encodes it (RFC 8259 section 8.2)
        b'{"url": "https://a.test/"',
        b"\xff\xfe",
        # More digits than int() reads (sys.get_int_max_str_digits): a 500 the fuzzing found.
        b'{"url": "https://a.test/", "max_pages": ' + b"9" * 5000 + b"}",
    ],
)
@pytest.mark.parametrize("path", ["/api/audits", "/api/monitors"])
async def test_what_is_not_strict_json_is_invalid_json(
    env: LocalEnv, key: str, path: str, body: bytes
) -> None:
    response = await send(env, "POST", path, key, body)

    assert (response.status, response.json()["error"]["code"]) == (400, "invalid_json")


@pytest.mark.parametrize(
    "body",
    [
        nested(10_000),
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": ' + nested(MAX_DEPTH) + b"}",
    ],
)
async def test_mcp_answers_a_body_nested_too_deep_with_a_parse_error(
    env: LocalEnv, key: str, body: bytes
) -> None:
    response = await send(env, "POST", "/mcp", key, body, MCP_HEADERS)

    assert response.status == 400
    error = response.json()["error"]
    assert error["code"] == -32700 and f"deeper than {MAX_DEPTH}" in error["message"]


# -- strict types --------------------------------------------------------------------------------

WRONG_TYPES = [
    ("max_pages", "10"),
    ("max_pages", True),
    ("max_pages", 10.5),
    ("max_depth", "3"),
    ("fetch_timeout_s", "10"),
    ("fetch_timeout_s", False),
    ("external_budget_s", "60"),
    ("check_external", 1),
    ("check_external", "true"),
    ("url", 42),
    ("include", "/blog/"),
    ("include", [1]),
    ("lighthouse", 1),
    ("lighthouse_pages", "2"),
    ("render", 1),
    ("render", "sometimes"),
]
MONITOR_WRONG_TYPES = [
    ("hour", "6"),
    ("hour", True),
    ("alert_score_drop", "5"),
    ("alert_on_grade_drop", 0),
    ("is_active", "false"),
    ("frequency", 1),
    ("webhook_secret", 12345678),
]


@pytest.mark.parametrize(("field", "value"), WRONG_TYPES)
async def test_an_audit_body_refuses_a_value_of_the_wrong_json_type(
    env: LocalEnv, key: str, field: str, value: object
) -> None:
    body = json.dumps({"url": "https://a.test/", field: value}).encode()
    response = await send(env, "POST", "/api/audits", key, body)

    assert (response.status, response.json()["error"]["code"]) == (400, "invalid_request")
    assert field in response.json()["error"]["message"]


MONITOR_FIELDS = {
    "url", "max_pages", "max_depth", "include", "lighthouse", "check_external", "render",
}  # fmt: skip


@pytest.mark.parametrize(
    ("field", "value"),
    [*[(f, v) for f, v in WRONG_TYPES if f in MONITOR_FIELDS], *MONITOR_WRONG_TYPES],
)
@pytest.mark.parametrize("method", ["POST", "PATCH"])
async def test_a_monitor_body_refuses_a_value_of_the_wrong_json_type(
    env: LocalEnv, key: str, method: str, field: str, value: object
) -> None:
    path = "/api/monitors" if method == "POST" else "/api/monitors/m-0"
    body = json.dumps({"url": "https://a.test/", field: value}).encode()
    response = await send(env, method, path, key, body)

    assert (response.status, response.json()["error"]["code"]) == (400, "invalid_request")
    assert field in response.json()["error"]["message"]


@pytest.mark.parametrize(("field", "value"), [("owner", 7), ("name", True), ("name", ["a"])])
async def test_a_key_body_refuses_a_value_of_the_wrong_json_type(
    env: LocalEnv, field: str, value: object
) -> None:
    body = json.dumps({"owner": "acme", field: value}).encode()
    response = await send(env, "POST", "/api/keys", ADMIN_TOKEN, body)

    assert (response.status, response.json()["error"]["code"]) == (400, "invalid_request")


async def test_a_whole_number_is_still_a_number_where_seconds_are_wanted(
    env: LocalEnv, key: str
) -> None:
    """JSON has one number type: 30 is as good as 30.0 for a float field (RFC 8259 section 6)."""
    fields = {"url": "https://a.test/", "alert_score_drop": 5, "external_budget_s": 60}
    body = json.dumps(fields).encode()
    response = await send(env, "POST", "/api/monitors", key, body)

    assert response.status == 201, response.body


@pytest.mark.parametrize(("name", "value"), [("max_pages", "10"), ("max_pages", True)])
async def test_mcp_tool_arguments_refuse_the_wrong_json_type(
    env: LocalEnv, key: str, name: str, value: object
) -> None:
    arguments = {"url": "https://a.test/", name: value}
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "run_site_audit", "arguments": arguments},
    }
    response = await send(env, "POST", "/mcp", key, json.dumps(message).encode(), MCP_HEADERS)

    result = response.json()["result"]
    assert result["isError"] is True and name in result["content"][0]["text"]


# -- query parameters ----------------------------------------------------------------------------


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.method} {r.template}")
async def test_every_route_refuses_a_query_parameter_it_does_not_declare(
    env: LocalEnv, key: str, route: Route
) -> None:
    response = await send(
        env, route.method, f"{concrete(route)}?undeclared=1", token_for(route, key)
    )

    assert (response.status, response.json()["error"]["code"]) == (400, "invalid_request")
    assert "unknown query parameter 'undeclared'" in response.json()["error"]["message"]


# -- cursors -------------------------------------------------------------------------------------


def forged(value: object) -> str:
    text = json.dumps(value).encode()
    return base64.urlsafe_b64encode(text).rstrip(b"=").decode()


@pytest.mark.parametrize(
    ("kind", "key_value"),
    [
        (ListKind.ISSUES, ["issues", 9007199254740993, "a", "b", "c"]),
        (ListKind.ISSUES, ["issues", -9007199254740993, "a", "b", "c"]),
        (ListKind.ISSUES, ["issues", 10**400, "a", "b", "c"]),
        (ListKind.PAGES, ["pages", "\ud800", "p1"]),
        (ListKind.AUDITS, ["audits", "2026", "a" * 5000]),
    ],
)
async def test_a_cursor_out_of_range_is_a_400_before_any_sql(
    env: LocalEnv, key: str, kind: ListKind, key_value: list[object]
) -> None:
    path = "/api/audits" if kind is ListKind.AUDITS else f"/api/audits/audit-1/{kind}"
    response = await send(env, "GET", f"{path}?cursor={forged(key_value)}", key)

    assert (response.status, response.json()["error"]["code"]) == (400, "invalid_request")
    assert "cursor" in response.json()["error"]["message"]
