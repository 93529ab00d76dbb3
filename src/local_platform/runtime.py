"""The local platform assembled: the Worker of wrangler.toml running on CPython.

`LocalPlatform` reads the same wrangler.toml that deploys the Worker, builds every binding it
declares over files in one state directory (D1 and Durable Object SQLite files, the workflow
engine's state, queue messages, R2 objects), imports src/entry.py behind the local `workers` SDK
surface and dispatches fetch, scheduled, queue and alarm events to it. State survives the process,
so a killed CLI run can be resumed by a later one.

The shell is imported on first use, not when the platform is built: its import brings the whole
Worker (the API, the workflow, the Durable Object: about 600 modules and 1 s of CPU), and a
command that only reads D1 (`siteaudit keys list`) needs none of it. The bindings resolve their
class from the shell when an object, an instance or an event first needs it, and the HTTP port
imports the shell with the first fetch (`_ShellHttpClient`), so whatever a run does goes through
the shell's own code, as before.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

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
from urls.private_hosts import PrivateHosts

if TYPE_CHECKING:
    from render.renderer import Renderer
    from render.request_policy import RobotsGate

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


class _ShellHttpClient:
    """The HTTP port until the shell is imported: the shell configures its own client
    (`entry.WorkersHttpClient`, over the local `workers.fetch`) when it is imported, so the
    first fetch imports the shell and goes through that client, as every later one does. A
    command that fetches before any event reached the shell (`siteaudit security URL`, the start
    URL's check of `siteaudit audit`) fetches as the Worker does."""

    def __init__(self, shell: Callable[[], ModuleType]) -> None:
        self._shell = shell
        self._client: ports.HttpClient | None = None

    async def fetch(self, request: ports.FetchRequest) -> ports.FetchResult:
        if self._client is None:
            self._client = cast(ports.HttpClient, self._shell().WorkersHttpClient())
        return await self._client.fetch(request)


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
        ports.configure(now_ms=self.clock.now_ms, cipher=cipher.LocalCipher())
        # A shell imported already (the test suite imports it first) is used as it is, with the
        # HTTP client it configured or a test put in its place; else it waits for first use.
        self._entry: ModuleType | None = None
        if "entry" in sys.modules:
            self._entry = self._shell()
        else:
            ports.configure(http=_ShellHttpClient(lambda: self.entry))
        self.databases: dict[str, LocalD1Database] = {}
        self.namespaces: dict[str, DurableObjectNamespace] = {}
        self.queue_consumers: dict[str, dict[str, Any]] = {}
        self.engine = WorkflowEngine(self.state_dir / "workflows.sqlite", clock=self.clock)
        self.broker = QueueBroker(self.state_dir / "queues.sqlite", clock=self.clock)
        self.crons = CronScheduler(
            list(self.config.get("triggers", {}).get("crons", [])), self.clock
        )
        self._bind_all()
        self._local_key: str | None = None

    @property
    def entry(self) -> ModuleType:
        """src/entry.py, imported on first use (the module docstring says why)."""
        if self._entry is None:
            self._entry = self._shell()
        return self._entry

    def _shell(self) -> ModuleType:
        """The shell, with what this platform sets beside it: the local renderer the render
        steps use (render.renderers, which loads the render records, imported here for that
        reason), and the local cipher after the shell's first import, which configures
        WebCrypto's (CPython has `cryptography`: local_platform.cipher)."""
        from render.renderers import use_local_renderer

        use_local_renderer(_chromium if self.local_renderer else None)
        shell = importlib.import_module("entry")
        ports.configure(cipher=cipher.LocalCipher())
        return shell

    def _shell_class(self, name: str) -> Callable[[Any, Any], Any]:
        """What makes an instance of the shell's class `name` as `(ctx, env)`: the class looked
        up when the first instance is made, so binding it imports nothing."""

        def construct(ctx: Any, env: Any) -> Any:
            return getattr(self.entry, name)(ctx, env)

        return construct

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

    def _bind_all(self) -> None:
        self._restrict_fetch()
        self._bind_d1()
        self._bind_durable_objects()
        self._bind_workflows()
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

    def _bind_durable_objects(self) -> None:
        for binding in self.config.get("durable_objects", {}).get("bindings", []):
            namespace = DurableObjectNamespace(
                binding["class_name"],
                self._shell_class(binding["class_name"]),
                state_dir=self.state_dir / "durable_objects",
                clock=self.clock,
                env_provider=lambda: self.env,
            )
            self.namespaces[binding["name"]] = namespace
            setattr(self.env, binding["name"], namespace)

    def _bind_workflows(self) -> None:
        for workflow in self.config.get("workflows", []):
            construct = self._shell_class(workflow["class_name"])
            self.engine.register(workflow["name"], construct, lambda: self.env)
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
        from auditdb import repository  # the audit records: not for a command that reads none

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
