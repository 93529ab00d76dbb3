"""The audit service called directly, as the CLI or another adapter would: no HTTP, no pydantic."""

from __future__ import annotations

from typing import Any

import pytest

from auditdb import repository
from auditdb.listing import AuditFilter, read_audits
from auditdb.records import AuditOptions, AuditRecord, AuditStatus
from local_platform.runtime import LocalPlatform
from render.records import RenderMode
from service.audits import CreateAudit, create_audit, read_audit, resume_audit
from service.errors import (
    AuditNotFound,
    InvalidOptions,
    InvalidTarget,
    ServiceError,
    TargetProblem,
)

OWNER = "local"


@pytest.mark.parametrize(
    ("request_", "error", "detail"),
    [
        (CreateAudit("https://example.com", max_pages=0), InvalidOptions, "max_pages"),
        (CreateAudit("https://example.com", 10, max_depth=-1), InvalidOptions, "max_depth"),
        (
            CreateAudit("https://example.com", 10, fetch_timeout_s=0),
            InvalidOptions,
            "fetch_timeout_s",
        ),
        (CreateAudit("gopher://example.com", 10), InvalidTarget, "only http and https"),
        (CreateAudit("http://169.254.169.254/", 10), InvalidTarget, "metadata"),
    ],
)
async def test_create_refuses_before_writing_anything(
    platform: LocalPlatform, request_: CreateAudit, error: type[ServiceError], detail: str
) -> None:
    with pytest.raises(error, match=detail):
        await create_audit(platform.env, OWNER, request_)

    assert await read_audits(platform.env.DB, "local", AuditFilter(), None, 10) == []


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://exa mple.com/", TargetProblem.MALFORMED),
        ("http://10.1.2.3/", TargetProblem.BLOCKED),
    ],
)
async def test_an_invalid_target_says_what_is_wrong(
    platform: LocalPlatform, url: str, problem: TargetProblem
) -> None:
    with pytest.raises(InvalidTarget) as caught:
        await create_audit(platform.env, OWNER, CreateAudit(url, 10))
    assert caught.value.problem is problem


@pytest.mark.parametrize("operation", [read_audit, resume_audit])
async def test_an_unknown_id_is_not_found(platform: LocalPlatform, operation: Any) -> None:
    with pytest.raises(AuditNotFound, match="no audit with id nope"):
        await operation(platform.env, OWNER, "nope")


@pytest.mark.parametrize("operation", [read_audit, resume_audit])
async def test_another_owners_audit_is_not_found_like_an_unknown_one(
    platform: LocalPlatform, operation: Any
) -> None:
    audit = AuditRecord(
        "a-1",
        "https://a.test/",
        "2026-12-01T00:00:00.000Z",
        owner="alice",
        status=AuditStatus.FAILED,
    )
    await repository.insert_audit(platform.env.DB, audit)
    with pytest.raises(AuditNotFound, match="no audit with id a-1"):
        await operation(platform.env, "mallory", "a-1")


@pytest.mark.parametrize("check_external", [False, True])
def test_the_check_external_option_reaches_the_audit_options(check_external: bool) -> None:
    from service.audits import checked_options
    from urls.private_hosts import PrivateHosts

    request = CreateAudit("https://example.com/", 5, check_external=check_external)
    options = checked_options(request, PrivateHosts.DENY, 100)
    assert options.check_external is check_external
    assert CreateAudit("https://example.com/", 5).check_external is False  # the API's default


@pytest.mark.parametrize("render", list(RenderMode))
def test_the_render_option_reaches_the_audit_options_and_a_rerun(render: RenderMode) -> None:
    from service.audits import checked_options
    from urls.private_hosts import PrivateHosts

    options = checked_options(
        CreateAudit("https://example.com/", 5, render=render), PrivateHosts.DENY, 100
    )
    assert options.render is render
    assert CreateAudit("https://example.com/", 5).render is RenderMode.AUTO  # the API's default


def test_options_stored_before_the_render_option_read_back_as_auto() -> None:
    stored = AuditOptions(max_pages=7).to_dict()
    del stored["render"]
    assert AuditOptions.from_dict(stored) == AuditOptions(max_pages=7, render=RenderMode.AUTO)


@pytest.mark.parametrize(
    ("budget_s", "refused"),
    [(1.0, False), (60.0, False), (3_600.0, False), (0.5, True), (3_601, True)],
)
def test_the_external_time_budget_reaches_the_audit_options_within_its_range(
    budget_s: float, refused: bool
) -> None:
    from service.audits import checked_options
    from service.errors import InvalidOptions
    from urls.private_hosts import PrivateHosts

    request = CreateAudit(
        "https://example.com/", 5, check_external=True, external_budget_s=budget_s
    )
    if refused:
        with pytest.raises(InvalidOptions, match="external_budget_s must be between 1 and 3600"):
            checked_options(request, PrivateHosts.DENY, 100)
    else:
        assert checked_options(request, PrivateHosts.DENY, 100).external_budget_s == budget_s
    assert CreateAudit("https://example.com/", 5).external_budget_s == 60.0  # the default
