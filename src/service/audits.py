"""The audit service: the rules behind starting, reading, cancelling, resuming and deleting
audits, over `env`.

The HTTP API parses a request, calls one function here and renders what it returns; anything
refused is raised as a `service.errors.ServiceError`. Nothing here knows about HTTP or pydantic,
so the CLI or a test can call the same rules.

Two writes must never be left half done, because nothing later would repair them:
- create inserts the audit row before creating its Workflow instance (the instance reads the row);
  if the binding refuses, the row is deleted again, so no audit stays "running" with no instance.
- resume reopens the failed or cancelled row first (a guarded UPDATE, so two resumes cannot both
  win); if the binding refuses, the row goes back to what it was (failed with its original error,
  or cancelled).

Cancel writes `cancelled` before it terminates the workflow instance, with the same guard every
terminal write has (`WHERE status = 'running'`): whichever of the cancel and the workflow's own
completion or failure lands first stands, and the other changes nothing. Writing first also means
no status read can see a terminated instance under a `running` row and fail the audit meanwhile.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field

from auditdb import repository
from auditdb.queue_messages import announce_audit_end
from auditdb.records import AuditOptions, AuditPhase, AuditRecord, AuditStatus
from auditdb.scope import ScopeOptions
from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from common.events import TerminalStatus, log_terminal
from common.failures import ErrorCode
from common.sealing import SealingError
from common.settings import CLEANUP_AFTER_MS, CRAWL, EXTERNAL

# Re-exported: callers have imported the owner the CLI acts as from here (it lives in settings so
# the CLI's parser reads it without importing the service).
from common.settings import LOCAL_OWNER as LOCAL_OWNER
from common.wire import JsonObject, to_json
from crawl.credentials import SealedCredentials, seal_credentials
from durable.client import Scratchpad
from lighthouse.records import LighthouseMode
from lighthouse.sample import DEFAULT_SAMPLE_PAGES
from maintenance.reconcile import reconcile_audit
from maintenance.watchdog import audit_age_ms
from render.records import RenderMode
from service import limits, report_keys, scope_checks, verification
from service.errors import (
    AuditNotFound,
    CredentialsUnavailable,
    InvalidOptions,
    InvalidTarget,
    NotCancellable,
    NotResumable,
    StateExpired,
    StillRunning,
    TargetProblem,
    WorkflowUnavailable,
)
from urls.credentials import Credentials, RedactedCredentials
from urls.private_hosts import PrivateHosts
from urls.start_url import (
    StartUrl,
    StartUrlError,
    StartUrlRejection,
    read_start_url,
    userinfo_in,
)
from workflow.params import AuditParams

log = logging.getLogger("siteaudit.service")


@dataclass(frozen=True, slots=True)
class CreateAudit:
    """What a caller asks to audit, already shaped (ranges are checked by `AuditOptions`)."""

    url: str
    max_pages: int
    max_depth: int | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    fetch_timeout_s: float = CRAWL.fetch_timeout_s
    lighthouse: LighthouseMode = LighthouseMode.AUTO
    lighthouse_pages: int = DEFAULT_SAMPLE_PAGES
    check_external: bool = False
    # The URL's scheme was assumed when it was first read (a monitor's URL, stored with https);
    # a URL typed without a scheme here is recognised on its own (urls.start_url).
    scheme_assumed: bool = False
    external_budget_s: float = EXTERNAL.default_budget_s
    render: RenderMode = RenderMode.AUTO  # which pages a browser renders (docs/rendering.md)
    # -- scope and speed, list mode (issue 28; auditdb.scope, service.scope_checks) --
    scope: ScopeOptions = field(default_factory=ScopeOptions)
    # -- robots.txt override (issue 28, item 2): only for a verified host (service.verification)
    ignore_robots: bool = False
    # -- credentials (issue 28): given in clear by the caller (sealed here, never stored so), or
    # already sealed (a monitor's run, a re-run)
    credentials: Credentials | None = None
    sealed_credentials: SealedCredentials | None = None


# -- create ------------------------------------------------------------------------------------


async def create_audit(
    env: Env,
    owner: str,
    request: CreateAudit,
    key_id: str | None = None,
    *,
    audit_id: str | None = None,
    require_verified: bool = True,
) -> AuditRecord:
    """Validate the target and options, admit the audit under the rate limits of `key_id` (when
    the caller came with a key), insert the audit row and start its Workflow instance.

    `audit_id` lets a caller that must not start the same audit twice (a monitor run,
    service.monitor_runs) choose the id; by default it is a new UUID. `require_verified` False
    starts an `ignore_robots` audit without asking for the owner's verification here (a monitor
    run: its monitor was refused without one, and the audit's own re-check fails closed, saying
    why in its report)."""
    deployment = DeploymentVars.from_env(env)
    private_hosts = PrivateHosts(deployment.private_hosts)
    start = checked_start(request.url, private_hosts)
    sealed = await sealed_for(env, request)
    options = checked_options(
        request,
        private_hosts,
        deployment.max_pages_limit,
        start.url,
        shown=None if sealed is None else sealed.shown,
    )
    if options.ignore_robots and require_verified:
        await verification.require_robots_override(env, owner, start.url)
    if key_id is not None:
        # Only valid requests spend the hourly quota. The running count and the insert are two
        # statements, so two simultaneous creates can both pass at the ceiling: it bounds load,
        # it is not an exact quota.
        await limits.admit_audit(env, owner, key_id)
    assumed = start.scheme_assumed or request.scheme_assumed
    audit = _new_audit(audit_id or str(uuid.uuid4()), owner, StartUrl(start.url, assumed), options)
    sealed_text = None if sealed is None else sealed.sealed
    await repository.insert_audit(env.DB, audit, sealed_text)
    try:
        params = AuditParams(
            audit.id,
            audit.start_url,
            audit.options,
            scheme_assumed=audit.scheme_assumed,
            credentials_sealed=sealed_text,
        )
        await env.SITE_AUDIT_WORKFLOW.create(id=audit.id, params=params.to_dict())
    except Exception as exc:  # the binding raises JsException, whose type core code cannot name
        await repository.delete_audit(env.DB, audit.id)
        raise WorkflowUnavailable(f"could not start the audit: {exc}") from exc
    return audit


def checked_start_url(raw: str, private_hosts: PrivateHosts) -> str:
    """The URL normalised as an audit would fetch it; `InvalidTarget` when malformed or when
    the SSRF policy refuses its host."""
    return _read_start(raw, private_hosts).url


# A site's URL with `user:password@` (curl's way to give basic auth) used to lose them silently,
# and the audit met the login wall; the message never repeats the URL, which holds the password.
USERINFO_REFUSED = (
    "url holds a user name or password (user:password@host), which an audit never sends: give "
    "them as credentials.basic_auth (the CLI's --auth USER:PASSWORD), which only the site's "
    "origin gets"
)


def checked_start(raw: str, private_hosts: PrivateHosts) -> StartUrl:
    """A site's start URL (an audit's, a monitor's) as `checked_start_url` reads it, and whether
    its scheme was assumed (none was typed); a user or password in it is refused
    (`USERINFO_REFUSED`)."""
    if userinfo_in(raw):
        raise InvalidTarget(TargetProblem.MALFORMED, USERINFO_REFUSED)
    return _read_start(raw, private_hosts)


def _read_start(raw: str, private_hosts: PrivateHosts) -> StartUrl:
    try:
        return read_start_url(raw, private_hosts=private_hosts)
    except StartUrlError as exc:
        blocked = exc.code is StartUrlRejection.TARGET_BLOCKED
        problem = TargetProblem.BLOCKED if blocked else TargetProblem.MALFORMED
        raise InvalidTarget(problem, str(exc)) from exc


async def sealed_for(env: Env, request: CreateAudit) -> SealedCredentials | None:
    """The request's credentials as they are kept: sealed here when given in clear."""
    if request.credentials is None:
        return request.sealed_credentials
    return await seal(env, request.credentials)


async def seal(env: Env, credentials: Credentials) -> SealedCredentials:
    """`credentials` sealed (crawl.credentials); `CredentialsUnavailable`, naming the secret,
    when the deployment has no key to seal them: never kept in clear instead."""
    try:
        return await seal_credentials(env, credentials)
    except SealingError as exc:
        raise CredentialsUnavailable(str(exc)) from None


def checked_options(
    request: CreateAudit,
    private_hosts: PrivateHosts,
    limit: int,
    start_url: str | None = None,
    *,
    shown: RedactedCredentials | None = None,
) -> AuditOptions:
    """The audit's options; `InvalidOptions` past the deployment's `limit` (its
    `MAX_PAGES_LIMIT`) or the crawl's ranges, or for a listed URL off the site of `start_url`
    (the start URL as checked; `request.url` by default) or refused by the address policy."""
    if request.max_pages > limit:
        raise InvalidOptions(f"max_pages must be at most {limit}")
    scope = scope_checks.checked_list(request.scope, start_url or request.url, private_hosts)
    try:
        return AuditOptions(
            max_pages=scope_checks.list_page_budget(scope, request.max_pages, limit),
            max_depth=request.max_depth,
            include_patterns=list(request.include),
            exclude_patterns=list(request.exclude),
            private_hosts=private_hosts,
            fetch_timeout_s=request.fetch_timeout_s,
            lighthouse=request.lighthouse,
            lighthouse_pages=request.lighthouse_pages,
            check_external=request.check_external,
            external_budget_s=request.external_budget_s,
            render=request.render,
            scope=scope,
            ignore_robots=request.ignore_robots,
            credentials=shown,
        )
    except ValueError as exc:  # AuditOptions checks its own ranges
        raise InvalidOptions(str(exc)) from exc


def _new_audit(audit_id: str, owner: str, start: StartUrl, options: AuditOptions) -> AuditRecord:
    # The first Workflow instance takes the audit's id; resumes take "<id>-r<n>".
    now = ports.iso_now()
    return AuditRecord(
        id=audit_id,
        owner=owner,
        start_url=start.url,
        scheme_assumed=start.scheme_assumed,
        created_at=now,
        started_at=now,
        options=options,
        workflow_instance_id=audit_id,
        pages_total=options.max_pages,
    )


# -- read --------------------------------------------------------------------------------------

# Audits that ended before their crawl did: with pages, their results are partial.
_STOPPED = frozenset({AuditStatus.FAILED, AuditStatus.CANCELLED})


@dataclass(frozen=True, slots=True)
class AuditOutcome:
    """What the API and the MCP tools show beside an audit's record: whether it stopped early
    with partial results, and (`site_failure`) the sentence for the site's owner when the site
    made it fail, beside its `error_code` and `error_detail`. The OpenAPI schema of an audit
    (api.openapi) adds these same fields."""

    stopped_early: bool
    site_failure: str | None

    @classmethod
    def of(cls, audit: AuditRecord) -> AuditOutcome:
        stopped = audit.status in _STOPPED and audit.pages_crawled > 0
        return cls(stopped_early=stopped, site_failure=audit.site_failure)


def audit_view(audit: AuditRecord) -> JsonObject:
    """The audit as the API and the MCP tools show it: its record and its `AuditOutcome`."""
    return {**audit.to_dict(), **to_json(AuditOutcome.of(audit))}


async def read_audit(env: Env, owner: str, audit_id: str) -> AuditRecord:
    """The audit's row, reconciled first if it claims to be running."""
    audit = await owned_audit(env, owner, audit_id)
    if repository.is_running(audit):
        # Lazy reconciliation: a platform-killed audit shows its failure on the next read,
        # without waiting for the */15 watchdog.
        await reconcile_audit(env, audit, "status_read")
        audit = await repository.get_audit(env.DB, audit.id) or audit
    return audit


async def owned_audit(env: Env, owner: str, audit_id: str) -> AuditRecord:
    """The caller's audit; another owner's id is refused exactly as an unknown one."""
    audit = await repository.get_owned_audit(env.DB, owner, audit_id)
    if audit is None:
        raise AuditNotFound(audit_id)
    return audit


# -- cancel ------------------------------------------------------------------------------------


async def cancel_audit(env: Env, owner: str, audit_id: str) -> AuditRecord:
    """Stop a running audit and keep what it found: its pages and issues stay, and so does its
    scratchpad, so a resume can finish it like a failed audit. Only a running audit can be
    cancelled (`NotCancellable`, also when the workflow completed or failed it first)."""
    # Reconciled first: an audit whose instance the platform already killed is failed, with its
    # reason, rather than cancelled over it.
    audit = await read_audit(env, owner, audit_id)
    if not repository.is_running(audit):
        raise NotCancellable(audit.id, audit.status)
    if not await repository.cancel_audit(env.DB, audit.id, finished_at=ports.iso_now()):
        ended = await repository.get_audit(env.DB, audit.id)
        if ended is None:  # deleted meanwhile
            raise AuditNotFound(audit.id)
        raise NotCancellable(audit.id, ended.status)
    log_terminal(
        audit.id,
        TerminalStatus.CANCELLED,
        error_code=None,
        failed_phase=None,
        pages=audit.pages_crawled,
        reconciled_by=None,
    )
    await _terminate(env, audit.workflow_instance_id or audit.id)
    await announce_audit_end(env, audit.id)  # its monitor run, if any, is finished
    return await repository.get_audit(env.DB, audit.id) or audit


# -- delete ------------------------------------------------------------------------------------


async def delete_audit(env: Env, owner: str, audit_id: str) -> None:
    """Wipe the audit's crawl state (the scratchpad), its full report and its Lighthouse
    payloads in R2, then delete its rows (pages, issues and Lighthouse rows cascade) and announce
    its end to a monitor run still waiting on it. A running audit is refused (`StillRunning`):
    cancel it first. The row goes last: if R2 refuses (`StorageUnavailable`), the audit stays
    and a retry finishes the job. A second delete finds nothing: `AuditNotFound`, like any
    unknown id."""
    # Reconciled first: an audit whose instance the platform killed is failed, and deletable.
    audit = await read_audit(env, owner, audit_id)
    if repository.is_running(audit):
        raise StillRunning(audit.id)
    await Scratchpad.for_audit(env, audit.id).destroy()
    await report_keys.delete_report(env, audit.owner, audit.id)
    await report_keys.delete_lighthouse_payloads(env, [audit.id])
    await repository.delete_audit(env.DB, audit.id)
    # A monitor run still waiting on it is finished as failed (service.run_finish): the run's
    # row names the audit without a foreign key, so it outlives the row.
    await announce_audit_end(env, audit.id)


async def _terminate(env: Env, instance_id: str) -> None:
    try:
        instance = await env.SITE_AUDIT_WORKFLOW.get(instance_id)
        await instance.terminate()
    except Exception as exc:  # JsException: a lost or finished instance has nothing to stop
        log.warning("could not terminate workflow instance %s: %s", instance_id, exc)


# -- re-run ------------------------------------------------------------------------------------


async def rerun_audit(env: Env, owner: str, audit_id: str, key_id: str | None) -> AuditRecord:
    """A new audit of the same start URL with the same options and credentials, admitted like
    any new one."""
    audit = await owned_audit(env, owner, audit_id)
    sealed = await repository.sealed_credentials(env.DB, audit.id)
    return await create_audit(env, owner, same_request(audit, sealed), key_id)


def same_request(audit: AuditRecord, sealed: str | None = None) -> CreateAudit:
    """The request that makes a new audit like `audit`: its URL as audited, its options, and
    its credentials still sealed (`sealed`, its row's)."""
    options = audit.options
    kept = None
    if sealed is not None and options.credentials is not None:
        kept = SealedCredentials(sealed, options.credentials)
    return CreateAudit(
        url=audit.start_url,
        max_pages=options.max_pages,
        max_depth=options.max_depth,
        include=tuple(options.include_patterns),
        exclude=tuple(options.exclude_patterns),
        fetch_timeout_s=options.fetch_timeout_s,
        lighthouse=options.lighthouse,
        lighthouse_pages=options.lighthouse_pages,
        check_external=options.check_external,
        scheme_assumed=audit.scheme_assumed,
        external_budget_s=options.external_budget_s,
        render=options.render,
        scope=options.scope,
        sealed_credentials=kept,
    )


# -- resume ------------------------------------------------------------------------------------


async def resume_audit(env: Env, owner: str, audit_id: str) -> AuditRecord:
    """Finish a failed or cancelled audit from its retained scratchpad: only pending and leased
    URLs are crawled, then finalize runs once. Scratchpads live 7 days; after that the audit is
    gone. An audit whose start URL could not be audited crawled nothing and kept nothing: its
    resume starts it over from discovery, so it succeeds once the site is fixed."""
    audit = await owned_audit(env, owner, audit_id)
    restart = starts_over(audit)
    await _check_resumable(env, audit, keeps_state=not restart)
    resume_count = audit.resume_count + 1
    instance_id = f"{audit.id}-r{resume_count}"
    phase = AuditPhase.DISCOVERY if restart else AuditPhase.CRAWLING
    reopened = await repository.reopen_audit(
        env.DB, audit.id, audit.status, instance_id, resume_count, phase
    )
    if not reopened:
        raise NotResumable(audit.id, None)
    try:
        params = AuditParams(
            audit.id,
            audit.start_url,
            audit.options,
            resume=not restart,
            scheme_assumed=audit.scheme_assumed,
            credentials_sealed=await repository.sealed_credentials(env.DB, audit.id),
        )
        await env.SITE_AUDIT_WORKFLOW.create(id=instance_id, params=params.to_dict())
    except Exception as exc:  # the binding raises JsException; the audit must not stay running
        await _end_again(env, audit)
        raise WorkflowUnavailable(f"could not resume the audit: {exc}") from exc
    return await repository.get_audit(env.DB, audit.id) or audit


def starts_over(audit: AuditRecord) -> bool:
    """True for an audit that failed at its start URL (the site's failure or our network's, in
    discovery)."""
    code = audit.error_code or ""
    return (
        audit.status is AuditStatus.FAILED
        and code in ErrorCode
        and ErrorCode(code).at_start
        and audit.failed_phase == AuditPhase.DISCOVERY
    )


async def _check_resumable(env: Env, audit: AuditRecord, *, keeps_state: bool) -> None:
    if audit.status not in repository.RESUMABLE:
        raise NotResumable(audit.id, audit.status)
    if audit_age_ms(audit, ports.now_ms()) > CLEANUP_AFTER_MS:
        raise StateExpired(
            audit.id, "the audit's crawl state expired after 7 days; start a new audit"
        )
    if not keeps_state:
        return
    pad = Scratchpad.for_audit(env, audit.id)
    if not (await pad.crawl_config()).configured:
        await pad.destroy()  # reading it created an empty object; do not leave it behind
        raise StateExpired(audit.id, "the audit's crawl state is gone; start a new audit")


async def _end_again(env: Env, audit: AuditRecord) -> None:
    """Put a reopened audit back the way it ended, when its resume could not start."""
    if audit.status is AuditStatus.CANCELLED:
        await repository.cancel_audit(env.DB, audit.id, finished_at=ports.iso_now())
        return
    await repository.fail_audit(
        env.DB,
        audit.id,
        error_code=audit.error_code or "unknown",
        error_detail=audit.error_detail,
        failed_phase=audit.failed_phase,
        finished_at=ports.iso_now(),
    )
