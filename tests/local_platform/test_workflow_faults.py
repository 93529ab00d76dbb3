"""Replay after a process kill, fault injection, pause/resume/restart.

Specification: docs/platform.md §4.3-4.4.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from local_platform import workflow_codec
from local_platform.clock import ManualClock, SystemClock
from local_platform.errors import JsException
from local_platform.rpc import JsDict
from local_platform.workflow_config import duration_ms
from local_platform.workflows import NOT_FOUND, WorkflowEngine
from tests.local_platform.workflow_harness import (  # noqa: F401  (fixtures)
    Flow,
    clock,
    db_path,
    engine,
    flow,
)


def audit_body(calls: Counter[str]) -> Any:
    """Three steps and a sleep, counting how often each step's code really runs."""

    async def body(event: Any, step: Any) -> Any:
        @step.do("discover")
        async def discover():
            calls["discover"] += 1
            return {"seeded": 2, "at": dt.datetime(2026, 1, 1), "blob": b"\x00\x01"}

        @step.do("crawl")
        async def crawl(discover):
            calls["crawl"] += 1
            return discover["seeded"] * 10

        @step.do("finalize")
        async def finalize(crawl):
            calls["finalize"] += 1
            return crawl + 1

        seeded = await discover()
        await step.sleep("cooldown", "1 hour")
        return {"done": await finalize(), "discovered": seeded}

    return body


@pytest.mark.parametrize("at_step", ["crawl", "finalize", "cooldown"])
async def test_interrupted_instance_resumes_on_a_fresh_engine_without_rerunning_steps(
    db_path: Path, clock: ManualClock, at_step: str
) -> None:
    calls: Counter[str] = Counter()
    first = WorkflowEngine(db_path, clock=clock)
    instance = await flow(first, audit_body(calls)).create(id="audit")
    first.faults.interrupt("audit", at_step=at_step)
    await first.wait("audit")
    assert (await instance.status())["status"] == "running"
    first.close()
    ran_before = dict(calls)

    second = WorkflowEngine(db_path, clock=clock)
    flow(second, audit_body(calls))
    assert await second.resume_incomplete() == ["audit"]
    status = await second.wait("audit")
    await second.aclose()

    assert status["status"] == "complete"
    assert status["output"]["done"] == 21
    assert status["output"]["discovered"] == {
        "seeded": 2,
        "at": dt.datetime(2026, 1, 1),
        "blob": memoryview(b"\x00\x01"),
    }
    assert calls == {"discover": 1, "crawl": 1, "finalize": 1}
    assert ran_before["discover"] == 1


async def test_close_leaves_running_instances_for_the_next_engine(
    db_path: Path, clock: ManualClock
) -> None:
    calls: Counter[str] = Counter()

    async def body(event: Any, step: Any) -> str:
        @step.do("first")
        async def first_step():
            calls["first"] += 1

        await first_step()
        await step.wait_for_event("go", "go")
        return "resumed"

    first = WorkflowEngine(db_path, clock=clock)
    binding = flow(first, body)
    await binding.create(id="a")
    await first.run_until_idle()
    first.close()

    second = WorkflowEngine(db_path, clock=clock)
    flow(second, body)
    await (await second.binding("flow").get("a")).send_event({"type": "go"})
    await second.resume_incomplete()
    assert (await second.wait("a"))["output"] == "resumed"
    await second.aclose()
    assert calls == {"first": 1}


async def test_failed_step_replays_its_error_without_running(
    db_path: Path, clock: ManualClock
) -> None:
    calls: Counter[str] = Counter()

    async def body(event: Any, step: Any) -> str:
        @step.do("doomed", config={"retries": {"limit": 0, "delay": 0}})
        async def doomed():
            calls["doomed"] += 1
            raise ValueError("nope")

        try:
            await doomed()
        except ValueError as exc:
            await step.wait_for_event("marker", "never", timeout=1000000)
            return str(exc)
        return "unreachable"

    first = WorkflowEngine(db_path, clock=clock)
    await flow(first, body).create(id="f")
    first.faults.interrupt("f", at_step="marker")
    await first.wait("f")
    first.close()
    second = WorkflowEngine(db_path, clock=clock)
    flow(second, body)
    await second.resume_incomplete()
    status = await second.wait("f")
    await second.aclose()
    assert status["error"]["message"].endswith("Execution timed out after 1000000")
    assert calls == {"doomed": 1}


async def test_fail_step_fails_the_next_attempts_before_the_callback(
    engine: WorkflowEngine, clock: ManualClock
) -> None:
    calls: Counter[str] = Counter()
    binding = flow(engine, audit_body(calls))
    engine.faults.fail_step("hit", "crawl", times=2, message="D1_ERROR: injected")
    hit = await binding.create(id="hit")
    missed = await binding.create(id="missed")
    assert (await engine.wait(hit.id))["status"] == "complete"
    assert (await engine.wait(missed.id))["status"] == "complete"
    assert calls["crawl"] == 2  # one real attempt per instance


async def test_fail_step_beyond_the_retry_limit_surfaces_the_message(
    engine: WorkflowEngine,
) -> None:
    engine.faults.fail_step(None, "discover", times=6, message="D1_ERROR: injected")
    instance = await flow(engine, audit_body(Counter())).create()
    status = await engine.wait(instance.id)
    assert status["error"] == {"name": "Error", "message": "D1_ERROR: injected"}


@pytest.mark.parametrize(
    ("kind", "text", "classifier_substring"),
    [
        ("oom", "Worker exceeded memory limit.", "exceeded memory limit"),
        ("cpu", "Python Worker exceeded CPU time limit", "exceeded CPU time limit"),
    ],
)
@pytest.mark.parametrize("at_step", [None, "crawl"])
async def test_kill_errors_the_instance_past_any_except(
    engine: WorkflowEngine,
    kind: str,
    text: str,
    classifier_substring: str,
    at_step: str | None,
) -> None:
    calls: Counter[str] = Counter()
    inner = audit_body(calls)

    async def body(event: Any, step: Any) -> Any:
        try:
            return await inner(event, step)
        except Exception:  # the workflow's own mark-failed path must not see a platform kill
            calls["caught"] += 1
            raise

    binding = flow(engine, body)
    instance = await binding.create(id="k")
    engine.faults.kill("k", kind, at_step=at_step)  # type: ignore[arg-type]
    status = await engine.wait("k")
    assert status == {
        "status": "errored",
        "output": None,
        "error": {"name": "Error", "message": text},
    }
    assert classifier_substring in status["error"]["message"]
    assert calls["caught"] == 0 and calls["crawl"] == 0
    assert (await instance.status())["status"] == "errored"


async def test_lost_instance_is_not_found(engine: WorkflowEngine) -> None:
    async def body(event: Any, step: Any) -> None:
        await step.wait_for_event("e", "e")

    binding = flow(engine, body)
    instance = await binding.create(id="gone")
    engine.faults.lose("gone")
    for call in (lambda: binding.get("gone"), instance.status):
        with pytest.raises(JsException) as caught:
            await call()
        assert caught.value.message == NOT_FOUND


async def test_pause_takes_effect_between_steps_and_resume_continues(
    engine: WorkflowEngine,
) -> None:
    calls: Counter[str] = Counter()
    instance = await flow(engine, audit_body(calls)).create(id="p")
    await instance.pause()
    await engine.run_until_idle()
    assert (await instance.status())["status"] == "paused"
    assert calls == {}
    await instance.resume()
    assert (await engine.wait("p"))["status"] == "complete"


async def test_pause_while_waiting_becomes_paused_at_the_next_step(db_path: Path) -> None:
    async def body(event: Any, step: Any) -> str:
        await step.wait_for_event("go", "go", timeout="1 hour")
        await step.sleep("then", 1)
        return "done"

    # A real clock: under ManualClock a wait's timeout elapses at once (see workflow_runtime).
    engine = WorkflowEngine(db_path, clock=SystemClock())
    instance = await flow(engine, body).create(id="wp")
    await engine.run_until_idle()
    await instance.pause()
    assert (await instance.status())["status"] == "waitingForPause"
    await instance.send_event({"type": "go", "payload": None})
    await engine.run_until_idle()
    assert (await instance.status())["status"] == "paused"
    await instance.resume()
    assert (await engine.wait("wp"))["output"] == "done"
    await engine.aclose()


async def test_restart_forgets_steps_and_runs_again(engine: WorkflowEngine) -> None:
    calls: Counter[str] = Counter()
    instance = await flow(engine, audit_body(calls)).create(id="r")
    await engine.wait("r")
    await instance.restart()
    assert (await engine.wait("r"))["status"] == "complete"
    assert calls == {"discover": 2, "crawl": 2, "finalize": 2}


async def test_sleep_is_not_repeated_on_replay(db_path: Path, clock: ManualClock) -> None:
    async def body(event: Any, step: Any) -> None:
        await step.sleep("long", "1 day")
        await step.wait_for_event("stop", "stop", timeout=1)

    first = WorkflowEngine(db_path, clock=clock)
    await flow(first, body).create(id="s")
    first.faults.interrupt("s", at_step="stop")
    await first.wait("s")
    first.close()
    slept_until = clock.now_ms()
    second = WorkflowEngine(db_path, clock=clock)
    flow(second, body)
    await second.resume_incomplete()
    await second.wait("s")
    await second.aclose()
    assert clock.now_ms() == slept_until + 1  # only the 1 ms event timeout


# -- value storage and durations ------------------------------------------------------------------

_crossed: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text()
    | st.binary().map(lambda b: memoryview(b))
    | st.datetimes(min_value=dt.datetime(1971, 1, 1)),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4).map(JsDict)
    ),
    max_leaves=12,
)


@given(_crossed)
def test_codec_is_lossless(value: Any) -> None:
    decoded = workflow_codec.decode(workflow_codec.encode(value))
    assert workflow_codec.encode(decoded) == workflow_codec.encode(value)
    assert type(decoded) is type(value)


def test_codec_keeps_tag_like_keys() -> None:
    value = JsDict({"$bytes": "not bytes", "n": float("inf")})
    assert workflow_codec.decode(workflow_codec.encode(value)) == value


@pytest.mark.parametrize(
    ("value", "ms"),
    [
        (0, 0),
        (250, 250),
        ("1 second", 1000),
        ("5 seconds", 5000),
        ("2 minutes", 120000),
        ("1 hour", 3600000),
        ("1 day", 86400000),
        ("1 week", 604800000),
        ("1 month", 30 * 86400000),
        ("1 year", 365 * 86400000),
    ],
)
def test_durations(value: Any, ms: float) -> None:
    assert duration_ms(value) == ms


@pytest.mark.parametrize("value", ["soon", "5 fortnights", -1, True, None])
def test_bad_durations(value: Any) -> None:
    with pytest.raises(JsException):
        duration_ms(value)
