"""Re-running an audit over HTTP: a new audit of the same URL with the same options, admitted
like a new one; another owner's audit or an unknown id is 404."""

from __future__ import annotations

from dataclasses import replace

import pytest

from auditdb import repository
from auditdb.records import AuditOptions, AuditRecord
from lighthouse.records import LighthouseMode
from local_platform.runtime import LocalPlatform
from service import keys
from tests.api.client import AcceptingWorkflow, send

OPTIONS = AuditOptions(
    max_pages=7,
    max_depth=2,
    include_patterns=["/blog/*"],
    exclude_patterns=["/blog/tag/*"],
    fetch_timeout_s=12.0,
    lighthouse=LighthouseMode.NONE,
    lighthouse_pages=2,
    check_external=True,
    external_budget_s=30.0,
)


@pytest.fixture
async def workflow(platform: LocalPlatform, monkeypatch: pytest.MonkeyPatch) -> AcceptingWorkflow:
    accepting = AcceptingWorkflow()
    monkeypatch.setattr(platform.env, "SITE_AUDIT_WORKFLOW", accepting)
    for owner in ("alpha", "beta"):
        audit = AuditRecord(
            f"{owner}-old",
            f"http://{owner}.example/start",
            "2026-12-01T00:00:00.000Z",
            owner=owner,
            options=OPTIONS,
            scheme_assumed=True,
        )
        await repository.insert_audit(platform.env.DB, audit)
        sql = "UPDATE audits SET status = 'completed' WHERE id = ?"
        await platform.env.DB.prepare(sql).bind(audit.id).run()
    return accepting


async def test_a_rerun_is_a_new_audit_with_the_same_url_and_options(
    platform: LocalPlatform, workflow: AcceptingWorkflow
) -> None:
    key = (await keys.create_key(platform.env, "alpha")).secret

    answer = await send(platform.env, "POST", "/api/audits/alpha-old/rerun", key)

    assert answer.status == 201
    audit = answer.json()["audit"]
    assert audit["id"] != "alpha-old"
    assert answer.headers["location"] == f"/api/audits/{audit['id']}"
    assert (audit["owner"], audit["status"]) == ("alpha", "running")
    assert audit["start_url"] == "http://alpha.example/start"
    assert audit["scheme_assumed"] is True
    stored = await repository.get_audit(platform.env.DB, audit["id"])
    assert stored is not None
    # The private-address policy is the deployment's at the time of the re-run, not the old one's.
    assert replace(stored.options, private_hosts=OPTIONS.private_hosts) == OPTIONS
    assert list(workflow.created) == [audit["id"]]
    old = await repository.get_audit(platform.env.DB, "alpha-old")
    assert old is not None and old.status == "completed"  # the old audit is left as it was


@pytest.mark.parametrize("audit_id", ["beta-old", "no-such-audit"])
async def test_no_rerun_of_another_owners_or_an_unknown_audit(
    platform: LocalPlatform, workflow: AcceptingWorkflow, audit_id: str
) -> None:
    key = (await keys.create_key(platform.env, "alpha")).secret

    answer = await send(platform.env, "POST", f"/api/audits/{audit_id}/rerun", key)

    assert answer.status == 404
    assert workflow.created == {}
