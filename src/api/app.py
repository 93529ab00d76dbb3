"""The HTTP API of siteaudit: routing, validation at the edge, JSON errors.

Routes
    POST /api/audits                 start an audit            201 {"audit": {...}}
    GET  /api/audits                 audits, newest first      200 {"audits": [...], "next_cursor"}
    GET  /api/audits/{id}            status and counters       200 {"audit": {...}}
    GET  /api/audits/{id}/pages      crawled pages, by url     200 {"pages": [...], "next_cursor"}
    GET  /api/audits/{id}/issues     issues, by severity       200 {"issues": [...], "next_cursor"}
    GET  /api/audits/{id}/report     counts and top issues     200 {"audit", "summary", "links"}
    POST /api/audits/{id}/resume     finish a failed audit     202 {"audit": {...}}

Lists take filters, `limit` (1-1000, default 100) and `cursor` (api.queries); a page that has a
successor carries `next_cursor` and a `Link: <...>; rel="next"` header.

Each handler parses its request, calls one `service.audits` function and renders the result; it
never builds an error response. Errors are raised (`api.errors` from parsing and routing,
`service.errors` from the service) and `handle_request` alone turns them into
`{"error": {"code", "message"}}` with 400, 404, 405, 409, 410 or 503.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from api import queries
from api.errors import (
    ApiError,
    ApiErrorCode,
    BadRequest,
    Conflict,
    Gone,
    MethodNotAllowed,
    NotFound,
    ServiceUnavailable,
)
from api.http import ApiRequest, ApiResponse, error_response, json_response
from api.queries import Query
from api.schemas import parse_create_body
from auditdb.listing import ListKind, SortKey
from auditdb.records import AuditRecord, AuditStatus
from common.bindings import Env
from common.wire import JsonObject, to_json
from service import audits, lists
from service.errors import (
    AuditNotFound,
    InvalidOptions,
    InvalidTarget,
    NotResumable,
    ServiceError,
    StateExpired,
    TargetProblem,
    WorkflowUnavailable,
)


@dataclass(frozen=True, slots=True)
class Call:
    """One routed request: what a handler parses, and who is asking."""

    request: ApiRequest
    env: Env
    args: dict[str, str]  # the route's path parameters
    owner: str  # whose resources the request may see and change


Handler = Callable[[Call], Awaitable[ApiResponse]]
_AUDIT_ID = r"(?P<audit_id>[A-Za-z0-9_-]{1,100})"


async def handle_request(request: ApiRequest, env: Env) -> ApiResponse:
    """Route the request; the one place where errors, the API's and the service's, become JSON."""
    try:
        return await _dispatch(request, env)
    except ServiceError as exc:
        return error_response(api_error_for(exc))
    except ApiError as exc:
        return error_response(exc)


async def _dispatch(request: ApiRequest, env: Env) -> ApiResponse:
    for pattern, methods in _ROUTES:
        match = pattern.fullmatch(request.path)
        if match is None:
            continue
        handler = methods.get(request.method.upper())
        if handler is None:
            message = f"{request.method} is not allowed on {request.path}"
            raise MethodNotAllowed(message, allow=list(methods))
        # Every request acts for the single local owner until the API authenticates callers.
        return await handler(Call(request, env, match.groupdict(), audits.LOCAL_OWNER))
    raise NotFound(f"no route for {request.path}")


_TARGET_CODES = {
    TargetProblem.MALFORMED: ApiErrorCode.INVALID_URL,
    TargetProblem.BLOCKED: ApiErrorCode.TARGET_BLOCKED,
}


def api_error_for(exc: ServiceError) -> ApiError:
    """The API's answer to a service refusal; the service's message is passed through."""
    message = str(exc)
    match exc:
        case InvalidTarget():
            return BadRequest(message, _TARGET_CODES[exc.problem])
        case InvalidOptions():
            return BadRequest(message, ApiErrorCode.INVALID_REQUEST)
        case AuditNotFound():
            return NotFound(message)
        case NotResumable():
            return Conflict(message)
        case StateExpired():
            return Gone(message)
        case WorkflowUnavailable():
            return ServiceUnavailable(message)
    # Unreachable while tests/api/test_errors.py passes: it maps every ServiceError subclass.
    raise TypeError(f"no API error for {type(exc).__name__}") from exc


# -- handlers: parse, call the service, render -------------------------------------------------


async def create_audit(call: Call) -> ApiResponse:
    audit = await audits.create_audit(call.env, call.owner, parse_create_body(call.request.body))
    location = {"location": f"/api/audits/{audit.id}"}
    return json_response({"audit": audit_summary(audit)}, 201, location)


async def list_audits(call: Call) -> ApiResponse:
    query = Query.of(call.request.url)
    filter_ = queries.parse_audit_filter(query)
    page = await lists.list_audits(
        call.env, call.owner, filter_, queries.parse_paging(query, ListKind.AUDITS)
    )
    return _list_response(
        call, query, ListKind.AUDITS, [audit_summary(a) for a in page.items], page.next_after
    )


async def get_audit(call: Call) -> ApiResponse:
    audit = await audits.read_audit(call.env, call.owner, call.args["audit_id"])
    return json_response({"audit": audit_summary(audit)})


async def get_pages(call: Call) -> ApiResponse:
    query = Query.of(call.request.url)
    filter_ = queries.parse_page_filter(query)
    paging = queries.parse_paging(query, ListKind.PAGES)
    page = await lists.list_pages(call.env, call.owner, call.args["audit_id"], filter_, paging)
    return _list_response(
        call, query, ListKind.PAGES, [p.to_dict() for p in page.items], page.next_after
    )


async def get_issues(call: Call) -> ApiResponse:
    query = Query.of(call.request.url)
    filter_ = queries.parse_issue_filter(query)
    paging = queries.parse_paging(query, ListKind.ISSUES)
    page = await lists.list_issues(call.env, call.owner, call.args["audit_id"], filter_, paging)
    return _list_response(
        call, query, ListKind.ISSUES, [i.to_dict() for i in page.items], page.next_after
    )


def _list_response(
    call: Call, query: Query, kind: ListKind, items: list[JsonObject], after: SortKey | None
) -> ApiResponse:
    """`{"<kind>": [...], "next_cursor"}`, with an RFC 8288 `Link: <...>; rel="next"` header
    carrying the same path and filters when another page follows."""
    cursor = queries.next_cursor(kind, after)
    headers = {} if cursor is None else {"link": query.next_link(call.request.path, cursor)}
    return json_response({str(kind): items, "next_cursor": cursor}, headers=headers)


async def get_report(call: Call) -> ApiResponse:
    report = await lists.audit_report(call.env, call.owner, call.args["audit_id"])
    base = f"/api/audits/{report.audit.id}"
    summary = {
        "issues_total": report.counts.total,
        "issues_by_type": report.counts.by_type,
        "issues_by_severity": report.counts.by_severity,
        "top_issues": [to_json(top) for top in report.top_issues],
    }
    return json_response(
        {
            "audit": audit_summary(report.audit),
            "summary": summary,
            "links": {"pages": f"{base}/pages", "issues": f"{base}/issues"},
        }
    )


async def resume_audit(call: Call) -> ApiResponse:
    audit = await audits.resume_audit(call.env, call.owner, call.args["audit_id"])
    return json_response({"audit": audit_summary(audit)}, 202)


def audit_summary(audit: AuditRecord) -> JsonObject:
    summary = audit.to_dict()
    summary["stopped_early"] = audit.status is AuditStatus.FAILED and audit.pages_crawled > 0
    return summary


_ROUTES: list[tuple[re.Pattern[str], dict[str, Handler]]] = [
    (re.compile(r"/api/audits/?"), {"GET": list_audits, "POST": create_audit}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}"), {"GET": get_audit}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/pages"), {"GET": get_pages}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/issues"), {"GET": get_issues}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/report"), {"GET": get_report}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/resume"), {"POST": resume_audit}),
]
