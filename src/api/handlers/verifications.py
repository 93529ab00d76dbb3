"""The verification routes: an owner proves control of a host, so its audits may ignore the
host's robots.txt (docs/manual/verify.md)."""

from __future__ import annotations

from api.http import ApiResponse, json_response
from api.routing import Call
from service import verification
from service.verification import verification_view


async def create_verification(call: Call) -> ApiResponse:
    from api.schemas import parse_create_verification_body

    request = parse_create_verification_body(call.request.body)
    row = await verification.request_verification(call.env, call.owner, request)
    location = {"location": f"/api/verifications/{row.id}"}
    return json_response({"verification": verification_view(row)}, 201, location)


async def list_verifications(call: Call) -> ApiResponse:
    rows = await verification.list_verifications(call.env, call.owner)
    return json_response({"verifications": [verification_view(row) for row in rows]})


async def get_verification(call: Call) -> ApiResponse:
    row = await verification.get_verification(call.env, call.owner, call.args["verification_id"])
    return json_response({"verification": verification_view(row)})


async def check_verification(call: Call) -> ApiResponse:
    verification_id = call.args["verification_id"]
    row = await verification.check_verification(call.env, call.owner, verification_id)
    return json_response({"verification": verification_view(row)})


async def delete_verification(call: Call) -> ApiResponse:
    await verification.delete_verification(call.env, call.owner, call.args["verification_id"])
    return ApiResponse(204, b"")
