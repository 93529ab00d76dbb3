"""Every route of the HTTP API, once: its method, its path template, the handler that answers it
and the operation the OpenAPI document describes (`api.routing`). The router matches paths
against this table (`api.app`) and `GET /api/openapi.json` documents it (`api.openapi`), so an
endpoint is added here and in one handler module, and the document follows.

The handlers are grouped by resource under `api/handlers/`; the MCP endpoint (`api.mcp`) and the
web app (`api.webapp`) are surfaces of their own, outside this table and the document.
"""

from __future__ import annotations

from functools import partial

from api import auth, queries
from api.handlers import audits, keys, lists, monitors, verifications
from api.http import ApiResponse
from api.queries import Parameter
from api.routing import Access, Call, Operation, Route, Schema
from auditdb.listing import ListKind
from common.bindings import Env
from service import compare, progress
from service.exports import ExportFormat
from service.monitor_runs import RunResult


async def get_openapi(call: Call) -> ApiResponse:
    from api.openapi import document_bytes  # pydantic: loaded when the document is asked for

    body = document_bytes(deployed_routes(call.env))
    return ApiResponse(200, body, {"content-type": "application/json; charset=utf-8"})


def deployed_routes(env: Env) -> tuple[Route, ...]:
    """The routes this deployment answers: the admin routes only where ADMIN_TOKEN is set
    (`api.app` answers 404 for them otherwise), so the document lists no route that is not."""
    if auth.admin_enabled(env):
        return ROUTES
    return tuple(route for route in ROUTES if route.access is not Access.ADMIN)


_CSV, _NDJSON = "text/csv", "application/x-ndjson"
# Every keyed route can answer 401 (no valid key) and 429 (the per-key request rate).
_KEYED = (401, 429)
_PER_AUDIT = (*_KEYED, 404)
# Admin routes: 401 without the admin token, 404 where ADMIN_TOKEN is not set (no such route).
_ADMIN = (401, 404)
_PER_MONITOR = (*_KEYED, 404)
_PER_VERIFICATION = (*_KEYED, 404)
_COMPARE_LIMIT = Parameter(
    "limit", "rows shown in each list (each carries its total)", integers=(1, compare.MAX_LIMIT)
)
_PROGRESS_LIMIT = Parameter(
    "limit", "newest crawled URLs to show", integers=(1, progress.MAX_RECENT)
)


def _listing(
    operation_id: str, summary: str, response: Schema, kind: ListKind, errors: tuple[int, ...]
) -> Operation:
    """A keyset-paginated list: its filters and paging, a Link header when a page follows."""
    query = (*queries.PARAMETERS[kind], *queries.PAGING)
    return Operation(operation_id, summary, 200, response, errors, query=query, headers=("link",))


def _creating(
    operation_id: str,
    summary: str,
    response: Schema,
    body: Schema | None,
    errors: tuple[int, ...],
    access: Access = Access.KEY,
) -> Operation:
    """A create: a JSON body (`body` None: none), 201 with the new resource, its URL in a
    Location header."""
    return Operation(
        operation_id,
        summary,
        201,
        response,
        errors,
        body=body,
        access=access,
        headers=("location",),
    )


def _export(kind: ListKind, fmt: ExportFormat) -> Route:
    """A streamed export: the list's filters, no paging, a text body as a download."""
    extension = str(fmt)
    name = f"export{str(kind).title()}{extension.title()}"
    summary = f"every {str(kind).removesuffix('s')} row matching the filters, as {extension}"
    operation = Operation(
        name,
        summary,
        200,
        None,
        (400, *_PER_AUDIT),
        query=queries.PARAMETERS[kind],
        media_type=_CSV if fmt is ExportFormat.CSV else _NDJSON,
        headers=("content-disposition",),
    )
    handler = lists.export_pages if kind is ListKind.PAGES else lists.export_issues
    template = f"/api/audits/{{audit_id}}/{kind}.{extension}"
    return Route("GET", template, partial(handler, fmt=fmt), operation)


ROUTES: tuple[Route, ...] = (
    Route(
        "GET",
        "/api/openapi.json",
        get_openapi,
        Operation(
            "getOpenApi",
            "this document",
            200,
            Schema.OPENAPI_DOCUMENT,
            access=Access.PUBLIC,
        ),
    ),
    # -- audits (api.handlers.audits) --------------------------------------------------------
    Route(
        "GET",
        "/api/audits",
        audits.list_audits,
        _listing(
            "listAudits",
            "the key owner's audits, newest first",
            Schema.AUDIT_LIST,
            ListKind.AUDITS,
            (400, *_KEYED),
        ),
    ),
    Route(
        "POST",
        "/api/audits",
        audits.create_audit,
        _creating(
            "createAudit",
            "start an audit",
            Schema.AUDIT_RESPONSE,
            Schema.CREATE_AUDIT_BODY,
            (400, *_KEYED, 403, 413, 503),
        ),
    ),
    Route(
        "GET",
        "/api/audits/{audit_id}",
        audits.get_audit,
        Operation(
            "getAudit", "an audit's status and counters", 200, Schema.AUDIT_RESPONSE, _PER_AUDIT
        ),
    ),
    Route(
        "DELETE",
        "/api/audits/{audit_id}",
        audits.delete_audit,
        Operation(
            "deleteAudit",
            "delete a finished audit with its results (a running one: 409, cancel it first)",
            204,
            None,
            (*_PER_AUDIT, 409, 503),
        ),
    ),
    Route(
        "GET",
        "/api/audits/{audit_id}/report",
        audits.get_report,
        Operation(
            "getReport",
            "the scores, the ranked actions, counts by type and severity, the top issues",
            200,
            Schema.REPORT,
            _PER_AUDIT,
        ),
    ),
    Route(
        "GET",
        "/api/audits/{audit_id}/actions",
        audits.get_actions,
        Operation(
            "getActions",
            "what to fix first: the scores and the findings ranked by what fixing each is worth",
            200,
            Schema.ACTIONS,
            _PER_AUDIT,
        ),
    ),
    Route(
        "POST",
        "/api/audits/{audit_id}/cancel",
        audits.cancel_audit,
        Operation(
            "cancelAudit",
            "stop a running audit and keep its results (status cancelled)",
            202,
            Schema.AUDIT_RESPONSE,
            (*_PER_AUDIT, 409),
        ),
    ),
    Route(
        "POST",
        "/api/audits/{audit_id}/resume",
        audits.resume_audit,
        Operation(
            "resumeAudit",
            "finish a failed audit from its retained crawl state",
            202,
            Schema.AUDIT_RESPONSE,
            (*_PER_AUDIT, 409, 410, 503),
        ),
    ),
    Route(
        "POST",
        "/api/audits/{audit_id}/rerun",
        audits.rerun_audit,
        _creating(
            "rerunAudit",
            "start a new audit of the same URL with the same options",
            Schema.AUDIT_RESPONSE,
            None,
            (400, *_PER_AUDIT, 503),
        ),
    ),
    Route(
        "GET",
        "/api/audits/{audit_id}/progress",
        audits.get_progress,
        Operation(
            "getProgress",
            "the newest crawled URLs while the audit runs",
            200,
            Schema.AUDIT_PROGRESS,
            (400, *_PER_AUDIT),
            query=(_PROGRESS_LIMIT,),
        ),
    ),
    Route(
        "GET",
        "/api/audits/{audit_id}/compare/{other_id}",
        audits.compare_audits,
        Operation(
            "compareAudits",
            "what changed from one audit to another: issues new, fixed and unchanged, pages",
            200,
            Schema.COMPARISON_RESPONSE,
            (400, *_PER_AUDIT),
            query=(_COMPARE_LIMIT,),
        ),
    ),
    # -- an audit's lists and exports (api.handlers.lists) -----------------------------------
    Route(
        "GET",
        "/api/audits/{audit_id}/pages",
        lists.get_pages,
        _listing(
            "listPages",
            "an audit's crawled pages, by URL",
            Schema.PAGE_LIST,
            ListKind.PAGES,
            (400, *_PER_AUDIT),
        ),
    ),
    Route(
        "GET",
        "/api/audits/{audit_id}/issues",
        lists.get_issues,
        _listing(
            "listIssues",
            "an audit's issues, most severe first",
            Schema.ISSUE_LIST,
            ListKind.ISSUES,
            (400, *_PER_AUDIT),
        ),
    ),
    Route(
        "GET",
        "/api/audits/{audit_id}/lighthouse",
        lists.get_lighthouse,
        _listing(
            "listLighthouse",
            "an audit's Lighthouse results (page x strategy), partial while the phase runs",
            Schema.LIGHTHOUSE_LIST,
            ListKind.LIGHTHOUSE,
            (400, *_PER_AUDIT),
        ),
    ),
    Route(
        "GET",
        "/api/audits/{audit_id}/pages/links",
        lists.get_page_links,
        _listing(
            "listPageLinks",
            "a page's inlinks or outlinks with their anchor texts, as the audit kept them",
            Schema.PAGE_LINK_LIST,
            ListKind.LINKS,
            (400, *_PER_AUDIT),
        ),
    ),
    Route(
        "GET",
        "/api/audits/{audit_id}/report.html",
        lists.get_html_report,
        Operation(
            "getHtmlReport",
            "the report as one self-contained HTML file (charts, issues, pages), streamed",
            200,
            None,
            _PER_AUDIT,
            media_type="text/html",
            headers=("content-disposition",),
        ),
    ),
    _export(ListKind.PAGES, ExportFormat.CSV),
    _export(ListKind.PAGES, ExportFormat.NDJSON),
    _export(ListKind.ISSUES, ExportFormat.CSV),
    _export(ListKind.ISSUES, ExportFormat.NDJSON),
    Route(
        "GET",
        "/api/audits/{audit_id}/lighthouse.csv",
        lists.export_lighthouse,
        Operation(
            "exportLighthouseCsv",
            "every Lighthouse row (page x strategy, lab and field values), as csv",
            200,
            None,
            _PER_AUDIT,
            media_type=_CSV,
            headers=("content-disposition",),
        ),
    ),
    # -- monitors (api.handlers.monitors) ----------------------------------------------------
    Route(
        "GET",
        "/api/monitors",
        monitors.list_monitors,
        _listing(
            "listMonitors",
            "the key owner's monitors, newest first",
            Schema.MONITOR_LIST,
            ListKind.MONITORS,
            (400, *_KEYED),
        ),
    ),
    Route(
        "POST",
        "/api/monitors",
        monitors.create_monitor,
        _creating(
            "createMonitor",
            "re-audit a site on a schedule (the webhook secret is shown only here)",
            Schema.CREATED_MONITOR_RESPONSE,
            Schema.CREATE_MONITOR_BODY,
            (400, *_KEYED, 403, 409, 413),
        ),
    ),
    Route(
        "GET",
        "/api/monitors/{monitor_id}",
        monitors.get_monitor,
        Operation("getMonitor", "a monitor", 200, Schema.MONITOR_RESPONSE, _PER_MONITOR),
    ),
    Route(
        "PATCH",
        "/api/monitors/{monitor_id}",
        monitors.update_monitor,
        Operation(
            "updateMonitor",
            "change the fields given",
            200,
            Schema.MONITOR_RESPONSE,
            (400, *_PER_MONITOR, 403, 413),
            body=Schema.UPDATE_MONITOR_BODY,
        ),
    ),
    Route(
        "DELETE",
        "/api/monitors/{monitor_id}",
        monitors.delete_monitor,
        Operation("deleteMonitor", "delete a monitor with its runs", 204, None, _PER_MONITOR),
    ),
    Route(
        "GET",
        "/api/monitors/{monitor_id}/runs",
        monitors.list_monitor_runs,
        _listing(
            "listMonitorRuns",
            "a monitor's runs, newest first",
            Schema.RUN_LIST,
            ListKind.RUNS,
            (400, *_PER_MONITOR),
        ),
    ),
    Route(
        "POST",
        "/api/monitors/{monitor_id}/run",
        monitors.run_monitor_now,
        Operation(
            "runMonitorNow",
            "start a run of an active monitor now (its audit's id in the answer)",
            202,
            RunResult,
            (*_PER_MONITOR, 409),
        ),
    ),
    # -- host verifications (api.handlers.verifications; docs/manual/verify.md) --------------
    Route(
        "GET",
        "/api/verifications",
        verifications.list_verifications,
        Operation(
            "listVerifications",
            "the key owner's host verifications, by host",
            200,
            Schema.VERIFICATION_LIST,
            _KEYED,
        ),
    ),
    Route(
        "POST",
        "/api/verifications",
        verifications.create_verification,
        _creating(
            "createVerification",
            "verify a host (its token, and where to publish it); the same host again: the same "
            "token, with the method asked for",
            Schema.VERIFICATION_RESPONSE,
            Schema.CREATE_VERIFICATION_BODY,
            (400, *_KEYED, 413),
        ),
    ),
    Route(
        "GET",
        "/api/verifications/{verification_id}",
        verifications.get_verification,
        Operation(
            "getVerification",
            "a host verification and its last check",
            200,
            Schema.VERIFICATION_RESPONSE,
            _PER_VERIFICATION,
        ),
    ),
    Route(
        "POST",
        "/api/verifications/{verification_id}/check",
        verifications.check_verification,
        Operation(
            "checkVerification",
            "look for the token now: verified, failed, or unchanged when it could not be checked",
            200,
            Schema.VERIFICATION_RESPONSE,
            _PER_VERIFICATION,
        ),
    ),
    Route(
        "DELETE",
        "/api/verifications/{verification_id}",
        verifications.delete_verification,
        Operation("deleteVerification", "forget a host verification", 204, None, _PER_VERIFICATION),
    ),
    # -- API keys, admin only (api.handlers.keys) --------------------------------------------
    Route(
        "GET",
        "/api/keys",
        keys.list_keys,
        Operation(
            "listKeys",
            "every API key, newest first",
            200,
            Schema.KEY_LIST,
            _ADMIN,
            access=Access.ADMIN,
        ),
    ),
    Route(
        "POST",
        "/api/keys",
        keys.create_key,
        _creating(
            "createKey",
            "create an API key (its secret is shown only here)",
            Schema.KEY_RESPONSE,
            Schema.CREATE_KEY_BODY,
            (400, *_ADMIN, 413),
            Access.ADMIN,
        ),
    ),
    Route(
        "DELETE",
        "/api/keys/{key_id}",
        keys.revoke_key,
        Operation("revokeKey", "revoke an API key", 204, None, _ADMIN, access=Access.ADMIN),
    ),
)
