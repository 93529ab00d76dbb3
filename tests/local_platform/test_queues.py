"""Queues: producer limits, batching, ack/retry rules, DLQ, persistence, duplicate delivery."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from local_platform.clock import ManualClock
from local_platform.errors import JsException
from local_platform.queues import ConsumerConfig, MessageBatch, QueueBroker
from local_platform.rpc import JsDict

START_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START_MS)


@pytest.fixture
def broker(tmp_path, clock) -> Iterator[QueueBroker]:
    broker = QueueBroker(
        tmp_path / "queues.sqlite",
        clock=clock,
        consumers=[
            {
                "queue": "jobs",
                "max_batch_size": 3,
                "max_batch_timeout": 5,
                "max_retries": 2,
                "dead_letter_queue": "jobs-dlq",
            },
            {"queue": "plain", "max_batch_timeout": 0, "max_retries": 0},
        ],
    )
    yield broker
    broker.close()


class Recorder:
    """A consumer handler that records each batch and applies a per-call policy."""

    def __init__(self, policy=None) -> None:
        self.batches: list[list[tuple[str, Any, int]]] = []  # (id, body as sent, attempts)
        self.policy = policy

    async def __call__(self, batch: MessageBatch) -> None:
        self.batches.append([(m.id, m.body, m.attempts) for m in batch.messages])
        if self.policy is not None:
            await self.policy(batch)

    @property
    def bodies(self) -> list[list[object]]:
        return [[body for _, body, _ in batch] for batch in self.batches]


async def send_all(broker: QueueBroker, queue: str, bodies) -> None:
    producer = broker.producer(queue)
    for body in bodies:
        await producer.send(body)


@pytest.mark.parametrize(
    ("body", "content_type", "received"),
    [
        ({"url": "https://e.com", "n": [1, 2.0]}, None, {"url": "https://e.com", "n": [1, 2]}),
        (None, "json", None),
        (True, "json", True),
        ("plain text", "text", "plain text"),
        (b"\x00\x01", "bytes", memoryview(b"\x00\x01")),
        (
            {"when": dt.datetime(2026, 1, 1), "tags": {"a"}},
            "v8",
            {"when": dt.datetime(2026, 1, 1), "tags": {"a"}},
        ),
    ],
)
async def test_bodies_cross_like_the_platform(broker, body, content_type, received) -> None:
    await broker.producer("plain").send(body, contentType=content_type)
    handler = Recorder()
    assert await broker.deliver_due("plain", handler) == 1
    [[(message_id, delivered, attempts)]] = handler.batches
    assert delivered == received
    assert attempts == 1 and isinstance(message_id, str) and message_id
    if isinstance(received, dict):
        assert isinstance(delivered, JsDict)


async def test_message_fields(broker) -> None:
    await broker.producer("plain").send("x")
    seen: list[tuple[str, dt.datetime]] = []

    async def handler(batch: MessageBatch) -> None:
        seen.extend((batch.queue, m.timestamp) for m in batch.messages)

    await broker.deliver_due("plain", handler)
    assert seen == [("plain", dt.datetime(2026, 1, 1))]


@pytest.mark.parametrize(
    ("body", "content_type", "match"),
    [
        ("x" * 128_001, "text", "message too large"),
        ("x" * 127_999, "json", "message too large"),  # JSON quotes count
        (b"x", "text", "must be a string"),
        ("x", "bytes", "must be bytes"),
        (b"x", "json", "not JSON-serializable"),
        ("x", "xml", "Unknown queue message content type"),
    ],
)
async def test_send_refuses_invalid_messages(broker, body, content_type, match: str) -> None:
    with pytest.raises(JsException, match=match):
        await broker.producer("plain").send(body, contentType=content_type)
    assert broker.pending("plain") == 0


async def test_send_accepts_a_message_at_the_limit(broker) -> None:
    await broker.producer("plain").send("x" * 128_000, contentType="text")
    assert broker.pending("plain") == 1


@pytest.mark.parametrize(
    ("messages", "match"),
    [
        ([{"body": i} for i in range(101)], "101 messages"),
        ([{"body": "x" * 100_000, "contentType": "text"}] * 3, "batch too large"),
        ([{"body": "x" * 128_001, "contentType": "text"}], "a message is too large"),
        ([{"body": 1, "delaySeconds": 86_401}], "delaySeconds"),
    ],
)
async def test_send_batch_limits(broker, messages, match: str) -> None:
    with pytest.raises(JsException, match=match):
        await broker.producer("plain").sendBatch(messages)
    assert broker.pending("plain") == 0


@pytest.mark.parametrize("delay", [-1, 86_401, "5"])
async def test_send_refuses_bad_delays(broker, delay) -> None:
    with pytest.raises(JsException, match="delaySeconds"):
        await broker.producer("plain").send(1, delaySeconds=delay)


async def test_send_batch_of_100_within_256kb(broker) -> None:
    await broker.producer("plain").sendBatch([{"body": i} for i in range(100)])
    assert broker.pending("plain") == 100


async def test_delays_per_message_and_per_batch(broker, clock) -> None:
    producer = broker.producer("plain")
    await producer.sendBatch(
        [{"body": "batch-delay"}, {"body": "own-delay", "delaySeconds": 60}], delaySeconds=30
    )
    await producer.send("immediate")
    handler = Recorder()
    await broker.deliver_due("plain", handler)
    clock.advance(30)
    await broker.deliver_due("plain", handler)
    clock.advance(30)
    await broker.deliver_due("plain", handler)
    assert handler.bodies == [["immediate"], ["batch-delay"], ["own-delay"]]


async def test_batches_wait_for_size_or_timeout(broker, clock) -> None:
    await send_all(broker, "jobs", ["a", "b"])
    handler = Recorder()
    assert await broker.deliver_due("jobs", handler) == 0  # not full, timeout not reached
    assert broker.next_due_ms() == START_MS + 5_000
    await send_all(broker, "jobs", ["c", "d"])
    assert broker.next_due_ms() == START_MS  # a full batch is ready now
    assert await broker.deliver_due("jobs", handler) == 3
    assert handler.bodies == [["a", "b", "c"]]
    clock.advance(5)
    assert await broker.deliver_due("jobs", handler) == 1
    assert handler.bodies[-1] == ["d"]
    assert broker.next_due_ms() is None


async def test_implicit_ack_when_the_handler_returns(broker) -> None:
    await send_all(broker, "plain", [1, 2])
    await broker.deliver_due("plain", Recorder())
    assert broker.pending("plain") == 0


async def test_handler_exception_retries_only_unacked_messages(broker, clock) -> None:
    await send_all(broker, "jobs", ["acked", "retried", "undecided"])

    async def policy(batch: MessageBatch) -> None:
        if len(handler.batches) == 1:
            batch.messages[0].ack()
            batch.messages[1].retry(delaySeconds=10)
            raise RuntimeError("consumer bug")

    handler = Recorder(policy)
    await broker.deliver_due("jobs", handler)
    clock.advance(5)  # `undecided` is visible again at once; the partial batch times out
    await broker.deliver_due("jobs", handler)
    clock.advance(10)
    await broker.deliver_due("jobs", handler)
    assert [[(b, a) for _, b, a in batch] for batch in handler.batches] == [
        [("acked", 1), ("retried", 1), ("undecided", 1)],
        [("undecided", 2)],
        [("retried", 2)],
    ]
    assert broker.pending("jobs") == 0


@pytest.mark.parametrize(
    ("first", "second", "outcome"),
    [("ack", "retry", "acked"), ("retry", "ack", "retried")],
)
async def test_first_decision_wins(broker, caplog, first: str, second: str, outcome: str) -> None:
    await send_all(broker, "plain", ["m"])

    async def policy(batch: MessageBatch) -> None:
        getattr(batch.messages[0], first)()
        getattr(batch.messages[0], second)()

    with caplog.at_level(logging.WARNING, logger="local_platform.queues"):
        await broker.deliver_due("plain", Recorder(policy))
    assert f"{second}() ignored" in caplog.text
    # plain has max_retries=0: a retry exhausts it, so "retried" means dropped with a log line.
    assert broker.pending("plain") == 0
    assert ("dropped" in caplog.text) == (outcome == "retried")


async def test_ack_all_and_retry_all(broker, clock) -> None:
    await send_all(broker, "jobs", ["a", "b", "c"])

    async def policy(batch: MessageBatch) -> None:
        if len(handler.batches) == 1:
            batch.retryAll(delaySeconds=1)
        else:
            batch.ackAll()

    handler = Recorder(policy)
    await broker.deliver_due("jobs", handler)
    clock.advance(1)
    await broker.deliver_due("jobs", handler)
    assert [[a for _, _, a in batch] for batch in handler.batches] == [[1, 1, 1], [2, 2, 2]]
    assert broker.pending("jobs") == 0


async def test_exhausted_retries_go_to_the_dead_letter_queue(broker, clock) -> None:
    await send_all(broker, "jobs", [{"job": 1}])

    async def always_fail(batch: MessageBatch) -> None:
        raise RuntimeError("boom")

    handler = Recorder(always_fail)
    for _ in range(4):
        clock.advance(5)
        await broker.deliver_due("jobs", handler)
    # max_retries=2: attempts 1, 2, 3, then the dead-letter queue.
    assert [attempts for [(_, _, attempts)] in handler.batches] == [1, 2, 3]
    dead = Recorder()
    clock.advance(5)
    await broker.deliver_due("jobs-dlq", dead)
    [[(dead_id, body, attempts)]] = dead.batches
    assert (dead_id, body, attempts) == (handler.batches[0][0][0], {"job": 1}, 1)


async def test_exhausted_without_dead_letter_queue_is_dropped(broker, caplog) -> None:
    await send_all(broker, "plain", ["x"])

    async def fail(batch: MessageBatch) -> None:
        raise RuntimeError("boom")

    with caplog.at_level(logging.WARNING, logger="local_platform.queues"):
        await broker.deliver_due("plain", Recorder(fail))
    assert broker.pending("plain") == 0
    assert "dropped after 1 attempts" in caplog.text


async def test_messages_survive_a_restart(tmp_path, clock) -> None:
    path = tmp_path / "q.sqlite"
    first = QueueBroker(path, clock=clock)
    await first.producer("plain").send({"kept": True})
    first.close()
    second = QueueBroker(path, clock=clock, consumers=[{"queue": "plain", "max_batch_timeout": 0}])
    handler = Recorder()
    await second.deliver_due("plain", handler)
    second.close()
    assert handler.bodies == [[{"kept": True}]]


async def test_a_crash_inside_the_handler_redelivers_with_the_attempt_counted(
    tmp_path, clock
) -> None:
    path = tmp_path / "q.sqlite"
    config = [{"queue": "plain", "max_batch_timeout": 0}]
    first = QueueBroker(path, clock=clock, consumers=config)
    await first.producer("plain").send("work")

    class ProcessDied(BaseException):
        pass

    async def die(batch: MessageBatch) -> None:
        raise ProcessDied

    with pytest.raises(ProcessDied):
        await first.deliver_due("plain", die)
    first.close()
    second = QueueBroker(path, clock=clock, consumers=config)
    handler = Recorder()
    await second.deliver_due("plain", handler)
    second.close()
    assert [(body, attempts) for _, body, attempts in handler.batches[0]] == [("work", 2)]


@pytest.mark.parametrize("count", [1, 2])
async def test_duplicate_next_delivers_messages_twice(broker, clock, count: int) -> None:
    await send_all(broker, "jobs", ["a", "b", "c"])
    broker.faults.duplicate_next("jobs", n=count)
    handler = Recorder()
    await broker.deliver_due("jobs", handler)
    clock.advance(5)
    await broker.deliver_due("jobs", handler)
    delivered = [(message_id, body) for batch in handler.batches for message_id, body, _ in batch]
    assert len(delivered) == 3 + count
    assert sorted(b for _, b in delivered) == sorted(["a", "b", "c", *["a", "b"][:count]])
    ids = {body: message_id for message_id, body in delivered}
    assert all(ids[body] == message_id for message_id, body in delivered)  # same id twice
    assert broker.pending("jobs") == 0


def test_consumer_config_defaults_and_validation() -> None:
    config = ConsumerConfig.from_wrangler({"queue": "q", "max_concurrency": 4})
    assert (config.max_batch_size, config.max_batch_timeout, config.max_retries) == (10, 5.0, 3)
    assert (config.dead_letter_queue, config.retry_delay) == (None, 0.0)
    with pytest.raises(ValueError, match="max_batch_size"):
        ConsumerConfig.from_wrangler({"queue": "q", "max_batch_size": 101})
    with pytest.raises(ValueError, match="unknown queue consumer keys"):
        ConsumerConfig.from_wrangler({"queue": "q", "max_batch": 5})


async def test_retry_delay_from_config(tmp_path, clock) -> None:
    broker = QueueBroker(
        tmp_path / "q.sqlite",
        clock=clock,
        consumers=[{"queue": "q", "max_batch_timeout": 0, "retry_delay": 30}],
    )
    await broker.producer("q").send(1)

    async def fail_first(batch: MessageBatch) -> None:
        if len(handler.batches) == 1:
            raise RuntimeError("once")

    handler = Recorder(fail_first)
    await broker.deliver_due("q", handler)
    assert broker.next_due_ms() == START_MS + 30_000
    clock.advance(29)
    assert await broker.deliver_due("q", handler) == 0
    clock.advance(1)
    assert await broker.deliver_due("q", handler) == 1
    broker.close()
