"""Reconciling audits stuck in `running` with their workflow instances.

Platform kills (memory, CPU, deploy resets) end a workflow without running its error handler, and
instances expire from Workflows retention, so an audit row can say `running` forever. The watchdog
(the */15 cron) and the status read path ask the Workflows binding what became of the instance and
fail the audit with a classified reason. The decision is a pure function of (audit, what the
binding said, now); carrying it out is separate. Rules follow docs/original-system.md §5.2.
"""

from __future__ import annotations

import calendar
import re
import time
from dataclasses import dataclass
from enum import StrEnum

from auditdb.records import AuditRecord
from auditdb.repository import is_running
from common.failures import ErrorCode, classify_error, error_detail

# startAudit inserts the row before creating the instance, so a young audit may legitimately have
# no instance yet; only past this age does "not found" mean the instance is gone.
INSTANCE_LOST_GRACE_MS = 10 * 60 * 1000
# The sweep only looks at audits running longer than this (live crawls are left alone).
STALE_RUNNING_AFTER_MS = 15 * 60 * 1000
# Audits reconciled per sweep, oldest first, so real zombies are not starved by live crawls.
WATCHDOG_BATCH_LIMIT = 100

_NOT_FOUND = re.compile(r"not[ _]?found", re.IGNORECASE)
_DEAD_STATUSES = frozenset({"errored", "terminated"})


class Verdict(StrEnum):
    LEAVE = "leave"
    FAIL = "fail"


@dataclass(frozen=True, slots=True)
class InstanceProbe:
    """What the Workflows binding answered: a status (and its error), or an exception's text."""

    status: str | None = None
    error_message: str | None = None
    lookup_error: str | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    verdict: Verdict
    reason: str
    error_code: ErrorCode | None = None
    error_detail: str | None = None


def decide(audit: AuditRecord, probe: InstanceProbe, now_ms: float) -> Decision:
    if not is_running(audit):
        return Decision(Verdict.LEAVE, f"audit is {audit.status}")
    if probe.lookup_error is not None:
        return _decide_lookup_error(audit, probe.lookup_error, now_ms)
    if probe.status in _DEAD_STATUSES:
        message = probe.error_message or f"Workflow instance {probe.status}"
        code = classify_error(probe.error_message) if probe.error_message else ErrorCode.UNKNOWN
        return Decision(Verdict.FAIL, f"instance {probe.status}", code, error_detail(message))
    if probe.status == "complete":
        # The workflow's last step completes the audit; a complete instance with a running row
        # means that write was lost.
        message = "Workflow instance completed but the audit was never marked completed"
        return Decision(Verdict.FAIL, "instance complete", ErrorCode.UNKNOWN, message)
    return Decision(Verdict.LEAVE, f"instance {probe.status}")


def _decide_lookup_error(audit: AuditRecord, message: str, now_ms: float) -> Decision:
    if not _NOT_FOUND.search(message):
        # A transient control-plane failure must never fail a live audit.
        return Decision(Verdict.LEAVE, "binding error")
    if audit_age_ms(audit, now_ms) < INSTANCE_LOST_GRACE_MS:
        return Decision(Verdict.LEAVE, "instance not found within the grace period")
    return Decision(
        Verdict.FAIL,
        "instance not found",
        ErrorCode.INSTANCE_LOST,
        error_detail(f"Workflow instance not found: {message}"),
    )


def audit_age_ms(audit: AuditRecord, now_ms: float) -> float:
    """Milliseconds since the audit started; an unparseable timestamp counts as very old."""
    started = parse_iso_ms(audit.started_at or audit.created_at)
    return float("inf") if started is None else now_ms - started


def parse_iso_ms(text: str | None) -> float | None:
    if not text:
        return None
    try:
        base, _, fraction = text.rstrip("Z").partition(".")
        seconds = calendar.timegm(time.strptime(base.replace(" ", "T"), "%Y-%m-%dT%H:%M:%S"))
        millis = int((fraction + "000")[:3]) if fraction else 0
    except ValueError:
        return None
    return seconds * 1000.0 + millis
