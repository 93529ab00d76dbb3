"""Monitors: an owner's scheduled re-audits of one site, created, listed, changed and deleted.

The site URL and the webhook URL pass the audit's own checks (`service.audits.checked_start_url`:
the URL Standard parse and the SSRF policy of `ALLOW_PRIVATE_HOSTS`), so a monitor can never make
the service fetch or post to a host an audit could not reach. The audit options are checked as an
audit's are, against the deployment's `MAX_PAGES_LIMIT`.

A new monitor is due at once: the next hourly cron runs its first audit (the baseline later runs
compare against), and from then on it runs at its slots (`maintenance.monitor_schedule`).

The webhook signing secret follows Standard Webhooks (standardwebhooks.com): `whsec_` and the
base64 of 24 to 64 random bytes. One is generated when the caller gives none; it is returned by
`create_monitor` only, and never read back by the API.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import secrets
import time
import uuid
from dataclasses import dataclass, field
from enum import Enum

from auditdb import monitors
from auditdb.frequency import Frequency
from auditdb.monitors import MonitorRecord, MonitorRunRecord, NewCredentials
from auditdb.scope import ScopeOptions
from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from common.settings import CRAWL, EXTERNAL
from crawl.credentials import SealedCredentials
from lighthouse.records import LighthouseMode
from maintenance.monitor_schedule import next_due_at
from render.records import RenderMode
from service import audits, verification
from service.audits import CreateAudit
from service.errors import (
    InvalidOptions,
    InvalidTarget,
    MonitorLimitReached,
    MonitorNotFound,
)
from service.lists import ListPage, Paging, page_of
from urls.credentials import Credentials
from urls.private_hosts import PrivateHosts

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 24  # 192 bits, as the Standard Webhooks reference libraries generate
MIN_SECRET_BYTES, MAX_SECRET_BYTES = 24, 64
DEFAULT_SCORE_DROP = 5.0


class Keep(Enum):
    """An update field left out: the monitor keeps its value (None is a value: no webhook)."""

    KEEP = "keep"


KEEP = Keep.KEEP


@dataclass(frozen=True, slots=True)
class CreateMonitor:
    """What a caller asks to monitor; `hour` None is the current UTC hour."""

    url: str
    frequency: Frequency = Frequency.DAILY
    hour: int | None = None
    max_pages: int = CRAWL.default_max_pages
    max_depth: int | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    webhook_url: str | None = None
    webhook_secret: str | None = None
    alert_score_drop: float = DEFAULT_SCORE_DROP
    alert_on_grade_drop: bool = True
    alert_on_new_critical: bool = True
    is_active: bool = True
    lighthouse: LighthouseMode = LighthouseMode.AUTO
    check_external: bool = False
    external_budget_s: float = EXTERNAL.default_budget_s
    render: RenderMode = RenderMode.AUTO  # each run's audit option (issue 30)
    # -- scope and speed, list mode (issue 28; auditdb.scope) --
    scope: ScopeOptions = field(default_factory=ScopeOptions)
    # -- robots.txt override (issue 28, item 2): only for a verified host (service.verification)
    ignore_robots: bool = False
    credentials: Credentials | None = None  # sealed here (issue 28)


@dataclass(frozen=True, slots=True)
class UpdateMonitor:
    """The fields a caller changes; every other one is `KEEP`. The names are MonitorRecord's."""

    url: str | Keep = KEEP
    frequency: Frequency | Keep = KEEP
    hour: int | Keep = KEEP
    max_pages: int | Keep = KEEP
    max_depth: int | Keep | None = KEEP
    include: tuple[str, ...] | Keep = KEEP
    exclude: tuple[str, ...] | Keep = KEEP
    webhook_url: str | Keep | None = KEEP
    webhook_secret: str | Keep = KEEP  # replaces the secret; never read back
    alert_score_drop: float | Keep = KEEP
    alert_on_grade_drop: bool | Keep = KEEP
    alert_on_new_critical: bool | Keep = KEEP
    is_active: bool | Keep = KEEP
    lighthouse: LighthouseMode | Keep = KEEP
    check_external: bool | Keep = KEEP
    external_budget_s: float | Keep = KEEP
    render: RenderMode | Keep = KEEP
    # -- scope and speed, list mode (issue 28): the ScopeOptions fields given change --
    scope: dict[str, object] | Keep = KEEP
    ignore_robots: bool | Keep = KEEP
    # New credentials (sealed here), None to remove them; left out, the stored ones stay.
    credentials: Credentials | Keep | None = KEEP


@dataclass(frozen=True, slots=True)
class CreatedMonitor:
    monitor: MonitorRecord
    webhook_secret: str  # shown once


# -- create --------------------------------------------------------------------------------------


async def create_monitor(env: Env, owner: str, request: CreateMonitor) -> CreatedMonitor:
    now_ms = ports.now_ms()
    now = ports.iso_from_ms(now_ms)
    hour = time.gmtime(now_ms / 1000).tm_hour if request.hour is None else request.hour
    draft = MonitorRecord(
        id=str(uuid.uuid4()),
        owner=owner,
        url=request.url,
        frequency=request.frequency,
        hour=hour,
        max_pages=request.max_pages,
        max_depth=request.max_depth,
        include=list(request.include),
        exclude=list(request.exclude),
        webhook_url=request.webhook_url,
        alert_score_drop=request.alert_score_drop,
        alert_on_grade_drop=request.alert_on_grade_drop,
        alert_on_new_critical=request.alert_on_new_critical,
        is_active=request.is_active,
        lighthouse=request.lighthouse,
        check_external=request.check_external,
        external_budget_s=request.external_budget_s,
        render=request.render,
        scope=request.scope,
        ignore_robots=request.ignore_robots,
        next_due_at=now,
        created_at=now,
    )
    monitor = _checked(env, draft)
    secret = (
        new_secret() if request.webhook_secret is None else _checked_secret(request.webhook_secret)
    )
    if monitor.ignore_robots:
        await verification.require_robots_override(env, owner, monitor.url)
    kept = None if request.credentials is None else await audits.seal(env, request.credentials)
    if kept is not None:
        monitor = dataclasses.replace(monitor, credentials=kept.shown)
    await _admit(env, owner)
    await monitors.insert_monitor(env.DB, monitor, secret, None if kept is None else kept.sealed)
    if monitor.ignore_robots:
        await monitors.set_ignore_robots(env.DB, monitor)
    return CreatedMonitor(monitor, secret)


async def _admit(env: Env, owner: str) -> None:
    # A count and an insert: two simultaneous creates at the ceiling can both pass; it bounds
    # the scheduled load, it is not an exact quota.
    ceiling = DeploymentVars.from_env(env).monitors_per_owner
    if ceiling and await monitors.count_owned(env.DB, owner) >= ceiling:
        raise MonitorLimitReached(
            f"an owner may keep at most {ceiling} monitors; delete one to add another"
        )


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def _checked_secret(secret: str) -> str:
    body = secret.removeprefix(SECRET_PREFIX)
    try:
        size = len(base64.b64decode(body, validate=True)) if body != secret else 0
    except (binascii.Error, ValueError):
        size = 0
    if not MIN_SECRET_BYTES <= size <= MAX_SECRET_BYTES:
        raise InvalidOptions(
            f"webhook_secret must be {SECRET_PREFIX!r} followed by the base64 of "
            f"{MIN_SECRET_BYTES} to {MAX_SECRET_BYTES} bytes; leave it out to get one"
        )
    return secret


def _checked(env: Env, monitor: MonitorRecord) -> MonitorRecord:
    """The monitor with its URLs normalised; raises InvalidTarget or InvalidOptions."""
    deployment = DeploymentVars.from_env(env)
    policy = PrivateHosts(deployment.private_hosts)
    start = audits.checked_start(monitor.url, policy)
    webhook = None if monitor.webhook_url is None else _webhook_url(monitor.webhook_url, policy)
    audits.checked_options(audit_request(monitor), policy, deployment.max_pages_limit, start.url)
    if not 0 <= monitor.hour <= 23:
        raise InvalidOptions("hour must be between 0 and 23 (UTC)")
    if not 0 <= monitor.alert_score_drop <= 100:
        raise InvalidOptions("alert_score_drop must be between 0 and 100")
    assumed = start.scheme_assumed or monitor.scheme_assumed
    return dataclasses.replace(monitor, url=start.url, webhook_url=webhook, scheme_assumed=assumed)


def _webhook_url(raw: str, policy: PrivateHosts) -> str:
    try:
        return audits.checked_start_url(raw, policy)
    except InvalidTarget as exc:
        raise InvalidTarget(exc.problem, f"webhook_url: {exc}") from exc


def audit_request(monitor: MonitorRecord, sealed: str | None = None) -> CreateAudit:
    """The audit each run of the monitor starts, with its credentials still sealed (`sealed`,
    its row's: auditdb.monitors.credentials_sealed)."""
    kept = None
    if sealed is not None and monitor.credentials is not None:
        kept = SealedCredentials(sealed, monitor.credentials)
    return CreateAudit(
        url=monitor.url,
        max_pages=monitor.max_pages,
        max_depth=monitor.max_depth,
        include=tuple(monitor.include),
        exclude=tuple(monitor.exclude),
        lighthouse=monitor.lighthouse,
        check_external=monitor.check_external,
        scheme_assumed=monitor.scheme_assumed,
        external_budget_s=monitor.external_budget_s,
        render=monitor.render,
        scope=monitor.scope,
        ignore_robots=monitor.ignore_robots,
        sealed_credentials=kept,
    )


# -- read ----------------------------------------------------------------------------------------


async def get_monitor(env: Env, owner: str, monitor_id: str) -> MonitorRecord:
    """The caller's monitor; another owner's id is refused exactly as an unknown one."""
    monitor = await monitors.get_owned_monitor(env.DB, owner, monitor_id)
    if monitor is None:
        raise MonitorNotFound(monitor_id)
    return monitor


async def list_monitors(env: Env, owner: str, paging: Paging) -> ListPage[MonitorRecord]:
    """The owner's monitors, newest first, one keyset page."""
    keyed = await monitors.read_owned_page(env.DB, owner, paging.after, paging.limit + 1)
    return page_of(keyed, paging.limit)


async def list_runs(
    env: Env, owner: str, monitor_id: str, paging: Paging
) -> ListPage[MonitorRunRecord]:
    """The caller's monitor's runs, newest first, one keyset page; another owner's monitor is
    refused exactly as an unknown one."""
    await get_monitor(env, owner, monitor_id)
    keyed = await monitors.read_runs_page(env.DB, monitor_id, paging.after, paging.limit + 1)
    return page_of(keyed, paging.limit)


# -- update and delete ---------------------------------------------------------------------------


async def update_monitor(
    env: Env, owner: str, monitor_id: str, changes: UpdateMonitor
) -> MonitorRecord:
    """Apply the changes, checked like a new monitor's. A monitor that has run and gets a new
    frequency or hour moves to its next slot under the new schedule."""
    current = await get_monitor(env, owner, monitor_id)
    updated = _checked(env, _applied(current, changes))
    rescheduled = (updated.frequency, updated.hour) != (current.frequency, current.hour)
    if rescheduled and current.last_run_at is not None:
        due = next_due_at(updated.frequency, updated.hour, ports.now_ms())
        updated = dataclasses.replace(updated, next_due_at=due)
    secret = None
    if not isinstance(changes.webhook_secret, Keep):
        secret = _checked_secret(changes.webhook_secret)
    robots_asked = not isinstance(changes.ignore_robots, Keep) or not isinstance(changes.url, Keep)
    if updated.ignore_robots and robots_asked:
        await verification.require_robots_override(env, owner, updated.url)
    updated, new_credentials = await _credentials_change(env, updated, changes.credentials)
    if not await monitors.update_monitor(env.DB, updated, secret, new_credentials):
        raise MonitorNotFound(monitor_id)  # deleted since it was read
    if updated.ignore_robots != current.ignore_robots:
        await monitors.set_ignore_robots(env.DB, updated)
    return updated


async def _credentials_change(
    env: Env, monitor: MonitorRecord, given: Credentials | Keep | None
) -> tuple[MonitorRecord, NewCredentials | None]:
    """The monitor with the credentials an update sends (sealed) or removes (None); left out,
    the stored ones stay and nothing is written for them."""
    if isinstance(given, Keep):
        return monitor, None
    if given is None:
        return dataclasses.replace(monitor, credentials=None), NewCredentials(None)
    kept = await audits.seal(env, given)
    return dataclasses.replace(monitor, credentials=kept.shown), NewCredentials(kept.sealed)


def _applied(current: MonitorRecord, changes: UpdateMonitor) -> MonitorRecord:
    given: dict[str, object] = {}
    for change in dataclasses.fields(changes):
        value = getattr(changes, change.name)
        if change.name not in _APPLIED_APART and not isinstance(value, Keep):
            given[change.name] = list(value) if isinstance(value, tuple) else value
    if "url" in given:
        given["scheme_assumed"] = False  # the new text says whether it names a scheme
    if "scope" in given:
        given["scope"] = _scope_applied(current.scope, changes.scope)
    return dataclasses.replace(current, **given)  # type: ignore[arg-type]  # MonitorRecord's names


def _scope_applied(current: ScopeOptions, changes: dict[str, object] | Keep) -> ScopeOptions:
    """The monitor's scope with the given fields changed, checked as a whole."""
    if isinstance(changes, Keep):
        return current
    merged = {**current.to_dict(), **changes}
    try:
        return ScopeOptions.from_dict(merged)
    except ValueError as exc:  # ScopeOptions checks its own fields (WireError is a ValueError)
        raise InvalidOptions(str(exc)) from exc


# Changed by their own writes: the secret replaced, the credentials sealed (`update_monitor`).
_APPLIED_APART = frozenset({"webhook_secret", "credentials"})


async def delete_monitor(env: Env, owner: str, monitor_id: str) -> None:
    """Delete the monitor and its run history; the audits its runs started stay."""
    if not await monitors.delete_monitor(env.DB, owner, monitor_id):
        raise MonitorNotFound(monitor_id)
