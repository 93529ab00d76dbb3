"""crawl.persister: sub-batches of 5 then 25, written one after another while fetching goes on."""

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

import pytest

from crawl.persister import (
    FIRST_PERSIST_BATCH_SIZE,
    MAX_QUEUED_PERSIST_BATCHES,
    PERSIST_BATCH_SIZE,
    Persister,
    SubBatches,
)


def test_sub_batch_sizes_are_the_documented_ones() -> None:
    assert (FIRST_PERSIST_BATCH_SIZE, PERSIST_BATCH_SIZE, MAX_QUEUED_PERSIST_BATCHES) == (5, 25, 2)


# Steps: "a" adds a page, "t" takes what is gathered; then the sizes of the sub-batches handed out.
@pytest.mark.parametrize(
    ("steps", "sizes"),
    [
        ("aaaa", []),
        ("aaaat", [4]),
        ("a" * 5, [5]),
        ("a" * 29, [5]),
        ("a" * 30, [5, 25]),
        ("a" * 31 + "t", [5, 25, 1]),
        ("t", []),
        ("aaaatt", [4]),
        ("aat" + "a" * 5, [2]),  # after any sub-batch, the next one is a full one
        ("aat" + "a" * 25, [2, 25]),
    ],
)
def test_sub_batches_fill_to_five_then_twenty_five(steps: str, sizes: list[int]) -> None:
    batches: SubBatches[int] = SubBatches()
    handed: list[list[int]] = []
    for number, step in enumerate(steps):
        batch = batches.add(number) if step == "a" else batches.take()
        if batch is not None:
            handed.append(batch)
    assert [len(batch) for batch in handed] == sizes
    assert [page for batch in handed for page in batch] == sorted(
        page for batch in handed for page in batch
    )  # in the order the pages finished


class Writer:
    """Records the start and end of each write; a write waits for its gate when one is set."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.gates: dict[int, asyncio.Event] = {}
        self.fail: set[int] = set()
        self.started = asyncio.Event()

    async def __call__(self, batch: list[int]) -> None:
        first = batch[0]
        self.log.append(f"start {first}")
        self.started.set()
        if first in self.gates:
            await self.gates[first].wait()
        if first in self.fail:
            raise RuntimeError(f"write {first} failed")
        self.log.append(f"end {first}")


async def test_writes_run_one_after_another_in_the_order_handed_over() -> None:
    writer = Writer()
    writer.gates[1] = asyncio.Event()
    persister = Persister(writer)
    persister.submit([1, 2])
    persister.submit([3])
    await writer.started.wait()
    assert writer.log == ["start 1"]  # the second waits for the first, however long it takes
    assert (persister.queued, persister.persisted) == (2, 0)
    writer.gates[1].set()
    await persister.drain()
    assert writer.log == ["start 1", "end 1", "start 3", "end 3"]
    assert (persister.queued, persister.persisted) == (0, 3)


@pytest.mark.parametrize(("queued", "keeps_up"), [(0, True), (2, True), (3, False)])
async def test_fetching_goes_on_while_the_writer_is_at_most_two_behind(
    queued: int, keeps_up: bool
) -> None:
    writer = Writer()
    writer.gates[0] = asyncio.Event()
    persister = Persister(writer)
    for number in range(queued):
        persister.submit([0 if number == 0 else number])
    assert persister.keeps_up is keeps_up
    writer.gates[0].set()
    await persister.drain()


async def test_a_failed_write_fails_the_ones_after_it_and_is_not_counted() -> None:
    writer = Writer()
    writer.fail.add(1)
    persister = Persister(writer)
    persister.submit([1])
    persister.submit([2])
    with pytest.raises(RuntimeError, match="write 1 failed"):
        await persister.drain()
    assert (writer.log, persister.persisted) == (["start 1"], 0)  # the chunk's retry writes both


@pytest.mark.parametrize(
    ("wait", "log"),
    [
        (Persister.caught_up, ["start 1", "end 1"]),  # the write goes on
        (Persister.drain, ["start 1"]),  # the write is cancelled with its waiter
    ],
)
async def test_cancelling_a_wait_for_the_writer(
    wait: Callable[[Persister[int]], Awaitable[None]], log: list[str]
) -> None:
    writer = Writer()
    writer.gates[1] = asyncio.Event()
    persister = Persister(writer)
    persister.submit([1])
    waiter = asyncio.ensure_future(wait(persister))
    await writer.started.wait()
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    writer.gates[1].set()
    with contextlib.suppress(asyncio.CancelledError):
        await persister.caught_up()  # until the write has ended, either way
    assert writer.log == log
    assert persister.persisted == len(log) - 1
