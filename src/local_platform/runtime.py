"""The local platform assembled: the Worker of wrangler.toml running on CPython.

`LocalPlatform` reads the same wrangler.toml that deploys the Worker, builds every binding it
declares over files in one state directory (D1 and Durable Object SQLite files, the workflow
engine's state, queue messages, R2 objects), imports src/entry.py behind the local `workers` SDK
surface and dispatches fetch, scheduled, queue and alarm events to it. State survives the process,
so a killed CLI run can be resumed by a later one.
"""

from __future__ import annotations

import importlib
import logging
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from auditdb import repository
from common import ports
from common.bindings import Env
from common.deployment import DeploymentVars
from local_platform import cipher, cli_key, workers_sdk
from local_platform.clock import Clock, SystemClock
from local_platform.cron import CronScheduler, ScheduledController
from local_platform.d1 import LocalD1Database
from local_platform.durable_objects import DurableObjectNamespace
from local_platform.execution_context import ExecutionContext
from local_platform.fetch import aclose_shared_client, restrict_addresses
from local_platform.http import Request, Response
from local_platform.migrations import apply_migrations
from local_platform.queues import Handler, LocalQueue, QueueBroker
from local_platform.r2 import LocalR2Bucket
from local_platform.workflows import WorkflowEngine
from render.renderer import Renderer
from render.renderers import use_local_renderer
from render.request_policy import RobotsGate
from urls.private_hosts import PrivateHosts

log = logging.getLogger("siteaudit.local")
PROJECT_ROOT = Path(__file__).resolve().parents[2]


class LocalEnv:
    """The Worker's `env`: bindings and vars as attributes, like the SDK's env wrapper."""

    if TYPE_CHECKING:
        # The attributes are set from wrangler.toml at run time (and by tests), so mypy cannot
        # see them: it takes each as `Any`, which also lets the platform's `env` stand for the
        # core's `Env`.
        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...

    def __repr__(self) -> str:
        return f"LocalEnv({', '.join(sorted(vars(self)))})"


LOCAL_RENDERER_VAR = "SITEAUDIT_LOCAL_RENDERER"


def _chromium(
    http: ports.HttpClient, private_hosts: PrivateHosts, robots: RobotsGate | None
) -> Renderer:
    """The local renderer, imported on first use: Playwright loads only for an audit that
    renders."""
    from local_platform.chromium_renderer import ChromiumRenderer

    return ChromiumRenderer(http, private_hosts, robots=robots)


def migrated_d1_file(state_dir: Path, project_root: Path, database: dict[str, Any]) -> Path:
    """The file in `state_dir` of one of wrangler.toml's `d1_databases`, with the migrations it
    lacks applied; a file copied from a migrated one lacks none (the test suite's platforms start
    from one such copy)."""
    path = state_dir / "d1" / f"{database['database_name']}.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    apply_migrations(path, project_root / database.get("migrations_dir", "migrations"))
    return path


@dataclass
class LocalPlatform:
    state_dir: Path
    clock: Clock = field(default_factory=SystemClock)
    var_overrides: dict[str, str] = field(default_factory=dict)
    project_root: Path = PROJECT_ROOT
    # Render pages with Debian's Chromium where the Browser Rendering settings are absent
    # (docs/rendering.md); SITEAUDIT_LOCAL_RENDERER=none turns it off (the test suite does, and
    # its rendering tests turn it on for themselves).
    local_renderer: bool = field(
        default_factory=lambda: os.environ.get(LOCAL_RENDERER_VAR, "chromium") != "none"
    )
    env: LocalEnv = field(init=False, default_factory=LocalEnv)
    config: dict[str, Any] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.state_dir = Path(self.state_dir)
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.config = tomllib.loads((self.project_root / "wrangler.toml").read_text())
        self._bind_vars()  # first: a bad var is refused before any file is opened
        workers_sdk.install()
        ports.configure(now_ms=self.clock.now_ms)
        use_local_renderer(_chromium if self.local_renderer else None)
        self.entry = importlib.import_module("entry")
        # After the shell's import, which configures WebCrypto's: CPython has `cryptography`.
        ports.configure(cipher=cipher.LocalCipher())
        self.databases: dict[str, LocalD1Database] = {}
        self.namespaces: dict[str, DurableObjectNamespace] = {}
        self.queue_consumers: dict[str, dict[str, Any]] = {}
        self.engine = WorkflowEngine(self.state_dir / "workflows.sqlite", clock=self.clock)
        self.broker = QueueBroker(self.state_dir / "queues.sqlite", clock=self.clock)
        self.crons = CronScheduler(
            list(self.config.get("triggers", {}).get("crons", [])), self.clock
        )
        self._bind_all(self.entry)
        self._local_key: str | None = None

    # -- construction -------------------------------------------------------------------------

    def _bind_vars(self) -> None:
        """wrangler.toml's vars, then the overrides (the CLI's `--var`), parsed as the Worker
        parses them at its start: a bad one is `DeploymentVarError` here, naming itself."""
        for name, value in self.config.get("vars", {}).items():
            setattr(self.env, name, str(value))
        for name, value in self.var_overrides.items():
            setattr(self.env, name, value)
        self._bind_credentials_keys()
        DeploymentVars.from_env(self.core_env)

    def _bind_credentials_keys(self) -> None:
        """The secrets that seal credentials: given ones win, else the state directory's key
        (made on first use) and the previous one a local rotation left (local_platform.cipher)."""
        if not getattr(self.env, "CREDENTIALS_KEY", None):
            self.env.CREDENTIALS_KEY = cipher.load_or_create_key(self.state_dir)
            previous = cipher.previous_key(self.state_dir)
            if previous is not None and not getattr(self.env, "CREDENTIALS_KEY_PREVIOUS", None):
                self.env.CREDENTIALS_KEY_PREVIOUS = previous

    def _bind_all(self, entry: ModuleType) -> None:
        self._restrict_fetch()
        self._bind_d1()
        self._bind_durable_objects(entry)
        self._bind_workflows(entry)
        self._bind_queues()
        self._bind_r2()

    def allow_private_hosts(self, policy: PrivateHosts) -> None:
        """Reach what an audit may reach: the CLI resumes an audit with the private-host setting
        it was created with (ALLOW_PRIVATE_HOSTS and the fetch address check follow it)."""
        setattr(self.env, "ALLOW_PRIVATE_HOSTS", str(policy))  # noqa: B010 - vars are set by name
        restrict_addresses(policy)

    def _restrict_fetch(self) -> None:
        """With `global_fetch_strictly_public`, production fetch never connects to private
        addresses, whatever a host name resolves to; locally ALLOW_PRIVATE_HOSTS decides."""
        flags = self.config.get("compatibility_flags", [])
        policy = PrivateHosts.ALLOW
        if "global_fetch_strictly_public" in flags:
            policy = PrivateHosts(DeploymentVars.from_env(self.core_env).private_hosts)
        self._previous_fetch_policy = restrict_addresses(policy)

    def _bind_d1(self) -> None:
        for db in self.config.get("d1_databases", []):
            path = migrated_d1_file(self.state_dir, self.project_root, db)
            self.databases[db["binding"]] = LocalD1Database(path)
            setattr(self.env, db["binding"], self.databases[db["binding"]])

    def _bind_durable_objects(self, entry: ModuleType) -> None:
        for binding in self.config.get("durable_objects", {}).get("bindings", []):
            namespace = DurableObjectNamespace(
                binding["class_name"],
                getattr(entry, binding["class_name"]),
                state_dir=self.state_dir / "durable_objects",
                clock=self.clock,
                env_provider=lambda: self.env,
            )
            self.namespaces[binding["name"]] = namespace
            setattr(self.env, binding["name"], namespace)

    def _bind_workflows(self, entry: ModuleType) -> None:
        for workflow in self.config.get("workflows", []):
            cls = getattr(entry, workflow["class_name"])
            self.engine.register(workflow["name"], cls, lambda: self.env)
            setattr(self.env, workflow["binding"], self.engine.binding(workflow["name"]))

    def _bind_queues(self) -> None:
        queues = self.config.get("queues", {})
        for producer in queues.get("producers", []):
            setattr(self.env, producer["binding"], LocalQueue(producer["queue"], self.broker))
        for consumer in queues.get("consumers", []):
            self.queue_consumers[consumer["queue"]] = consumer
            self.broker.configure_consumer(consumer)

    def _bind_r2(self) -> None:
        for bucket in self.config.get("r2_buckets", []):
            directory = self.state_dir / "r2" / bucket["bucket_name"]
            setattr(self.env, bucket["binding"], LocalR2Bucket(directory))

    @property
    def core_env(self) -> Env:
        """`env` typed as the core sees it: LocalEnv gets its bindings from wrangler.toml at run
        time, so only this cast tells mypy they are there."""
        return cast(Env, self.env)

    # -- events -------------------------------------------------------------------------------

    def _default(self, ctx: ExecutionContext) -> Any:
        return self.entry.Default(ctx, self.env)

    async def fetch(self, request: Request) -> Response:
        ctx = ExecutionContext()
        response: Response = await self._default(ctx).fetch(request)
        await ctx.drain()
        return response

    async def local_key(self) -> str:
        """The API key the CLI acts with (owner "local"), made on first use (`cli_key`)."""
        if self._local_key is None:
            self._local_key = await cli_key.load_or_create(self.core_env, self.state_dir)
        return self._local_key

    async def act_for_audit(self, audit_id: str) -> None:
        """Call the API as the owner of `audit_id` from now on (`cli_key.for_owner`): the CLI
        operates on every audit of its state dir. An unknown id keeps the CLI's own key, so the
        API answers it as it answers any caller."""
        audit = await repository.get_audit(self.core_env.DB, audit_id)
        if audit is not None:
            which = cli_key.for_owner(audit.owner)
            self._local_key = await cli_key.load_or_create(self.core_env, self.state_dir, which)

    async def request(
        self,
        method: str,
        path: str,
        json_body: Any = None,
        *,
        key: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        """Call the Worker's API in-process with `key` (default: the local CLI key) as the
        Bearer credential; returns (status, decoded JSON body or None)."""
        import json

        body = None if json_body is None else json.dumps(json_body)
        sent = {"authorization": f"Bearer {key or await self.local_key()}"}
        if body is not None:
            sent["content-type"] = "application/json"
        sent.update(headers or {})
        request = Request(f"http://siteaudit.local{path}", method=method, headers=sent, body=body)
        response = await self.fetch(request)
        text = await response.text()
        return response.status, (json.loads(text) if text else None)

    async def scheduled(self, cron: str, scheduled_ms: float | None = None) -> None:
        when = self.clock.now_ms() if scheduled_ms is None else scheduled_ms
        controller = ScheduledController(cron, when)
        ctx = ExecutionContext()
        default = self._default(ctx)
        if hasattr(default, "scheduled"):
            await default.scheduled(controller, self.env, ctx)
        await ctx.drain()

    async def deliver_queue(
        self, queue: str, *, flush: bool = False, handler: Handler | None = None
    ) -> int:
        """Deliver the batches due now to the Worker's `queue` handler (or to `handler`, a
        caller that wants the consumer's results)."""

        async def default_queue(batch: Any) -> None:
            ctx = ExecutionContext()
            await self._default(ctx).queue(batch, self.env, ctx)
            await ctx.drain()

        return await self.broker.deliver_due(queue, handler or default_queue, flush=flush)

    async def drain_queue(self, queue: str, handler: Handler | None = None) -> int:
        """Deliver until nothing is due: partial batches at once, retries (immediate under the
        default retry_delay) until they succeed or reach the dead-letter queue."""
        delivered = 0
        while count := await self.deliver_queue(queue, flush=True, handler=handler):
            delivered += count
        return delivered

    async def tick(self) -> None:
        """Run everything due now: alarms, cron triggers, queue batches."""
        for namespace in self.namespaces.values():
            await namespace.run_due_alarms()
        for cron, scheduled_ms in self.crons.due(self.clock.now_ms()):
            try:
                await self.scheduled(cron, scheduled_ms)
            except Exception:
                log.exception("scheduled handler for %r raised", cron)
        for queue in self.queue_consumers:
            await self.deliver_queue(queue)

    async def wait_for_workflow(self, instance_id: str, timeout_s: float | None = None) -> Any:
        return await self.engine.wait(instance_id, timeout_s=timeout_s)

    async def close(self) -> None:
        """Stop running instances (their state stays resumable) and close every file."""
        await self.engine.aclose()
        for namespace in self.namespaces.values():
            namespace.close()
        for database in self.databases.values():
            database.close()
        self.broker.close()
        await aclose_shared_client()
        restrict_addresses(self._previous_fetch_policy)
