"""The AuditScratchpad's schema and RPC methods, as a mixin the Durable Object shell inherits.

All transient crawl state of one audit lives in the object's own SQLite storage (ADR 0009), one
module per table group, each holding its schema and SQL:
- `frontier` (durable.frontier, its SQL here): every URL ever seen (the dedup set) and its state
  pending -> leased -> crawled, leases keyed by chunk number so a retried `crawl-chunk-N` step
  re-receives exactly its URLs; `frontier_counts` keeps its rows per state;
- `links`/`external_edges`/`link_alts` (durable.links): link edges, internal ones for the
  cross-page checks, all of them for the link graph the report keeps (durable.link_graph),
  written until a storage budget trips;
- `page_mirror` (durable.page_mirror): the slim per-page facts that finalize joins against;
- `fragment_pages`/`fragment_targets`/`link_fragments` (durable.fragments): the fragment targets
  of crawled HTML pages and internal links' fragments, within the same link budget;
- `resources`/`resource_refs` (durable.resources): internal resources to check once each, and
  the pages that reference them;
- `external_links`/`external_refs` (durable.external_links): links to other sites to check once
  each (the `check_external` option), and the pages that link them;
- `recent_pages` (durable.progress_feed): the live progress feed;
- `site_facts` (durable.site_facts): the crawl's distinct security and exposure facts;
- `sitemap_blocked` (durable.sitemap_blocked): sitemap URLs robots.txt disallows;
- `render_queue`/`script_links` (durable.render_queue): pages to render and what became of them,
  and the URLs only a rendered DOM linked (issue 30);
- `scratchpad_meta` (here): configuration, the link budget's use, the external phase's clock.
Every method is synchronous SQL inside the object, so each RPC call is atomic, and every write is
insert-or-ignore / upsert / insert-or-replace on a stable key because workflow steps are retried.
Batches go to SQLite as one JSON array per statement (durable.json_batches), not one statement per
URL. `ScratchpadCore` takes and returns records; `ScratchpadMethods`, the shell's mixin, serves
it over RPC, one endpoint per row of `durable.rpc.METHODS`, which converts to and from JSON. The
methods only touch `self.ctx.storage`, so they run unchanged on the local platform.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from operator import is_not, itemgetter

from audit.external_links import ExternalStop
from common import ports
from common.bindings import DurableObjectCtx, SqlCursor, SqlRow, SqlValue
from common.settings import CLEANUP_AFTER_MS, CRAWL
from common.wire import JsonValue, as_int, as_str
from durable import external_links as ext
from durable import fragments, page_mirror, progress_feed, rpc, site_facts, sitemap_blocked
from durable import links as edges
from durable import render_queue as renders
from durable import resources as res
from durable.finalize import FinalizeQueries
from durable.frontier import (
    SCHEMA as FRONTIER_SCHEMA,
)
from durable.frontier import (
    FrontierEvent,
    FrontierSource,
    FrontierState,
    move_sql,
    sources_of,
    target_of,
)
from durable.json_batches import json_arrays, json_slices
from durable.link_graph import LinkGraphQueries
from durable.records import (
    BatchResult,
    Claim,
    ClaimRequest,
    ConfigSaved,
    CrawlConfig,
    CrawledEntry,
    Destroyed,
    DiscoveredUrl,
    ExternalCheck,
    ExternalClaim,
    ExternalClaimRequest,
    ExternalProgress,
    ExternalRef,
    ExternalStopped,
    FragmentLink,
    FragmentTargets,
    FrontierStats,
    LeasedUrl,
    LinkBatch,
    LinkRow,
    MirrorRow,
    Progress,
    ProgressRequest,
    RecordBatch,
    ReleaseResult,
    RenderCandidate,
    RenderClaim,
    RenderOutcome,
    ResourceCheck,
    ResourceClaim,
    ResourceRef,
    ResumeState,
    SeedResult,
    SiteFact,
    SiteFactsPage,
    SiteFactsRequest,
    SitemapBlockedPage,
    SitemapBlockedRequest,
)
from durable.render_queue import RenderState
from render.decision import SAMPLE_MAX_PAGES, RenderReason
from render.records import RenderCounts

_SCHEMA = (
    *FRONTIER_SCHEMA,
    *res.SCHEMA,
    *ext.SCHEMA,
    *edges.SCHEMA,
    *page_mirror.SCHEMA,
    *fragments.SCHEMA,
    "CREATE TABLE IF NOT EXISTS scratchpad_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    *sitemap_blocked.SCHEMA,
    *progress_feed.SCHEMA,
    *site_facts.SCHEMA,
    *renders.SCHEMA,
)

# Claim order, in levels: link-discovered URLs breadth-first (by depth), then those of unknown
# depth (found on sitemap-only pages), then sitemap-only ones; URL order within a level. A level
# is claimed only once every URL of the levels before it is crawled (none pending or leased): a
# barrier, so that identical crawls of an unchanged site agree (issue 24, docs/timing.md, "The
# same crawl"). Without it a page of depth d+1 could be fetched while a slow page of depth d was
# still in flight, and the URLs both link to would take the first discoverer's depth (a
# different `deep-page` set from run to run), and a crawl capped by max_pages would keep whichever
# pages were discovered first (rowid order followed the order in which pages finished). With it,
# a URL's depth is its shortest link distance from the start URL, and the pages a capped crawl
# keeps are the first levels whole and the last one's first URLs in URL order. The window drains
# at each level's end (one page's time per level); breadth-first also matters since pages stream
# their links while parsed (crawl.page_stream), and a page of 10,000 links must not crowd out
# shallower URLs.
_LEVEL = (
    f"CASE WHEN source <> '{FrontierSource.LINK.value}' THEN 2000000000 "
    "WHEN depth IS NULL THEN 1000000000 ELSE depth END"
)
_LEASE_LEVEL = (
    f"WITH floor AS (SELECT MIN({_LEVEL}) AS level FROM frontier WHERE state IN "
    f"('{FrontierState.PENDING.value}', '{FrontierState.LEASED.value}')) "
    "SELECT url, depth, in_sitemap FROM frontier, floor "
    f"WHERE state = '{FrontierState.PENDING.value}' AND {_LEVEL} = floor.level "
    "ORDER BY url LIMIT ?"
)
# A URL seen again at a smaller depth while still pending takes that depth: under the barrier
# only a redirect (whose target keeps the redirecting page's depth) can find a URL of the level
# being crawled after a sibling queued it one level deeper. A pending URL of unknown depth (the
# sitemap listed it first) takes the depth of the first link that reaches it and becomes a link
# URL, crawled in that link's level, so every page links reach has its link distance from the
# start (issue 27: 108 of 114 pages of a site whose sitemap lists them had "unknown" depth).
# Sitemap URLs are leased only once no link URL is pending (`_LEVEL`), so a link with a known
# depth always finds them still pending. RETURNING yields updated rows too; the caller counts as
# new only rowids past the table's largest before the statement.
_ENQUEUE_LINKS = (
    "INSERT INTO frontier (url, depth, source, found_on) "
    "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), "
    f"'{FrontierSource.LINK.value}', json_extract(value, '$[2]') "
    "FROM json_each(?) WHERE true ORDER BY key "
    "ON CONFLICT(url) DO UPDATE SET depth = excluded.depth, found_on = excluded.found_on, "
    "source = excluded.source "
    f"WHERE frontier.state = '{FrontierState.PENDING.value}' AND excluded.depth IS NOT NULL "
    "AND (frontier.depth IS NULL OR excluded.depth < frontier.depth) "
    "RETURNING rowid AS row, url, found_on"
)
# A URL already known only gains in_sitemap. The guard `WHERE in_sitemap = 0` means an updated
# row is always a link-sourced one (sitemap rows are born with in_sitemap = 1 and never lose it),
# so the rows RETURNING reports with source 'sitemap' are exactly the inserted ones.
_SEED_SITEMAP = (
    "INSERT INTO frontier (url, depth, source, in_sitemap) "
    f"SELECT value, NULL, '{FrontierSource.SITEMAP.value}', 1 FROM json_each(?) WHERE true "
    "ORDER BY key ON CONFLICT(url) DO UPDATE SET in_sitemap = 1 WHERE in_sitemap = 0 "
    "RETURNING source"
)


_is_not_none = partial(is_not, None)  # an edge's image alt is set (`edges.WRITE_ALTS` reads it)


class ScratchpadCore:
    """The typed implementation: records in, records out. `ScratchpadMethods` serves it over RPC."""

    # The runtime's DurableObjectState (a JsProxy in Workers, local_platform's in CPython).
    ctx: DurableObjectCtx
    _destroyed: bool = False

    # -- lifecycle ------------------------------------------------------------------------------

    def open_scratchpad(self) -> None:
        """Create the schema and make sure a cleanup alarm exists; runs on every construction.

        Arming the alarm on every construction (if none is set) means even a write that races in
        after destroy() is eventually wiped.
        """
        self._destroyed = False
        for statement in _SCHEMA:
            self.ctx.storage.sql.exec(statement)
        self._ensure_resource_columns()
        self._ensure_counts()
        self.ctx.blockConcurrencyWhile(self._ensure_cleanup_alarm)

    def _ensure_resource_columns(self) -> None:
        """An object created before `resources.content_type` existed gains the column, so an
        audit running across the deploy records its checks (Durable Objects' SQLite allows
        PRAGMA table_info and ALTER TABLE ADD COLUMN)."""
        rows = self.ctx.storage.sql.exec(res.COLUMNS).toArray()
        if not any(row["name"] == "content_type" for row in rows):
            self.ctx.storage.sql.exec(res.ADD_CONTENT_TYPE)

    def _ensure_counts(self) -> None:
        """Start the per-state counts. An object created before they existed counts its rows
        once; one statement, so a crash cannot leave some states counted and others not."""
        self.ctx.storage.sql.exec(
            "INSERT INTO frontier_counts (state, n) "
            "SELECT s.value, (SELECT COUNT(*) FROM frontier WHERE state = s.value) "
            "FROM json_each(?) AS s WHERE NOT EXISTS (SELECT 1 FROM frontier_counts)",
            json.dumps([state.value for state in FrontierState]),
        )

    async def _ensure_cleanup_alarm(self) -> None:
        if await self.ctx.storage.getAlarm() is None:
            await self.ctx.storage.setAlarm(ports.now_ms() + CLEANUP_AFTER_MS)

    async def _destroy(self) -> Destroyed:
        """Delete the alarm, then every row: the object stops being billed for storage."""
        await self.ctx.storage.deleteAlarm()
        await self.ctx.storage.deleteAll()
        # The instance may live on in memory; a later call (a retried step) reopens the schema
        # and re-arms the cleanup alarm, so nothing it writes outlives the 7 days.
        self._destroyed = True
        return Destroyed()

    async def alarm(self) -> None:
        await self._destroy()

    # -- seeding --------------------------------------------------------------------------------

    def _seed_start(self, url: str) -> SeedResult:
        def write() -> int:
            added = self._sql(
                "INSERT OR IGNORE INTO frontier (url, depth, source) VALUES (?, 0, ?) "
                "RETURNING 1 AS added",
                url,
                FrontierSource.LINK.value,
            ).toArray()
            self._count(FrontierState.PENDING, len(added))
            return len(added)

        inserted: int = self.ctx.storage.transactionSync(write)
        return SeedResult(received=1, inserted=inserted)

    def _seed_sitemap_urls(self, urls: Sequence[str]) -> SeedResult:
        """Upsert sitemap URLs: new ones queue as sitemap-only; known ones only gain in_sitemap."""

        def write() -> int:
            inserted = 0
            for batch in json_arrays(list[JsonValue](urls)):
                rows = self._rows(_SEED_SITEMAP, batch)
                inserted += sum(1 for row in rows if row["source"] == FrontierSource.SITEMAP)
            self._count(FrontierState.PENDING, inserted)
            return inserted

        inserted: int = self.ctx.storage.transactionSync(write)
        return SeedResult(received=len(urls), inserted=inserted)

    def _note_sitemap_blocked(self, urls: Sequence[str]) -> SeedResult:
        def write() -> int:
            batches = json_arrays(list[JsonValue](urls))
            return sum(len(self._rows(sitemap_blocked.ADD, batch)) for batch in batches)

        inserted: int = self.ctx.storage.transactionSync(write)
        return SeedResult(received=len(urls), inserted=inserted)

    def _sitemap_blocked_urls(self, page: SitemapBlockedRequest) -> SitemapBlockedPage:
        rows = self._rows(sitemap_blocked.PAGE, page.after, page.limit)
        return SitemapBlockedPage(tuple(as_str(row["url"]) for row in rows))

    # -- crawl configuration ----------------------------------------------------------------------

    def _save_crawl_config(self, saved: CrawlConfig) -> ConfigSaved:
        """Keep discovery's results (final URL, robots.txt text) for every later chunk.

        Rules are re-parsed from the stored text in each step, so retries and replays use
        identical rules, and no step result has to carry up to 500 KiB of robots.txt.
        """

        def write() -> None:
            self._set_meta("config:final_url", saved.final_url)
            self._set_meta("config:robots_txt", saved.robots_txt)

        self.ctx.storage.transactionSync(write)
        return ConfigSaved()

    def _crawl_config(self) -> CrawlConfig:
        return CrawlConfig(
            final_url=self._meta("config:final_url") or "",
            robots_txt=self._meta("config:robots_txt") or "",
        )

    # -- leasing --------------------------------------------------------------------------------

    def _claim_chunk(self, claim: ClaimRequest) -> Claim:
        """Lease up to `limit` pending URLs to chunk `chunk_no`; idempotent per chunk number.

        A retried step gets back exactly the URLs still leased to its chunk; a chunk number that
        already crawled something gets nothing new (claiming a fresh set under a used number would
        duplicate work and overrun max pages).
        """
        leased = self._rows(
            "SELECT url, depth, in_sitemap FROM frontier WHERE chunk_no = ? AND state = ? "
            "ORDER BY rowid",
            claim.chunk_no,
            FrontierState.LEASED.value,
        )
        if leased:
            return Claim(_leased_urls(leased), is_retry=True)
        crawled = self._sql(
            "SELECT 1 AS hit FROM frontier WHERE chunk_no = ? AND state = ? LIMIT 1",
            claim.chunk_no,
            FrontierState.CRAWLED.value,
        ).toArray()
        if crawled:
            return Claim((), is_retry=True)
        if claim.limit <= 0:
            return Claim((), is_retry=False)
        return Claim(self._lease(claim.chunk_no, claim.limit), is_retry=False)

    def _claim_more(self, claim: ClaimRequest) -> Claim:
        """Lease up to `limit` more pending URLs to a running chunk that has used up its claim
        (the frontier was short when it claimed: the first chunk leases only the start URL).

        The caller keeps the chunk's total within its own limit. A retried chunk gets every URL
        still leased to its number back from `claim_chunk`, these included, so nothing leased here
        is lost; a repeated call leases further URLs, which the chunk or its retry crawls.
        """
        if claim.limit <= 0:
            return Claim((), is_retry=False)
        return Claim(self._lease(claim.chunk_no, claim.limit), is_retry=False)

    def _lease(self, chunk_no: int, limit: int) -> tuple[LeasedUrl, ...]:
        def lease() -> tuple[LeasedUrl, ...]:
            rows = self._rows(_LEASE_LEVEL, limit)
            urls = _leased_urls(rows)
            self._move(FrontierEvent.LEASE, [leased.url for leased in urls], chunk_no)
            return urls

        leased: tuple[LeasedUrl, ...] = self.ctx.storage.transactionSync(lease)
        return leased

    def _release_urls(self, urls: Sequence[str]) -> ReleaseResult:
        """Return still-leased URLs to the queue (soft-deadline leftovers)."""
        released: int = self.ctx.storage.transactionSync(
            lambda: self._move(FrontierEvent.RELEASE, urls)
        )
        return ReleaseResult(released)

    def _prepare_resume(self) -> ResumeState:
        """Make a failed audit's frontier crawlable again; returns where the next run starts.

        Leases of the dead run go back to pending (their chunk may never have finished), and the
        next chunk number continues after the highest used, so no new claim collides with a
        chunk that already crawled something.
        """

        def reopen() -> int:
            row = self._sql(
                "SELECT MAX((SELECT COALESCE(MAX(chunk_no), 0) FROM frontier), "
                "(SELECT COALESCE(MAX(chunk_no), 0) FROM resources)) AS last"
            ).one()
            self._move(FrontierEvent.RELEASE, None)
            self._sql(res.RELEASE_ALL)
            self._sql(renders.RELEASE_ALL)  # pages the dead run's render steps had leased
            # The resumed instance's external-links steps lease from number 1 again, with a
            # time budget of their own.
            self._sql(ext.RELEASE_ALL)
            self._sql(ext.FORGET_LEASES)
            self._sql(
                "DELETE FROM scratchpad_meta WHERE key IN (?, ?)", ext.STARTED_KEY, ext.STOP_KEY
            )
            return as_int(row["last"])

        last_chunk: int = self.ctx.storage.transactionSync(reopen)
        pending = as_int(self._sql(res.PENDING).one()["n"])
        return ResumeState(self._stats(), last_chunk, self._crawl_config().configured, pending)

    # -- recording ------------------------------------------------------------------------------

    def _record_batch(self, parsed: RecordBatch) -> BatchResult:
        """Persist one crawled sub-batch atomically."""
        # Once edges reach the budget, link edges stop being written and orphan detection is
        # skipped as unreliable.
        budget = parsed.link_budget_bytes or CRAWL.link_budget_bytes

        def write() -> tuple[int, int]:
            self._move(FrontierEvent.CRAWL, list(parsed.crawled))
            self._upsert_mirror(parsed.pages)
            self._note_progress(parsed.progress)
            self._write_site_facts(parsed.facts)
            links_written = self._write_links(parsed.links, budget)
            self._write_fragments(parsed.fragment_targets, parsed.fragment_links, budget)
            self._write_resources(parsed.resources, budget)
            self._write_external(parsed.external, budget)
            self._queue_renders(parsed.render)
            return links_written, self._enqueue(parsed.discovered, parsed.from_rendered)

        links_written, enqueued = self.ctx.storage.transactionSync(write)
        return BatchResult(self._stats(), links_written, enqueued)

    def _record_links(self, parsed: LinkBatch) -> BatchResult:
        """Persist links a page sends while it is parsed: its edges within the link budget and
        its URLs to enqueue, atomically. Idempotent."""
        budget = parsed.link_budget_bytes or CRAWL.link_budget_bytes

        def write() -> tuple[int, int]:
            self._write_fragments((), parsed.fragment_links, budget)
            self._write_external(parsed.external, budget)
            self._write_resources(parsed.resources, budget)
            return self._write_links(parsed.links, budget), self._enqueue(parsed.discovered)

        links_written, enqueued = self.ctx.storage.transactionSync(write)
        return BatchResult(self._stats(), links_written, enqueued)

    def _note_progress(self, entries: Sequence[CrawledEntry]) -> None:
        for batch in json_arrays([entry.to_dict() for entry in entries]):
            self._sql(progress_feed.NOTE, batch)
        if entries:
            self._sql(progress_feed.TRIM, progress_feed.FEED_SIZE)

    def _write_site_facts(self, facts: Sequence[SiteFact]) -> None:
        items: list[JsonValue] = [fact.to_dict() for fact in facts]
        for batch in json_arrays(items):
            self._sql(site_facts.WRITE, batch)

    def _site_facts(self, page: SiteFactsRequest) -> SiteFactsPage:
        """One page of a kind's facts, in value order after `after`."""
        rows = self._rows(site_facts.PAGE, page.kind.value, page.after, page.limit)
        return SiteFactsPage(tuple(SiteFact.from_dict(row) for row in rows))

    def _recent_pages(self, request: ProgressRequest) -> Progress:
        """The live feed: newest crawled URLs first, and the frontier's counts."""
        limit = min(max(request.limit, 0), progress_feed.FEED_SIZE)
        rows = self._rows(progress_feed.NEWEST, limit)
        recent = tuple(CrawledEntry.from_dict(row) for row in rows)
        return Progress(recent, self._stats(), self._external_progress())

    def _upsert_mirror(self, pages: Sequence[MirrorRow]) -> None:
        for batch in json_arrays(list(pages)):
            self._sql(page_mirror.UPSERT, batch)

    def _write_links(self, links: Sequence[LinkRow], budget: int) -> int:
        """Store new edges until the byte budget trips, internal ones first (the cross-page
        checks need them); returns how many were new and fit. Edges already stored (a page
        written again) neither count nor take budget."""
        written = 0
        for external, write, stored_sql, sources_sql in (
            (False, edges.WRITE, edges.STORED, edges.SOURCES_STORED),
            (True, edges.WRITE_EXTERNAL, edges.STORED_EXTERNAL, edges.EXTERNAL_SOURCES_STORED),
        ):
            rows = [edges.edge_row(link) for link in links if link.external is external]
            fitting, arrays = self._fresh_within_budget(
                rows, 2, (sources_sql, stored_sql), edges.edge_bytes, budget
            )
            alts = any(map(_is_not_none, map(itemgetter(4), fitting)))
            for batch in arrays:
                self._sql(write, batch)
                if alts:
                    self._sql(edges.WRITE_ALTS, batch)
            written += len(fitting)
        return written

    def _fresh_within_budget[R: tuple[JsonValue, ...]](
        self,
        rows: list[R],
        key_width: int,
        lookups: tuple[str, str],
        size_of: Callable[[R], int],
        budget: int,
    ) -> tuple[Sequence[R], list[str]]:
        """`rows` (arrays whose first `key_width` items are their key, the first their source
        URL) less those the table holds and less repeats, the leading ones within the budget;
        and the JSON arrays to write them with: on a first write that fits (the usual case)
        the arrays of the rows as given, so each row is encoded once. `lookups`: whether the
        table holds any of the rows' sources (json_batches.any_source_stored), and which rows
        it holds (json_batches.stored), asked only when it holds one of their sources."""
        slices = list(json_slices(rows))
        sources_sql, stored_sql = lookups
        stored: set[int] = set()
        if self._any_source_stored(sources_sql, rows):
            stored = {
                start + as_int(row["i"])
                for start, batch in slices
                for row in self._rows(stored_sql, batch)
            }
        fresh: Sequence[R] = rows
        # A first write of distinct edges (the usual case) keeps every row: told by C-level
        # passes, not a Python step per row (issue 29).
        if stored or len(set(map(itemgetter(*range(key_width)), rows))) < len(rows):
            seen: set[tuple[JsonValue, ...]] = set()
            fresh = []
            for index, row in enumerate(rows):
                key = row[:key_width]
                if index not in stored and key not in seen:
                    seen.add(key)
                    fresh.append(row)
        fitting = self._within_budget(fresh, size_of, budget)
        if len(fitting) == len(rows):
            return fitting, [batch for _, batch in slices]
        return fitting, list(json_arrays(list(fitting)))

    def _any_source_stored(self, sources_sql: str, rows: Sequence[tuple[JsonValue, ...]]) -> bool:
        sources: list[JsonValue] = list(dict.fromkeys(map(itemgetter(0), rows)))
        return any(self._rows(sources_sql, batch) for batch in json_arrays(sources))

    def _unstored[T](
        self, items: Sequence[T], keys: list[tuple[str, str, str]], stored_sql: str
    ) -> list[T]:
        """`items` whose (source, target, fragment) key `stored_sql` does not find, first of
        each key: what a rewrite (a retried chunk) must neither store nor count again."""
        stored = {
            start + as_int(row["i"])
            for start, batch in json_slices(list[JsonValue](keys))
            for row in self._rows(stored_sql, batch)
        }
        seen: set[tuple[str, str, str]] = set()
        fresh = []
        for index, (item, key) in enumerate(zip(items, keys, strict=True)):
            if index not in stored and key not in seen:
                seen.add(key)
                fresh.append(item)
        return fresh

    def _write_fragments(
        self, pages: Sequence[FragmentTargets], links: Sequence[FragmentLink], budget: int
    ) -> None:
        """Store target sets and link fragments within the link budget.

        A page's set replaces what a retried batch stored for it; a set that does not fit is
        not stored at all, so a stored page always has its whole set."""
        fitting_pages = self._within_budget(pages, fragments.targets_bytes, budget)
        for urls in json_arrays([page.url for page in fitting_pages]):
            self._sql(fragments.ADD_PAGES, urls)
            self._sql(fragments.CLEAR_TARGETS, urls)
        sets: list[JsonValue] = [
            {"u": page.url, "k": list(page.keys[start : start + fragments.KEYS_PER_OBJECT])}
            for page in fitting_pages
            for start in range(0, len(page.keys), fragments.KEYS_PER_OBJECT)
        ]
        for batch in json_arrays(sets):
            self._sql(fragments.WRITE_TARGETS, batch)
        rows = [fragments.link_row(link) for link in links]
        lookups = (fragments.SOURCES_STORED, fragments.STORED)
        _, arrays = self._fresh_within_budget(rows, 3, lookups, fragments.link_bytes, budget)
        for batch in arrays:
            self._sql(fragments.WRITE_LINKS, batch)

    def _write_resources(self, refs: Sequence[ResourceRef], budget: int) -> None:
        """Resources to check (new URLs only) and their referring pages, within the budget."""
        self._write_checked(refs, res.ref_bytes, budget, res.STORED, res.ADD, res.ADD_REFS)

    def _write_external(self, refs: Sequence[ExternalRef], budget: int) -> None:
        """External URLs to check (new URLs only, in link order) and their referring pages."""
        self._write_checked(refs, ext.ref_bytes, budget, ext.STORED, ext.ADD, ext.ADD_REFS)

    def _write_checked[R: (ResourceRef, ExternalRef)](
        self,
        refs: Sequence[R],
        size_of: Callable[[R], int],
        budget: int,
        stored: str,
        add: str,
        add_refs: str,
    ) -> None:
        """URLs to check (`add`) and the pages that reference them (`add_refs`), within the
        budget; references already stored (a page written again) take no budget again."""
        keys = [(ref.source_url, ref.url, "") for ref in refs]
        fresh = self._unstored(refs, keys, stored)
        fitting = self._within_budget(fresh, size_of, budget)
        for batch in json_arrays([ref.to_dict() for ref in fitting]):
            self._sql(add, batch)
            self._sql(add_refs, batch)

    # -- resource checks ------------------------------------------------------------------------

    def _claim_resources(self, claim: ClaimRequest) -> ResourceClaim:
        """Lease up to `limit` pending resources to chunk `chunk_no`; idempotent per chunk
        number, as `claim_chunk` is. URLs the frontier holds are answered by their page."""

        def lease() -> tuple[tuple[str, ...], bool]:
            self._sql(res.TO_PAGE)
            leased = self._rows(res.LEASED_TO, claim.chunk_no)
            if leased or self._rows(res.CHECKED_BY, claim.chunk_no):
                return tuple(as_str(row["url"]) for row in leased), True
            if claim.limit <= 0:
                return (), False
            rows = self._rows(res.LEASE, claim.chunk_no, claim.limit)
            return tuple(sorted(as_str(row["url"]) for row in rows)), False

        urls, is_retry = self.ctx.storage.transactionSync(lease)
        pending = as_int(self._sql(res.PENDING).one()["n"])
        return ResourceClaim(urls, is_retry, pending)

    def _record_resources(self, checks: Sequence[ResourceCheck]) -> SeedResult:
        """Keep each resource's answer."""
        items: list[JsonValue] = [check.to_dict() for check in checks]
        return self._record_checks(res.CHECK, items)

    def _release_resources(self, urls: Sequence[str]) -> ReleaseResult:
        """Return leased resources a chunk did not check to the pending ones."""
        return self._release_leases(res.RELEASE, urls)

    # -- external link checks -------------------------------------------------------------------

    def _claim_external(self, claim: ExternalClaimRequest) -> ExternalClaim:
        """Lease up to `limit` pending external URLs to step `lease_no`, never more in all than
        the budget; idempotent per lease number, as `claim_resources` is. The first claim
        starts the phase's clock; every claim says what the checks learnt of host names."""

        def lease() -> tuple[tuple[str, ...], bool]:
            if self._meta(ext.STARTED_KEY) is None:
                self._set_meta(ext.STARTED_KEY, str(int(ports.now_ms())))
            leased = self._rows(ext.LEASED_TO, claim.lease_no)
            if leased or self._rows(ext.CHECKED_BY, claim.lease_no):
                return tuple(as_str(row["url"]) for row in leased), True
            room = min(claim.limit, claim.budget - as_int(self._sql(ext.SPENT).one()["n"]))
            if room <= 0:
                return (), False
            rows = self._rows(ext.LEASE, claim.lease_no, room)
            return tuple(sorted(as_str(row["url"]) for row in rows)), False

        urls, is_retry = self.ctx.storage.transactionSync(lease)
        pending = as_int(self._sql(ext.PENDING).one()["n"])
        spent = as_int(self._sql(ext.SPENT).one()["n"])
        over_budget = pending if spent >= claim.budget else 0
        return ExternalClaim(
            urls,
            is_retry,
            pending,
            over_budget,
            started_ms=int(self._meta(ext.STARTED_KEY) or 0),
            resolved_hosts=self._hosts(ext.RESOLVED_NAMES),
            unresolved_hosts=self._hosts(ext.UNRESOLVED_NAMES),
        )

    def _record_external(self, checks: Sequence[ExternalCheck]) -> SeedResult:
        """Keep each external URL's answer, and what it learnt of its host."""
        items: list[JsonValue] = [check.to_dict() for check in checks]
        hosts = ext.host_rows(checks)

        def write() -> None:
            for batch in json_arrays(items):
                self._sql(ext.CHECK, batch)
            for batch in json_arrays(hosts):
                self._sql(ext.NOTE_HOSTS, batch)

        self.ctx.storage.transactionSync(write)
        return SeedResult(received=len(items), inserted=len(items))

    def _release_external(self, urls: Sequence[str]) -> ReleaseResult:
        """Return leased external URLs a step did not check to the pending ones."""
        return self._release_leases(ext.RELEASE, urls)

    def _stop_external(self, stop: ExternalStop) -> ExternalStopped:
        """Note why a step stopped the external checks early; the first reason stays."""
        if self._meta(ext.STOP_KEY) is None:
            self._set_meta(ext.STOP_KEY, stop.value)
        return ExternalStopped(self._meta(ext.STOP_KEY))

    def _hosts(self, sql: str) -> tuple[str, ...]:
        return tuple(as_str(row["host"]) for row in self._rows(sql))

    def _external_progress(self) -> ExternalProgress | None:
        row = self._sql(ext.PROGRESS).one()
        if not as_int(row["urls"]):
            return None
        return ExternalProgress(
            urls=as_int(row["urls"]),
            checked=as_int(row["checked"]),
            hosts_failing=as_int(row["hosts_failing"]),
            stopped=self._meta(ext.STOP_KEY),
        )

    # Resources and external links share their lease life cycle (durable.resources,
    # durable.external_links): answers written in batches, unfinished leases released.

    def _record_checks(self, check: str, items: list[JsonValue]) -> SeedResult:
        def write() -> None:
            for batch in json_arrays(items):
                self._sql(check, batch)

        self.ctx.storage.transactionSync(write)
        return SeedResult(received=len(items), inserted=len(items))

    def _release_leases(self, release: str, urls: Sequence[str]) -> ReleaseResult:
        def write() -> int:
            batches = json_arrays(list[JsonValue](urls))
            return sum(len(self._rows(release + " RETURNING 1 AS moved", b)) for b in batches)

        released: int = self.ctx.storage.transactionSync(write)
        return ReleaseResult(released)

    def _within_budget[T](
        self, items: Sequence[T], size_of: Callable[[T], int], budget: int
    ) -> Sequence[T]:
        """The leading `items` whose sizes fit in what is left of the link budget, counted as
        spent. Once the budget is reached the link graph is incomplete for good: orphan
        detection is skipped rather than reporting pages whose inbound links were lost."""
        if not items or self._meta("links_truncated") == "1":
            return ()
        used = int(self._meta("link_bytes") or 0)
        sizes = list(map(size_of, items))
        total = sum(sizes)
        if used + total <= budget:  # all fit (the usual case): no step per item
            self._set_meta("link_bytes", str(used + total))
            return items
        count = 0
        for size in sizes:
            if used + size > budget:
                self._set_meta("links_truncated", "1")
                break
            used += size
            count += 1
        self._set_meta("link_bytes", str(used))
        return items[:count]

    def _enqueue(self, discovered: Sequence[DiscoveredUrl], by_script: bool = False) -> int:
        """Queue new URLs; a URL already seen keeps its row (the frontier is the dedup set), and
        only a pending one's depth may shrink (`_ENQUEUE_LINKS`). `by_script`: the URLs come
        from rendered pages, and those new to the frontier are marked as script links."""
        items: list[JsonValue] = [(item.url, item.depth, item.found_on) for item in discovered]
        enqueued = 0
        for batch in json_arrays(items):
            last = as_int(
                self._sql("SELECT COALESCE(MAX(rowid), 0) AS last FROM frontier").one()["last"]
            )
            new = [row for row in self._rows(_ENQUEUE_LINKS, batch) if as_int(row["row"]) > last]
            enqueued += len(new)
            if by_script and new:
                marks: list[JsonValue] = [(as_str(row["url"]), row["found_on"]) for row in new]
                self._sql(renders.MARK_SCRIPT_LINKS, json.dumps(marks))
        self._count(FrontierState.PENDING, enqueued)
        return enqueued

    # -- rendering (issue 30) -------------------------------------------------------------------

    def _queue_renders(self, candidates: Sequence[RenderCandidate]) -> None:
        """Queue pages to render; a page queued before keeps its row, and auto's sample stops at
        `SAMPLE_MAX_PAGES` rows."""
        room = SAMPLE_MAX_PAGES - as_int(self._sql(renders.SAMPLED).one()["n"])
        items: list[JsonValue] = []
        for candidate in candidates:
            if candidate.reason is RenderReason.SAMPLE:
                if room <= 0:
                    continue
                room -= 1
            items.append((candidate.url, candidate.reason.value, candidate.to_json_text()))
        for batch in json_arrays(items):
            self._sql(renders.ADD, batch)

    def _claim_renders(self, claim: ClaimRequest) -> RenderClaim:
        """Lease up to `limit` pending pages to render step `chunk_no` (its key); idempotent per
        key, as `claim_chunk` is."""

        def lease() -> tuple[tuple[RenderCandidate, ...], bool]:
            leased = self._rows(renders.LEASED_TO, claim.chunk_no)
            if leased or self._rows(renders.DONE_BY, claim.chunk_no):
                return _candidates(leased), True
            if claim.limit <= 0:
                return (), False
            return _candidates(self._rows(renders.LEASE, claim.chunk_no, claim.limit)), False

        candidates, is_retry = self.ctx.storage.transactionSync(lease)
        pending = as_int(self._sql(renders.PENDING).one()["n"])
        return RenderClaim(tuple(sorted(candidates, key=lambda c: c.url)), is_retry, pending)

    def _record_renders(self, outcomes: Sequence[RenderOutcome]) -> SeedResult:
        """Keep what became of each leased page."""
        items: list[JsonValue] = [outcome.to_dict() for outcome in outcomes]
        return self._record_checks(renders.RECORD, items)

    def _render_tally(self) -> RenderCounts:
        counts = dict.fromkeys(RenderState, 0)
        shells = 0
        reason: str | None = None
        for row in self._rows(renders.TALLY):
            state, n = RenderState(as_str(row["state"])), as_int(row["n"])
            counts[state] += n
            if state is not RenderState.RENDERED and row["reason"] == RenderReason.APP_SHELL:
                shells += n
            if state is RenderState.SKIPPED and reason is None and row["detail"] is not None:
                reason = as_str(row["detail"])
        return RenderCounts(
            rendered=counts[RenderState.RENDERED],
            failed=counts[RenderState.FAILED] + counts[RenderState.LEASED],
            skipped=counts[RenderState.SKIPPED],
            unreached=counts[RenderState.PENDING],
            shells_not_rendered=shells,
            reason=reason,
            script_links=as_int(self._sql(renders.SCRIPT_LINKS).one()["n"]),
        )

    # -- moves and counts -----------------------------------------------------------------------

    def _move(self, event: FrontierEvent, urls: Sequence[str] | None, *lead: int) -> int:
        """Apply `event` to `urls` (None: every row), one statement per allowed source state.

        Rows in a state the event may not leave are left alone (a release of a crawled URL is a
        no-op, as it always was). `lead` binds before the URLs (a lease's chunk number).
        """
        target = target_of(event)
        batches = [None] if urls is None else list(json_arrays(list[JsonValue](urls)))
        moved = 0
        for source in sources_of(event):
            if source is target:
                continue  # a replayed move changes nothing
            sql = move_sql(event, source, by_url=urls is not None)
            for batch in batches:
                bindings: tuple[SqlValue, ...] = (*lead,) if batch is None else (*lead, batch)
                count = len(self._sql(sql, *bindings).toArray())
                self._count(source, -count)
                self._count(target, count)
                moved += count
        return moved

    def _count(self, state: FrontierState, delta: int) -> None:
        if delta:
            self._sql("UPDATE frontier_counts SET n = n + ? WHERE state = ?", delta, state.value)

    # -- reading --------------------------------------------------------------------------------

    def _stats(self) -> FrontierStats:
        counts = {
            as_str(row["state"]): as_int(row["n"])
            for row in self._rows("SELECT state, n FROM frontier_counts")
        }
        return FrontierStats(
            seen=sum(counts.values()),
            pending=counts.get(FrontierState.PENDING, 0),
            leased=counts.get(FrontierState.LEASED, 0),
            crawled=counts.get(FrontierState.CRAWLED, 0),
            links_truncated=self._meta("links_truncated") == "1",
        )

    # -- helpers --------------------------------------------------------------------------------

    # Rows are the runtime's (JsDict rows holding str, int, float, bytes or None); callers read
    # them into typed values at once (`wire.from_json` for a record, `as_int`/`as_str` a column).
    def _sql(self, sql: str, *bindings: SqlValue) -> SqlCursor:
        if self._destroyed:
            self.open_scratchpad()
        return self.ctx.storage.sql.exec(sql, *bindings)

    def _rows(self, sql: str, *bindings: SqlValue) -> list[SqlRow]:
        return self._sql(sql, *bindings).toArray()

    def _meta(self, key: str) -> str | None:
        rows = self._rows("SELECT value FROM scratchpad_meta WHERE key = ?", key)
        return as_str(rows[0]["value"]) if rows else None

    def _set_meta(self, key: str, value: str) -> None:
        self._sql("INSERT OR REPLACE INTO scratchpad_meta (key, value) VALUES (?, ?)", key, value)


class ScratchpadMethods(ScratchpadCore, FinalizeQueries, LinkGraphQueries):
    """The AuditScratchpad's RPC methods (JSON in, JSON out), the mixin the Durable Object shell
    inherits: one endpoint per row of `durable.rpc.METHODS`, each converting through its row, so
    mypy checks every implementation against the row's request and response records. Not RPC:
    `open_scratchpad` and `alarm` (durable.rpc.LOCAL_ONLY)."""

    destroy = rpc.DESTROY.serve_async(ScratchpadCore._destroy)
    save_crawl_config = rpc.SAVE_CRAWL_CONFIG.serve(ScratchpadCore._save_crawl_config)
    crawl_config = rpc.CRAWL_CONFIG.serve(ScratchpadCore._crawl_config)
    seed_start = rpc.SEED_START.serve(ScratchpadCore._seed_start)
    seed_sitemap_urls = rpc.SEED_SITEMAP_URLS.serve(ScratchpadCore._seed_sitemap_urls)
    note_sitemap_blocked = rpc.NOTE_SITEMAP_BLOCKED.serve(ScratchpadCore._note_sitemap_blocked)
    sitemap_blocked_urls = rpc.SITEMAP_BLOCKED_URLS.serve(ScratchpadCore._sitemap_blocked_urls)
    site_facts = rpc.SITE_FACTS.serve(ScratchpadCore._site_facts)
    claim_chunk = rpc.CLAIM_CHUNK.serve(ScratchpadCore._claim_chunk)
    claim_more = rpc.CLAIM_MORE.serve(ScratchpadCore._claim_more)
    release_urls = rpc.RELEASE_URLS.serve(ScratchpadCore._release_urls)
    record_batch = rpc.RECORD_BATCH.serve(ScratchpadCore._record_batch)
    record_links = rpc.RECORD_LINKS.serve(ScratchpadCore._record_links)
    claim_resources = rpc.CLAIM_RESOURCES.serve(ScratchpadCore._claim_resources)
    record_resources = rpc.RECORD_RESOURCES.serve(ScratchpadCore._record_resources)
    release_resources = rpc.RELEASE_RESOURCES.serve(ScratchpadCore._release_resources)
    claim_external = rpc.CLAIM_EXTERNAL.serve(ScratchpadCore._claim_external)
    record_external = rpc.RECORD_EXTERNAL.serve(ScratchpadCore._record_external)
    release_external = rpc.RELEASE_EXTERNAL.serve(ScratchpadCore._release_external)
    stop_external = rpc.STOP_EXTERNAL.serve(ScratchpadCore._stop_external)
    stats = rpc.STATS.serve(ScratchpadCore._stats)
    prepare_resume = rpc.PREPARE_RESUME.serve(ScratchpadCore._prepare_resume)
    recent_pages = rpc.RECENT_PAGES.serve(ScratchpadCore._recent_pages)
    run_finalize_checks = rpc.RUN_FINALIZE_CHECKS.serve(FinalizeQueries._run_finalize_checks)
    link_graph = rpc.LINK_GRAPH.serve(LinkGraphQueries._link_graph)
    claim_renders = rpc.CLAIM_RENDERS.serve(ScratchpadCore._claim_renders)
    record_renders = rpc.RECORD_RENDERS.serve(ScratchpadCore._record_renders)
    render_tally = rpc.RENDER_TALLY.serve(ScratchpadCore._render_tally)


def _candidates(rows: list[SqlRow]) -> tuple[RenderCandidate, ...]:
    return tuple(RenderCandidate.from_json_text(as_str(row["candidate_json"])) for row in rows)


def _leased_urls(rows: list[SqlRow]) -> tuple[LeasedUrl, ...]:
    return tuple(LeasedUrl.from_dict(row) for row in rows)
