"""The MCP methods this server answers, over a `Toolbox`; no HTTP and no service calls here.

    initialize                  version negotiation, capabilities {tools}, server info
    ping                        {}
    tools/list                  every tool's name, title, description, inputSchema, annotations
    tools/call                  one tool's result; a refusal is a result with isError: true
    notifications/*             accepted, never answered (JSON-RPC §4.1)

Version negotiation (MCP 2025-06-18, "Lifecycle"): a client's `protocolVersion` that this server
supports is echoed; any other gets the latest supported one, and the client decides whether it can
speak it. The server is stateless (no sessions), so each request stands alone: a `tools/call`
needs no earlier `initialize` on the same connection.

Protocol errors stay protocol errors: an unknown method is -32601; a `tools/call` without a tool
name, with arguments that are not an object, or naming an unknown tool is -32602 (MCP
2025-06-18, "Tools" > "Error Handling"). Everything a tool refuses, including arguments that break
its input schema, is a tool result with `isError: true`, so the model reads it and can correct
itself (revision 2025-11-25 says so for input validation).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from api.mcp.jsonrpc import ErrorCode, JsonRpcError, Request
from common.wire import JsonObject

# Oldest first. Both revisions carry the same messages for a tools-only server; 2025-11-25 is the
# newest one the official Python SDK reaches through the `initialize` handshake.
SUPPORTED_VERSIONS = ("2025-06-18", "2025-11-25")
LATEST_VERSION = SUPPORTED_VERSIONS[-1]
SERVER_INFO: JsonObject = {
    "name": "siteaudit",
    "title": "siteaudit website audits",
    "version": "0.1.0",
}
INSTRUCTIONS = (
    "Audit a website: run_site_audit starts a crawl and returns its audit id; poll "
    "get_audit_status until the status is no longer running; then read get_audit_issues (a "
    "summary per issue type with how to fix it) and get_audit_pages."
)


class Toolbox(Protocol):
    """The tools of one caller: what `tools/list` shows and what `tools/call` runs."""

    def definitions(self) -> list[JsonObject]: ...

    def knows(self, name: str) -> bool: ...

    def call(self, name: str, arguments: JsonObject) -> Awaitable[JsonObject]: ...


def negotiate(requested: object) -> str:
    return (
        requested
        if isinstance(requested, str) and requested in SUPPORTED_VERSIONS
        else LATEST_VERSION
    )


async def answer(request: Request, tools: Toolbox) -> JsonObject:
    """The `result` of a request; raises `JsonRpcError` for a protocol error."""
    method = _METHODS.get(request.method)
    if method is None:
        raise JsonRpcError(
            ErrorCode.METHOD_NOT_FOUND, f"method {request.method!r} is not supported", request.id
        )
    return await method(request, tools)


async def _initialize(request: Request, tools: Toolbox) -> JsonObject:
    return {
        "protocolVersion": negotiate(request.params.get("protocolVersion")),
        "capabilities": {"tools": {"listChanged": False}},
        "serverInfo": SERVER_INFO,
        "instructions": INSTRUCTIONS,
    }


async def _ping(request: Request, tools: Toolbox) -> JsonObject:
    return {}


async def _list_tools(request: Request, tools: Toolbox) -> JsonObject:
    # One page holds every tool, so a cursor can only be one this server never handed out.
    if request.params.get("cursor") is not None:
        raise JsonRpcError(
            ErrorCode.INVALID_PARAMS, "tools/list has a single page; drop the cursor", request.id
        )
    return {"tools": tools.definitions()}


async def _call_tool(request: Request, tools: Toolbox) -> JsonObject:
    name = request.params.get("name")
    arguments = request.params.get("arguments")
    arguments = {} if arguments is None else arguments
    if not isinstance(name, str):
        raise JsonRpcError(ErrorCode.INVALID_PARAMS, "tools/call needs the tool's name", request.id)
    if not tools.knows(name):
        raise JsonRpcError(ErrorCode.INVALID_PARAMS, f"unknown tool {name!r}", request.id)
    if not isinstance(arguments, dict):
        raise JsonRpcError(
            ErrorCode.INVALID_PARAMS, "tools/call arguments must be an object", request.id
        )
    return await tools.call(name, arguments)


_METHODS: dict[str, Callable[[Request, Toolbox], Awaitable[JsonObject]]] = {
    "initialize": _initialize,
    "ping": _ping,
    "tools/list": _list_tools,
    "tools/call": _call_tool,
}
