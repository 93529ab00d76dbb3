"""The hourly producer and the queue consumer on the local platform's real queue and D1.

Queues deliver at least once; these tests make every kind of repeat happen (each message twice,
two deliveries of one message interleaved, a consumer killed mid-batch, a failing message among
good ones) and check the one property that matters: each due monitor runs exactly once, which is
one `monitor_runs` row and one audit (one Workflow instance) per monitor.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from auditdb import monitors as table
from auditdb import repository
from auditdb.frequency import Frequency
from auditdb.monitors import MonitorRunStatus
from auditdb.queue_messages import announce_audit_end
from auditdb.records import PageRecord
from common.bindings import Env
from local_platform.clock import ManualClock
from local_platform.errors import JsException
from local_platform.queues import Message, MessageBatch
from local_platform.runtime import LocalEnv
from maintenance import monitor_producer
from maintenance.monitor_producer import MonitorDue, enqueue_due_monitors
from service.monitor_runs import RunOutcome, consume_batch, run_audit_id, run_monitor
from service.monitors import CreateMonitor, UpdateMonitor, create_monitor, update_monitor
from tests.support.manual_platform import ManualPlatform
from tests.support.platform_vars import TEST_VARS

QUEUE = "siteaudit-monitor"
DLQ = "siteaudit-monitor-dlq"
MONDAY_10 = dt.datetime(2026, 12, 7, 10, tzinfo=dt.UTC).timestamp() * 1000


class Killed(BaseException):
    """The isolate dies: nothing after this point runs, not even `except Exception` blocks."""


class RecordingWorkflow:
    """The Workflow binding: records each instance, refuses an id twice (as the platform does),
    and can fail or kill the consumer on chosen audits."""

    def __init__(self) -> None:
        self.created: list[str] = []
        self.fail_ids: set[str] = set()
        self.kill_after: set[str] = set()

    async def create(self, *, id: str, params: Any) -> None:
        if id in self.created:
            raise JsException("Error", f"instance {id} already exists")
        if id in self.fail_ids:
            raise JsException("Error", "workflow service unavailable")
        self.created.append(id)
        if id in self.kill_after:
            self.kill_after.discard(id)
            raise Killed


class CountingQueue:
    """The producer binding with its calls counted; the real local queue checks the limits."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.batches: list[int] = []

    async def sendBatch(self, messages: list[Any]) -> None:  # noqa: N802
        self.batches.append(len(messages))
        await self.inner.sendBatch(messages)


class QueuePlatform(ManualPlatform):
    """The platform with the workflow binding recorded and the producer's batches counted."""

    workflow: RecordingWorkflow
    queue: CountingQueue


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[QueuePlatform]:
    vars_ = {**TEST_VARS, "MAX_MONITORS_PER_OWNER": "0"}
    platform = QueuePlatform(tmp_path / "state", clock=ManualClock(MONDAY_10), var_overrides=vars_)
    platform.workflow = RecordingWorkflow()
    platform.env.SITE_AUDIT_WORKFLOW = platform.workflow
    platform.queue = CountingQueue(platform.env.MONITOR_QUEUE)
    platform.env.MONITOR_QUEUE = platform.queue
    try:
        yield platform
    finally:
        await platform.close()


async def add_monitors(
    local: QueuePlatform, n: int, frequency: Frequency = Frequency.DAILY
) -> list[str]:
    return [
        (
            await create_monitor(
                local.env, f"owner{i % 7}", CreateMonitor(f"https://site{i}.example", frequency, 10)
            )
        ).monitor.id
        for i in range(n)
    ]


async def runs(local: QueuePlatform) -> list[tuple[str, str | None, str]]:
    result = await local.env.DB.prepare(
        "SELECT monitor_id, audit_id, status FROM monitor_runs ORDER BY monitor_id"
    ).all()
    return [(r["monitor_id"], r["audit_id"], r["status"]) for r in result["results"]]


def assert_each_ran_once(local: QueuePlatform, ids: list[str], recorded: list[Any]) -> None:
    assert sorted(monitor_id for monitor_id, _, _ in recorded) == sorted(ids)
    assert sorted(local.workflow.created) == sorted(audit for _, audit, _ in recorded)
    assert {status for _, _, status in recorded} == {"running"}


# -- the producer --------------------------------------------------------------------------------


async def test_the_producer_sends_at_most_100_messages_a_call(local: QueuePlatform) -> None:
    ids = await add_monitors(local, 250)

    summary = await enqueue_due_monitors(local.env)

    assert local.queue.batches == [100, 100, 50]
    assert (summary.enqueued, summary.send_batch_calls) == (250, 3)
    assert local.broker.pending(QUEUE) == len(ids)


async def test_the_producer_stays_within_the_batch_byte_limit(
    local: QueuePlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = await add_monitors(local, 40)
    body = MonitorDue(ids[0], "2026-12-07T10:00:00.000Z").to_dict()
    size = len(json.dumps(body)) + monitor_producer.MESSAGE_OVERHEAD_BYTES
    monkeypatch.setattr(monitor_producer, "MAX_BATCH_BYTES", 10 * size - 1)  # room for 9

    await enqueue_due_monitors(local.env)

    assert local.queue.batches == [9, 9, 9, 9, 4]


async def test_the_producer_pages_through_every_due_monitor_once(
    local: QueuePlatform, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = await add_monitors(local, 20)
    monkeypatch.setattr(monitor_producer, "DUE_PAGE_SIZE", 7)

    await enqueue_due_monitors(local.env)
    sent: list[str] = []

    async def record(batch: Any) -> None:
        sent.extend(m.body["monitor_id"] for m in batch.messages)

    await local.broker.deliver_due(QUEUE, record, flush=True)
    assert sorted(sent) == sorted(ids)


async def test_a_new_schedule_applies_from_the_next_slot_once_a_monitor_has_run(
    local: QueuePlatform,
) -> None:
    env = local.env
    [ran, fresh] = await add_monitors(local, 2)
    await run_monitor(env, MonitorDue(ran, "2026-12-07T10:00:00.000Z"))
    change = UpdateMonitor(frequency=Frequency.MONTHLY, hour=4)

    moved = await update_monitor(env, "owner0", ran, change)
    kept = await update_monitor(env, "owner1", fresh, change)

    assert moved.next_due_at == "2027-01-01T04:00:00.000Z"
    assert kept.next_due_at == "2026-12-07T10:00:00.000Z"  # its baseline run is still to come


async def test_only_active_due_unclaimed_and_not_recent_monitors_are_sent(
    local: QueuePlatform,
) -> None:
    env = local.env
    due, inactive, later, claimed, recent = await add_monitors(local, 5)
    await update_monitor(env, "owner1", inactive, UpdateMonitor(is_active=False))
    await _set(env, later, next_due_at="2026-12-08T10:00:00.000Z")
    await _set(env, claimed, lock_until="2026-12-07T10:20:00.000Z")
    await _set(env, recent, last_run_at="2026-12-07T00:00:00.000Z")  # 10 h ago, daily

    await enqueue_due_monitors(env)
    delivered: list[Any] = []

    async def record(batch: Any) -> None:
        delivered.extend(m.body["monitor_id"] for m in batch.messages)

    await local.broker.deliver_due(QUEUE, record, flush=True)
    assert delivered == [due]


async def _set(env: Env, monitor_id: str, **columns: str) -> None:
    for column, value in columns.items():
        await (
            env.DB.prepare(f"UPDATE monitors SET {column} = ? WHERE id = ?")
            .bind(value, monitor_id)
            .run()
        )


# -- the consumer --------------------------------------------------------------------------------


async def test_a_run_starts_the_audit_records_the_run_and_moves_to_the_next_slot(
    local: QueuePlatform,
) -> None:
    [monitor_id] = await add_monitors(local, 1, Frequency.WEEKLY)
    await enqueue_due_monitors(local.env)

    await local.drain_queue(QUEUE)

    monitor = await table.get_monitor(local.env.DB, monitor_id)
    assert monitor is not None
    [(_, audit_id, status)] = await runs(local)
    assert local.workflow.created == [audit_id]
    assert status == MonitorRunStatus.RUNNING
    assert (monitor.last_run_at, monitor.next_due_at, monitor.lock_until) == (
        "2026-12-07T10:00:00.000Z",
        "2026-12-14T10:00:00.000Z",
        None,
    )
    audit = (
        await local.env.DB.prepare("SELECT owner, start_url FROM audits WHERE id = ?")
        .bind(audit_id)
        .first()
    )
    assert (audit["owner"], audit["start_url"]) == ("owner0", "https://site0.example/")
    assert local.broker.pending(QUEUE) == 0


async def test_every_message_delivered_twice_runs_each_monitor_once(local: QueuePlatform) -> None:
    ids = await add_monitors(local, 60)
    await enqueue_due_monitors(local.env)
    local.broker.faults.duplicate_next(QUEUE, 60)

    await local.drain_queue(QUEUE)

    assert_each_ran_once(local, ids, await runs(local))
    assert local.broker.pending(QUEUE) == local.broker.pending(DLQ) == 0


async def test_interleaved_deliveries_of_one_message_run_it_once(local: QueuePlatform) -> None:
    ids = await add_monitors(local, 10)
    due = [MonitorDue(i, "2026-12-07T10:00:00.000Z") for i in ids]

    def batch() -> MessageBatch:
        now = dt.datetime.now(dt.UTC)
        return MessageBatch(
            QUEUE, [Message(f"m{i}", d.to_dict(), 1, now) for i, d in enumerate(due)]
        )

    first, second = batch(), batch()
    results = await asyncio.gather(
        consume_batch(local.env, first), consume_batch(local.env, second)
    )

    outcomes = [r.outcome for found in results for r in found]
    assert outcomes.count(RunOutcome.STARTED) == 10
    assert outcomes.count(RunOutcome.SKIPPED) == 10
    assert {m._decision for m in first.messages + second.messages} == {"ack"}
    assert_each_ran_once(local, ids, await runs(local))


async def test_a_failing_message_is_retried_alone_and_runs_when_it_can(
    local: QueuePlatform,
) -> None:
    ids = await add_monitors(local, 5)
    failing = run_audit_id(ids[2], "2026-12-07T10:00:00.000Z")
    local.workflow.fail_ids.add(failing)
    await enqueue_due_monitors(local.env)

    await local.deliver_queue(QUEUE, flush=True)

    assert len(await runs(local)) == 4
    assert local.broker.pending(QUEUE) == 1
    local.workflow.fail_ids.clear()  # the binding recovers before the retry
    await local.drain_queue(QUEUE)
    assert_each_ran_once(local, ids, await runs(local))


async def test_a_message_that_always_fails_ends_in_the_dead_letter_queue(
    local: QueuePlatform,
) -> None:
    ids = await add_monitors(local, 3)
    local.workflow.fail_ids.add(run_audit_id(ids[0], "2026-12-07T10:00:00.000Z"))
    await enqueue_due_monitors(local.env)

    await local.drain_queue(QUEUE)

    assert len(await runs(local)) == 2
    assert (local.broker.pending(QUEUE), local.broker.pending(DLQ)) == (0, 1)
    monitor = await table.get_monitor(local.env.DB, ids[0])
    assert monitor is not None
    assert (monitor.lock_until, monitor.last_run_at) == (None, None)  # claim given back: still due


async def test_a_consumer_killed_mid_batch_loses_and_repeats_no_run(local: QueuePlatform) -> None:
    ids = await add_monitors(local, 30)
    victim = ids[7]
    local.workflow.kill_after.add(run_audit_id(victim, "2026-12-07T10:00:00.000Z"))
    await enqueue_due_monitors(local.env)

    with pytest.raises(Killed):
        await local.drain_queue(QUEUE)
    await local.drain_queue(QUEUE)  # everything unsettled comes again, the acked ones too

    recorded = await runs(local)
    assert victim not in {monitor_id for monitor_id, _, _ in recorded}
    assert len(recorded) == 29
    # The victim's claim lapses; the next hourly cron finds it still due and finishes its run
    # with the audit the killed consumer had started.
    local.clock.advance(3600)
    await local.scheduled("0 * * * *")
    await local.drain_queue(QUEUE)
    assert_each_ran_once(local, ids, await runs(local))


async def test_a_run_the_deployment_now_refuses_is_recorded_as_failed(local: QueuePlatform) -> None:
    env = local.env
    monitor_id = (
        await create_monitor(env, "o", CreateMonitor("http://127.0.0.1:9/", hour=10))
    ).monitor.id
    env.ALLOW_PRIVATE_HOSTS = "false"
    result = await run_monitor(env, MonitorDue(monitor_id, "2026-12-07T10:00:00.000Z"))

    assert result.outcome is RunOutcome.REFUSED
    run = await table.run_for_slot(env.DB, monitor_id, "2026-12-07T10:00:00.000Z")
    assert run is not None
    assert (run.status, run.audit_id) == (MonitorRunStatus.FAILED, None)
    assert "127.0.0.1" in (run.error_detail or "")
    assert local.workflow.created == []


@pytest.mark.parametrize(
    ("frequency", "hours_later", "runs_again"),
    [
        (Frequency.DAILY, 11, False),
        (Frequency.DAILY, 24, True),
        (Frequency.WEEKLY, 59, False),
        (Frequency.WEEKLY, 24 * 7, True),
        (Frequency.MONTHLY, 239, False),
    ],
)
async def test_a_monitor_that_ran_recently_is_not_claimed_again(
    local: QueuePlatform, frequency: Frequency, hours_later: int, runs_again: bool
) -> None:
    [monitor_id] = await add_monitors(local, 1, frequency)
    first = await run_monitor(local.env, MonitorDue(monitor_id, "2026-12-07T10:00:00.000Z"))
    assert first.outcome is RunOutcome.STARTED
    later = "2026-12-07T10:30:00.000Z"
    await _set(local.env, monitor_id, next_due_at=later)  # force it due
    local.clock.advance(hours_later * 3600)

    again = await run_monitor(local.env, MonitorDue(monitor_id, later))

    assert (again.outcome is RunOutcome.STARTED) is runs_again


async def test_a_stale_message_changes_nothing(local: QueuePlatform) -> None:
    env = local.env
    [monitor_id] = await add_monitors(local, 1)
    await _set(env, monitor_id, next_due_at="2026-12-08T10:00:00.000Z")  # rescheduled since
    before = await table.get_monitor(env.DB, monitor_id)

    result = await run_monitor(env, MonitorDue(monitor_id, "2026-12-07T10:00:00.000Z"))

    assert result.outcome is RunOutcome.SKIPPED
    assert await table.get_monitor(env.DB, monitor_id) == before  # the claim was given back
    assert (await runs(local), local.workflow.created) == ([], [])


@pytest.mark.slow
async def test_done_when_1000_due_monitors_each_run_once(local: QueuePlatform) -> None:
    ids = await add_monitors(local, 1000)
    local.workflow.kill_after.add(run_audit_id(ids[412], "2026-12-07T10:00:00.000Z"))

    await enqueue_due_monitors(local.env)
    assert len(local.queue.batches) <= 10
    local.broker.faults.duplicate_next(QUEUE, 1000)
    with pytest.raises(Killed):
        await local.drain_queue(QUEUE)
    await local.drain_queue(QUEUE)
    local.clock.advance(3600)
    await local.scheduled("0 * * * *")
    await local.drain_queue(QUEUE)

    assert_each_ran_once(local, ids, await runs(local))
    assert local.broker.pending(DLQ) == 0

    # Each audit ends as the workflow ends one (a page row, the guarded completion, the
    # announcement); every announcement is delivered twice: one finished row and one report each.
    for audit_id in local.workflow.created:
        await end_audit(local.env, audit_id)
    local.broker.faults.duplicate_next(QUEUE, 1000)
    await local.drain_queue(QUEUE)
    finished = await local.env.DB.prepare(
        "SELECT COUNT(*) AS n, COUNT(DISTINCT r2_key) AS reports FROM monitor_runs "
        "WHERE status = 'completed' AND report_bytes > 0"
    ).first()
    assert (finished["n"], finished["reports"]) == (1000, 1000)
    assert await stored_reports(local.env) == 1000
    assert local.broker.pending(QUEUE) == local.broker.pending(DLQ) == 0


async def end_audit(env: Env, audit_id: str) -> None:
    page = PageRecord(f"{audit_id}-p", audit_id, "https://site.example/", "2026-12-07", 200)
    await repository.write_crawled_pages(env.DB, [page], [])
    counts = {"total": 0, "critical": 0, "warning": 0, "info": 0}
    now = "2026-12-07T11:30:00.000Z"
    await repository.complete_audit(
        env.DB, audit_id, finished_at=now, pages_crawled=1, counts=counts, health_score=100.0
    )
    assert await announce_audit_end(env, audit_id)


async def stored_reports(env: LocalEnv) -> int:
    total, cursor = 0, None
    while True:
        listed = await env.REPORTS.list(prefix="reports/", cursor=cursor)
        total += len(listed["objects"])
        if not listed["truncated"]:
            return total
        cursor = listed["cursor"]


def test_wrangler_wires_the_hourly_producer_to_the_consumer() -> None:
    config = tomllib.loads((Path(__file__).resolve().parents[2] / "wrangler.toml").read_text())
    [producer] = config["queues"]["producers"]
    [consumer] = config["queues"]["consumers"]

    assert monitor_producer.MONITOR_CRON in config["triggers"]["crons"]
    assert (producer["binding"], producer["queue"]) == ("MONITOR_QUEUE", QUEUE)
    assert {k: consumer[k] for k in ("queue", "max_batch_size", "max_retries")} == {
        "queue": QUEUE,
        "max_batch_size": 25,
        "max_retries": 2,
    }
    assert consumer["dead_letter_queue"] == DLQ
