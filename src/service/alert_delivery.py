"""Delivering a monitor alert to its webhook: one signed POST per attempt, retried through the
queue with back-off, recorded in the `alerts` row (migrations/d1/0009_alerts.sql).

Theory of operation. service.run_finish inserts the alert row (at most one per run) and sends an
`alert` message; each delivery of that message is one attempt:

    1. lease     take the pending row for this attempt (auditdb.alerts.lease, a guarded UPDATE
                 that also counts the attempt). A settled alert acks the message; one an attempt
                 still holds (a duplicate delivery meanwhile) is retried after the lease.
    2. check     the monitor and its webhook URL still exist, and the URL passes the SSRF policy
                 *now* (the deployment's ALLOW_PRIVATE_HOSTS; the host may have been re-pointed
                 since the monitor was saved; the platform's fetch then refuses private
                 addresses whatever the name resolves to, which stops DNS rebinding). Refused:
                 the alert fails at once, no retry can help.
    3. post      the stored body, signed afresh for this attempt (Standard Webhooks headers,
                 service.alerts.signed_headers, the same `webhook-id` every time), through the
                 platform's fetch (`common.ports`), redirects not followed, within
                 `TIMEOUT_S`.
    4. settle    a 2xx answer: delivered. Anything else (another status, a redirect, a network
                 error, the timeout): retried after `BACKOFF_S[attempt - 1]` seconds with
                 `message.retry(delaySeconds=...)`, until `MAX_ATTEMPTS`; then failed. The row
                 keeps the attempts, the last error and the last response status.

`MAX_ATTEMPTS` is the queue's `max_retries` + 1 (wrangler.toml; a test holds them together), so
the last attempt is always one the consumer sees and records, never one the queue dead-letters.

A receiver can see an alert twice only if the consumer dies between its POST and the row's
update; the repeat carries the same `webhook-id`, which receivers de-duplicate on
(docs/alerts.md).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum

from auditdb import alerts as alert_table
from auditdb import monitors
from auditdb.alerts import AlertRecord, AlertStatus
from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from common.wire import JsonRecord
from service import alerts, audits
from service.errors import InvalidTarget
from urls.private_hosts import PrivateHosts

log = logging.getLogger("siteaudit.alerts")

MAX_ATTEMPTS = 3  # wrangler.toml max_retries (2) + 1
# Seconds before the second and third attempts: a receiver restarting or briefly overloaded
# gets a minute, then five (Standard Webhooks recommends exponential back-off; ours is short
# because the queue keeps a message at most 24 h of delay per retry, docs/platform.md §6).
BACKOFF_S = (60, 300)
TIMEOUT_S = 10.0
LEASE_MS = 60_000  # longer than one attempt can take (the timeout plus the D1 writes)
MAX_RESPONSE_BYTES = 4096  # only the status matters; the body is read to close the exchange
ERROR_CHARS = 500


class DeliveryOutcome(StrEnum):
    DELIVERED = "delivered"
    RETRY = "retry"  # this attempt failed; the message comes back after `retry_after_s`
    FAILED = "failed"  # given up (recorded)
    SETTLED = "settled"  # nothing to do: the alert was already delivered or failed, or is gone
    BUSY = "busy"  # another attempt holds the lease; come back after it


@dataclass(frozen=True, slots=True)
class DeliveryResult(JsonRecord):
    run_id: str
    outcome: DeliveryOutcome
    retry_after_s: int | None = None
    response_status: int | None = None


async def deliver_alert(env: Env, run_id: str) -> DeliveryResult:
    """One delivery attempt of the run's alert (see the module docstring)."""
    now_ms = ports.now_ms()
    now = ports.iso_from_ms(now_ms)
    if not await alert_table.lease(env.DB, run_id, now, ports.iso_from_ms(now_ms + LEASE_MS)):
        alert = await alert_table.get_alert(env.DB, run_id)
        if alert is not None and alert.status is AlertStatus.PENDING:
            return DeliveryResult(run_id, DeliveryOutcome.BUSY, LEASE_MS // 1000)
        return DeliveryResult(run_id, DeliveryOutcome.SETTLED)
    alert = await alert_table.get_alert(env.DB, run_id)
    if alert is None:  # deleted with its monitor since the lease
        return DeliveryResult(run_id, DeliveryOutcome.SETTLED)
    target = await _target(env, alert)
    if isinstance(target, str):
        return await _give_up(env, alert, target, None)
    url, secret = target
    return await _post(env, alert, url, secret)


async def _target(env: Env, alert: AlertRecord) -> tuple[str, str] | str:
    """(webhook URL, secret), or why the alert cannot be sent at all."""
    monitor = await monitors.get_monitor(env.DB, alert.monitor_id)
    secret = await monitors.webhook_secret(env.DB, alert.monitor_id)
    if monitor is None or secret is None:
        return "the monitor was deleted"
    if monitor.webhook_url is None:
        return "the monitor has no webhook_url any more"
    policy = PrivateHosts(DeploymentVars.from_env(env).private_hosts)
    try:
        audits.checked_start_url(monitor.webhook_url, policy)
    except InvalidTarget as exc:
        return f"webhook_url refused: {exc}"
    return monitor.webhook_url, secret


async def _post(env: Env, alert: AlertRecord, url: str, secret: str) -> DeliveryResult:
    body = alert.payload.encode("utf-8")
    stamp = int(ports.now_ms() // 1000)
    request = ports.FetchRequest(
        url,
        timeout_s=TIMEOUT_S,
        max_bytes=MAX_RESPONSE_BYTES,
        headers=alerts.signed_headers(secret, alert.delivery_id, stamp, body),
        method="POST",
        body=body,
    )
    result = await ports.http_client().fetch(request)
    status = result.status or None
    if status is not None and 200 <= status < 300:
        await alert_table.settle(
            env.DB,
            alert.run_id,
            AlertStatus.DELIVERED,
            finished_at=ports.iso_now(),
            response_status=status,
        )
        return DeliveryResult(alert.run_id, DeliveryOutcome.DELIVERED, response_status=status)
    error = (result.error or f"the webhook answered HTTP {status}")[:ERROR_CHARS]
    attempt = alert.attempts  # counted by the lease, this one included
    if attempt >= MAX_ATTEMPTS:
        return await _give_up(env, alert, error, status)
    log.info("alert %s attempt %d failed: %s", alert.delivery_id, attempt, error)
    await alert_table.attempt_failed(env.DB, alert.run_id, error, status)
    delay = BACKOFF_S[min(attempt, len(BACKOFF_S)) - 1]
    return DeliveryResult(alert.run_id, DeliveryOutcome.RETRY, delay, status)


async def _give_up(env: Env, alert: AlertRecord, error: str, status: int | None) -> DeliveryResult:
    log.warning("alert %s failed after %d attempts: %s", alert.delivery_id, alert.attempts, error)
    await alert_table.settle(
        env.DB,
        alert.run_id,
        AlertStatus.FAILED,
        finished_at=ports.iso_now(),
        error=error[:ERROR_CHARS],
        response_status=status,
    )
    return DeliveryResult(alert.run_id, DeliveryOutcome.FAILED, response_status=status)
