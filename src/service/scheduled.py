"""The cron entry point (`entry.Default.scheduled`): maintenance's jobs for each trigger, then
the daily jobs that need the service layer. Never raises.

`maintenance.scheduled` runs the watchdog, the producer and the cleanups that touch only D1; the
retention of monitor runs also deletes R2 reports through `service.report_keys`, which sits above
`maintenance` in the layers (DEVELOPERS.md), so it is added here, after them and apart from them:
one failing job never stops the other.
"""

from __future__ import annotations

import logging

from common.bindings import Env
from common.wire import JsonObject
from maintenance import scheduled
from maintenance.scheduled import CLEANUP_CRON
from service.run_retention import expire_monitor_runs

log = logging.getLogger("siteaudit.scheduled")


async def run_scheduled(cron: str, env: Env) -> JsonObject:
    outcome = await scheduled.run_scheduled(cron, env)
    if cron != CLEANUP_CRON:
        return outcome
    try:
        return {**outcome, "monitor_runs": (await expire_monitor_runs(env)).to_dict()}
    except Exception as exc:
        log.exception("monitor run retention failed")
        return {**outcome, "monitor_runs": {"error": str(exc)}}
