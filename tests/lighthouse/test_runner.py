"""One page's two calls against the local PSI double: 429s retried after Retry-After, timeouts,
provider errors as error runs."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from common import ports
from lighthouse.psi import PageSpeedInsights
from lighthouse.records import Strategy
from lighthouse.runner import CallPolicy, run_page
from local_platform.fetch import restrict_addresses
from tests.support.loop_clock import loop_clock
from tests.support.psi_double import UNREACHABLE, Behaviour, PsiDouble, serve_psi
from urls.private_hosts import PrivateHosts

# Fetches go through the shared pool of the test loop, with no LocalPlatform to close it.
pytestmark = pytest.mark.usefixtures("fetch_pool_closed")

PAGE = "https://site.test/page"
DEFAULT = CallPolicy()


@pytest.fixture(autouse=True)
def loopback_allowed() -> Any:
    previous = restrict_addresses(PrivateHosts.LOOPBACK)
    yield
    restrict_addresses(previous)


async def run(
    double: PsiDouble, policy: CallPolicy = DEFAULT, sleeps: list[float] | None = None
) -> Any:
    async def sleep(seconds: float) -> None:
        (sleeps if sleeps is not None else []).append(seconds)

    provider = PageSpeedInsights(endpoint=double.endpoint, api_key="secret")
    return await run_page(provider, ports.http_client(), PAGE, policy, sleep)


async def test_both_strategies_are_called_once_each() -> None:
    with serve_psi() as psi:
        answers = await run(psi)
    assert [a.run.strategy for a in answers] == [Strategy.MOBILE, Strategy.DESKTOP]
    assert all(a.run.ok and a.payload for a in answers)
    assert sorted(c.strategy for c in psi.calls) == ["desktop", "mobile"]
    assert {c.key for c in psi.calls} == {"secret"}


async def test_a_429_is_retried_after_its_retry_after() -> None:
    sleeps: list[float] = []
    with serve_psi(PsiDouble(Behaviour(kind="rate_limited", times=2, retry_after="3"))) as psi:
        answers = await run(psi, sleeps=sleeps)
    assert all(a.run.ok for a in answers)
    assert sleeps == [3.0] * 4 and len(psi.calls) == 6


@pytest.mark.parametrize(
    ("retry_after", "times", "calls_per_strategy"),
    [("120", 1, 1), ("1", 5, 3)],  # a wait beyond max_wait_s; more 429s than retries
)
async def test_a_429_that_cannot_be_waited_out_is_an_error_run(
    retry_after: str, times: int, calls_per_strategy: int
) -> None:
    behaviour = Behaviour(kind="rate_limited", times=times, retry_after=retry_after)
    with serve_psi(PsiDouble(behaviour)) as psi:
        answers = await run(psi)
    assert all(a.run.error_message and a.run.error_message.startswith("HTTP 429") for a in answers)
    assert len(psi.calls) == 2 * calls_per_strategy


@pytest.mark.parametrize(
    ("kind", "message"),
    [("unreachable", f"HTTP 400: {UNREACHABLE}"), ("server_error", "HTTP 500: Lighthouse")],
)
async def test_provider_errors_are_error_runs_called_once(kind: str, message: str) -> None:
    with serve_psi(PsiDouble(Behaviour(kind=kind))) as psi:
        answers = await run(psi)
    assert all((a.run.error_message or "").startswith(message) for a in answers)
    assert all(a.run.performance_score is None and a.payload is None for a in answers)
    assert len(psi.calls) == 2


async def test_a_slow_answer_past_the_timeout_is_an_error_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock, policy = loop_clock(monkeypatch), CallPolicy(timeout_s=42.0)
    with serve_psi(PsiDouble(Behaviour(kind="slow"))) as psi:
        running = asyncio.ensure_future(run(psi, policy))
        # Both calls are in flight at once and neither is answered until the double is released
        # (after the run): only their timeout can end them.
        assert await asyncio.to_thread(psi.wait_for_calls, 2)
        clock.advance(policy.timeout_s)
        answers = await running
    assert all(a.run.error_message and not a.run.ok for a in answers)
    assert {a.run.error_message for a in answers} == {"timed out after 42 s"}
    assert len(psi.calls) == 2
