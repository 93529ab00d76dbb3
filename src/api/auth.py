"""Who is calling: the bearer credential of a request, checked for the kind of route it asks for.

    audit routes (/api/audits...)   an API key (`service.keys.authenticate`); its owner acts
    admin routes (/api/keys...)     the deployment's ADMIN_TOKEN secret, compared in constant time

The two never stand in for each other: an API key is not the admin token, and the admin token is
no API key. Without an ADMIN_TOKEN the admin routes do not exist (`admin_enabled`).
"""

from __future__ import annotations

import hmac

from api.errors import Unauthorized
from api.http import ApiRequest
from auditdb.keys import ApiKeyRecord
from common.bindings import Env
from common.deployment import DeploymentVars
from service import keys


def bearer_token(request: ApiRequest) -> str | None:
    """The token of `Authorization: Bearer <token>` (RFC 6750 §2.1; the scheme is
    case-insensitive, RFC 9110 §11.1); None when the request carries no Bearer credentials."""
    scheme, _, token = request.headers.get("authorization", "").strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip()


def _required_token(request: ApiRequest) -> str:
    token = bearer_token(request)
    if token is None:
        raise Unauthorized(
            "this route needs an `Authorization: Bearer <key>` header", token_given=False
        )
    return token


async def authenticated_key(request: ApiRequest, env: Env) -> ApiKeyRecord:
    """The API key the request presents (its owner acts); raises `Unauthorized` (or the
    service's `NotAuthenticated`) otherwise."""
    return await keys.authenticate(env, _required_token(request))


def admin_enabled(env: Env) -> bool:
    return DeploymentVars.from_env(env).admin_token is not None


def authorize_admin(request: ApiRequest, env: Env) -> None:
    token = _required_token(request)
    # compare_digest takes time independent of where the values differ; bytes, because it
    # refuses non-ASCII str.
    # A wrangler secret (`wrangler secret put ADMIN_TOKEN`); absent from [vars] on purpose.
    admin_token = DeploymentVars.from_env(env).admin_token or ""
    if not hmac.compare_digest(token.encode(), admin_token.encode()):
        raise Unauthorized("the admin token is not valid", token_given=True)
