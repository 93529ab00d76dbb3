"""JSON-RPC 2.0 messages as MCP carries them: each body is one message or one protocol error."""

from __future__ import annotations

import json

import pytest

from api.mcp.jsonrpc import (
    ErrorCode,
    JsonRpcError,
    Notification,
    Reply,
    Request,
    error_body,
    parse_message,
    result_body,
)


def body(value: object) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.parametrize(
    ("sent", "message"),
    [
        ({"jsonrpc": "2.0", "id": 1, "method": "ping"}, Request(1, "ping")),
        ({"jsonrpc": "2.0", "id": "a-1", "method": "ping"}, Request("a-1", "ping")),
        (
            {"jsonrpc": "2.0", "id": 0, "method": "tools/call", "params": {"name": "x"}},
            Request(0, "tools/call", {"name": "x"}),
        ),
        (
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            Notification("notifications/initialized"),
        ),
        ({"jsonrpc": "2.0", "id": 7, "result": {}}, Reply(7)),
        ({"jsonrpc": "2.0", "id": 7, "error": {"code": 1, "message": "no"}}, Reply(7)),
    ],
)
def test_a_message_is_read_as_its_kind(sent: object, message: object) -> None:
    assert parse_message(body(sent)) == message


@pytest.mark.parametrize(
    ("raw", "code", "request_id"),
    [
        (b"{not json", ErrorCode.PARSE_ERROR, None),
        (b"\xff\xfe", ErrorCode.PARSE_ERROR, None),
        (b"", ErrorCode.PARSE_ERROR, None),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": NaN}}',
            ErrorCode.PARSE_ERROR,
            None,
        ),
        (b"[" * 100_000, ErrorCode.PARSE_ERROR, None),
        # Revision 2025-06-18 removed batching: an array is not a message.
        (body([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]), ErrorCode.INVALID_REQUEST, None),
        (body("ping"), ErrorCode.INVALID_REQUEST, None),
        (body({"id": 1, "method": "ping"}), ErrorCode.INVALID_REQUEST, 1),
        (body({"jsonrpc": "1.0", "id": 1, "method": "ping"}), ErrorCode.INVALID_REQUEST, 1),
        (body({"jsonrpc": "2.0", "id": 1}), ErrorCode.INVALID_REQUEST, 1),
        (
            body({"jsonrpc": "2.0", "id": 1, "result": {}, "error": {}}),
            ErrorCode.INVALID_REQUEST,
            1,
        ),
        (body({"jsonrpc": "2.0", "id": 1, "method": 5}), ErrorCode.INVALID_REQUEST, 1),
        (body({"jsonrpc": "2.0", "id": 1, "method": ""}), ErrorCode.INVALID_REQUEST, 1),
        # MCP: an id is a string or an integer, never null, a fraction or a boolean.
        (body({"jsonrpc": "2.0", "id": None, "method": "ping"}), ErrorCode.INVALID_REQUEST, None),
        (body({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}), ErrorCode.INVALID_REQUEST, None),
        (body({"jsonrpc": "2.0", "id": True, "method": "ping"}), ErrorCode.INVALID_REQUEST, None),
        (body({"jsonrpc": "2.0", "id": [1], "method": "ping"}), ErrorCode.INVALID_REQUEST, None),
        (
            body({"jsonrpc": "2.0", "id": 3, "method": "ping", "params": [1]}),
            ErrorCode.INVALID_PARAMS,
            3,
        ),
        (body({"jsonrpc": "2.0", "method": "ping", "params": "x"}), ErrorCode.INVALID_PARAMS, None),
    ],
)
def test_anything_else_is_a_protocol_error_with_the_id_when_one_was_read(
    raw: bytes, code: ErrorCode, request_id: object
) -> None:
    with pytest.raises(JsonRpcError) as caught:
        parse_message(raw)
    assert (caught.value.code, caught.value.request_id) == (code, request_id)
    assert caught.value.body() == {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": int(code), "message": caught.value.message},
    }


def test_the_reserved_codes_are_the_specifications() -> None:
    assert {code.name: int(code) for code in ErrorCode} == {
        "PARSE_ERROR": -32700,
        "INVALID_REQUEST": -32600,
        "METHOD_NOT_FOUND": -32601,
        "INVALID_PARAMS": -32602,
        "INTERNAL_ERROR": -32603,
    }


def test_bodies_sent_back() -> None:
    assert result_body("r", {"ok": True}) == {"jsonrpc": "2.0", "id": "r", "result": {"ok": True}}
    assert error_body(2, ErrorCode.INVALID_REQUEST, "bad", {"supported": ["x"]}) == {
        "jsonrpc": "2.0",
        "id": 2,
        "error": {"code": -32600, "message": "bad", "data": {"supported": ["x"]}},
    }
