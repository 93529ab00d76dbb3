"""/mcp over Streamable HTTP (MCP 2025-06-18, "Transports"): stateless, JSON responses, no SSE.

    POST /mcp, one JSON-RPC message in the body
      a request                          200 application/json: its JSON-RPC response
      a notification or a response       202, no body
      not JSON / not a JSON-RPC message  400 with a JSON-RPC error whose id is null
    GET or DELETE /mcp                   405, Allow: POST (no SSE stream, no session to end)
    Origin present and not listed        403 (DNS rebinding, see below)
    MCP-Protocol-Version unsupported     400 (the header is not checked on `initialize`)
    Content-Type not application/json   415;  Accept that rules out application/json  406

The transport lets a server answer a POST with one JSON object instead of an SSE stream, and a
server that offers no stream answers GET with 405. No `Mcp-Session-Id` is issued: every request
stands alone, which suits a Worker, where consecutive requests may reach different isolates.

Authentication and the request rate limit are the API's (`authenticate`, passed in by
`api.app`): the same Bearer keys, the same 401 and 429 answers, charged once per HTTP request.

Origin: "Servers MUST validate the Origin header on all incoming connections to prevent DNS
rebinding attacks" (Transports > Security Warning). Browsers send Origin on cross-origin POSTs;
a rebound host name makes the attacker's origin look like this server's host, so only origins the
deployment lists in CORS_ORIGINS (`api.hardening.allowed_origin`) pass, never one derived from
the Host header. Non-browser clients send no Origin and are not affected.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from api import hardening
from api.errors import MethodNotAllowed
from api.http import ApiRequest, ApiResponse, json_response
from api.mcp import PATH, jsonrpc, protocol
from api.mcp.jsonrpc import ErrorCode, JsonRpcError, Request
from api.mcp.tools import Caller, CallerTools
from auditdb.keys import ApiKeyRecord
from common.bindings import Env
from common.wire import JsonObject, JsonValue

VERSION_HEADER = "mcp-protocol-version"

type Authenticate = Callable[[ApiRequest, Env], Awaitable[ApiKeyRecord]]


class TransportRefusal(Exception):
    """An HTTP-level refusal, answered with `status` and a JSON-RPC error without an id."""

    def __init__(
        self,
        status: int,
        message: str,
        code: ErrorCode = ErrorCode.INVALID_REQUEST,
        data: JsonValue = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.body = jsonrpc.error_body(None, code, message, data)


async def handle(request: ApiRequest, env: Env, authenticate: Authenticate) -> ApiResponse:
    """Answer one HTTP request to /mcp; the API's own errors (401, 405, 429) are raised."""
    try:
        _check_origin(request, env)
        key = await authenticate(request, env)
        if request.method.upper() != "POST":
            raise MethodNotAllowed(
                f"{request.method} is not allowed on {PATH}: it offers no SSE stream and no sessions",
                allow=["POST"],
            )
        return await _post(request, CallerTools(Caller(env, key.owner, key.id)))
    except TransportRefusal as exc:
        return json_response(exc.body, exc.status)


async def _post(request: ApiRequest, tools: CallerTools) -> ApiResponse:
    _check_content_type(request)
    _check_accept(request)
    try:
        message = jsonrpc.parse_message(request.body)
    except JsonRpcError as exc:
        raise TransportRefusal(400, exc.message, exc.code) from exc
    if not isinstance(message, Request):
        return ApiResponse(202, b"")  # notifications and responses get no answer
    if message.method != "initialize":
        _check_version(request)
    try:
        body: JsonObject = jsonrpc.result_body(message.id, await protocol.answer(message, tools))
    except JsonRpcError as exc:
        body = exc.body()
    return json_response(body)


def _check_origin(request: ApiRequest, env: Env) -> None:
    if "origin" in request.headers and hardening.allowed_origin(request, env) is None:
        raise TransportRefusal(403, f"origin {request.headers['origin']!r} is not allowed")


def _check_content_type(request: ApiRequest) -> None:
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != "application/json":
        raise TransportRefusal(415, "send the JSON-RPC message as Content-Type: application/json")


def _check_accept(request: ApiRequest) -> None:
    """MCP clients list application/json and text/event-stream; this server answers JSON only,
    so any Accept that admits JSON will do (RFC 9110 §12.5.1; none at all means anything)."""
    accept = request.headers.get("accept")
    if accept is None or any(_admits_json(item) for item in accept.split(",")):
        return
    raise TransportRefusal(406, "this server answers with application/json; Accept must allow it")


def _admits_json(media_range: str) -> bool:
    kind, *parameters = (part.strip().lower() for part in media_range.split(";"))
    refused = any(p.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000") for p in parameters)
    return kind in ("application/json", "application/*", "*/*") and not refused


def _check_version(request: ApiRequest) -> None:
    # Transports > Protocol Version Header: an unsupported version is a 400; no header at all
    # means the client predates the header, and the request is served.
    version = request.headers.get(VERSION_HEADER)
    if version is not None and version not in protocol.SUPPORTED_VERSIONS:
        raise TransportRefusal(
            400,
            f"MCP-Protocol-Version {version!r} is not supported; use one of "
            f"{list(protocol.SUPPORTED_VERSIONS)}",
            data={"supported": list(protocol.SUPPORTED_VERSIONS)},
        )
