"""The AuditScratchpad's RPC surface, declared once: each method's name, request and response.

`METHODS` is the table. Each row knows how its request crosses (its `Codec`) and which record
answers it, and does both conversions itself: `serve` turns a typed implementation into the
Durable Object's JSON method, `call` sends a typed request through the stub and reads the typed
answer. So the Durable Object (`durable.scratchpad.ScratchpadMethods`) and the typed client
(`durable.client.Scratchpad`) convert nowhere else, and mypy checks both against the row.
`bindings.ScratchpadStub`, the JSON surface as a caller sees it, sits in `common` below this
package; tests/durable/test_rpc.py holds it, the Durable Object and the client to this table.

The wire shapes are the runtime's, fixed by what the Pyodide tier's JS doubles and deployed
objects send (docs/platform.md §1.3): a request is a plain string, a list of strings, a record's
`to_dict()` object, a list of them, or (for the large ones) a record's JSON text; an answer is a
record's `to_dict()` object. Never a tuple: the runtime refuses them.

Methods that are not RPC (`LOCAL_ONLY`): `open_scratchpad`, which the shell's constructor calls,
and `alarm`, which the runtime calls. The client adds `for_audit` (its constructor) and
`all_sitemap_blocked_urls`/`all_site_facts` (a paged row read to its end).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import wraps
from typing import Any, Protocol, Self

from audit.external_links import ExternalStop
from common.bindings import ScratchpadStub
from common.wire import JsonObject, JsonValue, as_list, as_str
from durable.finalize import FinalizeOptions, FinalizePage
from durable.link_graph import LinkGraphPage, LinkGraphRequest
from durable.records import (
    BatchResult,
    Claim,
    ClaimRequest,
    ConfigSaved,
    CrawlConfig,
    Destroyed,
    ExternalCheck,
    ExternalClaim,
    ExternalClaimRequest,
    ExternalStopped,
    FrontierStats,
    LinkBatch,
    Progress,
    ProgressRequest,
    RecordBatch,
    ReleaseResult,
    RenderClaim,
    RenderOutcome,
    ResourceCheck,
    ResourceClaim,
    ResumeState,
    SeedResult,
    SiteFactsPage,
    SiteFactsRequest,
    SitemapBlockedPage,
    SitemapBlockedRequest,
)
from render.records import RenderCounts

__all__ = ["LOCAL_ONLY", "METHODS", "BareRpc", "Codec", "Method", "Rpc"]

LOCAL_ONLY = frozenset({"open_scratchpad", "alarm"})


class WireRecord(Protocol):
    """What a request or an answer record offers: `durable.records`' `to_dict()`/`from_dict()`."""

    def to_dict(self) -> JsonObject: ...

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self: ...


class TextRecord(WireRecord, Protocol):
    def to_json_text(self) -> str: ...

    @classmethod
    def from_json_text(cls, payload: object) -> Self: ...


class Codec[Q](Protocol):
    """How a request of type `python` crosses: `encode` on the caller's side, `decode` on the
    object's; `wire` is the argument's annotation in `bindings.ScratchpadStub`."""

    @property
    def python(self) -> object: ...

    @property
    def wire(self) -> object: ...

    def encode(self, request: Q) -> JsonValue: ...

    def decode(self, sent: object) -> Q: ...


@dataclass(frozen=True, slots=True)
class _Text:
    """A plain string (a URL), as is."""

    python: object = str
    wire: object = str

    def encode(self, request: str) -> JsonValue:
        return request

    def decode(self, sent: object) -> str:
        return as_str(sent)


@dataclass(frozen=True, slots=True)
class _Texts:
    """Strings (URLs) as one list."""

    python: object = Sequence[str]
    wire: object = list[str]

    def encode(self, request: Sequence[str]) -> JsonValue:
        return list(request)

    def decode(self, sent: object) -> Sequence[str]:
        return [as_str(item) for item in as_list(sent)]


@dataclass(frozen=True, slots=True)
class _Choice[E: StrEnum]:
    """One of a closed vocabulary, by its value."""

    cls: type[E]
    wire: object = str

    @property
    def python(self) -> object:
        return self.cls

    def encode(self, request: E) -> JsonValue:
        return request.value

    def decode(self, sent: object) -> E:
        return self.cls(as_str(sent))


@dataclass(frozen=True, slots=True)
class _Object[R: WireRecord]:
    """A record as its `to_dict()` object."""

    cls: type[R]
    wire: object = JsonObject

    @property
    def python(self) -> object:
        return self.cls

    def encode(self, request: R) -> JsonValue:
        return request.to_dict()

    def decode(self, sent: object) -> R:
        return self.cls.from_dict(_mapping(sent))


@dataclass(frozen=True, slots=True)
class _Objects[R: WireRecord]:
    """Records as a list of `to_dict()` objects."""

    cls: type[R]
    wire: object = list[JsonObject]

    @property
    def python(self) -> object:
        return Sequence[self.cls]  # type: ignore[name-defined]  # a runtime alias, for the test

    def encode(self, request: Sequence[R]) -> JsonValue:
        return [item.to_dict() for item in request]

    def decode(self, sent: object) -> Sequence[R]:
        return [self.cls.from_dict(_mapping(item)) for item in as_list(sent)]


@dataclass(frozen=True, slots=True)
class _JsonText[R: TextRecord]:
    """A large record as one JSON string (common.wire.JsonRecord.to_json_text), which crosses in
    one copy; the object accepts the record's object too, as older senders sent it."""

    cls: type[R]
    wire: object = str | JsonObject

    @property
    def python(self) -> object:
        return self.cls

    def encode(self, request: R) -> JsonValue:
        return request.to_json_text()

    def decode(self, sent: object) -> R:
        return self.cls.from_json_text(sent)


def _mapping(sent: object) -> Mapping[str, object]:
    # from_dict checks the object itself (a WireError naming the record); this only types it.
    return sent  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Rpc[Q, R: WireRecord]:
    """A method that takes one request."""

    name: str
    request: Codec[Q]
    response: type[R]

    async def call(self, stub: ScratchpadStub, request: Q) -> R:
        send: Callable[[JsonValue], Awaitable[JsonObject]] = getattr(stub, self.name)
        return self.response.from_dict(await send(self.request.encode(request)))

    def serve[S](self, implementation: Callable[[S, Q], R]) -> Callable[[S, object], JsonObject]:
        decode = self.request.decode

        @wraps(implementation)
        def endpoint(target: S, sent: object) -> JsonObject:
            return implementation(target, decode(sent)).to_dict()

        return _named(endpoint, self.name)


@dataclass(frozen=True, slots=True)
class BareRpc[R: WireRecord]:
    """A method that takes nothing."""

    name: str
    response: type[R]

    async def call(self, stub: ScratchpadStub) -> R:
        send: Callable[[], Awaitable[JsonObject]] = getattr(stub, self.name)
        return self.response.from_dict(await send())

    def serve[S](self, implementation: Callable[[S], R]) -> Callable[[S], JsonObject]:
        @wraps(implementation)
        def endpoint(target: S) -> JsonObject:
            return implementation(target).to_dict()

        return _named(endpoint, self.name)

    def serve_async[S](
        self, implementation: Callable[[S], Awaitable[R]]
    ) -> Callable[[S], Awaitable[JsonObject]]:
        @wraps(implementation)
        async def endpoint(target: S) -> JsonObject:
            return (await implementation(target)).to_dict()

        return _named(endpoint, self.name)


def _named[F: Callable[..., object]](endpoint: F, name: str) -> F:
    """The endpoint under its RPC name; `__wrapped__` (set by `wraps`) keeps the typed
    implementation, which tests/durable/test_rpc.py reads."""
    endpoint.__name__ = endpoint.__qualname__ = name
    return endpoint


# -- the table -----------------------------------------------------------------------------------

DESTROY = BareRpc("destroy", Destroyed)
SAVE_CRAWL_CONFIG = Rpc("save_crawl_config", _Object(CrawlConfig), ConfigSaved)
CRAWL_CONFIG = BareRpc("crawl_config", CrawlConfig)
SEED_START = Rpc("seed_start", _Text(), SeedResult)
SEED_SITEMAP_URLS = Rpc("seed_sitemap_urls", _Texts(), SeedResult)
NOTE_SITEMAP_BLOCKED = Rpc("note_sitemap_blocked", _Texts(), SeedResult)
SITEMAP_BLOCKED_URLS = Rpc(
    "sitemap_blocked_urls", _Object(SitemapBlockedRequest), SitemapBlockedPage
)
SITE_FACTS = Rpc("site_facts", _Object(SiteFactsRequest), SiteFactsPage)
CLAIM_CHUNK = Rpc("claim_chunk", _Object(ClaimRequest), Claim)
CLAIM_MORE = Rpc("claim_more", _Object(ClaimRequest), Claim)
RELEASE_URLS = Rpc("release_urls", _Texts(), ReleaseResult)
RECORD_BATCH = Rpc("record_batch", _JsonText(RecordBatch), BatchResult)
RECORD_LINKS = Rpc("record_links", _JsonText(LinkBatch), BatchResult)
CLAIM_RESOURCES = Rpc("claim_resources", _Object(ClaimRequest), ResourceClaim)
RECORD_RESOURCES = Rpc("record_resources", _Objects(ResourceCheck), SeedResult)
RELEASE_RESOURCES = Rpc("release_resources", _Texts(), ReleaseResult)
CLAIM_EXTERNAL = Rpc("claim_external", _Object(ExternalClaimRequest), ExternalClaim)
RECORD_EXTERNAL = Rpc("record_external", _Objects(ExternalCheck), SeedResult)
RELEASE_EXTERNAL = Rpc("release_external", _Texts(), ReleaseResult)
STOP_EXTERNAL = Rpc("stop_external", _Choice(ExternalStop), ExternalStopped)
STATS = BareRpc("stats", FrontierStats)
PREPARE_RESUME = BareRpc("prepare_resume", ResumeState)
RECENT_PAGES = Rpc("recent_pages", _Object(ProgressRequest), Progress)
RUN_FINALIZE_CHECKS = Rpc("run_finalize_checks", _Object(FinalizeOptions), FinalizePage)
LINK_GRAPH = Rpc("link_graph", _Object(LinkGraphRequest), LinkGraphPage)
CLAIM_RENDERS = Rpc("claim_renders", _Object(ClaimRequest), RenderClaim)
RECORD_RENDERS = Rpc("record_renders", _Objects(RenderOutcome), SeedResult)
RENDER_TALLY = BareRpc("render_tally", RenderCounts)

# Any: the rows differ in their request and response types, and a row is invariant in both.
type Method = Rpc[Any, Any] | BareRpc[Any]

METHODS: tuple[Method, ...] = (
    DESTROY,
    SAVE_CRAWL_CONFIG,
    CRAWL_CONFIG,
    SEED_START,
    SEED_SITEMAP_URLS,
    NOTE_SITEMAP_BLOCKED,
    SITEMAP_BLOCKED_URLS,
    SITE_FACTS,
    CLAIM_CHUNK,
    CLAIM_MORE,
    RELEASE_URLS,
    RECORD_BATCH,
    RECORD_LINKS,
    CLAIM_RESOURCES,
    RECORD_RESOURCES,
    RELEASE_RESOURCES,
    CLAIM_EXTERNAL,
    RECORD_EXTERNAL,
    RELEASE_EXTERNAL,
    STOP_EXTERNAL,
    STATS,
    PREPARE_RESUME,
    RECENT_PAGES,
    RUN_FINALIZE_CHECKS,
    LINK_GRAPH,
    CLAIM_RENDERS,
    RECORD_RENDERS,
    RENDER_TALLY,
)
