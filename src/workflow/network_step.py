"""The check-network step: a crawl the breaker stopped is the site's silence only if our own
network still works.

The crawl stops when `SITE_DOWN_STREAK` page fetches in a row got no answer (crawl.site_health),
and finalize would then report `site-stopped-responding` on the site. A machine that lost its
network mid-crawl (a laptop going offline, a runner's DNS failing) stops the crawl in exactly the
same way, so before that verdict stands this step asks the reference sites of crawl.network_probe
(not for a loopback or LAN site, which is reached without the internet). When none answers, the
audit fails with `network_unavailable` (our side): its sentence says that the pages without an
answer say nothing about the site, the pages crawled before are kept, and a resume goes on from
where the crawl stopped.
"""

from __future__ import annotations

from dataclasses import dataclass

from audit.catalogue import SITE_DOWN_STREAK
from common import ports
from common.failures import ErrorCode
from common.wire import JsonRecord
from crawl.network_probe import network_down, reference_hosts
from crawl.start_verdict import StartFailure
from workflow import step_configs
from workflow.audit_run import AuditRun
from workflow.steps import CrawlSummary, DecidedFailure, durable_step

__all__ = ["STEP_NAME", "NetworkChecked", "check_network", "lost_sentence"]

STEP_NAME = "check-network"


@dataclass(frozen=True, slots=True)
class NetworkChecked(JsonRecord):
    """check-network: whether our network failed the crawl rather than the site."""

    down: bool


def lost_sentence(crawl: CrawlSummary) -> str:
    return (
        f"The crawl stopped after {SITE_DOWN_STREAK} pages in a row got no answer, and siteaudit "
        f"could not reach {reference_hosts()} either, which are always up: the network of the "
        "machine running siteaudit failed during the audit, so the pages without an answer say "
        f"nothing about the site. The {crawl.attempted} pages requested before are kept; resume "
        "the audit once that machine is online."
    )


async def check_network(run: AuditRun, crawl: CrawlSummary) -> NetworkChecked | None:
    """None when the crawl was not stopped by silence; raises `DecidedFailure` when it was and
    our network does not work either."""
    if not crawl.no_answers.stopped:
        return None

    async def probe() -> NetworkChecked:
        config = await run.scratchpad().crawl_config()
        site_url = config.final_url or run.params.start_url
        return NetworkChecked(await network_down(ports.http_client(), site_url))

    checked = await durable_step(
        run.step, STEP_NAME, step_configs.NETWORK_STEP, NetworkChecked, probe
    )
    if checked.down:
        failure = StartFailure(ErrorCode.NETWORK_UNAVAILABLE, lost_sentence(crawl))
        raise DecidedFailure(failure)
    return checked
