"""The bindings the core uses, as Protocols: what `env` holds and how each binding answers.

The core never imports the Workers SDK; it reaches bindings through `env` by duck typing, and
receives values already converted the way the SDK converts them (JS objects become dicts, arrays
lists, `undefined`/`null` None, integral numbers int). These Protocols state that contract so mypy
checks every call site; the Workers shell's `env` and the local platform's both satisfy them.
Shapes follow docs/platform.md (conversions §0, Durable Object RPC §1.3, D1 §3, Workflows §4,
R2 §7).

Only methods the core calls are listed: a Protocol is a promise about our use, not a copy of the
runtime's whole surface.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from typing import Protocol, TypedDict

from common.wire import JsonObject, JsonValue

# A D1 bind value (docs/platform.md §3.1: null, numbers, strings, ArrayBuffer).
type SqlValue = str | int | float | bytes | None


# -- D1 ---------------------------------------------------------------------------------------


class D1Meta(TypedDict, total=False):
    changes: int
    last_row_id: int
    duration: float
    rows_read: int
    rows_written: int


class D1Result(TypedDict):
    """What `run()`/`all()` resolve to: rows as dicts, and `meta.changes` for writes."""

    results: list[JsonObject]
    success: bool
    meta: D1Meta


class D1PreparedStatement(Protocol):
    def bind(self, *values: SqlValue) -> D1PreparedStatement: ...

    def run(self) -> Awaitable[D1Result]: ...

    def all(self) -> Awaitable[D1Result]: ...

    def first(self) -> Awaitable[JsonObject | None]: ...

    def raw(self) -> Awaitable[list[list[JsonValue]]]: ...


class D1Database(Protocol):
    def prepare(self, query: str) -> D1PreparedStatement: ...

    def batch(self, statements: Sequence[D1PreparedStatement]) -> Awaitable[list[D1Result]]: ...


# -- Durable Objects ---------------------------------------------------------------------------


class DurableObjectId(Protocol):
    def toString(self) -> str: ...  # noqa: N802 - the runtime's name


class ScratchpadStub(Protocol):
    """The AuditScratchpad's RPC surface as a caller sees it: JSON in, JSON out.

    One method per row of `durable.rpc.METHODS` (the table sits above this package; a test holds
    this Protocol to it), the argument as the row's codec sends it. Callers go through
    `durable.client.Scratchpad`, which converts through the rows; the Durable Object side is
    `durable.scratchpad.ScratchpadMethods`.
    """

    def destroy(self) -> Awaitable[JsonObject]: ...

    def save_crawl_config(self, config: JsonObject) -> Awaitable[JsonObject]: ...

    def crawl_config(self) -> Awaitable[JsonObject]: ...

    def seed_start(self, url: str) -> Awaitable[JsonObject]: ...

    def seed_sitemap_urls(self, urls: list[str]) -> Awaitable[JsonObject]: ...

    def note_sitemap_blocked(self, urls: list[str]) -> Awaitable[JsonObject]: ...

    def sitemap_blocked_urls(self, request: JsonObject) -> Awaitable[JsonObject]: ...

    def site_facts(self, request: JsonObject) -> Awaitable[JsonObject]: ...

    def claim_chunk(self, request: JsonObject) -> Awaitable[JsonObject]: ...

    def claim_more(self, request: JsonObject) -> Awaitable[JsonObject]: ...

    def release_urls(self, urls: list[str]) -> Awaitable[JsonObject]: ...

    # JSON text as sent; the object accepts the record's object too (older senders).
    def record_batch(self, batch: str | JsonObject) -> Awaitable[JsonObject]: ...

    def record_links(self, batch: str | JsonObject) -> Awaitable[JsonObject]: ...

    def claim_resources(self, request: JsonObject) -> Awaitable[JsonObject]: ...

    def record_resources(self, checks: list[JsonObject]) -> Awaitable[JsonObject]: ...

    def release_resources(self, urls: list[str]) -> Awaitable[JsonObject]: ...

    def claim_external(self, request: JsonObject) -> Awaitable[JsonObject]: ...

    def record_external(self, checks: list[JsonObject]) -> Awaitable[JsonObject]: ...

    def release_external(self, urls: list[str]) -> Awaitable[JsonObject]: ...

    def stop_external(self, reason: str) -> Awaitable[JsonObject]: ...

    def stats(self) -> Awaitable[JsonObject]: ...

    def prepare_resume(self) -> Awaitable[JsonObject]: ...

    def recent_pages(self, request: JsonObject) -> Awaitable[JsonObject]: ...

    def run_finalize_checks(self, options: JsonObject) -> Awaitable[JsonObject]: ...

    def link_graph(self, request: JsonObject) -> Awaitable[JsonObject]: ...

    def claim_renders(self, request: JsonObject) -> Awaitable[JsonObject]: ...

    def record_renders(self, outcomes: list[JsonObject]) -> Awaitable[JsonObject]: ...

    def render_tally(self) -> Awaitable[JsonObject]: ...


class ScratchpadNamespace(Protocol):
    def idFromName(self, name: str) -> DurableObjectId: ...  # noqa: N802 - the runtime's name

    def get(self, object_id: DurableObjectId) -> ScratchpadStub: ...


# -- Workflows ---------------------------------------------------------------------------------


class InstanceStatus(TypedDict, total=False):
    """`instance.status()` (docs/platform.md §4.4): `error` is {name, message} when errored."""

    status: str
    error: JsonValue
    output: JsonValue


class WorkflowInstance(Protocol):
    @property
    def id(self) -> str: ...

    def status(self) -> Awaitable[InstanceStatus]: ...

    def terminate(self) -> Awaitable[None]: ...


class Workflow(Protocol):
    """The Workflow binding (`env.SITE_AUDIT_WORKFLOW`)."""

    def create(self, *, id: str, params: JsonObject) -> Awaitable[WorkflowInstance]: ...

    def get(self, instance_id: str) -> Awaitable[WorkflowInstance]: ...


type StepCallable = Callable[..., Awaitable[JsonValue]]


class WorkflowStep(Protocol):
    """The SDK's `step`, implicit-dependency signature (compatibility date >= 2026-02-25).

    `step.do(name, config=...)` decorates a coroutine function and returns an awaitable-returning
    callable whose result is the step's (replayed) JSON result.
    """

    def do(
        self, name: str | None = None, *, concurrent: bool = False, config: JsonObject | None = None
    ) -> Callable[[StepCallable], Callable[[], Awaitable[JsonValue]]]: ...


class WorkflowEvent(Protocol):
    def __getitem__(self, key: str) -> JsonValue: ...


# -- R2 ---------------------------------------------------------------------------------------


class R2ObjectBody(Protocol):
    """`get()`'s object: the SDK hands `arrayBuffer()` over as a memoryview (docs/platform.md §7)."""

    def arrayBuffer(self) -> Awaitable[memoryview]: ...  # noqa: N802 - the runtime's name


# R2's bulk delete takes at most 1,000 keys per call (the R2 Workers API reference, `delete`).
R2_MAX_DELETE_KEYS = 1000


class R2Bucket(Protocol):
    def put(
        self,
        key: str,
        value: bytes,
        httpMetadata: Mapping[str, str] | None = None,  # noqa: N803 - the runtime's name
    ) -> Awaitable[object]: ...

    def get(self, key: str) -> Awaitable[R2ObjectBody | None]: ...

    def delete(self, keys: str | list[str]) -> Awaitable[None]: ...


# -- Queues ------------------------------------------------------------------------------------


class QueueSendRequest(TypedDict):
    """One message of `sendBatch` (docs/platform.md §6); the content type defaults to json."""

    body: JsonObject


class Queue(Protocol):
    """A producer binding (`env.MONITOR_QUEUE`)."""

    def sendBatch(self, messages: list[QueueSendRequest]) -> Awaitable[None]: ...  # noqa: N802


class QueueMessage(Protocol):
    """One delivered message: settled on its own with `ack()` or `retry()` (first call wins)."""

    @property
    def id(self) -> str: ...

    @property
    def body(self) -> JsonValue: ...

    @property
    def attempts(self) -> int: ...

    def ack(self) -> None: ...

    def retry(self, delaySeconds: int | None = None) -> None: ...  # noqa: N803 - the runtime's


class MessageBatch(Protocol):
    """What the `queue(batch, env, ctx)` handler receives."""

    @property
    def queue(self) -> str: ...

    @property
    def messages(self) -> Sequence[QueueMessage]: ...


# -- the environment ---------------------------------------------------------------------------


class Env(Protocol):
    """The Worker's `env`: bindings, and `[vars]` and secrets from wrangler.toml.

    Vars arrive as strings and a secret not put is absent, so core code never reads them here:
    `common.deployment.DeploymentVars.from_env` parses and checks them all, in one place.
    """

    @property
    def DB(self) -> D1Database: ...  # noqa: N802 - binding names are wrangler's

    @property
    def AUDIT_SCRATCHPAD(self) -> ScratchpadNamespace: ...  # noqa: N802

    @property
    def SITE_AUDIT_WORKFLOW(self) -> Workflow: ...  # noqa: N802

    @property
    def REPORTS(self) -> R2Bucket: ...  # noqa: N802

    @property
    def MONITOR_QUEUE(self) -> Queue: ...  # noqa: N802

    # [vars] (wrangler.toml), each parsed by DeploymentVars
    @property
    def ALLOW_PRIVATE_HOSTS(self) -> str: ...  # noqa: N802

    @property
    def MAX_PAGES_LIMIT(self) -> str: ...  # noqa: N802

    @property
    def CORS_ORIGINS(self) -> str: ...  # noqa: N802

    @property
    def RATE_LIMIT_REQUESTS_PER_MINUTE(self) -> str: ...  # noqa: N802

    @property
    def RATE_LIMIT_AUDITS_PER_HOUR(self) -> str: ...  # noqa: N802

    @property
    def MAX_RUNNING_AUDITS_PER_OWNER(self) -> str: ...  # noqa: N802

    @property
    def MAX_MONITORS_PER_OWNER(self) -> str: ...  # noqa: N802

    @property
    def AUDIT_RETENTION_DAYS(self) -> str: ...  # noqa: N802

    @property
    def MONITOR_RUN_RETENTION_DAYS(self) -> str: ...  # noqa: N802

    @property
    def MONITOR_RUN_CLEANUP_MAX_RUNS(self) -> str: ...  # noqa: N802

    @property
    def PSI_ENDPOINT(self) -> str: ...  # noqa: N802

    # Browser Rendering (render.renderers, docs/rendering.md)
    @property
    def BROWSER_RENDERING_ENDPOINT(self) -> str: ...  # noqa: N802

    @property
    def BROWSER_RENDERING_REQUESTS_PER_MINUTE(self) -> str: ...  # noqa: N802

    @property
    def BROWSER_RENDERING_ACCOUNT_ID(self) -> str | None: ...  # noqa: N802

    @property
    def BROWSER_RENDERING_API_TOKEN(self) -> str | None: ...  # noqa: N802

    # Host verification and the robots.txt override (common.deployment, docs/manual/verify.md)
    @property
    def VERIFICATION_DOH_URL(self) -> str: ...  # noqa: N802

    @property
    def ROBOTS_OVERRIDE_PRIVATE_HOSTS(self) -> str: ...  # noqa: N802

    # Secrets (`wrangler secret put NAME`): None where not put
    @property
    def PSI_API_KEY(self) -> str | None: ...  # noqa: N802

    @property
    def ADMIN_TOKEN(self) -> str | None: ...  # noqa: N802

    # The keys that seal audit credentials (common.sealing), base64 of 32 bytes
    @property
    def CREDENTIALS_KEY(self) -> str | None: ...  # noqa: N802

    @property
    def CREDENTIALS_KEY_PREVIOUS(self) -> str | None: ...  # noqa: N802


# -- Durable Object state and SQL storage (the AuditScratchpad's `self.ctx`) --------------------

# A row of `ctx.storage.sql.exec(...)`: column name to SQLite value (the SDK's JsDict).
type SqlRow = Mapping[str, SqlValue]


class SqlCursor(Protocol):
    """`SqlStorageCursor`: read it once, whole (`toArray`), as its single row (`one`), or row
    by row."""

    def toArray(self) -> list[SqlRow]: ...  # noqa: N802 - the runtime's name

    def one(self) -> SqlRow: ...

    def __iter__(self) -> Iterator[SqlRow]: ...


class SqlStorage(Protocol):
    def exec(self, query: str, *bindings: SqlValue) -> SqlCursor: ...


class DurableObjectStorage(Protocol):
    @property
    def sql(self) -> SqlStorage: ...

    def transactionSync[T](self, fn: Callable[[], T]) -> T: ...  # noqa: N802

    def getAlarm(self) -> Awaitable[int | float | None]: ...  # noqa: N802

    def setAlarm(self, scheduled: int | float) -> Awaitable[None]: ...  # noqa: N802

    def deleteAlarm(self) -> Awaitable[None]: ...  # noqa: N802

    def deleteAll(self) -> Awaitable[None]: ...  # noqa: N802


class DurableObjectCtx(Protocol):
    """The `ctx` (DurableObjectState) a Durable Object is constructed with."""

    @property
    def storage(self) -> DurableObjectStorage: ...

    def blockConcurrencyWhile[T](  # noqa: N802 - the runtime's name
        self, fn: Callable[[], Awaitable[T]]
    ) -> Awaitable[T]: ...
