"""The AuditScratchpad's RPC records: what each method takes and returns, both sides typed.

Over RPC these travel as plain JSON objects (`to_dict()`), never tuples, which the runtime refuses;
`from_dict()` is the inverse, and `from_dict(x.to_dict()) == x` for every record (a property test
holds us to it). The Durable Object converts on its first and last line; callers go through
`durable.client.Scratchpad` and never index a raw dict. Finalize's records (`FinalizeOptions`,
`FinalizePage`) live beside their queries in `durable.finalize`.

Conversion is `wire.to_json`/`wire.from_json`: every field is checked against its annotation, and a
value of the wrong type is a `WireError` naming the record and the field. Where a wire shape
differs from the fields, `from_dict` says so and reshapes the object before `from_json`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Self

from common.wire import AS_COLUMNS, JsonObject, JsonRecord, WireError, from_json, to_json
from parse.facts import PageFacts
from render.decision import RenderReason

__all__ = [
    "BatchResult",
    "Claim",
    "ClaimRequest",
    "ConfigSaved",
    "CrawlConfig",
    "CrawledEntry",
    "Destroyed",
    "DiscoveredUrl",
    "ExternalCheck",
    "ExternalClaim",
    "ExternalClaimRequest",
    "ExternalProgress",
    "ExternalRef",
    "ExternalStopped",
    "FragmentLink",
    "FragmentTargets",
    "FrontierStats",
    "LeasedUrl",
    "LinkRow",
    "MirrorRow",
    "MirrorValue",
    "Progress",
    "ProgressRequest",
    "RecordBatch",
    "ReleaseResult",
    "RenderCandidate",
    "RenderClaim",
    "RenderOutcome",
    "ResourceCheck",
    "ResourceClaim",
    "ResourceRef",
    "ResumeState",
    "SeedResult",
    "SiteFact",
    "SiteFactKind",
    "SiteFactsPage",
    "SiteFactsRequest",
    "SitemapBlockedPage",
    "SitemapBlockedRequest",
    "WireError",
]

SITEMAP_BLOCKED_PAGE = 2000
SITE_FACTS_PAGE = 500

# A `page_mirror` column as record_batch binds it: SQLite's scalars, booleans already 0/1.
type MirrorValue = str | int | float
type MirrorRow = dict[str, MirrorValue | None]


# -- the frontier ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FrontierStats(JsonRecord):
    """Frontier rows per state (`seen` is all of them) and whether link edges stopped."""

    seen: int
    pending: int
    leased: int
    crawled: int
    links_truncated: bool


def _stats_flat(record: ResumeState | BatchResult) -> JsonObject:
    """`record` with its frontier stats spread into the object itself, the shape callers and
    the Pyodide tier read (`{seen, pending, ..., links_written, enqueued}`)."""
    wire = to_json(record)
    del wire["stats"]
    return record.stats.to_dict() | wire


@dataclass(frozen=True, slots=True)
class LeasedUrl(JsonRecord):
    """One URL leased to a crawl chunk; `depth` None means found only in a sitemap."""

    url: str
    depth: int | None
    in_sitemap: bool


@dataclass(frozen=True, slots=True)
class ClaimRequest(JsonRecord):
    chunk_no: int
    limit: int


@dataclass(frozen=True, slots=True)
class Claim(JsonRecord):
    """A chunk's URLs in claim order; `is_retry` when the chunk number was claimed before."""

    urls: tuple[LeasedUrl, ...]
    is_retry: bool


@dataclass(frozen=True, slots=True)
class ReleaseResult(JsonRecord):
    released: int


@dataclass(frozen=True, slots=True)
class ResumeState:
    """Where a resumed crawl starts: the frontier after its leases were released."""

    stats: FrontierStats
    last_chunk: int
    configured: bool  # discovery saved a final URL: there is crawl state to resume
    resources_pending: int = 0  # resources still to check (durable.resources)

    def to_dict(self) -> JsonObject:
        return _stats_flat(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        # The stats travel spread into the object itself (see `_stats_flat`).
        return from_json(cls, {**data, "stats": data})


# -- seeding -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeedResult(JsonRecord):
    """What a batch of URLs did to a set: how many arrived, how many were new."""

    received: int
    inserted: int


@dataclass(frozen=True, slots=True)
class SitemapBlockedRequest(JsonRecord):
    """One page of robots-blocked sitemap URLs: those after `after`, in URL order."""

    after: str = ""
    limit: int = SITEMAP_BLOCKED_PAGE


@dataclass(frozen=True, slots=True)
class SitemapBlockedPage(JsonRecord):
    urls: tuple[str, ...]


# -- crawl configuration -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CrawlConfig(JsonRecord):
    """Discovery's results, kept for every later chunk; empty strings where nothing was saved."""

    final_url: str = ""
    robots_txt: str = ""

    @property
    def configured(self) -> bool:
        return bool(self.final_url)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        # Null means nothing was saved, like an absent key: both read as the empty default.
        return from_json(cls, {key: value for key, value in data.items() if value is not None})


@dataclass(frozen=True, slots=True)
class ConfigSaved(JsonRecord):
    saved: bool = True


@dataclass(frozen=True, slots=True)
class Destroyed(JsonRecord):
    destroyed: bool = True


# -- recording ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CrawledEntry(JsonRecord):
    """One crawled URL as the live progress feed shows it (the original kept this feed in KV)."""

    url: str
    status_code: int
    fetch_class: str
    response_time_ms: int | None
    crawled_at: str


@dataclass(frozen=True, slots=True)
class ProgressRequest(JsonRecord):
    limit: int = 300


@dataclass(frozen=True, slots=True)
class ExternalProgress(JsonRecord):
    """How far the external link checks are (docs/external-links.md): distinct external URLs
    found, those checked, the hosts no check got an answer from, and why the checks stopped
    early (audit.external_links.ExternalStop; None while they go on or when they did not)."""

    urls: int
    checked: int
    hosts_failing: int
    stopped: str | None = None


@dataclass(frozen=True, slots=True)
class Progress(JsonRecord):
    """The newest crawled URLs, newest first, the frontier's counts and, once the crawl found
    links to other sites (check_external), the external checks' counts."""

    recent: tuple[CrawledEntry, ...]
    stats: FrontierStats
    external: ExternalProgress | None = None


@dataclass(frozen=True, slots=True)
class LinkRow(JsonRecord):
    """A link edge of a crawled page (durable.links): an internal one for the cross-page checks
    and the link graph, an `external` one (to another site) for the link graph alone. `anchor`
    is the link's text, `image_alt` the alt of the image that names a link without text."""

    source_url: str
    target_url: str
    nofollow: bool = False
    anchor: str | None = None
    image_alt: str | None = None
    external: bool = False


@dataclass(frozen=True, slots=True)
class FragmentLink(JsonRecord):
    """An internal link's fragment (as the URL holds it) and the keys of its two lookups
    (urls.fragment: as written, and percent-decoded), for the broken-fragment check."""

    source_url: str
    target_url: str
    fragment: str
    key: int
    decoded_key: int


@dataclass(frozen=True, slots=True)
class FragmentTargets(JsonRecord):
    """Every fragment target key of one crawled HTML page; sent only when the set is complete."""

    url: str
    keys: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ResourceRef(JsonRecord):
    """A page's reference to an internal resource (checked, not crawled): its first kind on
    the page (parse.facts.ReferenceKind) and, for a `<link>`, its rel."""

    source_url: str
    url: str
    kind: str
    rel: str | None = None


@dataclass(frozen=True, slots=True)
class ResourceClaim(JsonRecord):
    """Resources leased to one chunk to check, and how many wait unleased after the claim."""

    urls: tuple[str, ...]
    is_retry: bool
    pending: int


@dataclass(frozen=True, slots=True)
class ResourceCheck(JsonRecord):
    """One resource's answer: status 0 when there was none; `fetch_class` as for pages;
    `content_type` as sent (a share image's must name an image: audit.cross_page)."""

    url: str
    status_code: int
    fetch_class: str
    content_type: str | None = None


@dataclass(frozen=True, slots=True)
class ExternalRef(JsonRecord):
    """A page's link to another site (crawl.external_links), checked once per audit."""

    source_url: str
    url: str


@dataclass(frozen=True, slots=True)
class ExternalClaimRequest(JsonRecord):
    """Lease up to `limit` pending external URLs to step `lease_no`, within the audit's
    `budget` of URLs leased or checked."""

    lease_no: int
    limit: int
    budget: int


@dataclass(frozen=True, slots=True)
class ExternalClaim(JsonRecord):
    """External URLs leased to one step, how many wait unleased after the claim, and how many
    of those the budget leaves unchecked for good (0 while there is room)."""

    urls: tuple[str, ...]
    is_retry: bool
    pending: int
    over_budget: int
    started_ms: int = 0  # when the first claim was made: the audit's time budget counts from it
    # External host names found to resolve, and not to resolve, by the checks so far.
    resolved_hosts: tuple[str, ...] = ()
    unresolved_hosts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ExternalCheck(JsonRecord):
    """One external URL's answer: its outcome (audit.external_links.ExternalOutcome), the
    last status seen (0: none), where its redirects ended (None: no redirect) and why; and the
    host of its last hop with how far the check got with it (audit.external_links.HostReach),
    which the audit counts per host to tell a dead name from a machine without DNS (None: the
    check requested nothing, e.g. a private address refused by the SSRF policy)."""

    url: str
    outcome: str
    status_code: int = 0
    final_url: str | None = None
    reason: str | None = None
    host: str | None = None
    reach: str | None = None


@dataclass(frozen=True, slots=True)
class ExternalStopped(JsonRecord):
    """Why the external checks stopped early: the first reason a step gave
    (audit.external_links.ExternalStop's value)."""

    stopped: str | None


@dataclass(frozen=True, slots=True)
class DiscoveredUrl(JsonRecord):
    """A URL found on a page, to enqueue; the frontier keeps the first sighting of each URL."""

    url: str
    depth: int | None = None
    found_on: str | None = None


class SiteFactKind(StrEnum):
    """What the security grade and the exposure checks keep of each crawled response."""

    COOKIE = "cookie"  # a Set-Cookie, its value dropped (security.crawl_merge.cookie_shape)
    SRI = "sri"  # a page's failing subresource-integrity result id; detail: its scripts (JSON)
    SCRIPT = "script"  # an absolute http(s) script URL
    DISCLOSURE = "disclosure"  # `source: value` naming a version; detail: its Disclosures (JSON)


@dataclass(frozen=True, slots=True)
class SiteFact(JsonRecord):
    """One distinct fact of the crawl, kept with the first page (in URL order) it was seen on.

    The scratchpad keeps one row per (kind, value): a cookie every page sets, or a script every
    template loads, costs one row, whatever the number of pages.
    """

    kind: SiteFactKind
    value: str
    page_url: str
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class SiteFactsRequest(JsonRecord):
    """One page of one kind's facts: those whose value sorts after `after`."""

    kind: SiteFactKind
    after: str = ""
    limit: int = SITE_FACTS_PAGE


@dataclass(frozen=True, slots=True)
class SiteFactsPage(JsonRecord):
    facts: tuple[SiteFact, ...]


@dataclass(frozen=True, slots=True)
class RecordBatch(JsonRecord):
    """One crawled sub-batch, persisted atomically; batches leave out what they do not carry.

    `pages` are `page_mirror` rows (crawl.page_pipeline.mirror_row): the table's columns, booleans
    as 0/1, `hreflang_json` a JSON list of {"lang", "url"}. `link_budget_bytes` None means the
    crawl's budget (`CRAWL.link_budget_bytes`). The per-link tuples cross as columns
    (common.wire, "Columns").
    """

    crawled: tuple[str, ...] = ()
    pages: tuple[MirrorRow, ...] = ()
    links: tuple[LinkRow, ...] = field(default=(), metadata=AS_COLUMNS)
    discovered: tuple[DiscoveredUrl, ...] = field(default=(), metadata=AS_COLUMNS)
    link_budget_bytes: int | None = None
    progress: tuple[CrawledEntry, ...] = ()  # the batch's pages for the live feed
    facts: tuple[SiteFact, ...] = ()  # security and exposure facts (first page URL per fact wins)
    fragment_targets: tuple[FragmentTargets, ...] = ()
    fragment_links: tuple[FragmentLink, ...] = field(default=(), metadata=AS_COLUMNS)
    resources: tuple[ResourceRef, ...] = field(default=(), metadata=AS_COLUMNS)
    # links to other sites (check_external only)
    external: tuple[ExternalRef, ...] = field(default=(), metadata=AS_COLUMNS)
    # pages to render (render.decision), queued with the batch (durable.render_queue)
    render: tuple[RenderCandidate, ...] = ()
    # The batch is rendered pages (workflow.render_step): URLs it finds that the frontier does
    # not hold yet enter it as script links (durable.frontier.FrontierSource.SCRIPT).
    from_rendered: bool = False


@dataclass(frozen=True, slots=True)
class RenderCandidate(JsonRecord):
    """A crawled page queued for rendering (render.decision, durable.render_queue), with what its
    raw fetch left: the answer's URL, status, time and the headers the page's rules read, and
    the raw HTML's facts, so the render step audits the rendered HTML as the crawl audited the
    raw one (crawl.rendered_pages) and can set the two side by side."""

    url: str
    reason: RenderReason
    final_url: str
    status: int
    elapsed_ms: float
    headers: dict[str, str]
    raw_facts: PageFacts
    depth: int | None = None
    in_sitemap: bool = False


@dataclass(frozen=True, slots=True)
class RenderClaim(JsonRecord):
    """The pages leased to one render step, and how many wait unleased after the claim."""

    candidates: tuple[RenderCandidate, ...]
    is_retry: bool
    pending: int


@dataclass(frozen=True, slots=True)
class RenderOutcome(JsonRecord):
    """What became of one leased page: `state` a durable.render_queue.RenderState value
    (rendered, failed, skipped) and, unless rendered, why."""

    url: str
    state: str
    detail: str | None = None


@dataclass(frozen=True, slots=True)
class LinkBatch(JsonRecord):
    """A page's links sent while it is still being parsed (crawl.page_links): edges, link
    fragments, links to other sites and resources to check, stored within the link budget, and
    URLs to enqueue. Idempotent: a rewrite stores nothing twice. `link_budget_bytes` None means
    the crawl's budget. The per-link tuples cross as columns (common.wire, "Columns")."""

    links: tuple[LinkRow, ...] = field(default=(), metadata=AS_COLUMNS)
    discovered: tuple[DiscoveredUrl, ...] = field(default=(), metadata=AS_COLUMNS)
    fragment_links: tuple[FragmentLink, ...] = field(default=(), metadata=AS_COLUMNS)
    external: tuple[ExternalRef, ...] = field(default=(), metadata=AS_COLUMNS)
    resources: tuple[ResourceRef, ...] = field(default=(), metadata=AS_COLUMNS)
    link_budget_bytes: int | None = None


@dataclass(frozen=True, slots=True)
class BatchResult:
    """The frontier after a batch, link edges stored (within budget) and URLs newly queued."""

    stats: FrontierStats
    links_written: int
    enqueued: int

    def to_dict(self) -> JsonObject:
        return _stats_flat(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        # The stats travel spread into the object itself (see `_stats_flat`).
        return from_json(cls, {**data, "stats": data})
