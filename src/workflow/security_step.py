"""The security-grade step: the site's HTTP Observatory-compatible grade (docs/security.md).

It runs after the crawl and before finalize, so the crawled pages' rows exist (its issues link to
them) and finalize's counts include the grade's issues. It fetches the start URL the
Observatory's way (`security.observe.observe_site`: the http and https entry points, hop by hop,
under the audit's private-host policy), grades it, lowers the cookies and subresource-integrity
tests by what the crawl saw on every page (`security.crawl_merge`), and stores the letter, the
score, the 12 outcomes and one issue per failing test (auditdb.security_grades). A site that
cannot be graded never fails the audit: any error while observing or grading is recorded as "not
graded" with its reason, and the audit goes on to finalize.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field

from auditdb import security_grades
from common import ports
from common.wire import JsonRecord
from durable.client import Scratchpad
from durable.records import SiteFact, SiteFactKind
from security.crawl_merge import PageSighting, cookie_outcome, merge_sightings
from security.grade import SecurityGrade, grade_site
from security.observe import observe_site
from security.results import SriResult, TestName, TestOutcome, outcome
from workflow import step_configs
from workflow.audit_run import AuditRun
from workflow.pace import paced, site_rate
from workflow.params import AuditParams
from workflow.steps import durable_step

log = logging.getLogger("siteaudit.workflow")

STEP_NAME = "security-grade"


@dataclass(frozen=True, slots=True)
class SecurityGraded(JsonRecord):
    """security-grade: the letter and score, or why the site was not graded."""

    graded: bool
    grade: str | None = None
    score: int | None = None
    issues: int = 0
    reason: str | None = None
    # The pace the step leaves: per host, the epoch second its next request may start
    # (workflow.pace).
    next_request_at: dict[str, float] = field(default_factory=dict)


async def grade_start_url(run: AuditRun) -> SecurityGraded:
    params, env = run.params, run.env

    async def security_grade() -> SecurityGraded:
        pad = run.scratchpad()
        # At the audit's rate, from where the step before left it (workflow.pace).
        http = paced(await run.http(), await site_rate(run), run)
        try:
            grade = await _grade(params, pad, http)
        except Exception as exc:
            reason = str(exc) or type(exc).__name__
            log.info("audit %s not graded: %s", params.audit_id, reason)
            await security_grades.record_not_graded(env.DB, params.audit_id, reason)
            return SecurityGraded(graded=False, reason=reason, next_request_at=http.carried())
        # The issues go on the start page as crawled (discovery's final URL after redirects),
        # those of a test the crawl lowered on the page where it was seen.
        config = await pad.crawl_config()
        page_url = config.final_url or params.start_url
        issues = await security_grades.record_grade(env.DB, params.audit_id, grade, page_url)
        return SecurityGraded(
            True, str(grade.grade), grade.score, issues, next_request_at=http.carried()
        )

    return await durable_step(
        run.step, STEP_NAME, step_configs.SECURITY_STEP, SecurityGraded, security_grade
    )


async def _grade(params: AuditParams, pad: Scratchpad, http: ports.HttpClient) -> SecurityGrade:
    agent = params.options.scope.user_agent  # the audit's own User-Agent (auditdb.scope)
    site = await observe_site(
        params.start_url,
        private_hosts=params.options.private_hosts,
        headers=None if agent is None else {"user-agent": agent},
        client=http,
    )
    scanned = grade_site(site)
    hsts = next(t for t in scanned.tests if t.test is TestName.STRICT_TRANSPORT_SECURITY)
    sightings = await crawl_sightings(pad, hsts.passed)
    return merge_sightings(scanned, sightings)


async def crawl_sightings(pad: Scratchpad, hsts_passed: bool) -> list[PageSighting]:
    """The cookies and subresource-integrity outcomes of what the crawl kept (crawl.site_facts)."""
    cookies = await pad.all_site_facts(SiteFactKind.COOKIE)
    sri = await pad.all_site_facts(SiteFactKind.SRI)
    sightings = [
        PageSighting(fact.page_url, cookie_outcome(fact.page_url, fact.value, hsts_passed))
        for fact in cookies
    ]
    sightings += [PageSighting(fact.page_url, _sri_outcome(fact)) for fact in sri]
    return sightings


def _sri_outcome(fact: SiteFact) -> TestOutcome:
    scripts = json.loads(fact.detail or "[]")
    return outcome(
        TestName.SUBRESOURCE_INTEGRITY, SriResult(fact.value), False, {"scripts": scripts}
    )
