"""Structured log lines for a log drain: one JSON object per terminal audit transition.

Whoever moves an audit to a terminal state (the workflow on completion or failure, the watchdog
or a status read that reconciles a lost instance, the owner's cancel) logs exactly one
`audit_terminal` line, and only when its guarded update changed the row, so a replayed step never
logs twice.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from enum import StrEnum

from common.failures import ErrorCode
from common.wire import JsonRecord

log = logging.getLogger("siteaudit.events")


class TerminalStatus(StrEnum):
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TerminalEvent(JsonRecord):
    audit_id: str
    status: TerminalStatus
    error_code: ErrorCode | None
    failed_phase: str | None
    pages: int
    # "watchdog" or "status_read"; None when the workflow ended it, or its owner cancelled it
    reconciled_by: str | None
    event: str = "audit_terminal"


def log_terminal(
    audit_id: str,
    status: TerminalStatus,
    *,
    error_code: ErrorCode | None,
    failed_phase: str | None,
    pages: int,
    reconciled_by: str | None,
) -> str:
    event = TerminalEvent(audit_id, status, error_code, failed_phase, pages, reconciled_by)
    line = json.dumps(event.to_dict(), sort_keys=True)
    log.info(line)
    return line
