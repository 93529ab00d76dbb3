"""The HTTP API's entry point: `handle_request` authorises a request, routes it through the
table of `api.routes` (or hands it to the MCP endpoint, `api.mcp`, or the web app, `api.webapp`),
turns every error into JSON and gives every response its headers.

Every /api/ request but the public routes (the OpenAPI document) carries `Authorization: Bearer
<credential>` (`api.auth`): an API key for the audit routes, whose owner becomes `Call.owner`, or
the admin token for the admin routes; anything else is a 401 before routing, so an
unauthenticated caller learns nothing about ids.

Before a handler runs, the query string is checked against the parameters its operation
declares (`Operation.query`, which the OpenAPI document lists too): any other name is a 400,
on every route alike. Each handler (`api/handlers/`) parses its request, calls the service and renders the result; it
never builds an error response. Errors are raised (`api.errors` from parsing and routing,
`service.errors` from the service) and `handle_request` alone turns them into
`{"error": {"code", "message"}}` with 400, 401, 404, 405, 409, 410, 413 or 503, and gives every
response the headers of `api.hardening`.
"""

from __future__ import annotations

from api import auth, hardening, webapp
from api.errors import (
    ApiError,
    ApiErrorCode,
    BadRequest,
    Conflict,
    Forbidden,
    Gone,
    MethodNotAllowed,
    NotFound,
    ServiceUnavailable,
    TooManyRequests,
    Unauthorized,
)
from api.http import ApiRequest, ApiResponse, error_response
from api.mcp import PATH as MCP_PATH
from api.queries import Query
from api.routes import ROUTES
from api.routing import Access, Call, Found, match, with_access
from auditdb.keys import ApiKeyRecord
from common.bindings import Env
from service import limits
from service.errors import (
    AuditNotFound,
    CredentialsUnavailable,
    HostNotVerified,
    InvalidKeyFields,
    InvalidOptions,
    InvalidTarget,
    InvalidVerification,
    KeyNotFound,
    MonitorLimitReached,
    MonitorNotFound,
    MonitorNotRunnable,
    NotAuthenticated,
    NotCancellable,
    NotResumable,
    PageNotFound,
    RateLimited,
    ServiceError,
    StateExpired,
    StillRunning,
    StorageUnavailable,
    TargetProblem,
    VerificationNotFound,
    WorkflowUnavailable,
)

_PUBLIC_ROUTES = with_access(ROUTES, Access.PUBLIC)
_ADMIN_ROUTES = with_access(ROUTES, Access.ADMIN)
_KEY_ROUTES = with_access(ROUTES, Access.KEY)
# Call.owner on admin routes: they act across owners, and no key's owner can be empty.
_NO_OWNER = ""


async def handle_request(request: ApiRequest, env: Env) -> ApiResponse:
    """Route the request; the one place where errors, the API's and the service's, become JSON,
    and where every response gets its headers."""
    origin = hardening.allowed_origin(request, env)
    try:
        if origin is not None and hardening.is_preflight(request):
            response = hardening.preflight_response()
        else:
            hardening.check_body_size(request)
            response = await _dispatch(request, env)
    except ServiceError as exc:
        response = error_response(api_error_for(exc))
    except ApiError as exc:
        response = error_response(exc)
    return hardening.harden(response, origin)


async def _dispatch(request: ApiRequest, env: Env) -> ApiResponse:
    path = request.path
    found: Found | None
    if (found := match(_PUBLIC_ROUTES, path)) is not None:
        owner, key_id = _NO_OWNER, None
    elif auth.admin_enabled(env) and (found := match(_ADMIN_ROUTES, path)) is not None:
        auth.authorize_admin(request, env)
        owner, key_id = _NO_OWNER, None
    elif path.startswith("/api/"):
        key = await _charged_key(request, env)
        owner, key_id = key.owner, key.id
        found = match(_KEY_ROUTES, path)
    elif path == MCP_PATH:
        # The MCP server (its tools and schemas) loads with the first request that uses it.
        from api.mcp import transport

        return await transport.handle(request, env, _charged_key)
    elif webapp.is_asset(path):
        return webapp.serve(request)
    else:
        found = None
    if found is None:
        raise NotFound(f"no route for {path}")
    routes, args = found
    route = routes.get(request.method.upper())
    if route is None:
        message = f"{request.method} is not allowed on {path}"
        raise MethodNotAllowed(message, allow=list(routes))
    # One rule for every route: a query parameter its operation does not declare is a 400.
    Query.of(request.url).check_names(route.operation.query)
    return await route.handler(Call(request, env, args, owner, key_id))


async def _charged_key(request: ApiRequest, env: Env) -> ApiKeyRecord:
    """The API key of an /api/ or /mcp request, charged one request of its rate limit."""
    key = await auth.authenticated_key(request, env)
    await limits.charge_request(env, key.id)
    return key


_TARGET_CODES = {
    TargetProblem.MALFORMED: ApiErrorCode.INVALID_URL,
    TargetProblem.BLOCKED: ApiErrorCode.TARGET_BLOCKED,
}


def api_error_for(exc: ServiceError) -> ApiError:
    """The API's answer to a service refusal; the service's message is passed through."""
    message = str(exc)
    match exc:
        case InvalidTarget():
            return BadRequest(message, _TARGET_CODES[exc.problem])
        case InvalidOptions():
            return BadRequest(message, ApiErrorCode.INVALID_REQUEST)
        case AuditNotFound() | PageNotFound():
            return NotFound(message)
        case NotResumable() | NotCancellable() | StillRunning():
            return Conflict(message)
        case StateExpired():
            return Gone(message)
        case RateLimited():
            return TooManyRequests(message, exc.retry_after_s)
        case WorkflowUnavailable():
            return ServiceUnavailable(message)
        case StorageUnavailable():
            return ServiceUnavailable(message, ApiErrorCode.STORAGE_UNAVAILABLE)
        case CredentialsUnavailable():
            return ServiceUnavailable(message, ApiErrorCode.CREDENTIALS_UNAVAILABLE)
        case NotAuthenticated():
            return Unauthorized(message, token_given=True)
        case InvalidKeyFields():
            return BadRequest(message, ApiErrorCode.INVALID_REQUEST)
        case KeyNotFound():
            return NotFound(message)
        case MonitorNotFound():
            return NotFound(message)
        case MonitorLimitReached() | MonitorNotRunnable():
            return Conflict(message)
        case HostNotVerified():
            return Forbidden(message)
        case InvalidVerification():
            return BadRequest(message, ApiErrorCode.INVALID_REQUEST)
        case VerificationNotFound():
            return NotFound(message)
    # Unreachable while tests/api/test_errors.py passes: it maps every ServiceError subclass.
    raise TypeError(f"no API error for {type(exc).__name__}") from exc
