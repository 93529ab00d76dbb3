"""crawl.in_flight: tasks started under a window, taken back one at a time as they settle."""

import asyncio

import pytest

from crawl.in_flight import InFlight


async def answer(gate: asyncio.Event, value: str) -> str:
    await gate.wait()
    return value


async def fail(message: str) -> str:
    raise RuntimeError(message)


async def test_settle_hands_back_what_finished_and_keeps_the_rest() -> None:
    gates = [asyncio.Event() for _ in range(3)]
    in_flight: InFlight[str] = InFlight()
    for number, gate in enumerate(gates):
        in_flight.start(answer(gate, f"page {number}"))
    gates[1].set()
    assert list(await in_flight.settle()) == ["page 1"]
    assert len(in_flight) == 2
    gates[0].set()
    gates[2].set()
    await asyncio.sleep(0)
    assert sorted(await in_flight.settle()) == ["page 0", "page 2"]
    assert not in_flight


async def test_a_result_that_raises_leaves_the_untaken_ones_for_cancel_all() -> None:
    in_flight: InFlight[str] = InFlight()
    in_flight.start(fail("one"))
    in_flight.start(fail("two"))
    await asyncio.sleep(0)  # both have failed before anyone looks
    results = await in_flight.settle()
    with pytest.raises(RuntimeError):
        next(results)
    assert len(in_flight) == 1
    await in_flight.cancel_all()  # collects the other failure without raising it
    assert not in_flight


async def test_cancel_all_cancels_what_is_still_running() -> None:
    gate = asyncio.Event()
    in_flight: InFlight[str] = InFlight()
    in_flight.start(answer(gate, "never"))
    await asyncio.sleep(0)
    await in_flight.cancel_all()
    assert not in_flight
