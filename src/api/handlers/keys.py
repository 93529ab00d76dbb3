"""The admin routes of API keys: create, list, revoke. They act across owners (`Call.owner` is
empty) and exist only where the ADMIN_TOKEN secret is set."""

from __future__ import annotations

from api.http import ApiResponse, json_response
from api.routing import Call
from api.views import created_key, key_summary
from service import keys


async def create_key(call: Call) -> ApiResponse:
    from api.schemas import parse_create_key_body

    body = parse_create_key_body(call.request.body)
    created = await keys.create_key(call.env, body.owner, body.name)
    location = {"location": f"/api/keys/{created.key.id}"}
    return json_response({"key": created_key(created)}, 201, location)


async def list_keys(call: Call) -> ApiResponse:
    found = await keys.list_keys(call.env)
    return json_response({"keys": [key_summary(k) for k in found]})


async def revoke_key(call: Call) -> ApiResponse:
    await keys.revoke_key(call.env, call.args["key_id"])
    return ApiResponse(status=204, body=b"")
