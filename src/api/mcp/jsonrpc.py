"""JSON-RPC 2.0 messages as MCP carries them: one body in, one typed message out; no I/O.

    parse_message(body) -> Request | Notification | Reply     raises JsonRpcError
    result_body(id, result) / error_body(id, error)           the JSON objects sent back

The rules are JSON-RPC 2.0 (https://www.jsonrpc.org/specification) narrowed by MCP's base
protocol (spec revision 2025-06-18, "Base Protocol"): an id is a string or an integer, never null;
params are an object; a body holds one message, since revision 2025-06-18 removed JSON-RPC
batching (an array is an Invalid Request). Errors found before an id could be read carry id null
(JSON-RPC §5.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from api import json_body
from api.json_body import UnreadableBody
from common.wire import JsonObject, JsonValue

JSONRPC = "2.0"

type RequestId = str | int


class ErrorCode(IntEnum):
    """JSON-RPC 2.0 §5.1: the codes the specification reserves, as this server uses them."""

    PARSE_ERROR = -32700  # the body is not JSON
    INVALID_REQUEST = -32600  # JSON, but not a JSON-RPC message (or not one this transport takes)
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603


class JsonRpcError(Exception):
    """A message refused at the protocol level; `request_id` is None when none could be read."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        request_id: RequestId | None = None,
        data: JsonValue = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id
        self.data = data

    def body(self) -> JsonObject:
        return error_body(self.request_id, self.code, self.message, self.data)


@dataclass(frozen=True, slots=True)
class Request:
    """A call that expects an answer with the same id."""

    id: RequestId
    method: str
    params: JsonObject = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Notification:
    """A message that gets no answer (JSON-RPC §4.1)."""

    method: str
    params: JsonObject = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Reply:
    """A client's response to a server request. This server sends none, so it only acknowledges."""

    id: RequestId | None


type Message = Request | Notification | Reply


def parse_message(body: bytes) -> Message:
    """The body's one message; a body `api.json_body` refuses (too large, too deep, not strict
    JSON) is a parse error, as the REST routes answer it with 400 invalid_json."""
    try:
        value = json_body.loads(body)
    except UnreadableBody as exc:
        raise JsonRpcError(ErrorCode.PARSE_ERROR, exc.message) from exc
    if isinstance(value, list):
        raise JsonRpcError(
            ErrorCode.INVALID_REQUEST, "send one JSON-RPC message per request; batches are not used"
        )
    if not isinstance(value, dict):
        raise JsonRpcError(ErrorCode.INVALID_REQUEST, "a JSON-RPC message is a JSON object")
    return _message(value)


def _message(value: JsonObject) -> Message:
    request_id = _maybe_id(value)
    if value.get("jsonrpc") != JSONRPC:
        raise JsonRpcError(
            ErrorCode.INVALID_REQUEST, 'the message must say "jsonrpc": "2.0"', request_id
        )
    if "method" not in value:
        if "id" in value and ("result" in value) != ("error" in value):
            return Reply(request_id)
        raise JsonRpcError(ErrorCode.INVALID_REQUEST, "the message has no method", request_id)
    method = value["method"]
    if not isinstance(method, str) or not method:
        raise JsonRpcError(
            ErrorCode.INVALID_REQUEST, "method must be a non-empty string", request_id
        )
    if "id" in value and request_id is None:
        raise JsonRpcError(ErrorCode.INVALID_REQUEST, "id must be a string or an integer")
    params = _params(value, request_id)
    return (
        Notification(method, params) if request_id is None else Request(request_id, method, params)
    )


def _maybe_id(value: JsonObject) -> RequestId | None:
    """The message's id if it is one MCP allows; bool is an int in Python, and not an id."""
    found = value.get("id")
    if isinstance(found, str) or (isinstance(found, int) and not isinstance(found, bool)):
        return found
    return None


def _params(value: JsonObject, request_id: RequestId | None) -> JsonObject:
    params = value.get("params", {})
    if not isinstance(params, dict):
        raise JsonRpcError(ErrorCode.INVALID_PARAMS, "params must be an object", request_id)
    return params


def result_body(request_id: RequestId, result: JsonObject) -> JsonObject:
    return {"jsonrpc": JSONRPC, "id": request_id, "result": result}


def error_body(
    request_id: RequestId | None, code: ErrorCode, message: str, data: JsonValue = None
) -> JsonObject:
    error: JsonObject = {"code": int(code), "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": JSONRPC, "id": request_id, "error": error}
