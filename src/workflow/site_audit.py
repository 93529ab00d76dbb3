"""The site audit workflow: check-robots-override (with the `ignore_robots` option) -> discovery
-> crawl-chunk-N, each followed by render-N-K when it queued pages to render (workflow.render_step)
-> timing-check -> external-links-N (with the `check_external` option) ->
security-grade -> exposure-checks -> Lighthouse -> keep-links-N (the link graph the report keeps,
workflow.links_step) -> finalize, each phase made of durable steps.

`run_site_audit` is what `SiteAuditWorkflow.run` delegates to. It never imports the platform: the
shell passes the SDK's `step`, the Worker's `env` and the NonRetryableError class to raise for
failures a retry cannot fix, which every phase receives together with the parameters as one
`AuditRun`. Step names are durable checkpoint keys and step results carry only counters; all crawl
state lives in the audit's scratchpad Durable Object. Code outside steps runs again on every
replay, so it only reads step results.

A start URL that cannot be audited (no answer, an HTTP error, not HTML: crawl.start_verdict) is
decided once, inside `discover-urls`, and returned in its result rather than raised, so the step is
never retried for it; the run then raises `DecidedFailure`, whose code and sentence `mark-failed`
writes as they are (never through `classify_error`, which reads our platform's error texts).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from auditdb import repository, verifications
from auditdb.queue_messages import announce_audit_end
from auditdb.records import AuditPhase
from auditdb.verifications import RobotsDecision
from common import ports, settings
from common.bindings import Env, WorkflowEvent, WorkflowStep
from common.deployment import DeploymentVars
from common.events import TerminalStatus, log_terminal
from common.failures import ErrorCode, classify_error, error_detail
from common.wire import JsonObject, as_object
from crawl.chunk import ChunkIO, ChunkPlan, ChunkReport, run_chunk
from crawl.credentials import credentialed
from crawl.discovery import DiscoveryReport, discover
from crawl.list_mode import ListSource, discover_list
from crawl.pacing import PacedHttp, effective_rate
from crawl.page_pipeline import CrawlScope
from crawl.robots import RobotsRules
from crawl.site_health import NoAnswers, stopped_responding
from crawl.url_policy import UrlPolicy
from durable.client import Scratchpad
from urls.credentials import CredentialScope
from workflow import step_configs
from workflow.audit_run import AuditRun
from workflow.exposure_step import check_exposure
from workflow.external_step import check_external_links
from workflow.finalize import finalize_audit
from workflow.lighthouse_step import run_lighthouse
from workflow.links_step import keep_links
from workflow.network_step import check_network
from workflow.pace import crawl_rate
from workflow.params import AuditParams
from workflow.render_step import record_summary, render_queued
from workflow.robots_step import check_robots_override, holds_for, redirected_elsewhere
from workflow.security_step import grade_start_url
from workflow.steps import (
    AuditOutcome,
    ContextChecked,
    CrawlStart,
    CrawlSummary,
    DecidedFailure,
    FailureRecorded,
    FinalizeSummary,
    durable_step,
)
from workflow.timing_step import check_timing

# Two chunks in a row that crawl nothing mean the frontier cannot be served (original §4.4).
MAX_IDLE_CHUNKS = 2


async def run_site_audit(
    event: WorkflowEvent, step: WorkflowStep, env: Env, non_retryable: type[Exception]
) -> JsonObject:
    run = AuditRun(AuditParams.from_dict(as_object(event["payload"])), step, env, non_retryable)
    try:
        # The run's start (common.deployment): a bad var fails the audit, naming itself.
        DeploymentVars.from_env(env)
        outcome = await _run_phases(run)
    except Exception as exc:
        await _record_failure(run, exc)
        raise
    return outcome.to_dict()


def url_policy(
    params: AuditParams, final_url: str, robots: RobotsRules, ignore_robots: bool = False
) -> UrlPolicy:
    """The audit's scope; `ignore_robots` (a verified owner's override, workflow.robots_step)
    leaves robots.txt out of it: the file is still read and its facts kept."""
    options = params.options
    return UrlPolicy(
        start_url=final_url,
        include=tuple(options.include_patterns),
        exclude=tuple(options.exclude_patterns),
        max_depth=options.max_depth,
        private_hosts=options.private_hosts,
        robots=None if ignore_robots else robots,
        subdomains=options.scope.subdomains,
        strip_params=tuple(options.scope.strip_params),
    )


async def crawl_scope(
    params: AuditParams, pad: Scratchpad, robots_decision: RobotsDecision | None = None
) -> CrawlScope:
    """Rebuild the audit's scope from what discovery stored, identically on every retry."""
    config = await pad.crawl_config()
    final_url = config.final_url or params.start_url
    robots = RobotsRules.from_text(config.robots_txt)
    ignore = holds_for(robots_decision, final_url)
    return CrawlScope(
        params.audit_id,
        url_policy(params, final_url, robots, ignore),
        site_is_https=final_url.startswith("https:"),
        check_external=params.options.check_external,
        follow_links=not params.options.scope.is_list,
        render=params.options.render,
    )


async def _run_phases(run: AuditRun) -> AuditOutcome:
    await _validate_context(run)
    run = replace(run, robots=await check_robots_override(run))
    if run.params.resume:
        start = await _prepare_resume(run)
    else:
        discovery = await _discover(run)
        if discovery.start_failure is not None:
            raise DecidedFailure(discovery.start_failure)
        start = CrawlStart(
            attempted=0,
            pending=discovery.seeded,
            last_chunk=0,
            next_request_at=discovery.next_request_at,
        )
    crawl = await _crawl(run, start)
    # A crawl stopped by silence: the site's, or our network's (workflow.network_step).
    await check_network(run, crawl)
    # Each step that requests a site starts from the pace the one before it left (workflow.pace).
    run = replace(run, pace=crawl.next_request_at)
    run = replace(run, pace=(await check_timing(run, crawl)).next_request_at)
    run = replace(run, pace=await check_external_links(run))
    run = replace(run, pace=(await grade_start_url(run)).next_request_at)
    await check_exposure(run)
    await run_lighthouse(run)
    await keep_links(run)
    summary = await _finalize(run, crawl)
    return AuditOutcome(
        pages_crawled=summary.pages_crawled,
        cross_page_issues=summary.cross_page_issues,
        health_score=summary.health_score,
        issues=summary.issues,
        chunks=crawl.chunks,
    )


async def _prepare_resume(run: AuditRun) -> CrawlStart:
    async def prepare_resume() -> CrawlStart:
        state = await run.scratchpad().prepare_resume()
        if not state.configured:
            raise run.non_retryable(f"audit {run.audit_id} has no crawl state left to resume")
        await repository.set_phase(run.env.DB, run.audit_id, AuditPhase.CRAWLING)
        return CrawlStart(
            state.stats.crawled, state.stats.pending, state.last_chunk, state.resources_pending
        )

    return await durable_step(
        run.step, "prepare-resume", step_configs.DB_STEP, CrawlStart, prepare_resume
    )


async def _validate_context(run: AuditRun) -> None:
    async def validate_context() -> ContextChecked:
        await run.require_running()
        return ContextChecked()

    await durable_step(
        run.step, "validate-context", step_configs.DB_STEP, ContextChecked, validate_context
    )


async def _discover(run: AuditRun) -> DiscoveryReport:
    params, env = run.params, run.env

    async def discover_urls() -> DiscoveryReport:
        await repository.set_phase(env.DB, params.audit_id, AuditPhase.DISCOVERY)
        credentials = await run.credentials()
        # robots.txt is not read yet: the audit's own rate holds (crawl.pacing), and where the
        # discovery's pace ends the first chunk's begins.
        http = PacedHttp.resumed(
            credentialed(ports.http_client(), credentials),
            effective_rate(params.options.scope.rate_per_s, None),
            {},
        )
        report = await _discovery(params, run.scratchpad(), run.robots, credentials, http)
        report = replace(report, next_request_at=http.carried())
        await repository.set_final_url(
            env.DB, params.audit_id, report.final_url, report.scheme_note
        )
        if (
            run.robots is not None
            and run.robots.ignored
            and not holds_for(run.robots, report.final_url)
        ):
            elsewhere = redirected_elsewhere(run.robots, report.final_url)
            await verifications.set_robots_override(env.DB, params.audit_id, elsewhere)
        if report.start_failure is not None:
            return report  # the run fails the audit (`DecidedFailure`); nothing more to prepare
        await repository.update_progress(
            env.DB, params.audit_id, 0, min(report.seeded, params.options.max_pages)
        )
        await repository.set_phase(env.DB, params.audit_id, AuditPhase.CRAWLING)
        return report

    return await durable_step(
        run.step, "discover-urls", step_configs.DISCOVERY_STEP, DiscoveryReport, discover_urls
    )


async def _discovery(
    params: AuditParams,
    pad: Scratchpad,
    robots_decision: RobotsDecision | None,
    credentials: CredentialScope | None,
    http: ports.HttpClient,
) -> DiscoveryReport:
    """Discovery of a crawl (the start URL, robots.txt, the site's sitemaps) or of a list;
    robots.txt left out of the scope where the verified owner's override holds. Every fetch
    sends the audit's `credentials` to their origins through `http` (crawl.credentials)."""
    options = params.options

    def policy_for(final_url: str, robots: RobotsRules) -> UrlPolicy:
        return url_policy(params, final_url, robots, holds_for(robots_decision, final_url))

    headers = settings.CRAWL.headers_for(options.scope.user_agent)
    if options.scope.is_list:
        return await discover_list(
            http,
            pad,
            start_url=params.start_url,
            source=ListSource(tuple(options.scope.urls), options.scope.sitemap_url),
            policy_for=policy_for,
            max_pages=options.max_pages,
            private_hosts=options.private_hosts,
            headers=headers,
        )
    return await discover(
        http,
        pad,
        start_url=params.start_url,
        policy_for=policy_for,
        max_pages=options.max_pages,
        private_hosts=options.private_hosts,
        scheme_assumed=params.scheme_assumed,
        headers=headers,
        credentials=credentials,
    )


async def _crawl(run: AuditRun, start: CrawlStart) -> CrawlSummary:
    attempted, pending, chunk_no = start.attempted, start.pending, start.last_chunk
    resources = start.resources_pending
    hint: int | None = None
    idle = 0
    links_truncated = rate_limited = False
    no_answers = NoAnswers()
    pace = start.next_request_at
    # Chunks go on while pages may be crawled or resources wait for their check
    # (crawl.references); a resource-only chunk claims no pages.
    while ((pending > 0 and attempted < run.params.options.max_pages) or resources > 0) and (
        idle < MAX_IDLE_CHUNKS
    ):
        chunk_no += 1
        window = ChunkWindow(attempted, hint, no_answers.streak, pace)
        report = await _crawl_chunk(run, chunk_no, window)
        pace = report.next_request_at
        attempted, pending, hint = report.attempted, report.pending, report.window_end
        # A resumed audit renders after its first chunk what the run it resumes left queued.
        resumed_first = run.params.resume and chunk_no == start.last_chunk + 1
        if report.render_queued > 0 or resumed_first:
            # The render steps keep the pace the chunk left, and hand it to the next chunk.
            rendered = await render_queued(replace(run, pace=pace), _scope_reader(run), chunk_no)
            pace = rendered.next_request_at
            # Rendered pages' links (script links) join the frontier after the chunk's count.
            if rendered.frontier_pending is not None:
                pending = rendered.frontier_pending
        resources = report.resources_pending
        links_truncated = links_truncated or report.links_truncated
        no_answers = no_answers.merged(report.no_answers)
        worked = report.attempted_in_chunk + report.resources_checked
        idle = idle + 1 if worked == 0 else 0
        if report.rate_limited:
            rate_limited = True  # the site asked for more patience than an audit can give
        if report.rate_limited or no_answers.stopped:
            break  # ... or stopped answering (crawl.site_health)
    return CrawlSummary(
        attempted=attempted,
        pending=pending,
        chunks=chunk_no,
        completed=pending == 0 and not rate_limited and not no_answers.stopped,
        links_truncated=links_truncated,
        rate_limited=rate_limited,
        no_answers=no_answers,
        next_request_at=pace,
    )


def _scope_reader(run: AuditRun) -> Callable[[], Awaitable[CrawlScope]]:
    """The audit's crawl scope, read inside a step from what discovery stored."""

    async def scope() -> CrawlScope:
        return await crawl_scope(run.params, run.scratchpad(), run.robots)

    return scope


@dataclass(frozen=True, slots=True)
class ChunkWindow:
    """Where the next chunk starts: pages attempted so far, the window size the last chunk
    ended with, the fetches in a row that got no answer, and per host the epoch second its
    next request may start (crawl.pacing)."""

    attempted: int
    hint: int | None
    no_answer_streak: int
    next_request_at: dict[str, float] = field(default_factory=dict)


async def _crawl_chunk(run: AuditRun, chunk_no: int, window: ChunkWindow) -> ChunkReport:
    params = run.params

    async def crawl_chunk() -> ChunkReport:
        # One read per chunk, so a cancelled audit stops within a chunk even when the terminate
        # never reaches its instance.
        await run.require_running()
        pad = run.scratchpad()
        scope = await crawl_scope(params, pad, run.robots)
        plan = ChunkPlan(
            chunk_no=chunk_no,
            limit=min(
                settings.CRAWL.chunk_target_pages, params.options.max_pages - window.attempted
            ),
            window_hint=window.hint,
            max_pages=params.options.max_pages,
            fetch_timeout_s=params.options.fetch_timeout_s,
            no_answer_streak=window.no_answer_streak,
            user_agent=params.options.scope.user_agent,
            rate_per_s=crawl_rate(
                params, scope.policy.robots or RobotsRules(), run.robots, scope.policy.start_url
            ),
            concurrency=params.options.scope.concurrency,
            next_request_at=window.next_request_at,
        )
        io = ChunkIO(pad=pad, db=run.env.DB, http=await run.http())
        return await run_chunk(scope, plan, io)

    name = f"crawl-chunk-{chunk_no}"
    config = step_configs.CRAWL_CHUNK_STEP
    return await durable_step(run.step, name, config, ChunkReport, crawl_chunk)


async def _finalize(run: AuditRun, crawl: CrawlSummary) -> FinalizeSummary:
    params = run.params

    async def finalize() -> FinalizeSummary:
        pad = run.scratchpad()
        # What rendering did, or that it would find more (auditdb.rendering); the finding with
        # the count and the reason is the catalogue's `rendering-not-done` (issue 30 step 5).
        await record_summary(run)
        final_url = (await pad.crawl_config()).final_url or params.start_url
        stopped = stopped_responding(crawl.no_answers, final_url)
        return await finalize_audit(
            run.env,
            pad,
            params.audit_id,
            start_url=final_url,
            crawl_completed=crawl.completed,
            rate_limited=crawl.rate_limited,
            crawl_issues=() if stopped is None else (stopped,),
            external_budget_s=params.options.external_budget_s,
            list_mode=params.options.scope.is_list,
        )

    return await durable_step(
        run.step, "finalize", step_configs.FINALIZE_STEP, FinalizeSummary, finalize
    )


async def _scrubbed(run: AuditRun, detail: str | None) -> str | None:
    """The failure's text without the audit's secrets: the fetches scrub their own errors
    (crawl.credentials), and this stands behind them for any other text."""
    if detail is None or run.params.credentials_sealed is None:
        return detail
    try:
        scope = await run.credentials()
    except Exception:  # a key that cannot open them: they were never opened, so never quoted
        return detail
    return detail if scope is None else scope.credentials.scrub(detail)


def failure_of(exc: Exception) -> tuple[ErrorCode, str | None]:
    """The audit's error code and detail for what ended its run: the site's failure as discovery
    decided it, our network's (discovery, or check-network after the crawl), or our platform's
    error text, classified."""
    if isinstance(exc, DecidedFailure):
        return exc.failure.error_code, exc.failure.detail
    message = str(exc)
    return classify_error(message), error_detail(message)


async def _record_failure(run: AuditRun, exc: Exception) -> None:
    code, detail = failure_of(exc)
    detail = await _scrubbed(run, detail)
    params, env = run.params, run.env

    async def mark_failed() -> FailureRecorded:
        audit = await repository.get_audit(env.DB, params.audit_id)
        phase = None if audit is None or audit.current_phase is None else str(audit.current_phase)
        changed = await repository.fail_audit(
            env.DB,
            params.audit_id,
            error_code=str(code),
            error_detail=detail,
            failed_phase=phase,
            finished_at=ports.iso_now(),
        )
        if changed:
            log_terminal(
                params.audit_id,
                TerminalStatus.FAILED,
                error_code=code,
                failed_phase=phase,
                pages=0 if audit is None else audit.pages_crawled,
                reconciled_by=None,
            )
        await announce_audit_end(env, params.audit_id)  # its monitor run, if any, is finished
        return FailureRecorded(changed)

    await durable_step(run.step, "mark-failed", step_configs.DB_STEP, FailureRecorded, mark_failed)
