"""The OpenAPI 3.1 document of the API, served at `GET /api/openapi.json` without a key.

Nothing here is written twice. Response schemas are pydantic models built from the records the
handlers render (`record_model`: one required property per dataclass field, nothing else allowed),
request bodies are `api.schemas`, query parameters are `api.queries.PARAMETERS`, error codes are
`ApiErrorCode`, and the paths are the route tables of `api.app`: `document()` walks those tables
and takes each (method, path) from `OPERATIONS`, failing on a route without an operation or an
operation without a route.

pydantic loads only on CPython (tests/pyodide/README.md), so `api.app` imports this module lazily,
from the one handler that serves the document; the built document is kept for the isolate's life.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, TypeAliasType, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import models_json_schema

from api import app, queries
from api.errors import ApiError, ApiErrorCode
from api.queries import Parameter
from api.schemas import CreateAuditBody, CreateKeyBody, CreateMonitorBody, UpdateMonitorBody
from audit.verdict import Action as VerdictAction
from audit.verdict import Scores as VerdictScores
from auditdb.exposure_issues import AuditExposure
from auditdb.keys import ApiKeyRecord
from auditdb.lighthouse import LighthouseRow
from auditdb.listing import ListKind
from auditdb.monitors import MonitorRecord, MonitorRunRecord
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from auditdb.security_grades import AuditSecurity
from auditdb.timing import TimingSummary
from durable.records import CrawledEntry, ExternalProgress, FrontierStats
from service import compare, progress
from service.compare import AuditComparison
from service.lists import TopIssue

OPENAPI_VERSION = "3.1.0"
API_VERSION = "1.0.0"
_EXACT = ConfigDict(extra="forbid")
_REF = "#/components/schemas/{model}"

# -- response models, from the records ---------------------------------------------------------


def record_model(
    record: type,
    name: str | None = None,
    added: Mapping[str, object] | None = None,  # a type or a union of types
    dropped: frozenset[str] = frozenset(),
) -> type[BaseModel]:
    """A pydantic model of `record.to_dict()`: every dataclass field a required property (the
    dict always holds them all) except the `dropped` ones a handler removes, plus the `added`
    ones it renders beside them."""
    hints = get_type_hints(record)
    fields: dict[str, Any] = {
        field.name: (_annotation(hints[field.name]), ...)
        for field in dataclasses.fields(record)
        if field.name not in dropped
    }
    fields.update({field: (kind, ...) for field, kind in (added or {}).items()})
    doc = (record.__doc__ or "").strip()
    description = "" if doc.startswith(f"{record.__name__}(") else doc
    return create_model(
        name or record.__name__, __config__=_EXACT, __doc__=description or None, **fields
    )


# Any: the annotation objects pydantic takes are of no single type.
def _annotation(hint: Any) -> Any:
    """`hint` as JSON carries it: records become models, tuples lists, JSON aliases objects."""
    if isinstance(hint, TypeAliasType):
        # common.wire's JSON aliases: free-form JSON (an issue's `details` object).
        return dict[str, Any] if hint.__name__ == "JsonObject" else Any
    origin = get_origin(hint)
    if origin is Union or isinstance(hint, types.UnionType):
        options = tuple(_annotation(arg) for arg in get_args(hint))
        return Union[options]  # noqa: UP007 - built from a runtime tuple
    if origin in (list, tuple, Sequence):
        return list[_annotation(get_args(hint)[0])]  # type: ignore[misc]
    if origin in (dict, Mapping):
        return dict[str, _annotation(get_args(hint)[1])]  # type: ignore[misc]
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return _nested_model(hint)
    return hint


@cache
def _nested_model(record: type) -> type[BaseModel]:
    return record_model(record)


Audit = record_model(AuditRecord, "Audit", {"stopped_early": bool, "site_failure": str | None})
Page = record_model(PageRecord, "Page")
Issue = record_model(IssueRecord, "Issue")
ApiKey = record_model(ApiKeyRecord, "ApiKey", {"revoked": bool})
CreatedApiKey = record_model(ApiKeyRecord, "CreatedApiKey", {"revoked": bool, "secret": str})
Frontier = record_model(FrontierStats, "Frontier")
External = record_model(ExternalProgress, "ExternalProgress")
Crawled = record_model(CrawledEntry, "CrawledEntry")
Comparison = record_model(AuditComparison, "Comparison")
LighthouseResult = record_model(LighthouseRow, "LighthouseResult")
# api.app.monitor_summary: never the claim (`lock_until`); the secret only when created.
Monitor = record_model(MonitorRecord, "Monitor", dropped=frozenset({"lock_until"}))
# `reason`: a failed run's sentence (service.run_reasons), null for the other runs.
Run = record_model(MonitorRunRecord, "MonitorRun", {"has_report": bool, "reason": str | None})
CreatedMonitor = record_model(
    MonitorRecord, "CreatedMonitor", {"webhook_secret": str}, frozenset({"lock_until"})
)


class _Exact(BaseModel):
    model_config = _EXACT


class AuditResponse(_Exact):
    audit: Audit  # type: ignore[valid-type]  # a model built at import time


class AuditList(_Exact):
    audits: list[Audit]  # type: ignore[valid-type]
    next_cursor: str | None = Field(description="the `cursor` of the next page; null on the last")


class PageList(_Exact):
    pages: list[Page]  # type: ignore[valid-type]
    next_cursor: str | None


class IssueList(_Exact):
    issues: list[Issue]  # type: ignore[valid-type]
    next_cursor: str | None


class LighthouseList(_Exact):
    lighthouse: list[LighthouseResult]  # type: ignore[valid-type]
    next_cursor: str | None


class ComparisonResponse(_Exact):
    comparison: Comparison  # type: ignore[valid-type]


class MonitorResponse(_Exact):
    monitor: Monitor  # type: ignore[valid-type]


class CreatedMonitorResponse(_Exact):
    monitor: CreatedMonitor  # type: ignore[valid-type]


class RunList(_Exact):
    runs: list[Run]  # type: ignore[valid-type]
    next_cursor: str | None


class MonitorList(_Exact):
    monitors: list[Monitor]  # type: ignore[valid-type]
    next_cursor: str | None


class ReportSummary(_Exact):
    issues_total: int
    issues_by_type: dict[str, int]
    issues_by_severity: dict[str, int]
    top_issues: list[record_model(TopIssue)]  # type: ignore[valid-type]


class ReportLinks(_Exact):
    pages: str
    issues: str
    lighthouse: str


Scores = record_model(VerdictScores, "Scores")
Action = record_model(VerdictAction, "Action")


class Actions(_Exact):
    """What to fix first (docs/scoring.md): the audit's scores and every finding as an action,
    ranked by the overall points fixing it gains; `scores` null and `note` set when the audit has
    no verdict (still running, failed, cancelled)."""

    audit_id: str
    scores: Scores | None  # type: ignore[valid-type]
    actions: list[Action]  # type: ignore[valid-type]
    note: str | None


class Report(_Exact):
    scores: Scores | None  # type: ignore[valid-type]
    actions: list[Action]  # type: ignore[valid-type]
    verdict_note: str | None
    audit: Audit  # type: ignore[valid-type]
    summary: ReportSummary
    security: record_model(AuditSecurity, "AuditSecurity")  # type: ignore[valid-type]
    exposure: record_model(AuditExposure, "AuditExposure")  # type: ignore[valid-type]
    timing: record_model(TimingSummary, "TimingSummary") | None  # type: ignore[valid-type]
    links: ReportLinks


class AuditProgress(_Exact):
    audit: Audit  # type: ignore[valid-type]
    frontier: Frontier | None  # type: ignore[valid-type]
    # The external link checks' counts once the crawl found links to other sites; null before,
    # without check_external, and once the audit has ended.
    external: External | None  # type: ignore[valid-type]
    recent: list[Crawled]  # type: ignore[valid-type]


class KeyResponse(_Exact):
    key: CreatedApiKey  # type: ignore[valid-type]


class KeyList(_Exact):
    keys: list[ApiKey]  # type: ignore[valid-type]


class ErrorDetail(_Exact):
    code: ApiErrorCode
    message: str


class Error(_Exact):
    error: ErrorDetail


class OpenApiDocument(BaseModel):
    """This document."""


# -- operations --------------------------------------------------------------------------------


class Access(StrEnum):
    """Who may call an operation; KEY and ADMIN name the document's security schemes."""

    KEY = "bearerAuth"  # an API key (`siteaudit keys create`, POST /api/keys)
    ADMIN = "adminToken"  # the ADMIN_TOKEN secret
    PUBLIC = "public"


@dataclass(frozen=True, slots=True)
class Operation:
    """One (method, path) of the route tables. `response` None: an empty body. `media_type`
    other than JSON: a text body (`response` then None), e.g. a CSV export."""

    operation_id: str
    summary: str
    status: int
    response: type[BaseModel] | None
    errors: tuple[int, ...] = ()
    body: type[BaseModel] | None = None
    query: tuple[Parameter, ...] = ()
    access: Access = Access.KEY
    media_type: str = "application/json"
    headers: tuple[str, ...] = ()  # names in `_HEADERS` the success response carries


_CSV, _NDJSON = "text/csv", "application/x-ndjson"
# Every keyed route can answer 401 (no valid key) and 429 (the per-key request rate).
_KEYED = (401, 429)
_PER_AUDIT = (*_KEYED, 404)
# Admin routes: 401 without the admin token, 404 where ADMIN_TOKEN is not set (no such route).
_ADMIN = (401, 404)
_PER_MONITOR = (*_KEYED, 404)
_COMPARE_LIMIT = Parameter(
    "limit", "rows shown in each list (each carries its total)", integers=(1, compare.MAX_LIMIT)
)
_PROGRESS_LIMIT = Parameter(
    "limit", "newest crawled URLs to show", integers=(1, progress.MAX_RECENT)
)


def _list_query(kind: ListKind) -> tuple[Parameter, ...]:
    return (*queries.PARAMETERS[kind], *queries.PAGING)


def _listing(
    operation_id: str,
    summary: str,
    response: type[BaseModel],
    kind: ListKind,
    errors: tuple[int, ...],
) -> Operation:
    """A keyset-paginated list: its filters and paging, a Link header when a page follows."""
    query = _list_query(kind)
    return Operation(operation_id, summary, 200, response, errors, query=query, headers=("link",))


def _export(kind: ListKind, extension: str, media_type: str) -> Operation:
    """A streamed export: the list's filters, no paging, a text body as a download."""
    name = f"export{str(kind).title()}{extension.title()}"
    summary = f"every {str(kind).removesuffix('s')} row matching the filters, as {extension}"
    return Operation(
        name,
        summary,
        200,
        None,
        (400, *_PER_AUDIT),
        query=queries.PARAMETERS[kind],
        media_type=media_type,
        headers=("content-disposition",),
    )


OPERATIONS: dict[tuple[str, str], Operation] = {
    ("GET", "/api/openapi.json"): Operation(
        "getOpenApi", "this document", 200, OpenApiDocument, access=Access.PUBLIC
    ),
    ("POST", "/api/audits"): Operation(
        "createAudit",
        "start an audit",
        201,
        AuditResponse,
        (400, *_KEYED, 413, 503),
        body=CreateAuditBody,
        headers=("location",),
    ),
    ("GET", "/api/audits"): _listing(
        "listAudits",
        "the key owner's audits, newest first",
        AuditList,
        ListKind.AUDITS,
        (400, *_KEYED),
    ),
    ("GET", "/api/audits/{audit_id}"): Operation(
        "getAudit", "an audit's status and counters", 200, AuditResponse, _PER_AUDIT
    ),
    ("DELETE", "/api/audits/{audit_id}"): Operation(
        "deleteAudit",
        "stop an audit and delete it with its results",
        204,
        None,
        (*_PER_AUDIT, 503),
    ),
    ("GET", "/api/audits/{audit_id}/pages"): _listing(
        "listPages",
        "an audit's crawled pages, by URL",
        PageList,
        ListKind.PAGES,
        (400, *_PER_AUDIT),
    ),
    ("GET", "/api/audits/{audit_id}/issues"): _listing(
        "listIssues",
        "an audit's issues, most severe first",
        IssueList,
        ListKind.ISSUES,
        (400, *_PER_AUDIT),
    ),
    ("GET", "/api/audits/{audit_id}/lighthouse"): _listing(
        "listLighthouse",
        "an audit's Lighthouse results (page x strategy), partial while the phase runs",
        LighthouseList,
        ListKind.LIGHTHOUSE,
        (400, *_PER_AUDIT),
    ),
    ("GET", "/api/audits/{audit_id}/report"): Operation(
        "getReport",
        "the scores, the ranked actions, counts by type and severity, the top issues",
        200,
        Report,
        _PER_AUDIT,
    ),
    ("GET", "/api/audits/{audit_id}/actions"): Operation(
        "getActions",
        "what to fix first: the scores and the findings ranked by what fixing each is worth",
        200,
        Actions,
        _PER_AUDIT,
    ),
    ("GET", "/api/audits/{audit_id}/report.html"): Operation(
        "getHtmlReport",
        "the report as one self-contained HTML file (charts, issues, pages), streamed",
        200,
        None,
        _PER_AUDIT,
        media_type="text/html",
        headers=("content-disposition",),
    ),
    ("POST", "/api/audits/{audit_id}/resume"): Operation(
        "resumeAudit",
        "finish a failed audit from its retained crawl state",
        202,
        AuditResponse,
        (*_PER_AUDIT, 409, 410, 503),
    ),
    ("GET", "/api/audits/{audit_id}/progress"): Operation(
        "getProgress",
        "the newest crawled URLs while the audit runs",
        200,
        AuditProgress,
        (400, *_PER_AUDIT),
        query=(_PROGRESS_LIMIT,),
    ),
    ("POST", "/api/audits/{audit_id}/cancel"): Operation(
        "cancelAudit",
        "stop a running audit and keep its results (status cancelled)",
        202,
        AuditResponse,
        (*_PER_AUDIT, 409),
    ),
    ("GET", "/api/audits/{audit_id}/pages.csv"): _export(ListKind.PAGES, "csv", _CSV),
    ("GET", "/api/audits/{audit_id}/pages.ndjson"): _export(ListKind.PAGES, "ndjson", _NDJSON),
    ("GET", "/api/audits/{audit_id}/issues.csv"): _export(ListKind.ISSUES, "csv", _CSV),
    ("GET", "/api/audits/{audit_id}/issues.ndjson"): _export(ListKind.ISSUES, "ndjson", _NDJSON),
    ("GET", "/api/audits/{audit_id}/lighthouse.csv"): Operation(
        "exportLighthouseCsv",
        "every Lighthouse row (page x strategy, lab and field values), as csv",
        200,
        None,
        _PER_AUDIT,
        media_type=_CSV,
        headers=("content-disposition",),
    ),
    ("GET", "/api/audits/{audit_id}/compare/{other_id}"): Operation(
        "compareAudits",
        "what changed from one audit to another: issues new, fixed and unchanged, pages",
        200,
        ComparisonResponse,
        (400, *_PER_AUDIT),
        query=(_COMPARE_LIMIT,),
    ),
    ("POST", "/api/monitors"): Operation(
        "createMonitor",
        "re-audit a site on a schedule (the webhook secret is shown only here)",
        201,
        CreatedMonitorResponse,
        (400, *_KEYED, 409, 413),
        body=CreateMonitorBody,
        headers=("location",),
    ),
    ("GET", "/api/monitors"): _listing(
        "listMonitors",
        "the key owner's monitors, newest first",
        MonitorList,
        ListKind.MONITORS,
        (400, *_KEYED),
    ),
    ("GET", "/api/monitors/{monitor_id}"): Operation(
        "getMonitor", "a monitor", 200, MonitorResponse, _PER_MONITOR
    ),
    ("PATCH", "/api/monitors/{monitor_id}"): Operation(
        "updateMonitor",
        "change the fields given",
        200,
        MonitorResponse,
        (400, *_PER_MONITOR, 413),
        body=UpdateMonitorBody,
    ),
    ("DELETE", "/api/monitors/{monitor_id}"): Operation(
        "deleteMonitor", "delete a monitor with its runs", 204, None, _PER_MONITOR
    ),
    ("GET", "/api/monitors/{monitor_id}/runs"): _listing(
        "listMonitorRuns",
        "a monitor's runs, newest first",
        RunList,
        ListKind.RUNS,
        (400, *_PER_MONITOR),
    ),
    ("POST", "/api/keys"): Operation(
        "createKey",
        "create an API key (its secret is shown only here)",
        201,
        KeyResponse,
        (400, *_ADMIN, 413),
        body=CreateKeyBody,
        access=Access.ADMIN,
        headers=("location",),
    ),
    ("GET", "/api/keys"): Operation(
        "listKeys", "every API key, newest first", 200, KeyList, _ADMIN, access=Access.ADMIN
    ),
    ("DELETE", "/api/keys/{key_id}"): Operation(
        "revokeKey", "revoke an API key", 204, None, _ADMIN, access=Access.ADMIN
    ),
}

_HEADERS: dict[str, tuple[str, str]] = {
    # name: (description, schema type)
    "location": ("the created resource", "string"),
    "link": ('RFC 8288 `<...>; rel="next"` when another page follows', "string"),
    "www-authenticate": ('RFC 6750 challenge, `Bearer realm="siteaudit"`', "string"),
    "retry-after": ("seconds to wait before retrying", "integer"),
    "content-disposition": ('`attachment; filename="..."`, the download\'s file name', "string"),
}
_ERROR_HEADERS = {401: "www-authenticate", 429: "retry-after"}


# -- the route tables ---------------------------------------------------------------------------

_GROUP = re.compile(r"\(\?P<(\w+)>([^)]*)\)")
_PATH_PATTERNS: dict[str, str] = {}


def route_table() -> dict[tuple[str, str], str]:
    """Every (method, path template) the API routes, with the regex of its path parameters;
    admin routes included (they exist where ADMIN_TOKEN is set)."""
    found: dict[tuple[str, str], str] = {}
    for pattern, methods in app.all_routes():
        template = _GROUP.sub(r"{\1}", pattern.pattern).removesuffix("/?").replace("\\.", ".")
        for method in methods:
            found[(method, template)] = pattern.pattern
    return found


def _path_parameters(route_pattern: str) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": {"type": "string", "pattern": f"^(?:{regex})$"},
        }
        for name, regex in _GROUP.findall(route_pattern)
    ]


# -- the document -------------------------------------------------------------------------------


@cache
def document_bytes() -> bytes:
    """The document as served (built once per isolate)."""
    return json.dumps(document(), sort_keys=True).encode()


def document() -> dict[str, Any]:
    routes = route_table()
    if unrouted := sorted(set(OPERATIONS) - set(routes)):
        raise LookupError(f"operations without a route: {unrouted}")
    if undocumented := sorted(set(routes) - set(OPERATIONS)):
        raise LookupError(f"routes without an operation: {undocumented}")
    schemas = _component_schemas()
    paths: dict[str, dict[str, Any]] = {}
    for (method, template), route_pattern in routes.items():
        operation = _operation(OPERATIONS[(method, template)], route_pattern)
        paths.setdefault(template, {})[method.lower()] = operation
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "siteaudit",
            "version": API_VERSION,
            "description": (
                "Website audits: start a crawl, read its pages, issues and report. Every "
                "route but this document needs `Authorization: Bearer <API key>`; the /api/keys "
                "routes need the ADMIN_TOKEN secret instead and exist only where it is set."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": {str(status): _error_response(status) for status in _error_statuses()},
            "securitySchemes": {
                Access.KEY.value: {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "an API key, made by `siteaudit keys create` or POST /api/keys",
                },
                Access.ADMIN.value: {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "the deployment's ADMIN_TOKEN secret",
                },
            },
        },
        "security": [{Access.KEY.value: []}],
    }


def _models() -> list[type[BaseModel]]:
    found: set[type[BaseModel]] = {Error}
    for operation in OPERATIONS.values():
        found.update(m for m in (operation.response, operation.body) if m is not None)
    return sorted(found, key=lambda model: model.__name__)


def _component_schemas() -> dict[str, Any]:
    pairs = [(model, "validation" if _is_body(model) else "serialization") for model in _models()]
    _, top = models_json_schema(pairs, ref_template=_REF)  # type: ignore[arg-type]
    schemas: dict[str, Any] = top.get("$defs", {})
    schemas[OpenApiDocument.__name__] = {"type": "object", "description": "this document"}
    return schemas


def _is_body(model: type[BaseModel]) -> bool:
    return any(operation.body is model for operation in OPERATIONS.values())


def _operation(operation: Operation, route_pattern: str) -> dict[str, Any]:
    parameters = _path_parameters(route_pattern) + [_query(p) for p in operation.query]
    built: dict[str, Any] = {
        "operationId": operation.operation_id,
        "summary": operation.summary,
        "responses": {
            str(operation.status): _success(operation),
            **{
                str(status): {"$ref": f"#/components/responses/{status}"}
                for status in operation.errors
            },
        },
    }
    if parameters:
        built["parameters"] = parameters
    if operation.body is not None:
        built["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _ref(operation.body)}},
        }
    if operation.access is Access.PUBLIC:
        built["security"] = []
    elif operation.access is Access.ADMIN:
        built["security"] = [{Access.ADMIN.value: []}]
    return built


def _success(operation: Operation) -> dict[str, Any]:
    response: dict[str, Any] = {"description": operation.summary}
    if operation.response is not None:
        response["content"] = {operation.media_type: {"schema": _ref(operation.response)}}
    elif operation.media_type != "application/json":
        response["content"] = {operation.media_type: {"schema": {"type": "string"}}}
    if operation.headers:
        response["headers"] = {name: _header(name) for name in operation.headers}
    return response


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": _REF.format(model=model.__name__)}


def _header(name: str) -> dict[str, Any]:
    description, kind = _HEADERS[name]
    return {"description": description, "schema": {"type": kind}}


def _query(parameter: Parameter) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "string",
        "minLength": 1,
        "maxLength": queries.MAX_TEXT_PARAMETER,
    }
    if parameter.choices:
        schema = {"type": "string", "enum": list(parameter.choices)}
    elif parameter.pattern is not None:
        schema["pattern"] = f"^(?:{parameter.pattern})$"
    elif parameter.integers is not None:
        low, high = parameter.integers
        schema = {"type": "integer", "minimum": low, "maximum": high}
    if parameter.repeatable:
        schema = {"type": "array", "items": schema, "maxItems": queries.MAX_TYPES}
    built: dict[str, Any] = {
        "name": parameter.name,
        "in": "query",
        "required": False,
        "description": parameter.description,
        "schema": schema,
    }
    if parameter.repeatable:
        built.update(style="form", explode=True)
    return built


def _error_statuses() -> list[int]:
    return sorted({status for operation in OPERATIONS.values() for status in operation.errors})


def error_codes(status: int) -> list[str]:
    """The codes the error classes answering with `status` carry (`api.errors`)."""
    codes: list[str] = []
    pending: list[type[ApiError]] = [ApiError]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.status_hint == status:
            codes.extend(str(code) for code in cls.codes if str(code) not in codes)
    return codes


def _error_response(status: int) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": f"error codes: {', '.join(error_codes(status))}",
        "content": {"application/json": {"schema": _ref(Error)}},
    }
    if (header := _ERROR_HEADERS.get(status)) is not None:
        response["headers"] = {header: {**_header(header), "required": True}}
    return response
