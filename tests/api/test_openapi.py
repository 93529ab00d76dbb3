"""The OpenAPI document: valid OpenAPI 3.1, one operation per route, every record field in its
schema, exactly the query parameters the lists accept, and served without a key.

schemathesis drives the live API against this document in tests/test_openapi_conformance.py.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any
from urllib.parse import urlencode

import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator

from api import openapi, queries
from api.errors import ApiErrorCode
from api.http import ApiResponse
from api.routes import ROUTES, deployed_routes
from api.routing import Access, Call, Operation, Route, Schema
from auditdb import monitors, repository
from auditdb.frequency import Frequency
from auditdb.keys import ApiKeyRecord
from auditdb.listing import ListKind
from auditdb.monitors import MonitorRecord, MonitorRunRecord
from auditdb.records import AuditOptions, AuditRecord, IssueRecord, PageRecord
from durable.records import CrawledEntry, FrontierStats
from local_platform.runtime import LocalEnv, LocalPlatform
from service import keys
from service.compare import AuditComparison
from service.lists import TopIssue
from tests.api.client import send

ADMIN_TOKEN = "admin-token-for-the-openapi-tests-0123"
OPERATIONS = openapi.operations(ROUTES)
LISTS = {
    ListKind.AUDITS: "/api/audits",
    ListKind.PAGES: "/api/audits/{audit_id}/pages",
    ListKind.ISSUES: "/api/audits/{audit_id}/issues",
    ListKind.MONITORS: "/api/monitors",
    ListKind.RUNS: "/api/monitors/{monitor_id}/runs",
    ListKind.LIGHTHOUSE: "/api/audits/{audit_id}/lighthouse",
    ListKind.LINKS: "/api/audits/{audit_id}/pages/links",
}
# Values of the required parameters, sent with every request to a list that requires them.
REQUIRED = {"url": "https://a.test/", "direction": "in"}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return openapi.document(ROUTES)


def schema_of(document: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = document["components"]["schemas"][name]
    return found


def test_the_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    OpenAPIV31SpecValidator(document).validate()
    assert document["openapi"] == "3.1.0"


def test_every_route_has_an_operation_and_every_operation_a_route(
    document: dict[str, Any],
) -> None:
    routed = {(route.method, route.template) for route in ROUTES}
    documented = {
        (method.upper(), path) for path, item in document["paths"].items() for method in item
    }

    assert routed == documented == set(OPERATIONS)
    assert len(routed) == len(ROUTES)
    operation_ids = [op.operation_id for op in OPERATIONS.values()]
    assert len(set(operation_ids)) == len(operation_ids)


@pytest.mark.parametrize(
    ("twice", "expected"),
    [("route", "two routes for GET /api/audits/{audit_id}/report"), ("id", "used twice")],
)
def test_the_document_refuses_to_build_when_the_table_repeats_itself(
    twice: str, expected: str
) -> None:
    """A route and its operation are one row, so neither can exist without the other; what the
    table can still get wrong is saying a method and path, or an operation id, twice."""
    (report,) = [route for route in ROUTES if route.template == "/api/audits/{audit_id}/report"]
    if twice == "route":
        repeated = report
    else:
        operation = dataclasses.replace(report.operation, operation_id="getAudit")
        repeated = dataclasses.replace(report, template="/api/audits/{audit_id}/again")
        repeated = dataclasses.replace(repeated, operation=operation)

    with pytest.raises(LookupError, match=re.escape(expected)):
        openapi.document([*ROUTES, repeated])


def test_every_model_an_operation_can_name_is_built() -> None:
    assert set(openapi._MODELS) == set(Schema)


def test_a_route_answering_with_a_record_is_documented_by_the_records_fields() -> None:
    @dataclasses.dataclass(frozen=True)
    class Answer:
        audit_id: str
        pages: int | None

    async def handler(call: Call) -> ApiResponse:
        raise AssertionError("not called")

    operation = Operation("getAnswer", "an answer", 200, Answer, (404,))
    route = Route("GET", "/api/audits/{audit_id}/answer", handler, operation)

    built = openapi.document([*ROUTES, route])

    success = built["paths"]["/api/audits/{audit_id}/answer"]["get"]["responses"]["200"]
    assert success["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Answer"
    }
    found = schema_of(built, "Answer")
    assert found["required"] == ["audit_id", "pages"]
    assert found["additionalProperties"] is False


@pytest.mark.parametrize(
    ("schema", "record", "added", "dropped"),
    [
        ("Audit", AuditRecord, {"stopped_early", "site_failure"}, set()),
        ("AuditOptions", AuditOptions, set(), set()),
        ("Page", PageRecord, set(), set()),
        ("Issue", IssueRecord, set(), set()),
        ("ApiKey", ApiKeyRecord, {"revoked"}, set()),
        ("CreatedApiKey", ApiKeyRecord, {"revoked", "secret"}, set()),
        ("Frontier", FrontierStats, set(), set()),
        ("CrawledEntry", CrawledEntry, set(), set()),
        ("TopIssue", TopIssue, set(), set()),
        ("Comparison", AuditComparison, set(), set()),
        ("Monitor", MonitorRecord, set(), {"lock_until"}),
        ("MonitorRun", MonitorRunRecord, {"has_report", "reason"}, set()),
        ("CreatedMonitor", MonitorRecord, {"webhook_secret"}, {"lock_until"}),
    ],
)
def test_a_response_schema_holds_every_field_of_its_record_and_nothing_else(
    document: dict[str, Any], schema: str, record: type, added: set[str], dropped: set[str]
) -> None:
    found = schema_of(document, schema)
    fields = {field.name for field in dataclasses.fields(record)}

    assert set(found["properties"]) == set(found["required"]) == (fields - dropped) | added
    assert found["additionalProperties"] is False


def test_a_field_added_to_a_record_appears_in_its_model() -> None:
    @dataclasses.dataclass(frozen=True)
    class Grown:
        id: str
        options: AuditOptions
        added_later: int | None = None

    properties = openapi.record_model(Grown).model_json_schema()["properties"]

    assert set(properties) == {"id", "options", "added_later"}


def query_names(document: dict[str, Any], path: str) -> list[str]:
    parameters = document["paths"][path]["get"]["parameters"]
    return [p["name"] for p in parameters if p["in"] == "query"]


@pytest.mark.parametrize("kind", list(ListKind))
def test_a_list_documents_exactly_the_parameters_its_parser_accepts(
    document: dict[str, Any], kind: ListKind
) -> None:
    expected = [p.name for p in (*queries.PARAMETERS[kind], *queries.PAGING)]
    assert query_names(document, LISTS[kind]) == expected


NOW = "2026-12-01T00:00:00.000Z"


@pytest.fixture
async def seeded(platform: LocalPlatform) -> tuple[LocalEnv, str]:
    env = platform.env
    key = (await keys.create_key(env, "acme")).secret
    audit = AuditRecord("audit-1", "https://a.test/", "2026-12-01T00:00:00.000Z", owner="acme")
    await repository.insert_audit(env.DB, audit)
    page = PageRecord("page-1", "audit-1", "https://a.test/", NOW, status_code=200)
    await repository.write_crawled_pages(env.DB, [page], [])
    monitor = MonitorRecord(
        "monitor-1", "acme", "https://a.test/", Frequency.DAILY, 6, 10, NOW, NOW
    )
    await monitors.insert_monitor(env.DB, monitor, "whsec_" + "A" * 32)
    return env, key


def example(schema: dict[str, Any]) -> str:
    """A value the schema allows, as a query string carries it."""
    if schema.get("type") == "array":
        return example(schema["items"])
    if "enum" in schema:
        return str(schema["enum"][0])
    if schema.get("type") == "integer":
        return str(schema["minimum"])
    return "404" if "pattern" in schema else "x"


@pytest.mark.parametrize("kind", list(ListKind))
async def test_the_documented_parameters_are_accepted_and_no_others(
    document: dict[str, Any], seeded: tuple[LocalEnv, str], kind: ListKind
) -> None:
    env, key = seeded
    path = LISTS[kind].format(audit_id="audit-1", monitor_id="monitor-1")
    documented = document["paths"][LISTS[kind]]["get"].get("parameters", [])
    required = {
        p["name"]: REQUIRED[p["name"]] for p in documented if p["in"] == "query" and p["required"]
    }
    for parameter in documented:
        if parameter["in"] != "query" or parameter["name"] == "cursor":
            continue  # a cursor is only valid when a list made it
        query = required | {parameter["name"]: example(parameter["schema"])}
        if parameter["name"] in required:
            query[parameter["name"]] = required[parameter["name"]]
        sent = f"{path}?{urlencode(query)}"
        assert (await send(env, "GET", sent, key)).status == 200, sent
    for name in required:  # each required parameter is refused when missing
        missing = {n: v for n, v in required.items() if n != name}
        refused = await send(env, "GET", f"{path}?{urlencode(missing)}", key)
        assert refused.status == 400
        assert f"query parameter {name!r} is required" in refused.json()["error"]["message"]

    refused = await send(env, "GET", f"{path}?{urlencode(required)}&undocumented=1", key)
    assert refused.status == 400
    assert "unknown query parameter 'undocumented'" in refused.json()["error"]["message"]


def test_error_responses_carry_the_error_schema_and_their_headers(
    document: dict[str, Any],
) -> None:
    responses = document["components"]["responses"]
    for operation in OPERATIONS.values():
        assert set(map(str, operation.errors)) <= set(responses)
    content = responses["429"]["content"]["application/json"]["schema"]
    assert content == {"$ref": "#/components/schemas/Error"}
    assert responses["429"]["headers"]["retry-after"]["required"] is True
    assert responses["401"]["headers"]["www-authenticate"]["required"] is True
    code = schema_of(document, "ErrorDetail")["properties"]["code"]
    assert schema_of(document, code["$ref"].rsplit("/", 1)[1])["enum"] == list(ApiErrorCode)


@pytest.mark.parametrize(
    ("status", "codes"),
    [
        (400, ["invalid_request", "invalid_json", "invalid_url", "target_blocked"]),
        (401, ["unauthorized"]),
        (404, ["not_found"]),
        (429, ["rate_limited"]),
        (503, ["workflow_unavailable", "storage_unavailable", "credentials_unavailable"]),
    ],
)
def test_each_error_status_names_the_codes_it_carries(status: int, codes: list[str]) -> None:
    assert openapi.error_codes(status) == codes


@pytest.mark.parametrize("operation_id", ["createKey", "listKeys", "revokeKey"])
def test_admin_operations_ask_for_the_admin_token(
    document: dict[str, Any], operation_id: str
) -> None:
    (operation,) = [
        op
        for item in document["paths"].values()
        for op in item.values()
        if op["operationId"] == operation_id
    ]
    assert operation["security"] == [{"adminToken": []}]
    assert document["security"] == [{"bearerAuth": []}]


@pytest.mark.parametrize("admin_token", [None, ADMIN_TOKEN])
async def test_the_document_is_served_without_a_key(
    platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch, admin_token: str | None
) -> None:
    monkeypatch.setattr(platform.env, "ADMIN_TOKEN", admin_token, raising=False)

    first = await send(platform.env, "GET", "/api/openapi.json")
    again = await send(platform.env, "GET", "/api/openapi.json", "not-a-key")

    assert first.status == again.status == 200
    assert first.body == again.body
    routes = deployed_routes(platform.env)
    assert openapi.document_bytes(routes) is openapi.document_bytes(routes)  # once per isolate
    assert first.json() == json.loads(json.dumps(openapi.document(routes)))
    assert first.headers["content-type"] == "application/json; charset=utf-8"
    assert first.headers["x-content-type-options"] == "nosniff"
    assert "/api/openapi.json" in first.json()["paths"]
    refused = await send(platform.env, "POST", "/api/openapi.json")
    assert (refused.status, refused.headers["allow"]) == (405, "GET")


@pytest.mark.parametrize(
    ("admin_token", "listed"), [(None, False), ("", False), (ADMIN_TOKEN, True)]
)
async def test_the_admin_routes_are_documented_only_where_they_exist(
    platform: LocalPlatform,
    monkeypatch: pytest.MonkeyPatch,
    admin_token: str | None,
    listed: bool,
) -> None:
    monkeypatch.setattr(platform.env, "ADMIN_TOKEN", admin_token, raising=False)

    paths = (await send(platform.env, "GET", "/api/openapi.json")).json()["paths"]

    admin = {route.template for route in ROUTES if route.access is Access.ADMIN}
    assert admin == {"/api/keys", "/api/keys/{key_id}"}
    assert (admin <= set(paths)) is listed and (admin & set(paths) == set()) is not listed
    assert set(paths) >= {route.template for route in ROUTES if route.access is not Access.ADMIN}
    # and the routes answer accordingly: 404 to a valid API key where they are not listed
    token = ADMIN_TOKEN if listed else (await keys.create_key(platform.env, "acme")).secret
    for path in admin:
        answered = await send(platform.env, "GET", path.format(key_id="key_0"), token)
        assert (answered.status == 404) is not listed


def test_every_operation_documents_the_400_for_an_undeclared_query_parameter(
    document: dict[str, Any],
) -> None:
    for item in document["paths"].values():
        for operation in item.values():
            assert "400" in operation["responses"], operation["operationId"]


def documented_statuses(method: str, path: str) -> set[int]:
    operation = OPERATIONS[(method, path)]
    return {operation.status, *operation.errors}


@pytest.mark.parametrize(("method", "path"), sorted(OPERATIONS))
async def test_refusals_before_routing_are_documented_for_every_operation(
    seeded: tuple[LocalEnv, str], monkeypatch: pytest.MonkeyPatch, method: str, path: str
) -> None:
    """No key, a wrong one, and (for the admin routes) a deployment without ADMIN_TOKEN: each
    answer is a status the operation documents."""
    env, key = seeded
    concrete = path.format(
        audit_id="audit-1",
        other_id="audit-1",
        key_id="key_0",
        monitor_id="m-0",
        verification_id="ver_0",
    )
    documented = documented_statuses(method, path)
    monkeypatch.setattr(env, "ADMIN_TOKEN", ADMIN_TOKEN, raising=False)
    for token in (None, "sa_unknown"):
        assert (await send(env, method, concrete, token)).status in documented
    monkeypatch.setattr(env, "ADMIN_TOKEN", "", raising=False)
    assert (await send(env, method, concrete, key)).status in documented


@pytest.mark.parametrize(
    ("owner", "accepted"), [("acme", True), ("a.b@c-d_e", True), ("-acme", False), ("a b", False)]
)
async def test_the_documented_owner_pattern_is_the_one_the_service_applies(
    document: dict[str, Any],
    platform: LocalPlatform,
    monkeypatch: pytest.MonkeyPatch,
    owner: str,
    accepted: bool,
) -> None:
    pattern = schema_of(document, "CreateKeyBody")["properties"]["owner"]["pattern"]
    monkeypatch.setattr(platform.env, "ADMIN_TOKEN", ADMIN_TOKEN, raising=False)
    body = json.dumps({"owner": owner}).encode()

    response = await send(platform.env, "POST", "/api/keys", ADMIN_TOKEN, body)

    assert (re.fullmatch(pattern, owner) is not None) is accepted
    assert response.status == (201 if accepted else 400)
