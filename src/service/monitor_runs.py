"""The monitor queue's consumer: each `monitor_due` message starts one monitor run, exactly once.

The queue carries three kinds of message (auditdb.queue_messages); `consume_batch` dispatches on
`kind`: `monitor_due` runs here, `audit_ended` finishes a run (service.run_finish) and `alert`
delivers a run's alert (service.alert_delivery, which asks for its back-off through
`message.retry(delaySeconds=...)`).

Theory of operation. Queues deliver at least once, so a message can arrive twice, two deliveries
can interleave, and a consumer can die halfway through a batch. A run is therefore:

    1. claim     one guarded UPDATE (auditdb.monitors.claim) locks the monitor for 30 minutes if it
                 is active, unclaimed and has not run within its recency window; zero changed rows
                 means another delivery has it or it already ran: ack, do nothing. A message whose
                 slot is no longer the monitor's next one (served, or rescheduled) gives the claim
                 back and does nothing either.
    2. start     the audit, with an id derived from (monitor, slot): a delivery that finds that
                 audit already there (a consumer died after starting it) does not start another.
    3. record    one batch inserts the `monitor_runs` row (status running; one per slot) and moves
                 the monitor to its next slot, ending the claim.

A consumer that dies between 1 and 3 leaves the claim to lapse after 30 minutes; the monitor is
still due, so the next hourly cron enqueues it again and steps 2-3 finish the same run.

Each message is settled on its own: acked when it ran or was skipped, retried (twice, then the
dead-letter queue) when something failed, so one failing monitor never holds up the others. A
failure gives the claim back first, so the retry can take it.

Rate limits. A run's audit is started with no API key (`create_audit(key_id=None)`), so the
per-key limits (requests per minute, audits per hour) and the running-audits ceiling do not
apply: they would refuse the owner's monitors that share an hour, and a refused scheduled run is
a lost one. The load is bounded instead by `MAX_MONITORS_PER_OWNER` (service.monitors) and the
schedule (one run per monitor per slot).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, replace
from enum import StrEnum

from auditdb import monitors, repository
from auditdb.monitors import MonitorRecord, MonitorRunRecord, MonitorRunStatus
from auditdb.queue_messages import AlertDue, AuditEnded, MessageKind, message_kind
from common import ports
from common.bindings import Env, MessageBatch, QueueMessage
from common.wire import JsonRecord, WireError
from maintenance.monitor_producer import MonitorDue
from maintenance.monitor_schedule import CLAIM_MS, next_due_at, recency_cutoffs
from service import audits
from service.alert_delivery import DeliveryResult, deliver_alert
from service.errors import InvalidOptions, InvalidTarget, MonitorNotRunnable
from service.monitors import audit_request, get_monitor
from service.run_finish import FinishResult, finish_run_for_audit

log = logging.getLogger("siteaudit.monitors")

# Run audit ids are UUIDv5 names of "<monitor id>/<slot>" in this namespace (RFC 9562 §5.5).
RUN_NAMESPACE = uuid.UUID("5b0c2f7e-4d1a-5e8b-9a61-2f3c7d9e1b44")


class RunOutcome(StrEnum):
    STARTED = "started"  # the run's audit started (or had started) and the run is recorded
    REFUSED = "refused"  # the monitor's settings no longer pass; recorded as a failed run
    SKIPPED = "skipped"  # another delivery holds the claim, the monitor ran recently or is gone


@dataclass(frozen=True, slots=True)
class RunResult(JsonRecord):
    monitor_id: str
    outcome: RunOutcome
    audit_id: str | None = None


type QueueResult = RunResult | FinishResult | DeliveryResult


async def consume_batch(env: Env, batch: MessageBatch) -> list[QueueResult]:
    """Handle each message by its kind; ack or retry each message on its own."""
    results: list[QueueResult] = []
    for message in batch.messages:
        result = await _consume(env, message)
        if result is not None:
            results.append(result)
    return results


async def _consume(env: Env, message: QueueMessage) -> QueueResult | None:
    try:
        result = await _dispatch(env, _object(message.body))
    except Exception:  # D1 or the Workflow binding raise JsException, which core cannot name
        log.exception("monitor message %s (attempt %d) failed", message.id, message.attempts)
        message.retry()
        return None
    if isinstance(result, DeliveryResult) and result.retry_after_s is not None:
        message.retry(delaySeconds=result.retry_after_s)  # the alert's back-off
    else:
        message.ack()
    return result


async def _dispatch(env: Env, body: dict[str, object]) -> QueueResult:
    kind = message_kind(body)
    if kind is MessageKind.AUDIT_ENDED:
        return await finish_run_for_audit(env, AuditEnded.from_dict(body).audit_id)
    if kind is MessageKind.ALERT:
        return await deliver_alert(env, AlertDue.from_dict(body).run_id)
    return await run_monitor(env, MonitorDue.from_dict(body))


def _object(body: object) -> dict[str, object]:
    if not isinstance(body, dict):
        raise WireError(f"a monitor message must be an object, not {type(body).__name__}")
    return body


async def run_monitor(env: Env, due: MonitorDue) -> RunResult:
    """Claim the monitor, start its audit and record the run (see the module docstring)."""
    now_ms = ports.now_ms()
    now, lock = ports.iso_from_ms(now_ms), ports.iso_from_ms(now_ms + CLAIM_MS)
    if not await monitors.claim(env.DB, due.monitor_id, now, lock, recency_cutoffs(now_ms)):
        return RunResult(due.monitor_id, RunOutcome.SKIPPED)
    try:
        return await _run_claimed(env, due, now_ms, lock)
    except Exception:
        await _give_back(env, due.monitor_id, lock)
        raise


async def run_now(env: Env, owner: str, monitor_id: str) -> RunResult:
    """The owner's "run now": the monitor is made due at once (as `siteaudit monitors run-due
    --now` does) and runs here, through the same claim as a queued run, so a run-now and the
    hourly cron cannot both start one. A paused monitor, or one whose run another delivery is
    starting at this moment, is refused (`MonitorNotRunnable`)."""
    monitor = await get_monitor(env, owner, monitor_id)
    if not monitor.is_active:
        raise MonitorNotRunnable(monitor.id, "it is paused; resume it first")
    now = ports.iso_now()
    if not await monitors.make_due_now(env.DB, monitor.id, now):
        raise MonitorNotRunnable(monitor.id, "it was paused or deleted meanwhile")
    result = await run_monitor(env, MonitorDue(monitor.id, now))
    if result.outcome is RunOutcome.SKIPPED:
        raise MonitorNotRunnable(monitor.id, "a run of it is starting already")
    return result


async def _run_claimed(env: Env, due: MonitorDue, now_ms: float, lock: str) -> RunResult:
    monitor = await monitors.get_monitor(env.DB, due.monitor_id)
    if monitor is None:  # deleted between the claim and this read
        return RunResult(due.monitor_id, RunOutcome.SKIPPED)
    if monitor.next_due_at != due.due_at:
        # A stale message: the slot it names was served, or the schedule changed since it was
        # sent. The monitor's own next slot will be enqueued when it comes.
        await _give_back(env, monitor.id, lock)
        return RunResult(monitor.id, RunOutcome.SKIPPED)
    run = await _start(env, monitor, due.due_at, ports.iso_from_ms(now_ms))
    following = next_due_at(monitor.frequency, monitor.hour, now_ms)
    await monitors.record_run_start(env.DB, run, following)
    if run.audit_id is not None:
        await _finish_if_ended(env, run.audit_id)
    outcome = RunOutcome.STARTED if run.audit_id is not None else RunOutcome.REFUSED
    return RunResult(monitor.id, outcome, run.audit_id)


async def _start(env: Env, monitor: MonitorRecord, due_at: str, now: str) -> MonitorRunRecord:
    audit_id = run_audit_id(monitor.id, due_at)
    run = MonitorRunRecord(str(uuid.uuid4()), monitor.id, due_at, now, audit_id=audit_id)
    if await repository.get_audit(env.DB, audit_id) is not None:
        return run  # an earlier delivery started it and died before recording the run
    try:
        # An ignore_robots monitor's verification was required when it was set; each run's audit
        # checks the proof again itself and obeys robots.txt, saying why, if it is gone.
        sealed = await monitors.credentials_sealed(env.DB, monitor.id)
        request = audit_request(monitor, sealed)
        await audits.create_audit(
            env, monitor.owner, request, audit_id=audit_id, require_verified=False
        )
    except (InvalidTarget, InvalidOptions) as exc:
        # The deployment's policy changed under the monitor (ALLOW_PRIVATE_HOSTS,
        # MAX_PAGES_LIMIT): no retry can help, so the run is recorded as failed.
        log.warning("monitor %s: audit refused: %s", monitor.id, exc)
        failed = MonitorRunStatus.FAILED
        return replace(run, audit_id=None, status=failed, finished_at=now, error_detail=str(exc))
    return run


async def _finish_if_ended(env: Env, audit_id: str) -> None:
    """The run's audit may have ended before its row existed (an audit faster than this insert,
    or one a consumer started before dying): its `audit_ended` announcement found no run then,
    so the run is finished here. A failure is only logged: the run is recorded, and the
    watchdog's backstop (maintenance.reconcile.announce_unfinished_runs) finishes it later."""
    try:
        await finish_run_for_audit(env, audit_id)
    except Exception as exc:  # JsException from D1 or R2
        log.warning("audit %s: its run could not be finished yet: %s", audit_id, exc)


def run_audit_id(monitor_id: str, due_at: str) -> str:
    """The id of the audit that serves the monitor's slot `due_at`: the same on every delivery."""
    return str(uuid.uuid5(RUN_NAMESPACE, f"{monitor_id}/{due_at}"))


async def _give_back(env: Env, monitor_id: str, lock: str) -> None:
    try:
        await monitors.release(env.DB, monitor_id, lock)
    except Exception as exc:  # the claim then lapses by itself
        log.warning("monitor %s: could not release the claim: %s", monitor_id, exc)
