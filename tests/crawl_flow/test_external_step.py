"""An external-links step that dies at any await point of its scratchpad calls and is retried
ends exactly like an uninterrupted one: the retry gets back the URLs still leased to its number,
answers are rewritten identically, and the issues on every referrer are the same."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from audit.external_links import ExternalStop
from auditdb import repository
from auditdb.records import AuditOptions, AuditRecord, AuditStatus
from auditdb.scope import ScopeOptions
from common import settings
from common.wire import JsonValue
from durable.client import Scratchpad
from durable.finalize import FinalizeOptions, FinalizePage
from durable.records import ExternalRef, MirrorRow, RecordBatch
from local_platform.runtime import LocalPlatform
from tests.crawl_flow.test_retry_idempotency import FailingAt, InjectedFault
from tests.support.loopback_http import LoopbackOnlyHttp
from tests.support.site_server import Reply, Site, serve_site
from urls.private_hosts import PrivateHosts
from workflow.audit_run import AuditRun
from workflow.external_step import check_external_links, run_external_step
from workflow.params import AuditParams

_names = itertools.count()
START = "https://site.test/"


@pytest.fixture(autouse=True)
def no_spacing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        settings, "EXTERNAL", dataclasses.replace(settings.EXTERNAL, host_spacing_s=0.0)
    )


def other_site() -> dict[str, Reply]:
    return {
        "/fine": Reply(200, b"<title>fine</title>"),
        "/moved": Reply(301, b"", {"location": "/fine"}),
    }


async def audit_external(platform: LocalPlatform, other: Site, fail_at: int | None) -> list[Any]:
    pad = Scratchpad(platform.env.AUDIT_SCRATCHPAD.getByName(f"external-step-{next(_names)}"))
    pages = [f"{START}{name}" for name in ("a", "b")]
    mirror: tuple[MirrorRow, ...] = tuple(
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
async def test_a_retried_step_ends_like_an_uninterrupted_one(
    platform: LocalPlatform, fail_at: int
) -> None:
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
        self.names: list[str | None] = []

    def do(
        self,
        name: str | None = None,
        *,
        concurrent: bool = False,
        config: dict[str, JsonValue] | None = None,
    ) -> Callable[[Callable[..., Awaitable[JsonValue]]], Callable[[], Awaitable[JsonValue]]]:
        def decorate(
            body: Callable[..., Awaitable[JsonValue]],
        ) -> Callable[[], Awaitable[JsonValue]]:
            async def run() -> JsonValue:
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
    platform: LocalPlatform,
    status: AuditStatus,
    check_external: bool,
    names: list[str],
    raises: bool,
) -> None:
    options = AuditOptions(check_external=check_external)
    audit_id = f"audit-{next(_names)}"
    record = AuditRecord(audit_id, START, "2026-01-01T00:00:00.000Z", options=options)
    await repository.insert_audit(platform.env.DB, dataclasses.replace(record, status=status))
    steps = Steps()
    params = AuditParams(audit_id, START, options)
    run = AuditRun(params, steps, platform.env, Stop)
    if raises:
        with pytest.raises(Stop, match="no longer running"):
            await check_external_links(run)
    else:
        await check_external_links(run)
    assert steps.names == names


# -- the phase's ends: no DNS where the audit runs, and its time budget ---------------------------


async def run_steps(
    platform: LocalPlatform, targets: list[str], options: AuditOptions
) -> tuple[Any, list[Any]]:
    """Every external-links step over one page linking `targets`, then finalize's issues."""
    pad = Scratchpad(platform.env.AUDIT_SCRATCHPAD.getByName(f"external-step-{next(_names)}"))
    mirror: tuple[MirrorRow, ...] = (
        {"url": START, "page_id": "id-start", "status_code": 200, "fetch_class": "ok"},
    )
    refs = tuple(ExternalRef(START, target) for target in targets)
    await pad.record_batch(RecordBatch(pages=mirror, external=refs))
    params = AuditParams("audit-x", START, options)
    reports = [await run_external_step(params, pad, 1)]
    while reports[-1].pending and reports[-1].stopped is None:
        reports.append(await run_external_step(params, pad, len(reports) + 1))
    options_json = FinalizeOptions(
        "audit-x", START, crawl_completed=True, external_budget_s=options.external_budget_s
    ).to_dict()
    page = FinalizePage.from_dict(await pad.stub.run_finalize_checks(options_json))
    return reports, [i for i in page.issues if "external" in str(i["issue_type"])]


LOOPBACK = AuditOptions(check_external=True, private_hosts=PrivateHosts.LOOPBACK)
# Names under .invalid never resolve (tests/conftest.py answers them as the platform would).
DEAD_NAMES = [f"https://dead{n}.invalid/page{k}" for n in range(30) for k in range(2)]


async def test_without_dns_the_checks_stop_with_one_note_and_no_broken_link(
    platform: LocalPlatform, outbound_http: LoopbackOnlyHttp
) -> None:
    with serve_site(other_site()) as other:
        # The other site is an IP literal: it answers (a 404 is still broken: an answer from its
        # server), but needs no DNS, so it says nothing of it.
        reports, issues = await run_steps(
            platform, [other.url("/missing"), *DEAD_NAMES, *DEAD_NAMES[:1]], LOOPBACK
        )
    assert [r.stopped for r in reports] == [ExternalStop.DNS_UNAVAILABLE]
    asked = {url.split("/")[2] for url in outbound_http.urls if ".invalid" in url}
    assert len(asked) <= settings.EXTERNAL.concurrency  # one wave of checks, then it stopped
    assert sorted(
        (i["issue_type"], i["details"]["targetUrl"]) for i in issues if "targetUrl" in i["details"]
    ) == [("broken-external-link", other.url("/missing"))]
    (note,) = [i for i in issues if i["issue_type"] == "external-links-unchecked"]
    assert note["details"]["reason"] == "dns-unavailable"
    assert note["details"]["uncheckedUrls"] == len(DEAD_NAMES)
    assert note["details"]["hostNamesResolved"] == 0


async def test_a_dead_name_is_broken_when_other_names_resolve(platform: LocalPlatform) -> None:
    with serve_site(other_site()) as other:
        # `localhost` is a name that resolves here (the hosts file, not DNS): the dead one is the
        # site's broken link.
        named = other.url("/fine").replace("127.0.0.1", "localhost")
        reports, issues = await run_steps(platform, [named, "https://gone.invalid/"], LOOPBACK)
    assert [r.stopped for r in reports] == [None]
    assert [
        (i["issue_type"], i["details"]["targetUrl"], i["details"]["outcome"]) for i in issues
    ] == [("broken-external-link", "https://gone.invalid/", "unresolved")]


async def test_past_its_time_budget_the_phase_stops_and_reports_the_rest_unchecked(
    platform: LocalPlatform, ports_clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "EXTERNAL", dataclasses.replace(settings.EXTERNAL, step_urls=1))
    with serve_site(other_site()) as other:
        targets = [other.url(f"/fine?{n}") for n in range(3)]
        options = dataclasses.replace(LOOPBACK, external_budget_s=5.0)

        async def tick(*args: Any, **kwargs: Any) -> Any:
            ports_clock[0] += 4_000.0  # each check takes four seconds of the clock
            return await inner(*args, **kwargs)

        import workflow.external_step as step_module

        inner = step_module.check_external_urls  # type: ignore[attr-defined]  # the name where the workflow looks it up and the test patches it
        monkeypatch.setattr(step_module, "check_external_urls", tick)
        reports, issues = await run_steps(platform, targets, options)
    assert [(r.checked, r.stopped) for r in reports] == [(1, None), (1, ExternalStop.TIME_BUDGET)]
    (note,) = issues
    assert note["issue_type"] == "external-links-unchecked"
    assert (note["details"]["reason"], note["details"]["uncheckedUrls"]) == ("time-budget", 1)
    assert "time budget of 5 s" in note["details"]["detail"]


# -- what an external check sends ------------------------------------------------------------------


async def test_external_checks_send_the_audits_user_agent(platform: LocalPlatform) -> None:
    scope = ScopeOptions(user_agent="StagingBot/1.0 (+https://shop.example/bot)")
    options = dataclasses.replace(LOOPBACK, scope=scope)
    with serve_site(other_site()) as other:
        reports, issues = await run_steps(platform, [other.url("/moved")], options)
        seen = [(r.method, r.path, r.headers.get("user-agent")) for r in other.requests]
    assert reports[-1].pending == 0 and issues[0]["issue_type"] == "external-redirect"
    # Both hops, each with the audit's User-Agent, never siteaudit's own.
    assert seen == [
        ("HEAD", "/moved", scope.user_agent),
        ("HEAD", "/fine", scope.user_agent),
    ]


async def test_external_checks_keep_the_audits_rate_per_host(platform: LocalPlatform) -> None:
    rate = 5.0  # requests a second per host: 0.2 s apart, every hop counted
    options = dataclasses.replace(LOOPBACK, scope=ScopeOptions(rate_per_s=rate))
    audit_id = f"audit-{next(_names)}"
    record = AuditRecord(audit_id, START, "2026-01-01T00:00:00.000Z", options=options)
    await repository.insert_audit(platform.env.DB, record)
    run = AuditRun(AuditParams(audit_id, START, options), Steps(), platform.env, Stop)
    mirror: tuple[MirrorRow, ...] = (
        {"url": START, "page_id": "id-start", "status_code": 200, "fetch_class": "ok"},
    )
    with serve_site(other_site()) as other:
        targets = [other.url("/moved"), other.url("/fine?a"), other.url("/fine?b")]
        refs = tuple(ExternalRef(START, target) for target in targets)
        await run.scratchpad().record_batch(RecordBatch(pages=mirror, external=refs))
        pace = await check_external_links(run)
        arrivals = sorted(r.at for r in other.requests)
    assert len(arrivals) == 4  # the redirect's second hop included
    # Arrival times: the server notes them a little after the start, by a varying delay.
    assert min(b - a for a, b in itertools.pairwise(arrivals)) >= 1 / rate - 0.05
    assert list(pace) == ["127.0.0.1"]  # handed on to the next step (workflow.pace)
