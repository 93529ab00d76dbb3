"""The audit routes: start, read, list, cancel, resume, re-run and delete an audit; its progress, its
report, what to fix first, and its comparison with another audit."""

from __future__ import annotations

from api import queries
from api.handlers.render import list_response
from api.http import ApiResponse, json_response
from api.queries import Query
from api.routing import Call
from api.views import audit_summary
from auditdb.listing import ListKind
from common.wire import to_json
from service import audits, compare, lists, progress, verdict
from service.scope_report import scope_summary


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
    return list_response(
        call, query, ListKind.AUDITS, [audit_summary(a) for a in page.items], page.next_after
    )


async def get_audit(call: Call) -> ApiResponse:
    audit = await audits.read_audit(call.env, call.owner, call.args["audit_id"])
    return json_response({"audit": audit_summary(audit)})


async def delete_audit(call: Call) -> ApiResponse:
    await audits.delete_audit(call.env, call.owner, call.args["audit_id"])
    return ApiResponse(204, b"")


async def cancel_audit(call: Call) -> ApiResponse:
    audit = await audits.cancel_audit(call.env, call.owner, call.args["audit_id"])
    return json_response({"audit": audit_summary(audit)}, 202)


async def resume_audit(call: Call) -> ApiResponse:
    audit = await audits.resume_audit(call.env, call.owner, call.args["audit_id"])
    return json_response({"audit": audit_summary(audit)}, 202)


async def rerun_audit(call: Call) -> ApiResponse:
    audit = await audits.rerun_audit(call.env, call.owner, call.args["audit_id"], call.key_id)
    location = {"location": f"/api/audits/{audit.id}"}
    return json_response({"audit": audit_summary(audit)}, 201, location)


async def get_progress(call: Call) -> ApiResponse:
    query = Query.of(call.request.url)
    limit = queries.integer(query, "limit", progress.MAX_RECENT, (1, progress.MAX_RECENT))
    found = await progress.audit_progress(call.env, call.owner, call.args["audit_id"], limit)
    return json_response(
        {
            "audit": audit_summary(found.audit),
            "frontier": None if found.frontier is None else found.frontier.to_dict(),
            "external": None if found.external is None else found.external.to_dict(),
            "pages_expected": found.pages_expected,
            "recent": [entry.to_dict() for entry in found.recent],
        }
    )


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
            "rendering": None if report.rendering is None else report.rendering.to_dict(),
            "structured_data": None if report.structured is None else report.structured.to_dict(),
            "scope": scope_summary(report.audit.options).to_dict(),
            "links": {
                "pages": f"{base}/pages",
                "issues": f"{base}/issues",
                "lighthouse": f"{base}/lighthouse",
            },
        }
    )


async def compare_audits(call: Call) -> ApiResponse:
    """`limit` caps each list (1-1000, default 100); every list carries its total."""
    query = Query.of(call.request.url)
    limit = queries.integer(query, "limit", compare.DEFAULT_LIMIT, (1, compare.MAX_LIMIT))
    found = await compare.compare_audits(
        call.env, call.owner, call.args["audit_id"], call.args["other_id"], limit
    )
    return json_response({"comparison": found.to_dict()})
