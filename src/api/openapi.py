"""The OpenAPI 3.1 document of the API, served at `GET /api/openapi.json` without a key.

Nothing here is written twice. Response schemas are pydantic models built from the records the
handlers render (`record_model`: one required property per dataclass field, nothing else allowed),
request bodies are `api.schemas`, query parameters are `api.queries.PARAMETERS`, error codes are
`ApiErrorCode`, the fields a view adds to a record are `api.views`' records, and the paths are
the route table (`api.routes`), which `document(routes)` takes as its argument: each route carries
its operation, naming its models by `api.routing.Schema`.

pydantic loads only on CPython (tests/pyodide/README.md), so the router imports this module lazily,
from the one handler that serves the document; the built document is kept for the isolate's life.
This module never imports the router.
"""

from __future__ import annotations

import dataclasses
import json
import types
from collections.abc import Collection, Mapping, Sequence
from functools import cache
from typing import Any, TypeAliasType, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import models_json_schema

from api import queries, views
from api.errors import ApiError, ApiErrorCode
from api.queries import Parameter
from api.routing import ID_PATTERN, Access, Operation, Response, Route, Schema
from api.schemas import (
    CreateAuditBody,
    CreateKeyBody,
    CreateMonitorBody,
    CreateVerificationBody,
    UpdateMonitorBody,
)
from audit.link_graph import LinkDirection, PageLink
from audit.verdict import Action as VerdictAction
from audit.verdict import Scores as VerdictScores
from auditdb.exposure_issues import AuditExposure
from auditdb.keys import ApiKeyRecord
from auditdb.lighthouse import LighthouseRow
from auditdb.monitors import MonitorRecord, MonitorRunRecord
from auditdb.records import AuditRecord, IssueRecord, PageRecord
from auditdb.rendering import RenderSummary
from auditdb.security_grades import AuditSecurity
from auditdb.structured_data import StructuredSummary
from auditdb.timing import TimingSummary
from auditdb.verifications import HostVerification
from durable.records import CrawledEntry, ExternalProgress, FrontierStats
from service.audits import AuditOutcome
from service.compare import AuditComparison
from service.lists import TopIssue
from service.scope_report import ScopeSummary
from service.verification import VIEW_DROPPED, ProofView

OPENAPI_VERSION = "3.1.0"
API_VERSION = "1.0.0"
_EXACT = ConfigDict(extra="forbid")
_REF = "#/components/schemas/{model}"

# -- response models, from the records ---------------------------------------------------------


def record_model(
    record: type,
    name: str | None = None,
    added: Sequence[type] = (),
    dropped: frozenset[str] = frozenset(),
) -> type[BaseModel]:
    """A pydantic model of `record.to_dict()`: every dataclass field a required property (the
    dict always holds them all) except the `dropped` ones a handler removes, plus the fields of
    the `added` records it renders beside them (`api.views`)."""
    fields = _fields(record, dropped)
    for extra in added:
        fields.update(_fields(extra))
    doc = (record.__doc__ or "").strip()
    description = "" if doc.startswith(f"{record.__name__}(") else doc
    return create_model(
        name or record.__name__, __config__=_EXACT, __doc__=description or None, **fields
    )


# Any: the annotation objects pydantic takes are of no single type.
def _fields(record: type, dropped: frozenset[str] = frozenset()) -> dict[str, Any]:
    hints = get_type_hints(record)
    return {
        field.name: (_annotation(hints[field.name]), ...)
        for field in dataclasses.fields(record)
        if field.name not in dropped
    }


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


Audit = record_model(AuditRecord, "Audit", (AuditOutcome,))
Page = record_model(PageRecord, "Page")
Issue = record_model(IssueRecord, "Issue")
ApiKey = record_model(ApiKeyRecord, "ApiKey", (views.KeyState,))
CreatedApiKey = record_model(ApiKeyRecord, "CreatedApiKey", (views.KeyState, views.KeySecret))
Frontier = record_model(FrontierStats, "Frontier")
External = record_model(ExternalProgress, "ExternalProgress")
Crawled = record_model(CrawledEntry, "CrawledEntry")
Comparison = record_model(AuditComparison, "Comparison")
LighthouseResult = record_model(LighthouseRow, "LighthouseResult")
PageLinkModel = record_model(PageLink, "PageLink")
Monitor = record_model(MonitorRecord, "Monitor", dropped=views.MONITOR_DROPPED)
Run = record_model(MonitorRunRecord, "MonitorRun", (views.RunState,))
CreatedMonitor = record_model(
    MonitorRecord, "CreatedMonitor", (views.WebhookSecret,), views.MONITOR_DROPPED
)
Verification = record_model(HostVerification, "Verification", (ProofView,), VIEW_DROPPED)


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


class PageLinkList(_Exact):
    """One page's inlinks (`direction` in: the pages linking to it) or outlinks (out: what it
    links to), as the audit kept them (docs/manual/api.md): the first 50 of each by URL, each
    with its anchor (`anchor_kind` text, image: an image link's alt, or none: no text), nofollow,
    and for an outlink its other-site mark and its target's status. `total` counts every link of
    that direction the crawl found; `kept` is false (and `total` null) when the audit kept no
    links: one that did not complete, or that finished before siteaudit kept them; `complete` is
    false when the crawl stopped storing links at its budget."""

    page_url: str
    direction: LinkDirection
    kept: bool
    total: int | None
    complete: bool
    links: list[PageLinkModel]  # type: ignore[valid-type]
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
    # What rendering did, or that it would find more (docs/rendering.md); null before finalize.
    rendering: record_model(RenderSummary, "RenderSummary") | None  # type: ignore[valid-type]
    # What the pages carry as structured data (docs/structured-data.md); null before finalize.
    structured_data: record_model(StructuredSummary, "StructuredSummary") | None  # type: ignore[valid-type]
    # The scope the audit ran with, and what it did not check (service.scope_report).
    scope: record_model(ScopeSummary, "ScopeSummary")  # type: ignore[valid-type]
    links: ReportLinks


class AuditProgress(_Exact):
    audit: Audit  # type: ignore[valid-type]
    frontier: Frontier | None  # type: ignore[valid-type]
    # The external link checks' counts once the crawl found links to other sites; null before,
    # without check_external, and once the audit has ended.
    external: External | None  # type: ignore[valid-type]
    # The pages the crawl will reach as far as it knows: the URLs seen, capped at the audit's
    # max_pages, never fewer than crawled; null once the audit has ended.
    pages_expected: int | None
    recent: list[Crawled]  # type: ignore[valid-type]


class KeyResponse(_Exact):
    key: CreatedApiKey  # type: ignore[valid-type]


class KeyList(_Exact):
    keys: list[ApiKey]  # type: ignore[valid-type]


class VerificationResponse(_Exact):
    verification: Verification  # type: ignore[valid-type]


class VerificationList(_Exact):
    verifications: list[Verification]  # type: ignore[valid-type]


class ErrorDetail(_Exact):
    code: ApiErrorCode
    message: str


class Error(_Exact):
    error: ErrorDetail


class OpenApiDocument(BaseModel):
    """This document."""


# -- the models by name --------------------------------------------------------------------------

# Schema(name) fails at import on a model the enum does not name; tests/api/test_openapi.py checks
# that every name has its model.
_MODELS: dict[Schema, type[BaseModel]] = {
    Schema(model.__name__): model
    for model in (
        AuditResponse,
        AuditList,
        PageList,
        IssueList,
        LighthouseList,
        PageLinkList,
        Report,
        Actions,
        AuditProgress,
        ComparisonResponse,
        MonitorResponse,
        CreatedMonitorResponse,
        MonitorList,
        RunList,
        KeyResponse,
        KeyList,
        VerificationResponse,
        VerificationList,
        OpenApiDocument,
        CreateAuditBody,
        CreateMonitorBody,
        UpdateMonitorBody,
        CreateKeyBody,
        CreateVerificationBody,
    )
}


def _model(response: Response) -> type[BaseModel]:
    return _MODELS[response] if isinstance(response, Schema) else _nested_model(response)


_HEADERS: dict[str, tuple[str, str]] = {
    # name: (description, schema type)
    "location": ("the created resource", "string"),
    "link": ('RFC 8288 `<...>; rel="next"` when another page follows', "string"),
    "www-authenticate": ('RFC 6750 challenge, `Bearer realm="siteaudit"`', "string"),
    "retry-after": ("seconds to wait before retrying", "integer"),
    "content-disposition": ('`attachment; filename="..."`, the download\'s file name', "string"),
}
_ERROR_HEADERS = {401: "www-authenticate", 429: "retry-after"}


# -- the route table ----------------------------------------------------------------------------


def operations(routes: Sequence[Route]) -> dict[tuple[str, str], Operation]:
    """Each (method, path template) of the table with its operation; two routes on one method
    and path, or two operations with one id, are refused."""
    found: dict[tuple[str, str], Operation] = {}
    for route in routes:
        if (route.method, route.template) in found:
            raise LookupError(f"two routes for {route.method} {route.template}")
        found[(route.method, route.template)] = route.operation
    ids = [operation.operation_id for operation in found.values()]
    if repeated := sorted({i for i in ids if ids.count(i) > 1}):
        raise LookupError(f"operation ids used twice: {repeated}")
    return found


def _path_parameters(route: Route) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": {"type": "string", "pattern": f"^(?:{ID_PATTERN})$"},
        }
        for name in route.parameters
    ]


# -- the document -------------------------------------------------------------------------------


@cache
def document_bytes(routes: tuple[Route, ...]) -> bytes:
    """The document of `routes` as served (built once per isolate)."""
    return json.dumps(document(routes), sort_keys=True).encode()


def document(routes: Sequence[Route]) -> dict[str, Any]:
    documented = operations(routes)
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        paths.setdefault(route.template, {})[route.method.lower()] = _operation(route)
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
            "schemas": _component_schemas(documented.values()),
            "responses": {
                str(status): _error_response(status) for status in _error_statuses(documented)
            },
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


def _component_schemas(documented: Collection[Operation]) -> dict[str, Any]:
    bodies = {op.body for op in documented if op.body is not None}
    responses = {_model(op.response) for op in documented if op.response is not None}
    pairs = [(_MODELS[name], "validation") for name in bodies]
    pairs += [(model, "serialization") for model in responses]
    pairs += [(Error, "serialization")]
    pairs.sort(key=lambda pair: pair[0].__name__)
    _, top = models_json_schema(pairs, ref_template=_REF)  # type: ignore[arg-type]
    schemas: dict[str, Any] = top.get("$defs", {})
    schemas[OpenApiDocument.__name__] = {"type": "object", "description": "this document"}
    return schemas


def errors(operation: Operation) -> list[int]:
    """The error statuses an operation documents: its own, and 400 on every one, since
    `api.app` refuses a query parameter the operation does not declare on every route."""
    return sorted({400, *operation.errors})


def _operation(route: Route) -> dict[str, Any]:
    operation = route.operation
    parameters = _path_parameters(route) + [_query(p) for p in operation.query]
    built: dict[str, Any] = {
        "operationId": operation.operation_id,
        "summary": operation.summary,
        "responses": {
            str(operation.status): _success(operation),
            **{
                str(status): {"$ref": f"#/components/responses/{status}"}
                for status in errors(operation)
            },
        },
    }
    if parameters:
        built["parameters"] = parameters
    if operation.body is not None:
        built["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _ref(_MODELS[operation.body])}},
        }
    if operation.access is Access.PUBLIC:
        built["security"] = []
    elif operation.access is Access.ADMIN:
        built["security"] = [{Access.ADMIN.value: []}]
    return built


def _success(operation: Operation) -> dict[str, Any]:
    response: dict[str, Any] = {"description": operation.summary}
    if operation.response is not None:
        schema = _ref(_model(operation.response))
        response["content"] = {operation.media_type: {"schema": schema}}
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
        "required": parameter.required,
        "description": parameter.description,
        "schema": schema,
    }
    if parameter.repeatable:
        built.update(style="form", explode=True)
    return built


def _error_statuses(documented: Mapping[tuple[str, str], Operation]) -> list[int]:
    return sorted({status for operation in documented.values() for status in errors(operation)})


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
