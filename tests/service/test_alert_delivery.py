"""Delivering a run's alert to its webhook through the monitor queue: signed, retried with
back-off, recorded, and never twice.

A receiver on 127.0.0.1 (tests/support/webhook_receiver.py) checks every request with
`service.alerts.verify`, the way docs/alerts.md tells receivers to.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from auditdb import queue_messages, run_finish
from auditdb.alerts import AlertStatus
from auditdb.monitors import MonitorRunStatus
from auditdb.queue_messages import AlertDue
from auditdb.run_finish import NewAlert, RunFinish
from service import alert_delivery, alerts
from service.alerts import AlertPayload, AlertReason
from tests.service.run_helpers import (
    DLQ,
    QUEUE,
    alert_row,
    manual_platform,
    new_monitor,
    record_run,
)
from tests.support.manual_platform import ManualPlatform
from tests.support.webhook_receiver import Receiver, closed_port, serve_receiver

SLOT = "2026-12-07T10:00:00.000Z"


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[ManualPlatform]:
    async for platform in manual_platform(tmp_path):
        yield platform


async def pending_alert(local: ManualPlatform, webhook_url: str) -> tuple[str, str, AlertPayload]:
    """A finished run with a pending alert, and the alert message on the queue:
    (run id, the monitor's secret, the payload)."""
    monitor, secret = await new_monitor(local.env, "https://site.test/", webhook_url)
    run = await record_run(local.env, monitor, 2, SLOT)
    payload = AlertPayload(
        delivery_id=alerts.delivery_id(monitor.id, run.id),
        monitor_id=monitor.id,
        site=monitor.url,
        run_id=run.id,
        audit_id=run.audit_id or "",
        previous_run_id="run-1",
        previous_audit_id="audit-1",
        score_before=90.0,
        score_after=70.0,
        reasons=[AlertReason.SCORE_DROP],
        new_critical_total=0,
    )
    finish = RunFinish(MonitorRunStatus.COMPLETED, SLOT, None, 70.0, 0, 0, 0, 0, 0)
    alert = NewAlert(run.id, monitor.id, payload.delivery_id, payload.body().decode(), SLOT)
    assert await run_finish.finish_run(local.env.DB, run.id, finish, alert)
    await queue_messages.send(local.env.MONITOR_QUEUE, AlertDue(run.id))
    return run.id, secret, payload


def assert_signed(
    local: ManualPlatform, receiver: Receiver, secret: str, payload: AlertPayload
) -> None:
    for delivery in receiver.deliveries:
        alerts.verify(secret, delivery.headers, delivery.body, now=local.clock.now_ms() / 1000)
        assert delivery.headers["webhook-id"] == payload.delivery_id
        assert json.loads(delivery.body) == payload.to_dict()


async def test_an_alert_is_posted_signed_and_recorded_as_delivered(local: ManualPlatform) -> None:
    with serve_receiver([204]) as receiver:
        run_id, secret, payload = await pending_alert(local, receiver.url)
        await local.drain_queue(QUEUE)

    assert len(receiver.deliveries) == 1
    assert_signed(local, receiver, secret, payload)
    alert = await alert_row(local.env, run_id)
    assert alert is not None
    assert (alert.status, alert.attempts, alert.response_status) == (
        AlertStatus.DELIVERED,
        1,
        204,
    )


async def test_a_message_delivered_twice_posts_one_alert(local: ManualPlatform) -> None:
    with serve_receiver() as receiver:
        run_id, _, _ = await pending_alert(local, receiver.url)
        await queue_messages.send(local.env.MONITOR_QUEUE, AlertDue(run_id))  # sent twice...
        local.broker.faults.duplicate_next(QUEUE, 2)  # ...and each delivered twice
        await local.drain_queue(QUEUE)

    assert len(receiver.deliveries) == 1
    alert = await alert_row(local.env, run_id)
    assert alert is not None and (alert.status, alert.attempts) == (AlertStatus.DELIVERED, 1)


async def test_a_failing_receiver_is_retried_with_back_off_then_delivered_once(
    local: ManualPlatform,
) -> None:
    with serve_receiver([500, 200]) as receiver:
        run_id, secret, payload = await pending_alert(local, receiver.url)
        await local.drain_queue(QUEUE)
        alert = await alert_row(local.env, run_id)
        assert len(receiver.deliveries) == 1  # the retry waits for its back-off
        assert alert is not None and (alert.status, alert.attempts, alert.response_status) == (
            AlertStatus.PENDING,
            1,
            500,
        )
        assert alert.last_error == "the webhook answered HTTP 500"

        local.clock.advance(alert_delivery.BACKOFF_S[0] - 1)
        await local.drain_queue(QUEUE)
        assert len(receiver.deliveries) == 1
        local.clock.advance(1)
        await local.drain_queue(QUEUE)

    assert len(receiver.deliveries) == 2
    assert_signed(local, receiver, secret, payload)  # the same webhook-id, signed afresh
    alert = await alert_row(local.env, run_id)
    assert alert is not None and (alert.status, alert.attempts, alert.response_status) == (
        AlertStatus.DELIVERED,
        2,
        200,
    )
    assert local.broker.pending(QUEUE) == 0


async def test_a_receiver_down_past_every_retry_fails_the_alert_and_records_why(
    local: ManualPlatform,
) -> None:
    run_id, _, _ = await pending_alert(local, f"http://127.0.0.1:{closed_port()}/hooks")

    await local.drain_queue(QUEUE)
    for delay in alert_delivery.BACKOFF_S:
        local.clock.advance(delay)
        await local.drain_queue(QUEUE)

    alert = await alert_row(local.env, run_id)
    assert alert is not None
    assert (alert.status, alert.attempts) == (AlertStatus.FAILED, alert_delivery.MAX_ATTEMPTS)
    assert alert.last_error and alert.response_status is None and alert.finished_at
    assert local.broker.pending(QUEUE) == local.broker.pending(DLQ) == 0


async def test_a_webhook_the_policy_now_refuses_is_not_contacted(local: ManualPlatform) -> None:
    with serve_receiver() as receiver:
        run_id, _, _ = await pending_alert(local, receiver.url)
        local.env.ALLOW_PRIVATE_HOSTS = "false"
        await local.drain_queue(QUEUE)

    assert receiver.deliveries == []
    alert = await alert_row(local.env, run_id)
    assert alert is not None and alert.status is AlertStatus.FAILED
    assert (alert.last_error or "").startswith("webhook_url refused")


@pytest.mark.parametrize("host", ["[::ffff:0:7f00:1]", "[64:ff9b::7f00:1]", "[::7f00:1]"])
async def test_a_webhook_carrying_a_loopback_ipv4_is_refused_at_delivery(
    local: ManualPlatform, monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    # Stored while every host was allowed; at delivery the deployment allows loopback only,
    # and these forms of 127.0.0.1 are not this host's loopback (urls.private_hosts).
    monkeypatch.setattr(local.env, "ALLOW_PRIVATE_HOSTS", "true")
    run_id, _, _ = await pending_alert(local, f"http://{host}:{closed_port()}/hooks")
    monkeypatch.setattr(local.env, "ALLOW_PRIVATE_HOSTS", "loopback")
    await local.drain_queue(QUEUE)

    alert = await alert_row(local.env, run_id)
    assert alert is not None and alert.status is AlertStatus.FAILED
    assert (alert.last_error or "").startswith("webhook_url refused")


def test_the_last_attempt_is_one_the_queue_delivers() -> None:
    config = tomllib.loads((Path(__file__).resolve().parents[2] / "wrangler.toml").read_text())
    [consumer] = config["queues"]["consumers"]

    assert consumer["max_retries"] + 1 == alert_delivery.MAX_ATTEMPTS
    assert len(alert_delivery.BACKOFF_S) == alert_delivery.MAX_ATTEMPTS - 1
