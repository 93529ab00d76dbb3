"""The AuditScratchpad's schema and RPC methods, as a mixin the Durable Object shell inherits.

All transient crawl state of one audit lives in the object's own SQLite storage (ADR 0009):
- `frontier`: every URL ever seen (the dedup set) and its state pending -> leased -> crawled,
  leases keyed by chunk number so a retried `crawl-chunk-N` step re-receives exactly its URLs;
- `links`: internal link edges for the cross-page checks, written until a storage budget trips;
- `page_mirror`: the slim per-page facts that finalize joins against.
Every method is synchronous SQL inside the object, so each RPC call is atomic, and every write is
insert-or-ignore / insert-or-replace on a stable key because workflow steps are retried.
The methods only touch `self.ctx.storage`, so they run unchanged on the local platform.
"""

from __future__ import annotations

from typing import Any

import ports

CLEANUP_AFTER_MS = 7 * 24 * 60 * 60 * 1000  # failed audits keep their state this long for resume
# Below the free plan's 1 GB SQLite cap per object (docs/original-system.md §3.3): once edges
# reach it, link edges stop being written and orphan detection is skipped as unreliable.
DEFAULT_LINK_BUDGET_BYTES = 500 * 1024 * 1024

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS frontier (
        url TEXT PRIMARY KEY,
        depth INTEGER,
        source TEXT NOT NULL CHECK (source IN ('link', 'sitemap')),
        in_sitemap INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'leased', 'crawled')),
        chunk_no INTEGER,
        found_on TEXT
    )""",
    # Claim order: link-discovered before sitemap-only, FIFO (rowid) within each class.
    "CREATE INDEX IF NOT EXISTS frontier_claim_idx ON frontier (state, source)",
    "CREATE INDEX IF NOT EXISTS frontier_chunk_idx ON frontier (chunk_no, state)",
    """CREATE TABLE IF NOT EXISTS links (
        source_url TEXT NOT NULL,
        target_url TEXT NOT NULL,
        nofollow INTEGER NOT NULL DEFAULT 0,
        anchor TEXT,
        PRIMARY KEY (source_url, target_url)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS links_target_idx ON links (target_url)",
    """CREATE TABLE IF NOT EXISTS page_mirror (
        url TEXT PRIMARY KEY,
        page_id TEXT NOT NULL,
        status_code INTEGER NOT NULL,
        fetch_class TEXT NOT NULL,
        final_url TEXT,
        redirect_url TEXT,
        is_html INTEGER NOT NULL DEFAULT 0,
        is_indexable INTEGER NOT NULL DEFAULT 1,
        canonical_url TEXT,
        title TEXT,
        meta_description TEXT,
        content_hash TEXT,
        word_count INTEGER NOT NULL DEFAULT 0,
        javascript_shell INTEGER NOT NULL DEFAULT 0,
        depth INTEGER,
        in_sitemap INTEGER NOT NULL DEFAULT 0,
        hreflang_json TEXT NOT NULL DEFAULT '[]'
    )""",
    "CREATE INDEX IF NOT EXISTS page_mirror_redirect_idx ON page_mirror (redirect_url)",
    "CREATE TABLE IF NOT EXISTS scratchpad_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # Sitemap URLs that robots.txt disallows: never fetched, reported as sitemap hygiene issues.
    "CREATE TABLE IF NOT EXISTS sitemap_blocked (url TEXT PRIMARY KEY) WITHOUT ROWID",
)
_MIRROR_COLUMNS = (
    "url",
    "page_id",
    "status_code",
    "fetch_class",
    "final_url",
    "redirect_url",
    "is_html",
    "is_indexable",
    "canonical_url",
    "title",
    "meta_description",
    "content_hash",
    "word_count",
    "javascript_shell",
    "depth",
    "in_sitemap",
    "hreflang_json",
)


def scratchpad_stub(env: Any, audit_id: str) -> Any:
    """The RPC stub of an audit's scratchpad: one object per audit, `idFromName(audit id)`."""
    namespace = env.AUDIT_SCRATCHPAD
    return namespace.get(namespace.idFromName(audit_id))


def _link_bytes(link: dict[str, Any]) -> int:
    """What one stored edge costs, counted by us: the runtime's `databaseSize` cannot be used,
    because the SDK wrapper freezes it at its first read for the life of the object. Twice the
    text (row plus the target index) and a fixed overhead per row."""
    text = len(link["source_url"]) + len(link["target_url"]) + len(link.get("anchor") or "")
    return 2 * text + 32


class ScratchpadMethods:
    ctx: Any
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
        self.ctx.blockConcurrencyWhile(self._ensure_cleanup_alarm)

    async def _ensure_cleanup_alarm(self) -> None:
        if await self.ctx.storage.getAlarm() is None:
            await self.ctx.storage.setAlarm(ports.now_ms() + CLEANUP_AFTER_MS)

    async def destroy(self) -> dict[str, Any]:
        """Delete the alarm, then every row: the object stops being billed for storage."""
        await self.ctx.storage.deleteAlarm()
        await self.ctx.storage.deleteAll()
        # The instance may live on in memory; a later call (a retried step) reopens the schema
        # and re-arms the cleanup alarm, so nothing it writes outlives the 7 days.
        self._destroyed = True
        return {"destroyed": True}

    async def alarm(self) -> None:
        await self.destroy()

    # -- seeding --------------------------------------------------------------------------------

    def seed_start(self, url: str) -> dict[str, Any]:
        if self._known(url):
            return {"inserted": False}
        self._sql("INSERT INTO frontier (url, depth, source) VALUES (?, 0, 'link')", url)
        return {"inserted": True}

    def seed_sitemap_urls(self, urls: list[str]) -> dict[str, Any]:
        """Upsert sitemap URLs: new ones queue as sitemap-only; known ones only gain in_sitemap."""
        inserted = 0

        def write() -> None:
            nonlocal inserted
            for url in urls:
                if self._known(url):
                    self._sql("UPDATE frontier SET in_sitemap = 1 WHERE url = ?", url)
                else:
                    self._sql(
                        "INSERT INTO frontier (url, depth, source, in_sitemap) "
                        "VALUES (?, NULL, 'sitemap', 1)",
                        url,
                    )
                    inserted += 1

        self.ctx.storage.transactionSync(write)
        return {"received": len(urls), "inserted": inserted}

    def note_sitemap_blocked(self, urls: list[str]) -> dict[str, Any]:
        def write() -> None:
            for url in urls:
                self._sql("INSERT OR IGNORE INTO sitemap_blocked (url) VALUES (?)", url)

        self.ctx.storage.transactionSync(write)
        return {"received": len(urls)}

    def sitemap_blocked_urls(self, after: str = "", limit: int = 2000) -> list[str]:
        rows = self._rows(
            "SELECT url FROM sitemap_blocked WHERE url > ? ORDER BY url LIMIT ?", after, limit
        )
        return [row["url"] for row in rows]

    # -- crawl configuration ----------------------------------------------------------------------

    def save_crawl_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Keep discovery's results (final URL, robots.txt text) for every later chunk.

        Rules are re-parsed from the stored text in each step, so retries and replays use
        identical rules, and no step result has to carry up to 500 KiB of robots.txt.
        """

        def write() -> None:
            for key in ("final_url", "robots_txt"):
                self._set_meta(f"config:{key}", str(config.get(key) or ""))

        self.ctx.storage.transactionSync(write)
        return {"saved": True}

    def crawl_config(self) -> dict[str, Any]:
        return {key: self._meta(f"config:{key}") for key in ("final_url", "robots_txt")}

    # -- leasing --------------------------------------------------------------------------------

    def claim_chunk(self, chunk_no: int, limit: int) -> dict[str, Any]:
        """Lease up to `limit` pending URLs to chunk `chunk_no`; idempotent per chunk number.

        A retried step gets back exactly the URLs still leased to its chunk; a chunk number that
        already crawled something gets nothing new (claiming a fresh set under a used number would
        duplicate work and overrun max pages).
        """
        leased = self._rows(
            "SELECT url, depth, in_sitemap FROM frontier WHERE chunk_no = ? AND state = 'leased' "
            "ORDER BY rowid",
            chunk_no,
        )
        if leased:
            return {"urls": leased, "is_retry": True}
        crawled = self._sql(
            "SELECT 1 AS hit FROM frontier WHERE chunk_no = ? AND state = 'crawled' LIMIT 1",
            chunk_no,
        ).toArray()
        if crawled:
            return {"urls": [], "is_retry": True}
        if limit <= 0:
            return {"urls": [], "is_retry": False}
        return {"urls": self._lease(chunk_no, limit), "is_retry": False}

    def _lease(self, chunk_no: int, limit: int) -> list[dict[str, Any]]:
        def lease() -> list[dict[str, Any]]:
            rows = self._rows(
                "SELECT url, depth, in_sitemap FROM frontier WHERE state = 'pending' "
                "ORDER BY CASE source WHEN 'link' THEN 0 ELSE 1 END, rowid LIMIT ?",
                limit,
            )
            for row in rows:
                self._sql(
                    "UPDATE frontier SET state = 'leased', chunk_no = ? WHERE url = ?",
                    chunk_no,
                    row["url"],
                )
            return rows

        return self.ctx.storage.transactionSync(lease)

    def release_urls(self, urls: list[str]) -> dict[str, Any]:
        """Return still-leased URLs to the queue (soft-deadline leftovers)."""
        released = 0

        def release() -> None:
            nonlocal released
            for url in urls:
                leased = self._sql(
                    "SELECT 1 AS hit FROM frontier WHERE url = ? AND state = 'leased'", url
                ).toArray()
                if leased:
                    self._sql(
                        "UPDATE frontier SET state = 'pending', chunk_no = NULL WHERE url = ?", url
                    )
                    released += 1

        self.ctx.storage.transactionSync(release)
        return {"released": released}

    def prepare_resume(self) -> dict[str, Any]:
        """Make a failed audit's frontier crawlable again; returns where the next run starts.

        Leases of the dead run go back to pending (their chunk may never have finished), and the
        next chunk number continues after the highest used, so no new claim collides with a
        chunk that already crawled something.
        """

        def reopen() -> int:
            row = self._sql("SELECT COALESCE(MAX(chunk_no), 0) AS last FROM frontier").one()
            self._sql(
                "UPDATE frontier SET state = 'pending', chunk_no = NULL WHERE state = 'leased'"
            )
            return int(row["last"])

        last_chunk = self.ctx.storage.transactionSync(reopen)
        return {
            **self.stats(),
            "last_chunk": last_chunk,
            "configured": bool(self._meta("config:final_url")),
        }

    # -- recording ------------------------------------------------------------------------------

    def record_batch(self, batch: dict[str, Any]) -> dict[str, Any]:
        """Persist one crawled sub-batch atomically and return the frontier stats after it.

        `batch`: {"crawled": [url], "pages": [mirror row dict], "links": [{source_url, target_url,
        nofollow, anchor}], "discovered": [{url, depth, found_on}], "link_budget_bytes": int}.
        A mirror row has the `page_mirror` columns; booleans as 0/1, `hreflang_json` a JSON list
        of {"lang", "url"} with absolute normalised URLs.
        """
        budget = int(batch.get("link_budget_bytes") or DEFAULT_LINK_BUDGET_BYTES)

        def write() -> dict[str, int]:
            for url in batch.get("crawled", []):
                self._sql("UPDATE frontier SET state = 'crawled' WHERE url = ?", url)
            for page in batch.get("pages", []):
                self._upsert_mirror(page)
            links_written = self._write_links(batch.get("links", []), budget)
            enqueued = self._enqueue(batch.get("discovered", []))
            return {"links_written": links_written, "enqueued": enqueued}

        written = self.ctx.storage.transactionSync(write)
        return {**self.stats(), **written}

    def _upsert_mirror(self, page: dict[str, Any]) -> None:
        values = [page.get(column) for column in _MIRROR_COLUMNS]
        placeholders = ", ".join("?" for _ in _MIRROR_COLUMNS)
        self._sql(
            f"INSERT OR REPLACE INTO page_mirror ({', '.join(_MIRROR_COLUMNS)}) VALUES ({placeholders})",
            *values,
        )

    def _write_links(self, links: list[dict[str, Any]], budget: int) -> int:
        if not links or self._meta("links_truncated") == "1":
            return 0
        used = int(self._meta("link_bytes") or 0)
        written = 0
        for link in links:
            size = _link_bytes(link)
            if used + size > budget:
                # Once the budget is reached the link graph is incomplete for good: orphan
                # detection is skipped rather than reporting pages whose inbound links were lost.
                self._set_meta("links_truncated", "1")
                break
            self._sql(
                "INSERT OR IGNORE INTO links (source_url, target_url, nofollow, anchor) VALUES (?, ?, ?, ?)",
                link["source_url"],
                link["target_url"],
                int(bool(link.get("nofollow"))),
                link.get("anchor"),
            )
            used += size
            written += 1
        self._set_meta("link_bytes", str(used))
        return written

    def _enqueue(self, discovered: list[dict[str, Any]]) -> int:
        enqueued = 0
        for item in discovered:
            if self._known(item["url"]):
                continue  # the frontier is the global dedup set: a seen URL keeps its row
            self._sql(
                "INSERT INTO frontier (url, depth, source, found_on) VALUES (?, ?, 'link', ?)",
                item["url"],
                item.get("depth"),
                item.get("found_on"),
            )
            enqueued += 1
        return enqueued

    # -- reading --------------------------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        counts = {
            row["state"]: row["n"]
            for row in self._rows("SELECT state, COUNT(*) AS n FROM frontier GROUP BY state")
        }
        return {
            "seen": sum(counts.values()),
            "pending": counts.get("pending", 0),
            "leased": counts.get("leased", 0),
            "crawled": counts.get("crawled", 0),
            "links_truncated": self._meta("links_truncated") == "1",
        }

    # -- helpers --------------------------------------------------------------------------------

    def _sql(self, query: str, *bindings: Any) -> Any:
        if self._destroyed:
            self.open_scratchpad()
        return self.ctx.storage.sql.exec(query, *bindings)

    def _rows(self, query: str, *bindings: Any) -> list[dict[str, Any]]:
        return [dict(row) for row in self._sql(query, *bindings).toArray()]

    def _meta(self, key: str) -> str | None:
        rows = self._rows("SELECT value FROM scratchpad_meta WHERE key = ?", key)
        return rows[0]["value"] if rows else None

    def _set_meta(self, key: str, value: str) -> None:
        self._sql("INSERT OR REPLACE INTO scratchpad_meta (key, value) VALUES (?, ?)", key, value)

    def _known(self, url: str) -> bool:
        return bool(self._sql("SELECT 1 AS hit FROM frontier WHERE url = ?", url).toArray())
