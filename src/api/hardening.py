"""What every API response and request goes through, whatever the route: body size, the headers
no response may lack, and CORS for the origins a deployment lists.

- Bodies over `MAX_BODY_BYTES` are refused with 413 before routing (the API's largest body, an
  audit request with 50 + 50 URL patterns of 500 characters, stays near 50 KiB).
- Every response: `X-Content-Type-Options: nosniff` (browsers must not sniff JSON into HTML) and
  `Cache-Control: no-store` (answers are per key and change while audits run), unless the
  response states its own (the web app's files, the same for everyone, are revalidated instead).
- CORS (`CORS_ORIGINS` in wrangler.toml [vars], comma-separated origins; empty: none). A listed
  Origin gets `Access-Control-Allow-Origin` (that origin, never `*`) and `Vary: Origin`, and its
  preflight is answered here, before authentication, since browsers send preflights without
  credentials. Unlisted origins get no CORS headers, so browsers keep the response from them.
  Keys travel in the Authorization header, never in cookies, so credentials mode is not allowed.
"""

from __future__ import annotations

import dataclasses

from api.errors import PayloadTooLarge
from api.http import ApiRequest, ApiResponse
from api.json_body import MAX_BODY_BYTES as MAX_BODY_BYTES  # the one limit, re-exported
from common.bindings import Env
from common.deployment import DeploymentVars

PREFLIGHT_MAX_AGE_S = 7200  # Chromium's cap on Access-Control-Max-Age
_ALLOW_METHODS = "GET, POST, PATCH, DELETE"
_ALLOW_HEADERS = "Authorization, Content-Type, MCP-Protocol-Version"  # the last for /mcp
_EXPOSE_HEADERS = "Location, WWW-Authenticate"
_ALWAYS = {"x-content-type-options": "nosniff"}
_DEFAULT_CACHE_CONTROL = "no-store"


def check_body_size(request: ApiRequest) -> None:
    declared = request.headers.get("content-length", "")
    size = max(len(request.body), int(declared) if declared.isdigit() else 0)
    if size > MAX_BODY_BYTES:
        raise PayloadTooLarge(f"request body is {size} bytes; the limit is {MAX_BODY_BYTES}")


def allowed_origin(request: ApiRequest, env: Env) -> str | None:
    """The request's Origin if the deployment lists it, else None (no CORS headers)."""
    origin = request.headers.get("origin")
    listed = DeploymentVars.from_env(env).cors_origins
    return origin if origin is not None and origin in listed else None


def is_preflight(request: ApiRequest) -> bool:
    return (
        request.method.upper() == "OPTIONS"
        and "access-control-request-method" in request.headers
        and (request.path.startswith("/api/") or request.path == "/mcp")
    )


def preflight_response() -> ApiResponse:
    return ApiResponse(
        status=204,
        body=b"",
        headers={
            "access-control-allow-methods": _ALLOW_METHODS,
            "access-control-allow-headers": _ALLOW_HEADERS,
            "access-control-max-age": str(PREFLIGHT_MAX_AGE_S),
        },
    )


def harden(response: ApiResponse, origin: str | None) -> ApiResponse:
    """The response with the headers every answer carries, and CORS ones for a listed origin."""
    headers = {"cache-control": _DEFAULT_CACHE_CONTROL, **response.headers, **_ALWAYS}
    if origin is not None:
        headers["access-control-allow-origin"] = origin
        headers["access-control-expose-headers"] = _EXPOSE_HEADERS
        headers["vary"] = "Origin"
    return dataclasses.replace(response, headers=headers)
