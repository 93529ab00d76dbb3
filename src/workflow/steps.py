"""What each workflow step returns, as records, and the one way a step is run.

A step's result is stored by the Workflows engine and handed back, unchanged, on every replay; it
crosses a JS boundary (no tuples, at most 1 MiB: docs/platform.md §4.1), so it is a small frozen
record with `to_dict`/`from_dict` carrying counters only. `durable_step` runs a body as a named
step and rebuilds its record from whatever the engine returns, so the same code reads a fresh
result and a replayed one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, Self

from common.bindings import WorkflowStep
from common.wire import JsonObject, JsonRecord, as_object
from crawl.site_health import NoAnswers
from crawl.start_verdict import StartFailure


class StepRecord(Protocol):
    def to_dict(self) -> JsonObject: ...

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self: ...


async def durable_step[R: StepRecord](
    step: WorkflowStep,
    name: str,
    config: JsonObject,
    record: type[R],
    body: Callable[[], Awaitable[R]],
) -> R:
    """Run `body` as the step `name` (or replay its stored result) and return its record."""

    # The implicit-dependency signature injects earlier results by parameter name; the body
    # takes none, so nothing is injected.
    @step.do(name, config=config)
    async def run() -> JsonObject:
        return (await body()).to_dict()

    return record.from_dict(as_object(await run()))


async def optional_step[R: StepRecord](
    step: WorkflowStep,
    name: str,
    config: JsonObject,
    record: type[R],
    body: Callable[[], Awaitable[R]],
    *,
    failed: Callable[[Exception], R],
    keep: Callable[[R], Awaitable[None]],
) -> R:
    """`durable_step` for a step whose failure never fails the audit (the exposure checks, the
    timing check): an exception in `body` becomes the result `failed(exc)`, stored by `keep`
    as the step's outcome; the step's own failure (its timeout, its retries spent) returns
    `failed(exc)` without storing it."""

    async def tolerant() -> R:
        try:
            return await body()
        except Exception as exc:
            result = failed(exc)
            await keep(result)
            return result

    try:
        return await durable_step(step, name, config, record, tolerant)
    except Exception as exc:
        return failed(exc)


@dataclass(frozen=True, slots=True)
class ContextChecked(JsonRecord):
    """validate-context: the audit exists and is running (otherwise the step does not return)."""

    ok: bool = True


@dataclass(frozen=True, slots=True)
class CrawlStart(JsonRecord):
    """Where crawling starts: after discovery, or after prepare-resume reopened a failed audit."""

    attempted: int
    pending: int
    last_chunk: int
    resources_pending: int = 0
    # Per host, the epoch second its next request may start (crawl.pacing): discovery's pace.
    next_request_at: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CrawlSummary(JsonRecord):
    """What the chunk loop saw (computed from chunk reports on every replay, never stored)."""

    attempted: int
    pending: int
    chunks: int
    completed: bool
    links_truncated: bool
    rate_limited: bool
    no_answers: NoAnswers = field(default_factory=NoAnswers)  # crawl.site_health, summed
    next_request_at: dict[str, float] = field(default_factory=dict)  # the last chunk's pace


@dataclass(frozen=True, slots=True)
class FinalizeSummary(JsonRecord):
    pages_crawled: int
    cross_page_issues: int
    health_score: float | None
    issues: int


@dataclass(frozen=True, slots=True)
class AuditOutcome(JsonRecord):
    """The workflow instance's output: finalize's summary and how many chunks the crawl took."""

    pages_crawled: int
    cross_page_issues: int
    health_score: float | None
    issues: int
    chunks: int


@dataclass(frozen=True, slots=True)
class FailureRecorded(JsonRecord):
    """mark-failed: whether this run moved the audit to failed (a replay finds it done)."""

    changed: bool


class DecidedFailure(Exception):
    """The audit fails with a code and a sentence decided from what was fetched (the start URL
    that cannot be audited, `discover-urls`; our network down, `check-network`), which
    `mark-failed` writes as they are, never through `classify_error`."""

    def __init__(self, failure: StartFailure) -> None:
        super().__init__(f"{failure.error_code}: {failure.detail}")
        self.failure = failure
