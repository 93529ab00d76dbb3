"""The messages of the monitor queue (`MONITOR_QUEUE`), one record per kind, and sending one.

One queue carries the three jobs of monitoring, told apart by `kind`; the consumer
(service.monitor_runs) dispatches on it:

    monitor_due   a monitor's slot has come: start its run (maintenance.monitor_producer sends it)
    audit_ended   an audit ended (completed, failed or cancelled): finish the monitor run it
                  serves, if any (`announce_audit_end`, called by every terminal transition)
    alert         deliver a finished run's alert to the monitor's webhook (service.run_finish)

Messages carry ids only (docs/platform.md §6 limits a body to 128 KB); the consumer reads the
rest from D1. A body without `kind` is a `monitor_due`: the only kind messages had before.

This module sits in `auditdb` because the workflow (below `maintenance` and `service`) must send
`audit_ended`, and `auditdb` is the lowest layer that knows the `monitor_runs` table: the
workflow, the watchdog and the cancel all reach it, and none of them imports the consumer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from common.bindings import Env, Queue
from common.wire import JsonRecord, WireError

log = logging.getLogger("siteaudit.monitors")

# An index seek on monitor_runs_audit_idx: is this audit a monitor run still to finish?
RUNNING_RUN_OF_AUDIT_SQL = (
    "SELECT id FROM monitor_runs WHERE audit_id = ? AND status = 'running' LIMIT 1"
)


class MessageKind(StrEnum):
    MONITOR_DUE = "monitor_due"
    AUDIT_ENDED = "audit_ended"
    ALERT = "alert"


@dataclass(frozen=True, slots=True)
class AuditEnded(JsonRecord):
    """An audit reached completed, failed or cancelled: finish its monitor run."""

    audit_id: str
    kind: MessageKind = MessageKind.AUDIT_ENDED


@dataclass(frozen=True, slots=True)
class AlertDue(JsonRecord):
    """A run's alert (the `alerts` row keyed by `run_id`) is to be delivered."""

    run_id: str
    kind: MessageKind = MessageKind.ALERT


def message_kind(body: Mapping[str, object]) -> MessageKind:
    kind = body.get("kind", MessageKind.MONITOR_DUE)
    try:
        return MessageKind(str(kind))
    except ValueError:
        raise WireError(f"unknown monitor queue message kind {kind!r}") from None


async def send(queue: Queue, message: AuditEnded | AlertDue) -> None:
    await queue.sendBatch([{"body": message.to_dict()}])


async def announce_audit_end(env: Env, audit_id: str) -> bool:
    """Tell the consumer that `audit_id` ended, if a monitor run waits on it; True if sent.

    Called after every terminal write (and safe to call again: finishing is idempotent). It never
    raises: the audit's own ending must not fail because of its monitor run. A message lost here
    (D1 or the queue refusing) leaves the run `running` until the watchdog finds it
    (maintenance.reconcile.sweep_unfinished_runs) and announces it again.
    """
    try:
        found = await env.DB.prepare(RUNNING_RUN_OF_AUDIT_SQL).bind(audit_id).first()
        if found is None:
            return False
        await send(env.MONITOR_QUEUE, AuditEnded(audit_id))
    except Exception as exc:  # the bindings raise JsException, whose type core code cannot name
        log.warning("audit %s ended; its monitor run was not announced: %s", audit_id, exc)
        return False
    return True
