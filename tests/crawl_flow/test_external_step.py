"""An external-links step that dies at any await point of its scratchpad calls and is retried
ends exactly like an uninterrupted one: the retry gets back the URLs still leased to its number,
answers are rewritten identically, and the issues on every referrer are the same."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from auditdb import repository
from auditdb.records import AuditOptions, AuditRecord, AuditStatus
from common import settings
from durable.client import Scratchpad
from durable.finalize import FinalizeOptions, FinalizePage
from durable.records import ExternalRef, RecordBatch
from tests.crawl_flow.test_retry_idempotency import FailingAt, InjectedFault
from tests.support.site_server import Reply, Site, serve_site
from urls.private_hosts import PrivateHosts
from workflow.external_step import check_external_links, run_external_step
from workflow.params import AuditParams

_names = itertools.count()
START = "https://site.test/"


@pytest.fixture(autouse=True)
def no_spacing() -> Iterator[None]:
    saved = settings.EXTERNAL
    settings.EXTERNAL = dataclasses.replace(saved, host_spacing_s=0.0)
    try:
        yield
    finally:
        settings.EXTERNAL = saved


def other_site() -> dict[str, Reply]:
    return {
        "/fine": Reply(200, b"<title>fine</title>"),
        "/moved": Reply(301, b"", {"location": "/fine"}),
    }


async def audit_external(platform: Any, other: Site, fail_at: int | None) -> list[Any]:
    pad = Scratchpad(platform.env.AUDIT_SCRATCHPAD.getByName(f"external-step-{next(_names)}"))
    pages = [f"{START}{name}" for name in ("a", "b")]
    mirror = tuple(
        {"url": url, "page_id": f"id-{url[-1]}", "status_code": 200, "fetch_class": "ok"}
        for url in pages
    )
    refs = tuple(
        ExternalRef(source, other.url(path))
        for source in pages
        for path in ("/fine", "/moved", "/missing")
    )
    await pad.record_batch(RecordBatch(pages=mirror, external=refs))
    options = AuditOptions(check_external=True, private_hosts=PrivateHosts.LOOPBACK)
    params = AuditParams("audit-x", START, options)
    if fail_at is not None:
        faulty = FailingAt(fail_at)
        with pytest.raises(InjectedFault):
            await run_external_step(params, faulty.wrap(pad), 1)
    lease_no, report = 1, await run_external_step(params, pad, 1)  # the retry
    while report.pending:
        lease_no += 1
        report = await run_external_step(params, pad, lease_no)
    options_json = FinalizeOptions("audit-x", START, crawl_completed=True).to_dict()
    page = FinalizePage.from_dict(await pad.stub.run_finalize_checks(options_json))
    return [i for i in page.issues if "external" in str(i["issue_type"])]


# The step awaits the scratchpad for its claim and to record the answers (it has nothing to
# release: every URL is launched well before the soft deadline); a fault at each.
@pytest.mark.parametrize("fail_at", [1, 2])
async def test_a_retried_step_ends_like_an_uninterrupted_one(platform: Any, fail_at: int) -> None:
    with serve_site(other_site()) as other:
        clean = await audit_external(platform, other, None)
        retried = await audit_external(platform, other, fail_at)
    assert retried == clean
    assert sorted((i["issue_type"], i["details"]["targetUrl"]) for i in clean) == sorted(
        [("broken-external-link", other.url("/missing"))] * 2
        + [("external-redirect", other.url("/moved"))] * 2
    )


class Steps:
    """A workflow `step` that runs each body at once and records the step names."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def do(self, name: str, config: Any = None) -> Any:
        def decorate(body: Any) -> Any:
            async def run() -> Any:
                self.names.append(name)
                return await body()

            return run

        return decorate


class Stop(Exception):
    pass


@pytest.mark.parametrize(
    ("status", "check_external", "names", "raises"),
    [
        (AuditStatus.RUNNING, True, ["external-links-1"], False),
        (AuditStatus.RUNNING, False, [], False),
        (AuditStatus.CANCELLED, True, ["external-links-1"], True),
    ],
)
async def test_the_steps_run_with_the_option_and_stop_a_cancelled_audit(
    platform: Any, status: AuditStatus, check_external: bool, names: list[str], raises: bool
) -> None:
    options = AuditOptions(check_external=check_external)
    audit_id = f"audit-{next(_names)}"
    record = AuditRecord(audit_id, START, "2026-01-01T00:00:00.000Z", options=options)
    await repository.insert_audit(platform.env.DB, dataclasses.replace(record, status=status))
    steps = Steps()
    params = AuditParams(audit_id, START, options)
    if raises:
        with pytest.raises(Stop, match="no longer running"):
            await check_external_links(params, steps, platform.env, Stop)
    else:
        await check_external_links(params, steps, platform.env, Stop)
    assert steps.names == names
