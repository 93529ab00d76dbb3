"""Structured log lines for a log drain: one JSON object per terminal audit transition."""

from __future__ import annotations

import json
import logging

log = logging.getLogger("siteaudit.events")


def log_terminal(
    audit_id: str,
    status: str,
    *,
    error_code: str | None,
    failed_phase: str | None,
    pages: int,
    reconciled_by: str | None,
) -> str:
    line = json.dumps(
        {
            "event": "audit_terminal",
            "audit_id": audit_id,
            "status": status,
            "error_code": error_code,
            "failed_phase": failed_phase,
            "pages": pages,
            "reconciled_by": reconciled_by,
        },
        sort_keys=True,
    )
    log.info(line)
    return line
