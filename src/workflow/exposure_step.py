"""The exposure-checks step: the checks beyond the Observatory on what the crawl saw
(docs/exposure.md, "In the audit").

It runs after the crawl and the security grade, before finalize, and reads the facts the crawl
kept in the scratchpad (crawl.site_facts): every distinct script URL with the first page (in URL
order) that loaded it, and every header or generator tag naming a version. From them:

* vulnerable JavaScript libraries by URL and file name for every script, then by content for
  same-site scripts the URL did not identify, within `settings.EXPOSURE.script_budget_bytes` and
  `script_max_count` fetches per audit;
* version disclosures, on the page that sent them;
* DNS and email authentication of the site's host over DoH (`settings.EXPOSURE.doh_resolver_url`),
  skipped for an IP address, localhost or a one-label host (the result says why), and not run
  when the resolver answers nothing (`dns_checked` false, `dns_error` says why, one
  `exposure-dns-unchecked` note instead of records reported missing).

The findings replace the audit's `exposure-*` issues, and the step's `ExposureSummary` is stored
on the audits row, in one guarded batch (auditdb.exposure_issues), so the step is idempotent; its
result is that summary (counters and reasons). A failure of the checks is recorded in the summary
with no issues, a failure of the step itself is logged, and neither fails the audit.
"""

from __future__ import annotations

import json
import logging
from urllib.parse import urlsplit

from audit.issues import DetectedIssue
from auditdb import exposure_issues
from auditdb.exposure_issues import ExposureSummary
from common import ports, settings
from common.bindings import Env
from durable.client import Scratchpad
from durable.records import SiteFact, SiteFactKind
from exposure import scripts
from exposure.disclosure import Disclosure
from exposure.dns_audit import check_domain, dns_skip_reason
from exposure.findings import (
    Finding,
    disclosure_findings,
    domain_findings,
    finding_issue,
    library_findings,
)
from workflow import step_configs
from workflow.audit_run import AuditRun
from workflow.pace import paced, site_rate
from workflow.params import AuditParams
from workflow.steps import optional_step

log = logging.getLogger("siteaudit.workflow")

STEP_NAME = "exposure-checks"


async def check_exposure(run: AuditRun) -> ExposureSummary:
    params, env = run.params, run.env

    async def exposure_checks() -> ExposureSummary:
        # The site's scripts are read at the audit's rate, from where the step before left it
        # (workflow.pace); the last step to request the site, so its pace goes no further.
        return await _check(params, env, paced(await run.http(), await site_rate(run), run))

    async def keep(summary: ExposureSummary) -> None:
        await exposure_issues.record_exposure(env.DB, params.audit_id, [], summary)

    return await optional_step(
        run.step,
        STEP_NAME,
        step_configs.EXPOSURE_STEP,
        ExposureSummary,
        exposure_checks,
        failed=lambda exc: _failed(params, exc),
        keep=keep,
    )


def _failed(params: AuditParams, exc: Exception) -> ExposureSummary:
    reason = str(exc) or type(exc).__name__
    log.info("audit %s exposure checks stopped: %s", params.audit_id, reason)
    return ExposureSummary(error=reason)


async def _check(params: AuditParams, env: Env, http: ports.HttpClient) -> ExposureSummary:
    pad = Scratchpad.for_audit(env, params.audit_id)
    start_page = (await pad.crawl_config()).final_url or params.start_url
    issues, script_count, content = await _library_issues(pad, params, start_page, http)
    for fact in await pad.all_site_facts(SiteFactKind.DISCLOSURE):
        issues += [finding_issue(f, fact.page_url) for f in _disclosure_findings(fact)]
    host = urlsplit(start_page).hostname or ""
    skipped = dns_skip_reason(host)
    dns_error = None
    if skipped is None:
        report = await check_domain(host)
        dns_error = report.unchecked
        issues += [finding_issue(f, start_page) for f in domain_findings(report)]
        if dns_error is not None:
            log.info("audit %s DNS checks not run: %s", params.audit_id, dns_error)
    else:
        log.info("audit %s DNS checks skipped: %s", params.audit_id, skipped)
    unique = _unique(issues)
    summary = ExposureSummary(
        issues=len(unique),
        scripts=script_count,
        scripts_read=len(content.scanned),
        bytes_read=content.bytes_read,
        dns_checked=skipped is None and dns_error is None,
        dns_skipped=skipped,
        dns_error=dns_error,
    )
    await exposure_issues.record_exposure(env.DB, params.audit_id, unique, summary)
    return summary


async def _library_issues(
    pad: Scratchpad, params: AuditParams, start_page: str, http: ports.HttpClient
) -> tuple[list[DetectedIssue], int, scripts.ContentScan]:
    """Vulnerable libraries among the crawl's scripts, each on the first page (in URL order) that loaded it;
    how many distinct scripts there were; what reading them by content cost."""
    first_page = {
        fact.value: fact.page_url for fact in await pad.all_site_facts(SiteFactKind.SCRIPT)
    }
    content = await scripts.scan_contents(
        list(first_page),
        start_page,
        budget_bytes=settings.EXPOSURE.script_budget_bytes,
        private_hosts=params.options.private_hosts,
        max_scripts=settings.EXPOSURE.script_max_count,
        user_agent=params.options.scope.user_agent,
        http=http,
    )
    libraries = [*scripts.scan_urls(first_page), *content.findings]
    issues = [
        finding_issue(finding, first_page.get(finding.url or "", start_page))
        for finding in library_findings(libraries)
    ]
    return issues, len(first_page), content


def _disclosure_findings(fact: SiteFact) -> list[Finding]:
    disclosures = [Disclosure.from_dict(item) for item in json.loads(fact.detail or "[]")]
    return disclosure_findings(disclosures, fact.page_url)


def _unique(issues: list[DetectedIssue]) -> list[DetectedIssue]:
    """One row per (type, page, subject): the first finding wins, as the insert would keep."""
    seen: dict[tuple[str, str, str | None], DetectedIssue] = {}
    for issue in issues:
        seen.setdefault((issue.issue_type, issue.page_url, issue.dedupe_key), issue)
    return list(seen.values())


__all__ = ["STEP_NAME", "check_exposure"]
