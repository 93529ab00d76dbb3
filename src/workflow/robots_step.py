"""check-robots-override: an audit asked to ignore robots.txt checks its owner's proof again first.

The step runs early, before discovery, in every run of an audit whose options ask for
`ignore_robots` (a resume checks again too: it is a new run). It fails closed: robots.txt is
ignored only when the owner's verification of the start URL's host is found once more now, or when
the host is a private one the deployment lets its user audit without a proof (the CLI's
`--ignore-robots --allow-private-hosts`, ROBOTS_OVERRIDE_PRIVATE_HOSTS). A proof that is gone, a
check that could not be made, or no verification at all: the audit obeys robots.txt, and its
`robots_override` (auditdb.verifications.RobotsDecision) says why in every report, never silently.

The decision holds for the start URL's host. Discovery follows the start URL's redirects: a start
URL that leads to another host is crawled obeying that host's robots.txt (`holds_for`), and the
decision is rewritten to say so (a verified host cannot lend its proof to a site it redirects to).
"""

from __future__ import annotations

from auditdb import repository, verifications
from auditdb.records import AuditOptions
from auditdb.verifications import CheckOutcome, CheckResult, HostVerification, RobotsDecision
from common import ports
from common.bindings import D1Database, Env
from common.deployment import DeploymentVars
from crawl.host_proof import authority_of, check_proof, hostname_of
from urls.normalise import split_url
from urls.private_hosts import PrivateHosts, host_refused
from workflow import step_configs
from workflow.audit_run import AuditRun
from workflow.steps import durable_step

__all__ = [
    "check_and_record",
    "check_robots_override",
    "decide_robots",
    "holds_for",
    "needs_proof",
    "private_host_override",
    "redirected_elsewhere",
]


async def check_robots_override(run: AuditRun) -> RobotsDecision | None:
    """The run's decision (stored on the audit row too); None when the audit obeys robots.txt as
    every audit does unless asked."""
    if not needs_proof(run.params.options):
        return None
    env, audit_id = run.env, run.audit_id

    async def check_robots_override() -> RobotsDecision:
        audit = await repository.get_audit(env.DB, audit_id)
        owner = "" if audit is None else audit.owner  # a deleted audit: no one's proof counts
        options = run.params.options
        decision = await decide_robots(
            env, owner, run.params.start_url, options.private_hosts, ignore=options.ignore_robots
        )
        await verifications.set_robots_override(env.DB, audit_id, decision)
        return decision

    return await durable_step(
        run.step,
        "check-robots-override",
        step_configs.ROBOTS_CHECK_STEP,
        RobotsDecision,
        check_robots_override,
    )


def needs_proof(options: AuditOptions) -> bool:
    """Whether the run checks its owner's proof before crawling: it asked to ignore robots.txt,
    or set a crawl rate of its own (which only a verified owner may raise above the site's
    robots.txt Crawl-delay: crawl.pacing.effective_rate)."""
    return options.ignore_robots or options.scope.rate_per_s is not None


async def decide_robots(
    env: Env, owner: str, start_url: str, private_hosts: PrivateHosts, *, ignore: bool = True
) -> RobotsDecision:
    """Whether an audit of `start_url` by `owner` may ignore robots.txt (when it asked to:
    `ignore`) and whether the owner's proof holds (for the crawl rate), checked now."""
    host = authority_of(start_url) or start_url
    if not ignore:
        return await _rate_only(env, owner, host, private_hosts)
    if private_host_override(env, start_url, private_hosts):
        name = hostname_of(host)
        note = f"robots.txt was ignored ({name} is a private host, audited without verification)"
        return RobotsDecision(True, note, host)
    rechecked = await _recheck(env, owner, host, private_hosts)
    if rechecked is None:
        return _obeyed(host, f"{host} has no verification by this audit's owner")
    row, checked, result = rechecked
    if (verified_at := _verified_at(checked, result)) is not None:
        note = f"robots.txt was ignored (host verified by {row.method} on {verified_at[:10]})"
        return RobotsDecision(True, note, host, row.method, verified_at, verified=True)
    found = "could not be checked" if result.outcome is CheckOutcome.UNCHECKED else "failed"
    return _obeyed(
        host,
        f"the {row.method} proof of {host}, checked again before the audit, {found}: "
        f"{result.reason}",
    )


async def check_and_record(
    db: D1Database, row: HostVerification, *, private_hosts: PrivateHosts, doh_url: str
) -> tuple[HostVerification, CheckResult]:
    """Check `row`'s proof once and store what the check found (the lifecycle's next status)."""
    result = await check_proof(
        row.host, row.method, row.token, private_hosts=private_hosts, doh_url=doh_url
    )
    checked = row.checked(result, ports.iso_now())
    await verifications.record_check(db, checked)
    return checked, result


def holds_for(decision: RobotsDecision | None, final_url: str) -> bool:
    """Whether the crawl of the site `final_url` is on may ignore its robots.txt."""
    return decision is not None and decision.ignored and authority_of(final_url) == decision.host


def redirected_elsewhere(decision: RobotsDecision, final_url: str) -> RobotsDecision:
    """The decision once the start URL led to another host: robots.txt obeyed, and why."""
    elsewhere = authority_of(final_url) or final_url
    return _obeyed(
        decision.host,
        f"the start URL redirects to {elsewhere}, and only {decision.host} is verified",
    )


async def _rate_only(
    env: Env, owner: str, host: str, private_hosts: PrivateHosts
) -> RobotsDecision:
    """An audit that obeys robots.txt and asked for a crawl rate: is the owner's proof still
    there? The reports say nothing of robots.txt (`note` is empty): it was obeyed, as always."""
    rechecked = await _recheck(env, owner, host, private_hosts)
    if rechecked is None:
        return RobotsDecision(False, "", host)
    row, checked, result = rechecked
    verified = _verified_at(checked, result) is not None
    return RobotsDecision(False, "", host, row.method, checked.verified_at, verified=verified)


async def _recheck(
    env: Env, owner: str, host: str, private_hosts: PrivateHosts
) -> tuple[HostVerification, HostVerification, CheckResult] | None:
    """The owner's verification of `host` (as stored, as checked now, what the check found), or
    None when the owner has none."""
    row = await verifications.find_for_host(env.DB, owner, host)
    if row is None:
        return None
    deployment = DeploymentVars.from_env(env)
    checked, result = await check_and_record(
        env.DB, row, private_hosts=private_hosts, doh_url=deployment.verification_doh_url
    )
    return row, checked, result


def _verified_at(checked: HostVerification, result: CheckResult) -> str | None:
    """When the proof was verified, if the check now found it; None otherwise."""
    return checked.verified_at if result.outcome is CheckOutcome.PASSED else None


def _obeyed(host: str, why: str) -> RobotsDecision:
    return RobotsDecision(False, f"robots.txt was obeyed, not ignored as asked: {why}", host)


def private_host_override(env: Env, start_url: str, private_hosts: PrivateHosts) -> bool:
    """The deployment lets a private host it audits be audited without robots.txt (the CLI's
    switch), and this start URL's host is one: refused under the public-only policy, allowed
    under the audit's."""
    if not DeploymentVars.from_env(env).robots_override_private_hosts:
        return False
    parts = split_url(start_url)
    if parts is None:
        return False
    return host_refused(parts.host, PrivateHosts.DENY) and not host_refused(
        parts.host, private_hosts
    )
