"""The API's error codes and its one error tree, each class carrying the status it answers with.

    ApiError                      code, message, headers; `status_hint` per class
    ├── ClientError               the request is at fault (4xx): retrying it unchanged will not help
    │   ├── BadRequest            400  invalid_json, invalid_request, invalid_url, target_blocked
    │   ├── Unauthorized          401  unauthorized, with a `WWW-Authenticate: Bearer` challenge
    │   ├── Forbidden             403  host_not_verified
    │   ├── NotFound              404  not_found
    │   ├── MethodNotAllowed      405  method_not_allowed, with an `Allow` header
    │   ├── Conflict              409  conflict
    │   ├── Gone                  410  gone
    │   ├── PayloadTooLarge       413  payload_too_large
    │   └── TooManyRequests       429  rate_limited, with a `Retry-After` header
    └── ServerError               the Worker or a binding is at fault (5xx): retry later
        └── ServiceUnavailable    503  workflow_unavailable, storage_unavailable,
                                       credentials_unavailable

Handlers and body parsing raise these; the service raises its own `service.errors` tree. Only
`api.app.handle_request` catches either, and renders `{"error": {"code", "message"}}` with
`status_hint` (h11's `error_status_hint`: the exception says which status it deserves, the
boundary decides to use it).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import ClassVar


class ApiErrorCode(StrEnum):
    """Every `error.code` the API answers with. Clients match on these values: never rename one."""

    INVALID_JSON = "invalid_json"
    INVALID_REQUEST = "invalid_request"
    INVALID_URL = "invalid_url"
    TARGET_BLOCKED = "target_blocked"
    UNAUTHORIZED = "unauthorized"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    CONFLICT = "conflict"
    GONE = "gone"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    RATE_LIMITED = "rate_limited"
    WORKFLOW_UNAVAILABLE = "workflow_unavailable"
    STORAGE_UNAVAILABLE = "storage_unavailable"
    # ignore_robots for a host its owner has not verified (docs/manual/verify.md)
    HOST_NOT_VERIFIED = "host_not_verified"
    CREDENTIALS_UNAVAILABLE = "credentials_unavailable"  # CREDENTIALS_KEY missing or wrong


class ApiError(Exception):
    """Base of the tree: never raised itself. `codes` lists the codes a class may carry; the first
    is its default, so `NotFound("no audit with id x")` needs no code."""

    status_hint: ClassVar[int] = 500
    codes: ClassVar[tuple[ApiErrorCode, ...]] = ()

    def __init__(
        self,
        message: str,
        code: ApiErrorCode | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        if not self.codes:
            raise TypeError(f"{type(self).__name__} is a branch of the tree; raise a leaf")
        chosen = self.codes[0] if code is None else code
        if chosen not in self.codes:
            # A programming error, caught by the tests: each code belongs to one status.
            raise ValueError(f"{type(self).__name__} cannot carry code {chosen!r}")
        self.code = chosen
        self.message = message
        self.headers: dict[str, str] = dict(headers or {})


class ClientError(ApiError):
    status_hint = 400


class BadRequest(ClientError):
    status_hint = 400
    codes = (
        ApiErrorCode.INVALID_REQUEST,
        ApiErrorCode.INVALID_JSON,
        ApiErrorCode.INVALID_URL,
        ApiErrorCode.TARGET_BLOCKED,
    )


class Unauthorized(ClientError):
    status_hint = 401
    codes = (ApiErrorCode.UNAUTHORIZED,)

    def __init__(self, message: str, *, token_given: bool) -> None:
        # RFC 6750 §3: every 401 carries a Bearer challenge; `error="invalid_token"` only when a
        # token was presented, since a request without credentials should get no error code.
        challenge = 'Bearer realm="siteaudit"'
        if token_given:
            challenge += ', error="invalid_token"'
        super().__init__(message, headers={"www-authenticate": challenge})


class Forbidden(ClientError):
    """RFC 9110 §15.5.4: understood, and refused for who is asking (here: an owner who has not
    verified the host whose robots.txt it asked to ignore)."""

    status_hint = 403
    codes = (ApiErrorCode.HOST_NOT_VERIFIED,)


class NotFound(ClientError):
    status_hint = 404
    codes = (ApiErrorCode.NOT_FOUND,)


class MethodNotAllowed(ClientError):
    status_hint = 405
    codes = (ApiErrorCode.METHOD_NOT_ALLOWED,)

    def __init__(self, message: str, allow: list[str]) -> None:
        # RFC 9110 §15.5.6: a 405 must list the methods the target does support.
        super().__init__(message, headers={"allow": ", ".join(sorted(allow))})


class Conflict(ClientError):
    status_hint = 409
    codes = (ApiErrorCode.CONFLICT,)


class Gone(ClientError):
    status_hint = 410
    codes = (ApiErrorCode.GONE,)


class PayloadTooLarge(ClientError):
    status_hint = 413
    codes = (ApiErrorCode.PAYLOAD_TOO_LARGE,)


class TooManyRequests(ClientError):
    """RFC 6585 §4: 429 with `Retry-After` (RFC 9110 §10.2.3), in whole seconds."""

    status_hint = 429
    codes = (ApiErrorCode.RATE_LIMITED,)

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message, headers={"retry-after": str(retry_after_s)})


class ServerError(ApiError):
    status_hint = 500


class ServiceUnavailable(ServerError):
    status_hint = 503
    codes = (
        ApiErrorCode.WORKFLOW_UNAVAILABLE,
        ApiErrorCode.STORAGE_UNAVAILABLE,
        ApiErrorCode.CREDENTIALS_UNAVAILABLE,
    )
