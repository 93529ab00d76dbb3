"""The monitor routes: schedule re-audits of a site, read, change and delete them, run one now,
and read a monitor's runs."""

from __future__ import annotations

from api import queries
from api.handlers.render import list_response
from api.http import ApiResponse, json_response
from api.queries import Query
from api.routing import Call
from api.views import created_monitor, monitor_summary, run_summary
from auditdb.listing import ListKind
from service import monitor_runs, monitors


async def create_monitor(call: Call) -> ApiResponse:
    from api.schemas import parse_create_monitor_body

    request = parse_create_monitor_body(call.request.body)
    created = await monitors.create_monitor(call.env, call.owner, request)
    location = {"location": f"/api/monitors/{created.monitor.id}"}
    return json_response({"monitor": created_monitor(created)}, 201, location)


async def list_monitors(call: Call) -> ApiResponse:
    query = Query.of(call.request.url)
    paging = queries.parse_paging(query, ListKind.MONITORS)
    page = await monitors.list_monitors(call.env, call.owner, paging)
    items = [monitor_summary(m) for m in page.items]
    return list_response(call, query, ListKind.MONITORS, items, page.next_after)


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


async def list_monitor_runs(call: Call) -> ApiResponse:
    query = Query.of(call.request.url)
    paging = queries.parse_paging(query, ListKind.RUNS)
    page = await monitors.list_runs(call.env, call.owner, call.args["monitor_id"], paging)
    items = [run_summary(run) for run in page.items]
    return list_response(call, query, ListKind.RUNS, items, page.next_after)


async def run_monitor_now(call: Call) -> ApiResponse:
    result = await monitor_runs.run_now(call.env, call.owner, call.args["monitor_id"])
    return json_response(result.to_dict(), 202)
