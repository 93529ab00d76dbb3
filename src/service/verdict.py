"""An audit's verdict as the reports show it: its scores and its ranked actions, each with a few
of the pages it was found on (audit.verdict judges the tally finalize stored; docs/scoring.md).

An audit that has not completed has no verdict (`scores` None, no actions): a partial crawl is
no basis for a score, and `note` says why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from audit.verdict import Action, FindingScope, Scores, judge
from auditdb import summary
from auditdb import verdict as stored
from auditdb.records import AuditRecord, AuditStatus, IssueRecord
from common.bindings import Env
from common.failures import SITE_FAILURES
from common.wire import JsonRecord
from service.audits import owned_audit
from service.issue_locating import locating_detail

EXAMPLE_PAGES = 3  # pages shown per action


@dataclass(frozen=True, slots=True)
class AuditVerdict(JsonRecord):
    scores: Scores | None  # None: no verdict (see `note`)
    actions: tuple[Action, ...] = ()
    note: str | None = None  # why there is no verdict


async def audit_verdict(env: Env, owner: str, audit_id: str) -> AuditVerdict:
    """The owner's audit's scores and ranked actions."""
    audit = await owned_audit(env, owner, audit_id)
    return await verdict_of(env, audit)


async def verdict_of(env: Env, audit: AuditRecord) -> AuditVerdict:
    """The verdict of an audit already checked to be the caller's."""
    tally = await stored.tally_of_audit(env.DB, audit.id)
    if tally is None:
        return AuditVerdict(None, (), _why_none(audit))
    judged = judge(tally)
    actions = await _with_examples(env, audit.id, judged.actions)
    return AuditVerdict(judged.scores, actions)


def _why_none(audit: AuditRecord) -> str:
    if audit.status is AuditStatus.RUNNING:
        return "The audit is still running: the verdict comes when it completes."
    if audit.status is AuditStatus.COMPLETED:
        return "This audit finished before scores by category existed; run it again for them."
    if audit.status is AuditStatus.CANCELLED:
        return "The audit was cancelled: a partial crawl is no basis for a verdict."
    if audit.error_code in SITE_FAILURES and audit.error_detail:
        return f"The audit failed: {audit.error_detail}"
    return (
        "The audit could not finish because of a failure on siteaudit's side "
        f"({audit.error_code or 'unknown'}); nothing was concluded about the site."
    )


async def _with_examples(env: Env, audit_id: str, actions: Sequence[Action]) -> tuple[Action, ...]:
    """Each action with its example pages and, for a finding about the whole site, what its row
    says (the grade's test and result, the note's reason, the disclosed version)."""
    types = sorted({t for action in actions for t in action.issue_types})
    pages = await summary.example_pages(env.DB, audit_id, types, EXAMPLE_PAGES)
    sites = [a.issue_type for a in actions if a.scope is FindingScope.SITE]
    rows = await summary.first_issues(env.DB, audit_id, sites)
    return tuple(
        dataclasses.replace(
            action,
            example_pages=_examples(action, pages),
            detail=_detail(rows.get(action.issue_type)),
        )
        for action in actions
    )


def _detail(row: IssueRecord | None) -> str | None:
    """The row's sentence, without its own fix: the action carries the fix already."""
    if row is None:
        return None
    details = {k: v for k, v in row.details.items() if k != "howToFix"}
    return locating_detail(dataclasses.replace(row, details=details)) or None


def _examples(action: Action, pages: dict[str, list[str]]) -> tuple[str, ...]:
    """The first pages of the action's types, the widest type first (a merged header finding's
    pages are those of its per-page type, not the start page the grade judged)."""
    ordered = sorted(action.issue_types, key=lambda t: -len(pages.get(t, [])))
    found = dict.fromkeys(url for t in ordered for url in pages.get(t, []))
    return tuple(list(found)[:EXAMPLE_PAGES])
