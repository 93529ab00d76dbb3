"""The HTTP API of siteaudit: routing, validation at the edge, JSON errors.

Routes
    GET  /api/openapi.json           this API's OpenAPI 3.1 document, without a key (api.openapi)
    POST /api/audits                 start an audit            201 {"audit": {...}}
    GET  /api/audits                 audits, newest first      200 {"audits": [...], "next_cursor"}
    GET  /api/audits/{id}            status and counters       200 {"audit": {...}}
    DELETE /api/audits/{id}          stop, wipe and delete     204
    GET  /api/audits/{id}/pages      crawled pages, by url     200 {"pages": [...], "next_cursor"}
    GET  /api/audits/{id}/issues     issues, by severity       200 {"issues": [...], "next_cursor"}
    GET  /api/audits/{id}/lighthouse Lighthouse rows, by id   200 {"lighthouse": [...], "next_cursor"}
    GET  /api/audits/{id}/report     scores, ranked actions,   200 {"scores", "actions", "audit",
                                     counts and top issues         "summary", "links", ...}
    GET  /api/audits/{id}/actions    what to fix first         200 {"audit_id", "scores",
                                                                    "actions", "note"}
    GET  /api/audits/{id}/report.html  the HTML report, streamed 200 text/html (service.html_report)
    POST /api/audits/{id}/cancel     stop, keep partial results 202 {"audit": {...}}
    POST /api/audits/{id}/resume     finish a failed or        202 {"audit": {...}}
                                     cancelled audit
    GET  /api/audits/{id}/progress   live feed while running   200 {"audit", "frontier",
                                                                   "external", "recent"}
    GET  /api/audits/{id}/pages.csv      every page, streamed  200 text/csv (RFC 4180)
    GET  /api/audits/{id}/pages.ndjson   every page, streamed  200 application/x-ndjson
    GET  /api/audits/{id}/issues.csv     every issue, streamed 200 text/csv (RFC 4180)
    GET  /api/audits/{id}/issues.ndjson  every issue, streamed 200 application/x-ndjson
    GET  /api/audits/{id}/lighthouse.csv every Lighthouse row  200 text/csv
    POST /mcp                        MCP tools (api.mcp.transport), the same keys and limits
    GET  /api/audits/{a}/compare/{b} changes from a to b       200 {"comparison": {...}}
    POST /api/monitors               schedule re-audits        201 {"monitor": {..., "webhook_secret"}}
    GET  /api/monitors               monitors, newest first    200 {"monitors": [...], "next_cursor"}
    GET  /api/monitors/{id}          one monitor               200 {"monitor": {...}}
    PATCH /api/monitors/{id}         change fields given       200 {"monitor": {...}}
    DELETE /api/monitors/{id}        delete with its runs      204
    GET  /api/monitors/{id}/runs     its runs, newest first    200 {"runs": [...], "next_cursor"}
  admin routes (only when the ADMIN_TOKEN secret is set; otherwise they do not exist):
    POST   /api/keys                 create an API key         201 {"key": {..., "secret"}}
    GET    /api/keys                 every key, newest first   200 {"keys": [...]}
    DELETE /api/keys/{id}            revoke a key              204
  the web app (api.webapp), without a key: GET|HEAD /, /app.js, /app.css, /favicon.svg

Every other /api/ request carries `Authorization: Bearer <credential>` (`api.auth`): an API key
for the audit routes, whose owner becomes `Call.owner`, or the admin token for the admin routes;
anything else is a 401 before routing, so an unauthenticated caller learns nothing about ids.

Lists take filters, `limit` (1-1000, default 100) and `cursor` (api.queries); a page that has a
successor carries `next_cursor` and a `Link: <...>; rel="next"` header.

Exports take the same filters as their list, but no `limit` or `cursor`: every matching row, in
list order, streamed one keyset page at a time (`service.exports`) with a `Content-Disposition:
attachment` file name. The owner and the filters are checked before the stream starts, so a
refusal is an ordinary JSON error; once the 200 has gone out, a failure can only cut the stream.

Each handler parses its request, calls one `service.audits` function and renders the result; it
never builds an error response. Errors are raised (`api.errors` from parsing and routing,
`service.errors` from the service) and `handle_request` alone turns them into
`{"error": {"code", "message"}}` with 400, 401, 404, 405, 409, 410, 413 or 503, and gives every
response the headers of `api.hardening`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from api import auth, hardening, queries, webapp
from api.errors import (
    ApiError,
    ApiErrorCode,
    BadRequest,
    Conflict,
    Gone,
    MethodNotAllowed,
    NotFound,
    ServiceUnavailable,
    TooManyRequests,
    Unauthorized,
)
from api.http import ApiRequest, ApiResponse, error_response, json_response, stream_response
from api.mcp import transport as mcp
from api.queries import Query
from auditdb.keys import ApiKeyRecord
from auditdb.listing import ListKind, SortKey
from auditdb.monitors import MonitorRecord, MonitorRunRecord
from auditdb.records import AuditRecord
from common.bindings import Env
from common.wire import JsonObject, to_json
from service import (
    audits,
    compare,
    exports,
    html_report,
    keys,
    limits,
    lists,
    monitors,
    progress,
    verdict,
)
from service.errors import (
    AuditNotFound,
    InvalidKeyFields,
    InvalidOptions,
    InvalidTarget,
    KeyNotFound,
    MonitorLimitReached,
    MonitorNotFound,
    NotAuthenticated,
    NotCancellable,
    NotResumable,
    RateLimited,
    ServiceError,
    StateExpired,
    StorageUnavailable,
    TargetProblem,
    WorkflowUnavailable,
)
from service.exports import ExportFormat
from service.run_reasons import run_reason


@dataclass(frozen=True, slots=True)
class Call:
    """One routed request: what a handler parses, and who is asking."""

    request: ApiRequest
    env: Env
    args: dict[str, str]  # the route's path parameters
    owner: str  # whose resources the request may see and change
    key_id: str | None = None  # the API key it came with (None on admin routes)


Handler = Callable[[Call], Awaitable[ApiResponse]]
Routes = list[tuple[re.Pattern[str], dict[str, Handler]]]
_AUDIT_ID = r"(?P<audit_id>[A-Za-z0-9_-]{1,100})"
_OTHER_ID = r"(?P<other_id>[A-Za-z0-9_-]{1,100})"
_KEY_ID = r"(?P<key_id>[A-Za-z0-9_-]{1,100})"
_MONITOR_ID = r"(?P<monitor_id>[A-Za-z0-9_-]{1,100})"
# Call.owner on admin routes: they act across owners, and no key's owner can be empty.
_NO_OWNER = ""


async def handle_request(request: ApiRequest, env: Env) -> ApiResponse:
    """Route the request; the one place where errors, the API's and the service's, become JSON,
    and where every response gets its headers."""
    origin = hardening.allowed_origin(request, env)
    try:
        if origin is not None and hardening.is_preflight(request):
            response = hardening.preflight_response()
        else:
            hardening.check_body_size(request)
            response = await _dispatch(request, env)
    except ServiceError as exc:
        response = error_response(api_error_for(exc))
    except ApiError as exc:
        response = error_response(exc)
    return hardening.harden(response, origin)


async def _dispatch(request: ApiRequest, env: Env) -> ApiResponse:
    path = request.path
    if (found := _match(_PUBLIC_ROUTES, path)) is not None:
        owner, key_id = _NO_OWNER, None
    elif auth.admin_enabled(env) and (found := _match(_ADMIN_ROUTES, path)) is not None:
        auth.authorize_admin(request, env)
        owner, key_id = _NO_OWNER, None
    elif path.startswith("/api/"):
        key = await _charged_key(request, env)
        owner, key_id = key.owner, key.id
        found = _match(_ROUTES, path)
    elif path == mcp.PATH:
        return await mcp.handle(request, env, _charged_key)
    elif webapp.is_asset(path):
        return webapp.serve(request)
    else:
        found = None
    if found is None:
        raise NotFound(f"no route for {path}")
    methods, args = found
    handler = methods.get(request.method.upper())
    if handler is None:
        message = f"{request.method} is not allowed on {path}"
        raise MethodNotAllowed(message, allow=list(methods))
    return await handler(Call(request, env, args, owner, key_id))


async def _charged_key(request: ApiRequest, env: Env) -> ApiKeyRecord:
    """The API key of an /api/ or /mcp request, charged one request of its rate limit."""
    key = await auth.authenticated_key(request, env)
    await limits.charge_request(env, key.id)
    return key


def _match(routes: Routes, path: str) -> tuple[dict[str, Handler], dict[str, str]] | None:
    for pattern, methods in routes:
        if (match := pattern.fullmatch(path)) is not None:
            return methods, match.groupdict()
    return None


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
        case NotResumable() | NotCancellable():
            return Conflict(message)
        case StateExpired():
            return Gone(message)
        case RateLimited():
            return TooManyRequests(message, exc.retry_after_s)
        case WorkflowUnavailable():
            return ServiceUnavailable(message)
        case StorageUnavailable():
            return ServiceUnavailable(message, ApiErrorCode.STORAGE_UNAVAILABLE)
        case NotAuthenticated():
            return Unauthorized(message, token_given=True)
        case InvalidKeyFields():
            return BadRequest(message, ApiErrorCode.INVALID_REQUEST)
        case KeyNotFound():
            return NotFound(message)
        case MonitorNotFound():
            return NotFound(message)
        case MonitorLimitReached():
            return Conflict(message)
    # Unreachable while tests/api/test_errors.py passes: it maps every ServiceError subclass.
    raise TypeError(f"no API error for {type(exc).__name__}") from exc


# -- handlers: parse, call the service, render -------------------------------------------------


async def create_audit(call: Call) -> ApiResponse:
    from api.schemas import parse_create_body  # pydantic: loaded by the routes that take a body

    body = parse_create_body(call.request.body)
    audit = await audits.create_audit(call.env, call.owner, body, call.key_id)
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


async def export_pages(call: Call, fmt: ExportFormat) -> ApiResponse:
    filter_ = queries.parse_page_filter(Query.of(call.request.url), paging=False)
    found = await exports.export_pages(call.env, call.owner, call.args["audit_id"], filter_, fmt)
    return stream_response(found.chunks, found.media_type, found.file_name)


async def export_issues(call: Call, fmt: ExportFormat) -> ApiResponse:
    filter_ = queries.parse_issue_filter(Query.of(call.request.url), paging=False)
    found = await exports.export_issues(call.env, call.owner, call.args["audit_id"], filter_, fmt)
    return stream_response(found.chunks, found.media_type, found.file_name)


async def get_html_report(call: Call) -> ApiResponse:
    """The report as one HTML file; it is data to the web app, which shows it in a sandboxed
    frame, and carries its own policy as a header too, should anything render it directly."""
    found = await html_report.export_html(call.env, call.owner, call.args["audit_id"])
    response = stream_response(found.chunks, found.media_type, found.file_name)
    policy = {"content-security-policy": html_report.CSP}
    return dataclasses.replace(response, headers={**response.headers, **policy})


async def export_lighthouse(call: Call) -> ApiResponse:
    found = await exports.export_lighthouse(call.env, call.owner, call.args["audit_id"])
    return stream_response(found.chunks, found.media_type, found.file_name)


async def get_actions(call: Call) -> ApiResponse:
    audit_id = call.args["audit_id"]
    found = await verdict.audit_verdict(call.env, call.owner, audit_id)
    return json_response({"audit_id": audit_id, **found.to_dict()})


async def get_report(call: Call) -> ApiResponse:
    report = await lists.audit_report(call.env, call.owner, call.args["audit_id"])
    found = await verdict.verdict_of(call.env, report.audit)
    base = f"/api/audits/{report.audit.id}"
    summary = {
        "issues_total": report.counts.total,
        "issues_by_type": report.counts.by_type,
        "issues_by_severity": report.counts.by_severity,
        "top_issues": [to_json(top) for top in report.top_issues],
    }
    return json_response(
        {
            "scores": None if found.scores is None else found.scores.to_dict(),
            "actions": [action.to_dict() for action in found.actions],
            "verdict_note": found.note,
            "audit": audit_summary(report.audit),
            "summary": summary,
            "security": report.security.to_dict(),
            "exposure": report.exposure.to_dict(),
            "timing": None if report.timing is None else report.timing.to_dict(),
            "links": {
                "pages": f"{base}/pages",
                "issues": f"{base}/issues",
                "lighthouse": f"{base}/lighthouse",
            },
        }
    )


async def delete_audit(call: Call) -> ApiResponse:
    await audits.delete_audit(call.env, call.owner, call.args["audit_id"])
    return ApiResponse(204, b"")


async def get_progress(call: Call) -> ApiResponse:
    limit = _int_param(
        call.request, "limit", default=progress.MAX_RECENT, low=1, high=progress.MAX_RECENT
    )
    found = await progress.audit_progress(call.env, call.owner, call.args["audit_id"], limit)
    return json_response(
        {
            "audit": audit_summary(found.audit),
            "frontier": None if found.frontier is None else found.frontier.to_dict(),
            "external": None if found.external is None else found.external.to_dict(),
            "recent": [entry.to_dict() for entry in found.recent],
        }
    )


def _int_param(request: ApiRequest, name: str, *, default: int, low: int, high: int) -> int:
    values = request.query.get(name)
    if not values:
        return default
    try:
        value = int(values[-1])
    except ValueError:
        raise BadRequest(f"{name} must be an integer, not {values[-1]!r}") from None
    if not low <= value <= high:
        raise BadRequest(f"{name} must be between {low} and {high}")
    return value


async def cancel_audit(call: Call) -> ApiResponse:
    audit = await audits.cancel_audit(call.env, call.owner, call.args["audit_id"])
    return json_response({"audit": audit_summary(audit)}, 202)


async def compare_audits(call: Call) -> ApiResponse:
    """`limit` caps each list (1-1000, default 100); every list carries its total."""
    limit = _int_param(
        call.request, "limit", default=compare.DEFAULT_LIMIT, low=1, high=compare.MAX_LIMIT
    )
    found = await compare.compare_audits(
        call.env, call.owner, call.args["audit_id"], call.args["other_id"], limit
    )
    return json_response({"comparison": found.to_dict()})


async def resume_audit(call: Call) -> ApiResponse:
    audit = await audits.resume_audit(call.env, call.owner, call.args["audit_id"])
    return json_response({"audit": audit_summary(audit)}, 202)


async def create_key(call: Call) -> ApiResponse:
    from api.schemas import parse_create_key_body

    body = parse_create_key_body(call.request.body)
    created = await keys.create_key(call.env, body.owner, body.name)
    location = {"location": f"/api/keys/{created.key.id}"}
    return json_response(
        {"key": {**key_summary(created.key), "secret": created.secret}}, 201, location
    )


async def list_keys(call: Call) -> ApiResponse:
    found = await keys.list_keys(call.env)
    return json_response({"keys": [key_summary(k) for k in found]})


async def revoke_key(call: Call) -> ApiResponse:
    await keys.revoke_key(call.env, call.args["key_id"])
    return ApiResponse(status=204, body=b"")


async def create_monitor(call: Call) -> ApiResponse:
    from api.schemas import parse_create_monitor_body

    request = parse_create_monitor_body(call.request.body)
    created = await monitors.create_monitor(call.env, call.owner, request)
    body = {**monitor_summary(created.monitor), "webhook_secret": created.webhook_secret}
    location = {"location": f"/api/monitors/{created.monitor.id}"}
    return json_response({"monitor": body}, 201, location)


async def list_monitors(call: Call) -> ApiResponse:
    query = Query.of(call.request.url)
    query.check_names(ListKind.MONITORS)
    paging = queries.parse_paging(query, ListKind.MONITORS)
    page = await monitors.list_monitors(call.env, call.owner, paging)
    items = [monitor_summary(m) for m in page.items]
    return _list_response(call, query, ListKind.MONITORS, items, page.next_after)


async def get_lighthouse(call: Call) -> ApiResponse:
    query = Query.of(call.request.url)
    query.check_names(ListKind.LIGHTHOUSE)
    paging = queries.parse_paging(query, ListKind.LIGHTHOUSE)
    page = await lists.list_lighthouse(call.env, call.owner, call.args["audit_id"], paging)
    items = [row.to_dict() for row in page.items]
    return _list_response(call, query, ListKind.LIGHTHOUSE, items, page.next_after)


async def list_monitor_runs(call: Call) -> ApiResponse:
    query = Query.of(call.request.url)
    query.check_names(ListKind.RUNS)
    paging = queries.parse_paging(query, ListKind.RUNS)
    page = await monitors.list_runs(call.env, call.owner, call.args["monitor_id"], paging)
    items = [run_summary(run) for run in page.items]
    return _list_response(call, query, ListKind.RUNS, items, page.next_after)


async def get_monitor(call: Call) -> ApiResponse:
    monitor = await monitors.get_monitor(call.env, call.owner, call.args["monitor_id"])
    return json_response({"monitor": monitor_summary(monitor)})


async def update_monitor(call: Call) -> ApiResponse:
    from api.schemas import parse_update_monitor_body

    changes = parse_update_monitor_body(call.request.body)
    monitor_id = call.args["monitor_id"]
    monitor = await monitors.update_monitor(call.env, call.owner, monitor_id, changes)
    return json_response({"monitor": monitor_summary(monitor)})


async def delete_monitor(call: Call) -> ApiResponse:
    await monitors.delete_monitor(call.env, call.owner, call.args["monitor_id"])
    return ApiResponse(204, b"")


def monitor_summary(monitor: MonitorRecord) -> JsonObject:
    """The monitor as the API shows it: never its secret (not in the record), nor its claim."""
    summary = monitor.to_dict()
    del summary["lock_until"]
    return summary


async def get_openapi(call: Call) -> ApiResponse:
    from api.openapi import document_bytes  # pydantic: loaded when the document is asked for

    return ApiResponse(200, document_bytes(), {"content-type": "application/json; charset=utf-8"})


def run_summary(run: MonitorRunRecord) -> JsonObject:
    """The run as recorded, whether its full report was stored in R2, and a failed run's reason
    in a sentence (service.run_reasons)."""
    return {**run.to_dict(), "has_report": run.r2_key is not None, "reason": run_reason(run)}


def key_summary(key: ApiKeyRecord) -> JsonObject:
    return {**key.to_dict(), "revoked": key.revoked}


def audit_summary(audit: AuditRecord) -> JsonObject:
    return audits.audit_view(audit)


_CSV, _NDJSON = ExportFormat.CSV, ExportFormat.NDJSON
_EXPORT = rf"/api/audits/{_AUDIT_ID}"

_PUBLIC_ROUTES: Routes = [(re.compile(r"/api/openapi\.json"), {"GET": get_openapi})]

_ROUTES: Routes = [
    (re.compile(r"/api/audits/?"), {"GET": list_audits, "POST": create_audit}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}"), {"GET": get_audit, "DELETE": delete_audit}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/pages"), {"GET": get_pages}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/issues"), {"GET": get_issues}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/report"), {"GET": get_report}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/actions"), {"GET": get_actions}),
    (re.compile(rf"{_EXPORT}/report\.html"), {"GET": get_html_report}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/cancel"), {"POST": cancel_audit}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/resume"), {"POST": resume_audit}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/progress"), {"GET": get_progress}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/lighthouse"), {"GET": get_lighthouse}),
    (re.compile(rf"{_EXPORT}/pages\.csv"), {"GET": partial(export_pages, fmt=_CSV)}),
    (re.compile(rf"{_EXPORT}/pages\.ndjson"), {"GET": partial(export_pages, fmt=_NDJSON)}),
    (re.compile(rf"{_EXPORT}/issues\.csv"), {"GET": partial(export_issues, fmt=_CSV)}),
    (re.compile(rf"{_EXPORT}/issues\.ndjson"), {"GET": partial(export_issues, fmt=_NDJSON)}),
    (re.compile(rf"{_EXPORT}/lighthouse\.csv"), {"GET": export_lighthouse}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/compare/{_OTHER_ID}"), {"GET": compare_audits}),
    (re.compile(r"/api/monitors/?"), {"GET": list_monitors, "POST": create_monitor}),
    (
        re.compile(rf"/api/monitors/{_MONITOR_ID}"),
        {"GET": get_monitor, "PATCH": update_monitor, "DELETE": delete_monitor},
    ),
    (re.compile(rf"/api/monitors/{_MONITOR_ID}/runs"), {"GET": list_monitor_runs}),
]

_ADMIN_ROUTES: Routes = [
    (re.compile(r"/api/keys/?"), {"GET": list_keys, "POST": create_key}),
    (re.compile(rf"/api/keys/{_KEY_ID}"), {"DELETE": revoke_key}),
]


def all_routes() -> Routes:
    """Every route table, admin routes included: what the OpenAPI document describes."""
    return [*_PUBLIC_ROUTES, *_ROUTES, *_ADMIN_ROUTES]
