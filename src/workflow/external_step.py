"""The external-links-N steps: every distinct external link checked once, after the crawl.

Why steps of their own, after the crawl, rather than inside the crawl chunks (where internal
resources are checked): the referrers of an external URL are all known once the crawl ended, so
a URL is never checked twice or judged before its last referrer was stored; the crawl's pace
does not depend on other sites' answers (an unanswering host may hold a request for the whole
timeout); and the per-host politeness (`settings.EXTERNAL.per_host`, `host_spacing_s`) can
schedule over many URLs at once. Each step leases at most `step_urls` URLs under its number
(durable.external_links: a retried step gets back exactly its unchecked URLs, a checked answer
is rewritten identically), launches nothing after `step_soft_deadline_s`, well inside
`step_configs.EXTERNAL_STEP`'s timeout, records the answers and releases what it did not launch.
Leases stop at `budget_urls` per audit; the URLs left are reported by finalize as
`external-links-unchecked`, and logged here. A step that still fails after its retry ends the
checks, not the audit: what it left unchecked is reported the same way.

Two more ways the phase ends early, each noted in the scratchpad for finalize's note and the
progress feed (`Scratchpad.stop_external`): the audit's time budget (`external_budget_s`,
counted from the first claim; each step's deadline is the nearer of its soft deadline and what
is left of it), and DNS that does not work where the audit runs (crawl.external_check stops a
batch once `audit.external_links.DnsTally.stop` says so, and every later step would only ask
the same resolver again).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

from audit.external_links import ExternalStop
from auditdb import repository
from auditdb.records import AuditPhase
from common import ports, settings
from common.wire import JsonRecord
from crawl.external_check import check_external_urls
from crawl.external_links import HostNames
from durable.client import Scratchpad
from urls.credentials import Recipient
from workflow import step_configs
from workflow.audit_run import AuditRun
from workflow.pace import external_rate, paced
from workflow.params import AuditParams
from workflow.steps import durable_step

log = logging.getLogger("siteaudit.workflow")

# Two steps in a row that check nothing mean the leftovers cannot be served.
MAX_IDLE_STEPS = 2


@dataclass(frozen=True, slots=True)
class ExternalReport(JsonRecord):
    """What one external-links-N step returns: counters only."""

    lease_no: int
    checked: int
    pending: int  # unleased after this step (its unlaunched URLs included)
    over_budget: int  # pending URLs the budget leaves unchecked for good
    running: bool = True  # False: the audit was no longer running, nothing was checked
    stopped: ExternalStop | None = None  # the checks end here: out of time, or no DNS
    # The pace the step leaves: per host, the epoch second its next request may start
    # (workflow.pace).
    next_request_at: dict[str, float] = field(default_factory=dict)


async def check_external_links(run: AuditRun) -> dict[str, float]:
    """Run external-links-1, -2, ... until nothing is left to check or the budget is spent;
    the pace the last step left (workflow.pace)."""
    params = run.params
    if not params.options.check_external:
        return run.pace
    lease_no = idle = 0
    while idle < MAX_IDLE_STEPS:
        lease_no += 1
        try:
            report = await _external_step(run, lease_no)
        except Exception as exc:  # the step failed after its retry: the audit goes on
            log.info("audit %s external link checks stopped: %s", params.audit_id, exc)
            return run.pace
        run = replace(run, pace=report.next_request_at)
        if not report.running:
            # Raised outside the step, from its stored result, so a replay raises it again.
            raise run.non_retryable(f"audit {params.audit_id} is no longer running")
        if report.over_budget:
            log.info(
                "audit %s: %d external URLs left unchecked past the budget of %d",
                params.audit_id,
                report.over_budget,
                settings.EXTERNAL.budget_urls,
            )
            return run.pace
        if report.stopped is not None:
            log.info(
                "audit %s external link checks stopped (%s), %d URLs left unchecked",
                params.audit_id,
                report.stopped,
                report.pending,
            )
            return run.pace
        if report.pending == 0:
            return run.pace
        idle = idle + 1 if report.checked == 0 else 0
    return run.pace


async def _external_step(run: AuditRun, lease_no: int) -> ExternalReport:
    async def external_links() -> ExternalReport:
        # One read per step, so a cancelled audit stops here even when the terminate never
        # reaches its instance (as each crawl chunk does).
        if not await run.still_running():
            return ExternalReport(lease_no, 0, 0, 0, running=False)
        if lease_no == 1:
            await repository.set_phase(run.env.DB, run.audit_id, AuditPhase.EXTERNAL_LINKS)
        # Links to other sites get the audit's credentials only when the user allowed it, and
        # then only on the credentials' origins (crawl.credentials); each host at the audit's
        # rate, if it gave one (workflow.pace). No pace budget: the batch's own deadline stops
        # its launches, and a check waiting for its turn is one the step's timeout allows for.
        external = await run.http(Recipient.EXTERNAL_LINKS)
        http = paced(external, external_rate(run.params), run, budget_s=None)
        report = await run_external_step(run.params, run.scratchpad(), lease_no, http=http)
        return replace(report, next_request_at=http.carried())

    name = f"external-links-{lease_no}"
    config = step_configs.EXTERNAL_STEP
    return await durable_step(run.step, name, config, ExternalReport, external_links)


async def run_external_step(
    params: AuditParams,
    pad: Scratchpad,
    lease_no: int,
    *,
    http: ports.HttpClient | None = None,
) -> ExternalReport:
    """One step's work: lease, check politely until the deadline, record, release; and stop the
    phase when its time budget is spent or DNS does not work here."""
    config = settings.EXTERNAL
    claim = await pad.claim_external(lease_no, config.step_urls, config.budget_urls)
    left_s = _budget_left_s(params, claim.started_ms)
    names = HostNames.of(claim.resolved_hosts, claim.unresolved_hosts)
    batch = await check_external_urls(
        http or ports.http_client(),
        list(claim.urls),
        params.options.private_hosts,
        min(params.options.fetch_timeout_s, config.timeout_s),
        max(0.0, min(config.step_soft_deadline_s, left_s)),
        names=names,
        record=pad.record_external,  # as they come: the progress feed counts them
        # The audit's User-Agent (auditdb.scope), as its own site gets; never its credentials
        # unless the user allowed them (crawl.credentials).
        headers=settings.CRAWL.headers_for(params.options.scope.user_agent),
    )
    if batch.unlaunched:
        await pad.release_external(batch.unlaunched)
    pending = claim.pending + len(batch.unlaunched)
    stopped = _stop(batch.dns_stopped, pending, _budget_left_s(params, claim.started_ms))
    if stopped is not None:
        await pad.stop_external(stopped)
    return ExternalReport(lease_no, len(batch.checks), pending, claim.over_budget, stopped=stopped)


def _budget_left_s(params: AuditParams, started_ms: int) -> float:
    elapsed_s = max(0, ports.now_ms() - started_ms) / 1000 if started_ms else 0.0
    return params.options.external_budget_s - elapsed_s


def _stop(dns_stopped: bool, pending: int, left_s: float) -> ExternalStop | None:
    if dns_stopped:
        return ExternalStop.DNS_UNAVAILABLE
    if pending and left_s <= 0:
        return ExternalStop.TIME_BUDGET
    return None
