"""The Lighthouse phase: after the crawl and the security grade, before finalize (docs/lighthouse.md).

    select-lighthouse-sample      DB_STEP: disabled / skipped (no provider) / the sample
    lighthouse-fetch-K            one per sampled page (K 1-based), up to 5 at once, NO retries
    lighthouse-persist-G          one per group of 5: rows, issues, counters (retried)

A fetch step calls the provider for both strategies (lighthouse.runner: per-call timeout, 429s
waited out inside the step), puts each full payload gzip'd in R2 and returns the parsed runs with
their R2 keys: the payloads never travel through the engine (1 MiB step output limit). With zero
retries, a replay hands back the stored result instead of calling the provider again. A step that
fails anyway (its 5-minute timeout) becomes two error runs; nothing here fails the audit.
The persist step writes the group in one batch, so partial results are readable group by group.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from auditdb import lighthouse as store
from auditdb.lighthouse import LighthouseRow, StoredPayload
from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from common.wire import JsonRecord
from lighthouse.providers import configured_provider
from lighthouse.records import LighthouseMode, LighthouseRun, LighthouseStatus, Strategy
from lighthouse.runner import run_page
from lighthouse.sample import SampledPage, select_sample
from lighthouse.vitals import page_issues
from urls.credentials import Recipient
from workflow import step_configs
from workflow.audit_run import AuditRun
from workflow.steps import durable_step

log = logging.getLogger("siteaudit.workflow")

SELECT_STEP = "select-lighthouse-sample"
# URLs in flight at once: at most 10 provider calls (the original's LIGHTHOUSE_URL_CONCURRENCY).
GROUP_SIZE = 5
_GZIP_WBITS = 16 + zlib.MAX_WBITS  # a gzip member with a zeroed mtime: same payload, same bytes


@dataclass(frozen=True, slots=True)
class LighthouseSample(JsonRecord):
    """select-lighthouse-sample: what the phase does, and the pages it runs."""

    status: LighthouseStatus
    pages: list[SampledPage] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class FetchedRun(JsonRecord):
    run: LighthouseRun
    stored: StoredPayload | None = None


@dataclass(frozen=True, slots=True)
class PageFetched(JsonRecord):
    """lighthouse-fetch-K: one page's runs (mobile, desktop) and where their payloads went."""

    page: SampledPage
    runs: list[FetchedRun]


@dataclass(frozen=True, slots=True)
class GroupStored(JsonRecord):
    """lighthouse-persist-G: rows written and how many carry an error."""

    rows: int
    failed: int
    issues: int


async def run_lighthouse(run: AuditRun) -> LighthouseSample:
    sample = await _select(run)
    groups = [sample.pages[i : i + GROUP_SIZE] for i in range(0, len(sample.pages), GROUP_SIZE)]
    for number, group in enumerate(groups, start=1):
        first = (number - 1) * GROUP_SIZE + 1
        fetched = await asyncio.gather(
            *(_fetch(run, first + i, page) for i, page in enumerate(group))
        )
        await _persist(run, number, fetched, last=number == len(groups))
    return sample


async def _select(run: AuditRun) -> LighthouseSample:
    params, env = run.params, run.env

    async def select_lighthouse_sample() -> LighthouseSample:
        if not await run.still_running():
            # Cancelled (or deleted) while the terminate had not reached this instance: spend no
            # provider quota on it. Nothing is written: every audit write is status-guarded.
            return LighthouseSample(LighthouseStatus.DISABLED)
        if params.options.lighthouse is LighthouseMode.NONE:
            return await _decided(env, params.audit_id, LighthouseStatus.DISABLED)
        if configured_provider(DeploymentVars.from_env(env)) is None:
            log.info("audit %s: no PSI_API_KEY, Lighthouse skipped", params.audit_id)
            return await _decided(env, params.audit_id, LighthouseStatus.SKIPPED_NO_KEY)
        scope = await run.credentials()
        if scope is not None and scope.credentials.allows(Recipient.LIGHTHOUSE):
            # The one provider, PageSpeed Insights v5, takes a URL and no request headers or
            # cookies: the user asked for the credentials to go with it, so it does not run
            # against the login wall instead. Without that wish it runs as for any audit.
            log.info("audit %s: PSI cannot send credentials, Lighthouse skipped", params.audit_id)
            return await _decided(env, params.audit_id, LighthouseStatus.SKIPPED_CREDENTIALS)
        config = await run.scratchpad().crawl_config()
        pages = await store.crawled_pages(env.DB, params.audit_id)
        sample = select_sample(
            pages, config.final_url or params.start_url, params.options.lighthouse_pages
        )
        done = await store.finished_page_ids(env.DB, params.audit_id)  # by a failed instance
        todo = [page for page in sample if page.page_id not in done]
        await store.start_phase(env.DB, params.audit_id, 2 * len(sample), done=not todo)
        return LighthouseSample(LighthouseStatus.RUNNING, todo)

    return await durable_step(
        run.step, SELECT_STEP, step_configs.DB_STEP, LighthouseSample, select_lighthouse_sample
    )


async def _decided(env: Env, audit_id: str, status: LighthouseStatus) -> LighthouseSample:
    await store.set_status(env.DB, audit_id, status)
    return LighthouseSample(status)


async def _fetch(run: AuditRun, number: int, page: SampledPage) -> PageFetched:
    async def lighthouse_fetch() -> PageFetched:
        provider = configured_provider(DeploymentVars.from_env(run.env))
        if provider is None:  # the secret went away between the steps
            return _failed(page, "no Lighthouse provider is configured")
        answers = await run_page(provider, ports.http_client(), page.url)
        runs = [
            FetchedRun(a.run, await _store_payload(run.env, run.audit_id, page, a.run, a.payload))
            for a in answers
        ]
        return PageFetched(page, runs)

    try:
        return await durable_step(
            run.step,
            f"lighthouse-fetch-{number}",
            step_configs.LIGHTHOUSE_FETCH_STEP,
            PageFetched,
            lighthouse_fetch,
        )
    except Exception as exc:  # the step's timeout: two error rows, the audit goes on
        log.warning("audit %s: lighthouse-fetch-%d failed: %s", run.audit_id, number, exc)
        return _failed(page, f"lighthouse step failed: {exc}")


def _failed(page: SampledPage, message: str) -> PageFetched:
    return PageFetched(page, [FetchedRun(LighthouseRun.failed(s, message)) for s in Strategy])


async def _store_payload(
    env: Env, audit_id: str, page: SampledPage, run: LighthouseRun, payload: bytes | None
) -> StoredPayload | None:
    """The payload gzip'd in R2; None without one, or when R2 refuses (logged: the row stays)."""
    if payload is None:
        return None
    key = store.payload_key(audit_id, page.page_id, run.strategy)
    compressor = zlib.compressobj(6, zlib.DEFLATED, _GZIP_WBITS)
    body = compressor.compress(payload) + compressor.flush()
    try:
        await env.REPORTS.put(
            key, body, httpMetadata={"contentType": "application/json", "contentEncoding": "gzip"}
        )
    except Exception as exc:  # the binding raises JsException, whose type core code cannot name
        log.warning("lighthouse payload %s not stored (%d bytes): %s", key, len(body), exc)
        return None
    return StoredPayload(key, len(body))


async def _persist(
    run: AuditRun, number: int, fetched: Sequence[PageFetched], *, last: bool
) -> GroupStored:
    async def lighthouse_persist() -> GroupStored:
        audit_id = run.audit_id
        rows = [
            LighthouseRow.of(audit_id, item.page, r.run, r.stored)
            for item in fetched
            for r in item.runs
        ]
        issues = [
            (issue, item.page.page_id)
            for item in fetched
            for issue in page_issues(item.page.url, [r.run for r in item.runs])
        ]
        await store.record_group(run.env.DB, audit_id, rows, issues, last=last)
        failed = sum(not row.run.ok for row in rows)
        return GroupStored(len(rows), failed, len(issues))

    return await durable_step(
        run.step,
        f"lighthouse-persist-{number}",
        step_configs.LIGHTHOUSE_PERSIST_STEP,
        GroupStored,
        lighthouse_persist,
    )
