"""The API's error tree and the one mapping from service errors: complete and unambiguous."""

from __future__ import annotations

import pytest

from api.app import api_error_for
from api.errors import (
    ApiError,
    ApiErrorCode,
    BadRequest,
    ClientError,
    Conflict,
    Gone,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    ServerError,
    ServiceUnavailable,
    Unauthorized,
)
from api.http import error_response
from auditdb.records import AuditStatus
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


def subclasses[E](cls: type[E]) -> set[type[E]]:
    found: set[type[E]] = set()
    for sub in cls.__subclasses__():
        found |= {sub} | subclasses(sub)
    return found


SERVICE_ERRORS: list[tuple[ServiceError, int, ApiErrorCode]] = [
    (
        InvalidTarget(TargetProblem.MALFORMED, "url has no valid host"),
        400,
        ApiErrorCode.INVALID_URL,
    ),
    (InvalidTarget(TargetProblem.BLOCKED, "10.0.0.1 is private"), 400, ApiErrorCode.TARGET_BLOCKED),
    (InvalidOptions("max_pages must be at most 10"), 400, ApiErrorCode.INVALID_REQUEST),
    (AuditNotFound("a1"), 404, ApiErrorCode.NOT_FOUND),
    (PageNotFound("a1", "https://a.test/x"), 404, ApiErrorCode.NOT_FOUND),
    (NotResumable("a1", AuditStatus.COMPLETED), 409, ApiErrorCode.CONFLICT),
    (NotResumable("a1", None), 409, ApiErrorCode.CONFLICT),
    (NotCancellable("a1", AuditStatus.COMPLETED), 409, ApiErrorCode.CONFLICT),
    (StillRunning("a1"), 409, ApiErrorCode.CONFLICT),
    (StateExpired("a1", "the audit's crawl state is gone"), 410, ApiErrorCode.GONE),
    (
        WorkflowUnavailable("could not start the audit: boom"),
        503,
        ApiErrorCode.WORKFLOW_UNAVAILABLE,
    ),
    (
        StorageUnavailable("could not delete the audit's stored report"),
        503,
        ApiErrorCode.STORAGE_UNAVAILABLE,
    ),
    (
        CredentialsUnavailable("the Worker secret CREDENTIALS_KEY is not set"),
        503,
        ApiErrorCode.CREDENTIALS_UNAVAILABLE,
    ),
    (NotAuthenticated("the API key is not valid"), 401, ApiErrorCode.UNAUTHORIZED),
    (InvalidKeyFields("owner must be ..."), 400, ApiErrorCode.INVALID_REQUEST),
    (KeyNotFound("key_1"), 404, ApiErrorCode.NOT_FOUND),
    (
        RateLimited("rate limit of 3 requests per minute reached", 12),
        429,
        ApiErrorCode.RATE_LIMITED,
    ),
    (MonitorNotFound("m1"), 404, ApiErrorCode.NOT_FOUND),
    (MonitorLimitReached("an owner may keep at most 20 monitors"), 409, ApiErrorCode.CONFLICT),
    (MonitorNotRunnable("m1", "it is paused"), 409, ApiErrorCode.CONFLICT),
    (HostNotVerified("a.test", "ignore_robots needs ..."), 403, ApiErrorCode.HOST_NOT_VERIFIED),
    (InvalidVerification("host must be ..."), 400, ApiErrorCode.INVALID_REQUEST),
    (VerificationNotFound("ver_1"), 404, ApiErrorCode.NOT_FOUND),
]


def test_the_table_names_every_service_error() -> None:
    # A new ServiceError subclass fails here until it has a row, and then fails the test below
    # until api_error_for maps it.
    assert {type(exc) for exc, _, _ in SERVICE_ERRORS} == subclasses(ServiceError)


def test_every_target_problem_has_a_row() -> None:
    rows = {exc.problem for exc, _, _ in SERVICE_ERRORS if isinstance(exc, InvalidTarget)}
    assert rows == set(TargetProblem)


@pytest.mark.parametrize(("exc", "status", "code"), SERVICE_ERRORS, ids=repr)
def test_every_service_error_maps_to_an_api_error(
    exc: ServiceError, status: int, code: ApiErrorCode
) -> None:
    error = api_error_for(exc)

    assert (error.status_hint, error.code, error.message) == (status, code, str(exc))


def test_every_code_belongs_to_exactly_one_error_class() -> None:
    owners = [code for cls in subclasses(ApiError) for code in vars(cls).get("codes", ())]
    assert sorted(owners) == sorted(ApiErrorCode)


@pytest.mark.parametrize(
    ("cls", "code"),
    [
        (NotFound, ApiErrorCode.GONE),
        (BadRequest, ApiErrorCode.CONFLICT),
        (Gone, ApiErrorCode.NOT_FOUND),
    ],
)
def test_a_class_refuses_another_status_code(cls: type[ApiError], code: ApiErrorCode) -> None:
    with pytest.raises(ValueError, match="cannot carry"):
        cls("message", code)


@pytest.mark.parametrize(
    ("error", "status", "headers"),
    [
        (BadRequest("bad"), 400, {}),
        (BadRequest("bad", ApiErrorCode.INVALID_JSON), 400, {}),
        (MethodNotAllowed("no", allow=["POST", "GET"]), 405, {"allow": "GET, POST"}),
        (Conflict("busy"), 409, {}),
        (ServiceUnavailable("down"), 503, {}),
        (PayloadTooLarge("big"), 413, {}),
        (
            Unauthorized("who?", token_given=False),
            401,
            {"www-authenticate": 'Bearer realm="siteaudit"'},
        ),
        (
            Unauthorized("bad key", token_given=True),
            401,
            {"www-authenticate": 'Bearer realm="siteaudit", error="invalid_token"'},
        ),
    ],
)
def test_errors_render_as_json_with_their_status_and_headers(
    error: ApiError, status: int, headers: dict[str, str]
) -> None:
    response = error_response(error)

    assert response.status == status
    assert response.json() == {"error": {"code": str(error.code), "message": error.message}}
    assert {k: v for k, v in response.headers.items() if k != "content-type"} == headers
    assert response.headers["content-type"].startswith("application/json")


@pytest.mark.parametrize("cls", [ApiError, ClientError, ServerError])
def test_branches_of_the_tree_are_not_raised(cls: type[ApiError]) -> None:
    with pytest.raises(TypeError, match="branch"):
        cls("message")
