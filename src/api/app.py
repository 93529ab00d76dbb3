"""The HTTP API of siteaudit: routing, validation at the edge, JSON errors.

Routes
    POST /api/audits                 start an audit            201 {"audit": {...}}
    GET  /api/audits                 recent audits             200 {"audits": [...]}
    GET  /api/audits/{id}            status and counters       200 {"audit": {...}}
    GET  /api/audits/{id}/pages      crawled pages             200 {"pages": [...]}
    GET  /api/audits/{id}/issues     detected issues           200 {"issues": [...]}
    GET  /api/audits/{id}/report     audit + pages + issues    200 {"audit", "summary", "pages", "issues"}
    POST /api/audits/{id}/resume     finish a failed audit     202 {"audit": {...}}
Errors are `{"error": {"code", "message"}}` with 400, 404, 405, 409, 410, 503.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import ports
from api.http import ApiRequest, ApiResponse, error_response, json_response
from api.schemas import CreateAuditBody, parse_create_body
from auditdb import repository
from auditdb.records import AuditOptions, AuditRecord, AuditStatus, IssueRecord
from durable.client import Scratchpad
from durable.scratchpad import CLEANUP_AFTER_MS
from crawl.ssrf import PrivateHosts
from crawl.start_url import StartUrlError, normalise_start_url
from maintenance.reconcile import reconcile_audit
from maintenance.watchdog import audit_age_ms
from workflow.params import AuditParams

Handler = Callable[[ApiRequest, Any, dict[str, str]], Awaitable[ApiResponse]]
_AUDIT_ID = r"(?P<audit_id>[A-Za-z0-9_-]{1,100})"


async def handle_request(request: ApiRequest, env: Any) -> ApiResponse:
    for pattern, methods in _ROUTES:
        match = pattern.fullmatch(request.path)
        if match is None:
            continue
        handler = methods.get(request.method.upper())
        if handler is None:
            allow = ", ".join(sorted(methods))
            return error_response(
                405,
                "method_not_allowed",
                f"{request.method} is not allowed on {request.path}",
                {"allow": allow},
            )
        return await handler(request, env, match.groupdict())
    return error_response(404, "not_found", f"no route for {request.path}")


async def create_audit(request: ApiRequest, env: Any, _: dict[str, str]) -> ApiResponse:
    body = parse_create_body(request.body)
    if isinstance(body, ApiResponse):
        return body
    private_hosts = PrivateHosts.from_setting(getattr(env, "ALLOW_PRIVATE_HOSTS", "false"))
    try:
        start_url = normalise_start_url(body.url, private_hosts=private_hosts)
    except StartUrlError as exc:
        return error_response(400, exc.code, str(exc))
    audit = _new_audit(body, start_url, private_hosts, _max_pages_limit(env))
    if isinstance(audit, ApiResponse):
        return audit
    await repository.insert_audit(env.DB, audit)
    try:
        params = AuditParams(audit.id, audit.start_url, audit.options)
        await env.SITE_AUDIT_WORKFLOW.create(id=audit.id, params=params.to_dict())
    except Exception as exc:  # the binding raises JsException; never leave an orphan row
        await repository.delete_audit(env.DB, audit.id)
        return error_response(503, "workflow_unavailable", f"could not start the audit: {exc}")
    return json_response(
        {"audit": audit_summary(audit)}, 201, {"location": f"/api/audits/{audit.id}"}
    )


def _new_audit(
    body: CreateAuditBody, start_url: str, private_hosts: PrivateHosts, limit: int
) -> AuditRecord | ApiResponse:
    if body.max_pages > limit:
        return error_response(400, "invalid_request", f"max_pages must be at most {limit}")
    options = AuditOptions(
        max_pages=body.max_pages,
        max_depth=body.max_depth,
        include_patterns=list(body.include),
        exclude_patterns=list(body.exclude),
        private_hosts=private_hosts,
        fetch_timeout_s=body.fetch_timeout_s,
    )
    audit_id = str(uuid.uuid4())
    now = ports.iso_now()
    return AuditRecord(
        id=audit_id,
        start_url=start_url,
        created_at=now,
        started_at=now,
        options=options,
        workflow_instance_id=audit_id,
        pages_total=options.max_pages,
    )


async def list_audits(request: ApiRequest, env: Any, _: dict[str, str]) -> ApiResponse:
    audits = await repository.list_audits(env.DB, owner="local")
    return json_response({"audits": [audit_summary(a) for a in audits]})


async def get_audit(request: ApiRequest, env: Any, args: dict[str, str]) -> ApiResponse:
    audit = await repository.get_audit(env.DB, args["audit_id"])
    if audit is None:
        return _unknown_audit(args["audit_id"])
    if repository.is_running(audit):
        # Lazy reconciliation: a platform-killed audit shows its failure on the next read.
        await reconcile_audit(env, audit, "status_read")
        audit = await repository.get_audit(env.DB, audit.id) or audit
    return json_response({"audit": audit_summary(audit)})


async def get_pages(request: ApiRequest, env: Any, args: dict[str, str]) -> ApiResponse:
    if await repository.get_audit(env.DB, args["audit_id"]) is None:
        return _unknown_audit(args["audit_id"])
    pages = await repository.list_pages(env.DB, args["audit_id"])
    return json_response({"pages": [p.to_dict() for p in pages]})


async def get_issues(request: ApiRequest, env: Any, args: dict[str, str]) -> ApiResponse:
    if await repository.get_audit(env.DB, args["audit_id"]) is None:
        return _unknown_audit(args["audit_id"])
    issues = await repository.list_issues(env.DB, args["audit_id"])
    return json_response({"issues": [i.to_dict() for i in issues]})


async def get_report(request: ApiRequest, env: Any, args: dict[str, str]) -> ApiResponse:
    audit = await repository.get_audit(env.DB, args["audit_id"])
    if audit is None:
        return _unknown_audit(args["audit_id"])
    pages = await repository.list_pages(env.DB, audit.id)
    issues = await repository.list_issues(env.DB, audit.id)
    by_type = await repository.issue_counts_by_type(env.DB, audit.id)
    return json_response(
        {
            "audit": audit_summary(audit),
            "summary": {"issues_by_type": by_type, "issues_by_severity": _by_severity(issues)},
            "pages": [p.to_dict() for p in pages],
            "issues": [i.to_dict() for i in issues],
        }
    )


def _by_severity(issues: list[IssueRecord]) -> dict[str, int]:
    counts = {"critical": 0, "warning": 0, "info": 0}
    for issue in issues:
        counts[issue.severity] = counts.get(issue.severity, 0) + 1
    return counts


async def resume_audit(request: ApiRequest, env: Any, args: dict[str, str]) -> ApiResponse:
    """Finish a failed audit from its retained scratchpad: only pending and leased URLs are
    crawled, then finalize runs once. Scratchpads live 7 days; after that the audit is gone."""
    audit = await repository.get_audit(env.DB, args["audit_id"])
    if audit is None:
        return _unknown_audit(args["audit_id"])
    refusal = await _resume_refusal(env, audit)
    if refusal is not None:
        return refusal
    resume_count = audit.resume_count + 1
    instance_id = f"{audit.id}-r{resume_count}"
    if not await repository.reopen_failed_audit(env.DB, audit.id, instance_id, resume_count):
        return error_response(409, "conflict", f"audit {audit.id} is no longer failed")
    try:
        params = AuditParams(audit.id, audit.start_url, audit.options, resume=True)
        await env.SITE_AUDIT_WORKFLOW.create(id=instance_id, params=params.to_dict())
    except Exception as exc:  # the binding raises JsException; the audit must not stay running
        await repository.fail_audit(
            env.DB,
            audit.id,
            error_code=audit.error_code or "unknown",
            error_detail=audit.error_detail,
            failed_phase=audit.failed_phase,
            finished_at=ports.iso_now(),
        )
        return error_response(503, "workflow_unavailable", f"could not resume the audit: {exc}")
    resumed = await repository.get_audit(env.DB, audit.id) or audit
    return json_response({"audit": audit_summary(resumed)}, 202)


async def _resume_refusal(env: Any, audit: AuditRecord) -> ApiResponse | None:
    if audit.status is not AuditStatus.FAILED:
        return error_response(
            409, "conflict", f"only failed audits can be resumed; this one is {audit.status}"
        )
    if audit_age_ms(audit, ports.now_ms()) > CLEANUP_AFTER_MS:
        return error_response(
            410, "gone", "the audit's crawl state expired after 7 days; start a new audit"
        )
    pad = Scratchpad.for_audit(env, audit.id)
    if not (await pad.crawl_config()).configured:
        await pad.destroy()  # reading it created an empty object; do not leave it behind
        return error_response(410, "gone", "the audit's crawl state is gone; start a new audit")
    return None


def audit_summary(audit: AuditRecord) -> dict[str, Any]:
    summary = audit.to_dict()
    summary["stopped_early"] = audit.status == "failed" and audit.pages_crawled > 0
    return summary


def _unknown_audit(audit_id: str) -> ApiResponse:
    return error_response(404, "not_found", f"no audit with id {audit_id}")


def _max_pages_limit(env: Any) -> int:
    try:
        return int(getattr(env, "MAX_PAGES_LIMIT", "10000"))
    except ValueError:
        return 10_000


_ROUTES: list[tuple[re.Pattern[str], dict[str, Handler]]] = [
    (re.compile(r"/api/audits/?"), {"GET": list_audits, "POST": create_audit}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}"), {"GET": get_audit}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/pages"), {"GET": get_pages}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/issues"), {"GET": get_issues}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/report"), {"GET": get_report}),
    (re.compile(rf"/api/audits/{_AUDIT_ID}/resume"), {"POST": resume_audit}),
]
