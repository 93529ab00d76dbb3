"""Every API error code, reached through the router: (method, path, body) -> (status, code).

The env refuses to create Workflow instances, so a request that passes every check ends in
workflow_unavailable, which is how the table reaches the 503; requests refused earlier never get
that far. Its R2 bucket refuses deletes, so deleting an audit ends in storage_unavailable, and
it has no CREDENTIALS_KEY, so an audit with credentials ends in credentials_unavailable. Audit
rows in each resumable or unresumable state are seeded straight into D1. Calls carry an API key of
the seeded rows' owner, except the one that shows the 401.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest

from api.app import handle_request
from api.errors import ApiErrorCode
from api.http import ApiRequest
from auditdb import repository
from auditdb.records import AuditOptions, AuditRecord
from common.bindings import Env, R2Bucket, Workflow
from durable.client import Scratchpad
from durable.records import CrawlConfig
from local_platform.runtime import LocalPlatform
from service import keys
from service.audits import LOCAL_OWNER


class RefusingWorkflow:
    async def create(self, *, id: str, params: Any) -> Any:
        raise RuntimeError("Workflow binding unavailable")


class RefusingBucket:
    async def delete(self, keys: Any) -> None:
        raise RuntimeError("R2 bucket unavailable")


class WorkflowDownEnv:
    """The platform's env with a Workflow binding that refuses every create, and an R2 bucket
    that refuses every delete."""

    def __init__(self, env: Any, key: str) -> None:
        self._env = env
        # Doubles of only the methods these requests reach, standing for the whole bindings.
        self.SITE_AUDIT_WORKFLOW = cast(Workflow, RefusingWorkflow())
        self.REPORTS = cast(R2Bucket, RefusingBucket())
        self.CREDENTIALS_KEY = None  # the secret not put: credentials cannot be sealed
        self.key = key  # the test's API key (not a binding)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)


def iso_days_ago(days: float) -> str:
    return (datetime.now(UTC) - timedelta(days=days)).isoformat().replace("+00:00", "Z")


async def seed(env: Env, audit_id: str, status: str, days_old: float = 0) -> None:
    started = iso_days_ago(days_old)
    record = AuditRecord(
        id=audit_id,
        start_url="https://example.com/",
        created_at=started,
        started_at=started,
        options=AuditOptions(),
        workflow_instance_id=audit_id,
    )
    await repository.insert_audit(env.DB, record)
    sql = "UPDATE audits SET status = ?, error_code = ? WHERE id = ?"
    error_code = "oom" if status == "failed" else None
    await env.DB.prepare(sql).bind(status, error_code, audit_id).run()


@pytest.fixture
async def env(platform: LocalPlatform) -> WorkflowDownEnv:
    base = platform.env
    await seed(base, "done", "completed")
    await seed(base, "expired", "failed", days_old=8)
    await seed(base, "no-state", "failed")
    await seed(base, "resumable", "failed")
    await Scratchpad.for_audit(base, "resumable").save_crawl_config(
        CrawlConfig(final_url="https://example.com/")
    )
    created = await keys.create_key(base, LOCAL_OWNER, "tests")
    return WorkflowDownEnv(base, created.secret)


def body(value: Any) -> bytes:
    return json.dumps(value).encode()


ERRORS = [
    ("GET", "/api/audits", None, 401, ApiErrorCode.UNAUTHORIZED),  # sent without the key
    ("POST", "/api/audits", b"{not json", 400, ApiErrorCode.INVALID_JSON),
    ("POST", "/api/audits", b"\xff\xfe", 400, ApiErrorCode.INVALID_JSON),
    ("POST", "/api/audits", b"", 400, ApiErrorCode.INVALID_REQUEST),
    ("POST", "/api/audits", body(["https://example.com"]), 400, ApiErrorCode.INVALID_REQUEST),
    ("POST", "/api/audits", body({"website": "x"}), 400, ApiErrorCode.INVALID_REQUEST),
    ("POST", "/api/audits", body({"url": "x", "max_pages": 0}), 400, ApiErrorCode.INVALID_REQUEST),
    (
        "POST",
        "/api/audits",
        body({"url": "x", "external_budget_s": 0}),
        400,
        ApiErrorCode.INVALID_REQUEST,
    ),
    ("POST", "/api/audits", body({"url": "ftp://example.com/"}), 400, ApiErrorCode.INVALID_URL),
    ("POST", "/api/audits", body({"url": "http://exa mple.com/"}), 400, ApiErrorCode.INVALID_URL),
    ("POST", "/api/audits", body({"url": "http://10.0.0.1/"}), 400, ApiErrorCode.TARGET_BLOCKED),
    (
        "POST",
        "/api/audits",
        body({"url": "https://example.com", "ignore_robots": True}),
        403,
        ApiErrorCode.HOST_NOT_VERIFIED,
    ),
    (
        "POST",
        "/api/audits",
        body({"url": "https://example.com"}),
        503,
        ApiErrorCode.WORKFLOW_UNAVAILABLE,
    ),
    ("GET", "/api/audits/missing", None, 404, ApiErrorCode.NOT_FOUND),
    ("GET", "/api/audits/missing/pages", None, 404, ApiErrorCode.NOT_FOUND),
    ("GET", "/api/audits/missing/issues", None, 404, ApiErrorCode.NOT_FOUND),
    ("GET", "/api/audits/missing/report", None, 404, ApiErrorCode.NOT_FOUND),
    ("POST", "/api/audits/missing/resume", None, 404, ApiErrorCode.NOT_FOUND),
    ("GET", "/api/nothing-here", None, 404, ApiErrorCode.NOT_FOUND),
    ("GET", "/api/audits/bad.id", None, 404, ApiErrorCode.NOT_FOUND),
    ("DELETE", "/api/audits", None, 405, ApiErrorCode.METHOD_NOT_ALLOWED),
    ("PUT", "/api/audits/done", None, 405, ApiErrorCode.METHOD_NOT_ALLOWED),
    ("GET", "/api/audits/done/resume", None, 405, ApiErrorCode.METHOD_NOT_ALLOWED),
    ("POST", "/api/audits/done/resume", None, 409, ApiErrorCode.CONFLICT),
    ("POST", "/api/audits/expired/resume", None, 410, ApiErrorCode.GONE),
    ("POST", "/api/audits/no-state/resume", None, 410, ApiErrorCode.GONE),
    ("POST", "/api/audits/resumable/resume", None, 503, ApiErrorCode.WORKFLOW_UNAVAILABLE),
    ("DELETE", "/api/audits/done", None, 503, ApiErrorCode.STORAGE_UNAVAILABLE),
    (
        "POST",
        "/api/audits",
        body({"url": "https://example.com", "credentials": {"cookies": {"s": "1"}}}),
        503,
        ApiErrorCode.CREDENTIALS_UNAVAILABLE,
    ),
    (
        "POST",
        "/api/audits",
        body({"url": "https://example.com", "credentials": {"headers": {"Host": "x"}}}),
        400,
        ApiErrorCode.INVALID_REQUEST,
    ),
    ("POST", "/api/audits", b"{" + b" " * 64 * 1024 + b"}", 413, ApiErrorCode.PAYLOAD_TOO_LARGE),
    # After one request under a limit of one request a minute (set by the test for 429 rows).
    ("GET", "/api/audits", None, 429, ApiErrorCode.RATE_LIMITED),
]


def test_the_table_reaches_every_code() -> None:
    assert {code for *_, code in ERRORS} == set(ApiErrorCode)


def authorized(env: WorkflowDownEnv) -> dict[str, str]:
    return {"authorization": f"Bearer {env.key}"}


async def call(
    env: WorkflowDownEnv,
    method: str,
    path: str,
    raw: bytes | None = None,
    *,
    anonymous: bool = False,
) -> tuple[int, Any]:
    headers = {} if anonymous else authorized(env)
    request = ApiRequest(method, f"http://siteaudit.local{path}", headers, raw or b"")
    response = await handle_request(request, env)
    return response.status, response.json()


@pytest.mark.parametrize(("method", "path", "raw", "status", "code"), ERRORS)
async def test_each_error_has_its_status_and_code(
    env: WorkflowDownEnv, method: str, path: str, raw: bytes | None, status: int, code: str
) -> None:
    if status == 429:
        env.RATE_LIMIT_REQUESTS_PER_MINUTE = "1"  # type: ignore[attr-defined]
        await call(env, method, path, raw)
    got_status, got = await call(env, method, path, raw, anonymous=status == 401)

    assert (got_status, got["error"]["code"]) == (status, code)
    assert set(got) == {"error"} and set(got["error"]) == {"code", "message"}
    assert got["error"]["message"]


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/api/audits", "GET, POST"),
        ("PUT", "/api/audits/done", "DELETE, GET"),
        ("GET", "/api/audits/done/resume", "POST"),
    ],
)
async def test_a_405_lists_the_allowed_methods(
    env: WorkflowDownEnv, method: str, path: str, allow: str
) -> None:
    request = ApiRequest(method, f"http://siteaudit.local{path}", authorized(env))
    response = await handle_request(request, env)
    assert response.headers["allow"] == allow


async def test_an_unstartable_audit_leaves_no_row(env: WorkflowDownEnv) -> None:
    await call(env, "POST", "/api/audits", body({"url": "https://example.com"}))

    _, listed = await call(env, "GET", "/api/audits")
    assert {a["start_url"] for a in listed["audits"]} == {"https://example.com/"}
    assert {a["id"] for a in listed["audits"]} == {"done", "expired", "no-state", "resumable"}


async def test_an_unresumable_audit_stays_failed_with_its_error(env: WorkflowDownEnv) -> None:
    await call(env, "POST", "/api/audits/resumable/resume")

    _, got = await call(env, "GET", "/api/audits/resumable")
    assert (got["audit"]["status"], got["audit"]["error_code"]) == ("failed", "oom")


async def test_a_max_pages_above_the_deployment_limit_is_invalid(
    env: WorkflowDownEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(env, "MAX_PAGES_LIMIT", "5", raising=False)
    status, got = await call(
        env, "POST", "/api/audits", body({"url": "https://example.com", "max_pages": 6})
    )

    assert (status, got["error"]) == (
        400,
        {"code": "invalid_request", "message": "max_pages must be at most 5"},
    )


async def test_a_resume_that_loses_the_race_is_a_conflict(
    env: WorkflowDownEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def already_reopened(*args: Any) -> bool:
        return False  # another resume's guarded UPDATE won between our read and our write

    monkeypatch.setattr(repository, "reopen_audit", already_reopened)
    status, got = await call(env, "POST", "/api/audits/resumable/resume")

    assert (status, got["error"]) == (
        409,
        {"code": "conflict", "message": "audit resumable is no longer failed or cancelled"},
    )
