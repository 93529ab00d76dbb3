"""The security-grade step: the start URL's HTTP Observatory-compatible grade (docs/security.md).

It runs after the crawl and before finalize, so the start page's row exists (its issues link to
it) and finalize's counts include the grade's issues. It fetches the site the Observatory's way
(`security.observe.observe_site`: the http and https entry points, hop by hop, under the audit's
private-host policy), grades it, and stores the letter, the score, the 12 outcomes and one issue
per failing test (auditdb.security_grades). A site that cannot be graded never fails the audit:
any error while observing or grading is recorded as "not graded" with its reason, and the audit
goes on to finalize.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from auditdb import repository, security_grades
from common.bindings import Env, WorkflowStep
from common.wire import JsonRecord
from durable.client import Scratchpad
from security.grade import SecurityGrade, grade_site
from security.observe import observe_site
from workflow import step_configs
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


async def grade_start_url(params: AuditParams, step: WorkflowStep, env: Env) -> SecurityGraded:
    async def security_grade() -> SecurityGraded:
        try:
            grade = await _grade(params)
        except Exception as exc:
            reason = str(exc) or type(exc).__name__
            log.info("audit %s not graded: %s", params.audit_id, reason)
            await security_grades.record_not_graded(env.DB, params.audit_id, reason)
            return SecurityGraded(graded=False, reason=reason)
        # The issues go on the start page as crawled (discovery's final URL after redirects).
        config = await Scratchpad.for_audit(env, params.audit_id).crawl_config()
        page_url = config.final_url or params.start_url
        crawled = await repository.crawled_among(env.DB, params.audit_id, [page_url])
        issues = await security_grades.record_grade(
            env.DB, params.audit_id, grade, page_url, crawled
        )
        return SecurityGraded(True, str(grade.grade), grade.score, issues)

    return await durable_step(
        step, STEP_NAME, step_configs.SECURITY_STEP, SecurityGraded, security_grade
    )


async def _grade(params: AuditParams) -> SecurityGrade:
    site = await observe_site(params.start_url, private_hosts=params.options.private_hosts)
    return grade_site(site)
