"""Specification of `step.do` and friends as Python code sees them.

See docs/platform.md §4.1-4.3 and §4.5.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from local_platform.clock import ManualClock
from local_platform.errors import JsException, NonRetryableError
from local_platform.rpc import JsDict
from local_platform.workflows import WorkflowEngine
from tests.local_platform.workflow_harness import (  # noqa: F401  (fixtures)
    clock,
    db_path,
    engine,
    run_to_end,
)

NO_RETRY = {"retries": {"limit": 0, "delay": 0}}


async def outcome_of(engine: WorkflowEngine, step_fn_body: Any, config: Any = None) -> Any:
    """Run one step `s` and return what its `await` gave or raised."""
    out: list[Any] = []

    async def body(event: Any, step: Any) -> None:
        decorated = step.do("s", config=config)(step_fn_body)
        try:
            out.append(await decorated())
        except BaseException as exc:
            out.append(exc)

    await run_to_end(engine, body)
    return out[0]


# -- caching by name and occurrence, dependencies, ctx ---------------------------------------


async def test_each_await_is_a_new_occurrence(engine: WorkflowEngine) -> None:
    counts: list[int] = []

    async def body(event: Any, step: Any) -> list[Any]:
        @step.do("page")
        async def page(ctx):
            counts.append(ctx["step"]["count"])
            return ctx["step"]["count"]

        return [await page(), await page(), await page()]

    status = await run_to_end(engine, body)
    assert status["output"] == [1, 2, 3]
    assert counts == [1, 2, 3]


async def test_name_defaults_to_function_name(engine: WorkflowEngine) -> None:
    names: list[str] = []

    async def body(event: Any, step: Any) -> None:
        @step.do()
        async def discover_urls(ctx):
            names.append(ctx["step"]["name"])

        await discover_urls()

    await run_to_end(engine, body)
    assert names == ["discover_urls"]


async def test_dependencies_are_injected_and_memoized(engine: WorkflowEngine) -> None:
    calls: Counter[str] = Counter()

    async def body(event: Any, step: Any) -> Any:
        @step.do("seed")
        async def seed():
            calls["seed"] += 1
            return {"n": 2}

        @step.do("double")
        async def double(seed, ctx):
            calls["double"] += 1
            assert type(seed) is JsDict and ctx["step"]["name"] == "double"
            return seed["n"] * 2

        @step.do("triple")
        async def triple(seed):
            return seed["n"] * 3

        return [await double(), await triple()]

    status = await run_to_end(engine, body)
    assert status["output"] == [4, 6]
    assert calls == {"seed": 1, "double": 1}


async def test_unknown_parameter_is_a_type_error(engine: WorkflowEngine) -> None:
    async def needs_url(url):
        return url

    raised = await outcome_of(engine, needs_url)
    assert type(raised) is TypeError
    assert str(raised) == "Received unexpected parameter url"


async def test_ctx_holds_step_attempt_and_resolved_config(engine: WorkflowEngine) -> None:
    async def show(ctx):
        return ctx

    ctx = await outcome_of(engine, show, {"retries": {"limit": 2, "delay": "5 seconds"}})
    assert type(ctx) is JsDict
    assert ctx == {
        "step": {"name": "s", "count": 1},
        "attempt": 1,
        "config": {
            "retries": {"limit": 2, "delay": "5 seconds", "backoff": "exponential"},
            "timeout": "10 minutes",
        },
    }


async def test_default_config_is_production_docs(engine: WorkflowEngine) -> None:
    async def show(ctx):
        return ctx["config"]

    assert await outcome_of(engine, show) == {
        "retries": {"limit": 5, "delay": 10000, "backoff": "exponential"},
        "timeout": "10 minutes",
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"a": [1, {"b": None}]}, JsDict({"a": [1, JsDict({"b": None})]})),
        (b"bytes", memoryview(b"bytes")),
        (3.0, 3),
        (None, None),
    ],
)
async def test_result_is_what_crosses_the_boundary_even_first_time(
    engine: WorkflowEngine, value: Any, expected: Any
) -> None:
    async def give():
        return value

    got = await outcome_of(engine, give)
    assert got == expected
    assert type(got) is type(expected)
    if isinstance(value, dict):
        assert type(got) is JsDict and type(got["a"][1]) is JsDict


# -- retries -----------------------------------------------------------------------------------


def failing(times: int, attempts: list[int]) -> Any:
    async def fn(ctx):
        attempts.append(ctx["attempt"])
        if len(attempts) <= times:
            raise RuntimeError(f"flaky {len(attempts)}")
        return "ok"

    return fn


@pytest.mark.parametrize(
    ("backoff", "delay", "expected_waits_s"),
    [
        ("constant", 1000, [1, 1, 1]),
        ("linear", 1000, [1, 2, 3]),
        ("exponential", 1000, [1, 2, 4]),
        ("exponential", "2 seconds", [2, 4, 8]),
        ("constant", "1 minute", [60, 60, 60]),
    ],
)
async def test_backoff_waits_on_the_clock(
    engine: WorkflowEngine,
    clock: ManualClock,
    backoff: str,
    delay: Any,
    expected_waits_s: list[int],
) -> None:
    attempts: list[int] = []
    start = clock.now_ms()
    config = {"retries": {"limit": 3, "delay": delay, "backoff": backoff}}
    assert await outcome_of(engine, failing(3, attempts), config) == "ok"
    assert attempts == [1, 2, 3, 4]
    assert clock.now_ms() - start == sum(expected_waits_s) * 1000


async def test_default_retries_are_five_with_exponential_ten_seconds(
    engine: WorkflowEngine, clock: ManualClock
) -> None:
    attempts: list[int] = []
    start = clock.now_ms()
    raised = await outcome_of(engine, failing(99, attempts))
    assert attempts == [1, 2, 3, 4, 5, 6]
    assert clock.now_ms() - start == (10 + 20 + 40 + 80 + 160) * 1000
    assert isinstance(raised, JsException) and raised.message.rstrip().endswith(
        "RuntimeError: flaky 6"
    )


@pytest.mark.parametrize(
    ("limit", "failures", "succeeds"), [(1, 1, True), (1, 2, False), (0, 1, False), (0, 0, True)]
)
async def test_limit_counts_retries_after_the_first_attempt(
    engine: WorkflowEngine, limit: int, failures: int, succeeds: bool
) -> None:
    attempts: list[int] = []
    got = await outcome_of(
        engine, failing(failures, attempts), {"retries": {"limit": limit, "delay": 10}}
    )
    assert (got == "ok") is succeeds
    assert len(attempts) == min(failures, limit) + 1


async def test_non_retryable_error_is_not_retried(engine: WorkflowEngine) -> None:
    attempts: list[int] = []

    async def fn(ctx):
        attempts.append(ctx["attempt"])
        raise NonRetryableError("robots.txt forbids the start url")

    raised = await outcome_of(engine, fn)
    assert type(raised) is NonRetryableError
    assert str(raised) == "robots.txt forbids the start url"
    assert attempts == [1]


async def test_uncaught_non_retryable_error_errors_the_instance(engine: WorkflowEngine) -> None:
    async def body(event: Any, step: Any) -> None:
        @step.do("s")
        async def s():
            raise NonRetryableError("stop")

        await s()

    status = await run_to_end(engine, body)
    assert status["status"] == "errored"
    assert status["error"] == {"name": "NonRetryableError", "message": "stop"}


@pytest.mark.parametrize(
    ("exc", "expected_type", "expected_text"),
    [
        (ValueError("bad"), ValueError, "ValueError: bad"),
        (TypeError("worse"), TypeError, "TypeError: worse"),
        (RuntimeError("boom"), JsException, "RuntimeError: boom"),
        (KeyError("k"), JsException, "KeyError: 'k'"),
        (
            JsException("Error", "D1_ERROR: no such table"),
            JsException,
            "Error: D1_ERROR: no such table",
        ),
        (JsException("RangeError", "too big"), ValueError, "too big"),
    ],
)
async def test_exhausted_step_raises_what_the_sdk_maps(
    engine: WorkflowEngine, exc: Exception, expected_type: type, expected_text: str
) -> None:
    async def fn():
        raise exc

    raised = await outcome_of(engine, fn, NO_RETRY)
    assert type(raised) is expected_type
    assert str(raised).rstrip().endswith(expected_text)


async def test_python_errors_reach_js_as_python_error_tracebacks(engine: WorkflowEngine) -> None:
    async def fn():
        raise RuntimeError("boom")

    raised = await outcome_of(engine, fn, NO_RETRY)
    assert raised.name == "PythonError"
    assert raised.message.startswith("Traceback (most recent call last):")


async def test_timeout_fails_the_attempt_with_classifiable_text(engine: WorkflowEngine) -> None:
    attempts: list[int] = []

    async def hangs(ctx):
        attempts.append(ctx["attempt"])
        await asyncio.Event().wait()

    raised = await outcome_of(engine, hangs, {"retries": {"limit": 1, "delay": 0}, "timeout": 1})
    assert isinstance(raised, JsException)
    assert "WorkflowTimeoutError" in str(raised) and "Execution timed out" in str(raised)
    assert attempts == [1, 2]


async def test_output_over_one_mib_fails_without_retry(engine: WorkflowEngine) -> None:
    attempts: list[int] = []

    async def big(ctx):
        attempts.append(ctx["attempt"])
        return "x" * (1 << 20)

    raised = await outcome_of(engine, big)
    assert isinstance(raised, JsException)
    assert raised.message == "Step s-1 output is too large. Maximum allowed size is 1MiB."
    assert attempts == [1]


async def test_output_just_under_the_cap_is_stored(engine: WorkflowEngine) -> None:
    async def big():
        return "x" * ((1 << 20) - 5)  # a string costs 5 bytes of header plus its UTF-8

    assert len(await outcome_of(engine, big)) == (1 << 20) - 5


async def test_tuple_result_is_a_failed_attempt(engine: WorkflowEngine) -> None:
    attempts: list[int] = []

    async def pair(ctx):
        attempts.append(ctx["attempt"])
        return (1, 2)

    raised = await outcome_of(engine, pair, {"retries": {"limit": 2, "delay": 0}})
    assert type(raised) is TypeError
    assert str(raised) == "TypeError: <class 'tuple'> cannot be sent over RPC."
    assert attempts == [1, 2, 3]


@pytest.mark.parametrize(("length", "ok"), [(256, True), (257, False)])
async def test_step_name_length_limit(engine: WorkflowEngine, length: int, ok: bool) -> None:
    out: list[Any] = []

    async def body(event: Any, step: Any) -> None:
        @step.do("n" * length)
        async def s():
            return 1

        try:
            out.append(await s())
        except JsException as exc:
            out.append(exc.message)

    await run_to_end(engine, body)
    expected = (
        1
        if ok
        else (
            f'Step name "{"n" * length}" exceeds max length (256 chars) or invalid characters found'
        )
    )
    assert out == [expected]


# -- sleep, sleep_until, wait_for_event ----------------------------------------------------------


@pytest.mark.parametrize(
    ("duration", "seconds"),
    [(1500, 1.5), ("2 hours", 7200), ("1 day", 86400), ("3 weeks", 3 * 604800)],
)
async def test_sleep_advances_the_clock(
    engine: WorkflowEngine, clock: ManualClock, duration: Any, seconds: float
) -> None:
    async def body(event: Any, step: Any) -> None:
        await step.sleep("cooldown", duration)

    start = clock.now_ms()
    assert (await run_to_end(engine, body))["status"] == "complete"
    assert clock.now_ms() - start == seconds * 1000


async def test_sleep_until_a_datetime(engine: WorkflowEngine, clock: ManualClock) -> None:
    import datetime as dt

    target = dt.datetime.fromtimestamp(clock.now_ms() / 1000 + 3600, dt.UTC)

    async def body(event: Any, step: Any) -> None:
        await step.sleep_until("resume-at", target)

    assert (await run_to_end(engine, body))["status"] == "complete"
    assert clock.now_ms() == target.timestamp() * 1000


async def test_sleep_until_the_past_is_an_error(engine: WorkflowEngine, clock: ManualClock) -> None:
    async def body(event: Any, step: Any) -> None:
        await step.sleep_until("resume-at", clock.now_ms() - 1)

    status = await run_to_end(engine, body)
    assert status["error"] == {
        "name": "Error",
        "message": "You can't sleep until a time in the past, time-traveler",
    }


async def test_event_sent_before_the_wait_is_delivered(
    engine: WorkflowEngine, clock: ManualClock
) -> None:
    from tests.local_platform.workflow_harness import flow

    async def body(event: Any, step: Any) -> Any:
        await step.sleep("give the sender time", 1000)
        return await step.wait_for_event("approval", "approve", timeout="1 hour")

    instance = await flow(engine, body).create(id="ev")
    await instance.send_event({"type": "approve", "payload": {"by": "ops"}})
    await instance.send_event(type="other", payload=1)
    output = (await engine.wait("ev"))["output"]
    assert type(output) is JsDict
    assert output["payload"] == {"by": "ops"} and output["type"] == "approve"
    assert output["timestamp"].timestamp() * 1000 == clock.now_ms() - 1000


async def test_wait_for_event_times_out_on_the_clock(
    engine: WorkflowEngine, clock: ManualClock
) -> None:
    async def body(event: Any, step: Any) -> None:
        await step.wait_for_event("approval", "approve")

    start = clock.now_ms()
    status = await run_to_end(engine, body)
    assert clock.now_ms() - start == 24 * 3600 * 1000
    assert status["status"] == "errored"
    assert "Execution timed out" in status["error"]["message"]


async def test_event_sent_while_waiting_wakes_the_instance(db_path: Any) -> None:
    from local_platform.clock import SystemClock
    from tests.local_platform.workflow_harness import flow

    engine = WorkflowEngine(db_path, clock=SystemClock())
    try:

        async def body(event: Any, step: Any) -> Any:
            got = await step.wait_for_event("approval", "approve")
            return got["payload"]

        instance = await flow(engine, body).create(id="w")
        await engine.run_until_idle()
        assert (await instance.status())["status"] == "waiting"
        await instance.send_event({"type": "approve", "payload": 7})
        assert (await engine.wait("w"))["output"] == 7
    finally:
        await engine.aclose()
