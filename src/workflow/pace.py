"""The audit's rate per host in every step that requests a site (issue 28, item 3: `--rate` is
"requests per second per host", for every request, not only the crawl's).

`crawl_rate` is the rate on the audited site's hosts (crawl.pacing.effective_rate with the
verified owner's ceiling); links to other sites are checked at the audit's own `rate_per_s`,
the only rate that speaks of them (`external_rate`). Each step builds its pacer from the state
the step before it left (`AuditRun.pace`: per host, the epoch second its next request may
start, crawl.pacing) and hands its own on in its result, so the pace holds across every step
boundary: discovery, the crawl chunks and the render steps after them (workflow.render_step),
the timing re-measure, the external link checks, the security grade and the exposure checks, in
that order (workflow.site_audit).
"""

from __future__ import annotations

from auditdb.verifications import VERIFIED_MAX_RATE, RobotsDecision
from common import ports
from crawl.host_proof import authority_of
from crawl.pacing import PacedHttp, effective_rate
from crawl.robots import RobotsRules
from workflow.audit_run import AuditRun
from workflow.params import AuditParams
from workflow.robots_step import holds_for

__all__ = ["STEP_PACE_BUDGET_S", "crawl_rate", "external_rate", "paced", "site_rate"]


def crawl_rate(
    params: AuditParams, robots: RobotsRules, decision: RobotsDecision | None, final_url: str
) -> float | None:
    """Requests a second per host (crawl.pacing): the audit's rate, never above robots.txt's
    Crawl-delay unless the owner's proof of the host was found again before this run
    (workflow.robots_step); then at most VERIFIED_MAX_RATE above it."""
    verified = (
        decision is not None and decision.verified and authority_of(final_url) == decision.host
    )
    rate = effective_rate(params.options.scope.rate_per_s, robots.crawl_delay, verified=verified)
    if verified and rate is not None and robots.crawl_delay:  # raised above the Crawl-delay
        rate = min(rate, max(1 / robots.crawl_delay, VERIFIED_MAX_RATE))
    return rate


async def site_rate(run: AuditRun) -> float | None:
    """`crawl_rate` from what discovery stored: robots.txt left out where the verified owner's
    override holds, as the crawl's scope leaves it out (workflow.site_audit.crawl_scope)."""
    config = await run.scratchpad().crawl_config()
    final_url = config.final_url or run.params.start_url
    ignored = holds_for(run.robots, final_url)
    robots = RobotsRules() if ignored else RobotsRules.from_text(config.robots_txt)
    return crawl_rate(run.params, robots, run.robots, final_url)


def external_rate(params: AuditParams) -> float | None:
    """Other sites' hosts: the audit's own rate per host, if it gave one."""
    return params.options.scope.rate_per_s


# How long a step after the crawl may wait for turns at the audit's rate: a request whose turn
# comes later is not sent (crawl.pacing.NoTurnLeft, which those steps record as their failure
# and the audit goes on), well inside the shortest of their timeouts (step_configs: 5 minutes).
# Only a rate far below what a person asks for reaches it (at 0.1 a second, 12 requests).
STEP_PACE_BUDGET_S = 120.0


def paced(
    http: ports.HttpClient,
    rate_per_s: float | None,
    run: AuditRun,
    budget_s: float | None = STEP_PACE_BUDGET_S,
) -> PacedHttp:
    """`http` at `rate_per_s` per host, starting where the step before this one left the pace,
    starting no request past `budget_s` from now (None: no bound)."""
    return PacedHttp.resumed(http, rate_per_s, run.pace, budget_s)
