"""The link graph the report keeps, read out of the scratchpad a page of crawled pages at a time.

`LinkGraphQueries._link_graph(request)` serves the RPC method `link_graph` (durable.rpc): for the
crawled pages (`page_mirror`) after `request.after` in URL order, each page's kept lists
(audit.link_graph.PageLinkLists, sent in its compact form, `to_row`, each list as its JSON text):
its first `INLINKS_KEPT` inlinks from `links` (every crawled page linking to it, by URL) and its
first `OUTLINKS_KEPT` outlinks from `links` and `external_edges` (every distinct target, by URL),
each with its anchor (`link_alts` for an
image link) and, for an outlink, its target's status from `page_mirror` (crawled) or
`external_links` (checked), with both totals. A page of the answer stops at `request.max_pages`
pages or about `request.max_bytes` of links, whichever comes first, and names the URL to go on
after: one call's answer stays far under the 32 MiB RPC cap, and the workflow step that copies it
to D1 (workflow.links_step) holds one answer at a time whatever the crawl's size.

Each page costs two statements, each a seek: the inlinks walk `links_target_idx` (target, then
source: already in order), the outlinks the two tables' primary keys (source, then target); a list
that reaches its cap costs a count over the same range. The scratchpad is frozen once the crawl
ended, so a retried call reads the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from audit.link_graph import (
    INLINKS_KEPT,
    OUTLINKS_KEPT,
    AnchorKind,
    PageLinkLists,
    from_row,
    origin_prefix,
)
from common.bindings import SqlRow, SqlValue
from common.wire import JsonObject, JsonRecord, JsonValue, as_int, as_str
from durable.external_links import ExternalState
from durable.links import TARGET_INDEX

__all__ = ["LinkGraphPage", "LinkGraphQueries", "LinkGraphRequest"]

DEFAULT_PAGES = 200
MAX_PAGES = 1_000
# A page of the answer, as JSON: a few hundred pages of usual links, far under the RPC cap and
# the 2 MB a D1 value may hold, since the step binds one answer's rows as one JSON array.
DEFAULT_BYTES = 1024 * 1024

_PAGES = "SELECT url FROM page_mirror WHERE url > ? ORDER BY url LIMIT ?"
# A link as `audit.link_graph.encode_link` spells it, built by SQLite from an inner select's `url`,
# `anchor`, `alt`, `nofollow`, `external` and `status_code` (?2: the page's `origin_prefix`, or
# NULL): the anchor as `anchor_of` chooses it, the flags, a path for the page's own origin. Each
# list is one JSON text of at most its cap's links, so a page crosses from SQLite as two values
# rather than a row object per link (the per-row conversion cost most of the copy's time).
_ON_ORIGIN = "(?2 IS NOT NULL AND substr(e.url, 1, length(?2)) = ?2)"
_HAS_TEXT, _HAS_ALT = "COALESCE(e.anchor, '') <> ''", "COALESCE(e.alt, '') <> ''"
_LINK_JSON = (
    f"json_array(CASE WHEN {_ON_ORIGIN} THEN substr(e.url, length(?2)) ELSE e.url END, "
    f"CASE WHEN {_HAS_TEXT} THEN e.anchor WHEN {_HAS_ALT} THEN e.alt END, "
    f"CASE WHEN {_HAS_TEXT} THEN '{AnchorKind.TEXT.value}' "
    f"WHEN {_HAS_ALT} THEN '{AnchorKind.IMAGE.value}' ELSE '{AnchorKind.NONE.value}' END, "
    f"e.nofollow + 2 * e.external + 4 * {_ON_ORIGIN}, e.status_code)"
)
_LIST = f"SELECT json_group_array({_LINK_JSON}) AS links, COUNT(*) AS n FROM ({{}}) AS e"
_INLINKS = _LIST.format(
    "SELECT l.source_url AS url, l.anchor, a.alt, l.nofollow, 0 AS external, NULL AS status_code "
    "FROM links AS l LEFT JOIN link_alts AS a "
    "ON a.source_url = l.source_url AND a.target_url = l.target_url "
    "WHERE l.target_url = ?1 ORDER BY l.source_url LIMIT ?3"
)
_INLINKS_TOTAL = "SELECT COUNT(*) AS n FROM links WHERE target_url = ?"
_OUTLINKS = _LIST.format(
    "SELECT o.url, o.anchor, a.alt, o.nofollow, o.external, o.status_code FROM ("
    "SELECT l.target_url AS url, l.nofollow, l.anchor, 0 AS external, m.status_code "
    "FROM links AS l LEFT JOIN page_mirror AS m ON m.url = l.target_url WHERE l.source_url = ?1 "
    "UNION ALL "
    "SELECT x.target_url, x.nofollow, x.anchor, 1, c.status_code FROM external_edges AS x "
    "LEFT JOIN external_links AS c "
    f"ON c.url = x.target_url AND c.state = '{ExternalState.CHECKED.value}' "
    "WHERE x.source_url = ?1) AS o "
    "LEFT JOIN link_alts AS a ON a.source_url = ?1 AND a.target_url = o.url "
    "ORDER BY o.url LIMIT ?3"
)
_OUTLINKS_TOTAL = (
    "SELECT (SELECT COUNT(*) FROM links WHERE source_url = ?1) "
    "+ (SELECT COUNT(*) FROM external_edges WHERE source_url = ?1) AS n"
)


@dataclass(frozen=True, slots=True)
class LinkGraphRequest(JsonRecord):
    """The crawled pages after `after` (URL order), at most `max_pages` of them and about
    `max_bytes` of links (never fewer than one page)."""

    after: str = ""
    max_pages: int = DEFAULT_PAGES
    max_bytes: int = DEFAULT_BYTES

    def __post_init__(self) -> None:
        if not 1 <= self.max_pages <= MAX_PAGES:
            raise ValueError(f"max_pages must be within 1..{MAX_PAGES}, got {self.max_pages}")
        if self.max_bytes < 1:
            raise ValueError(f"max_bytes must be positive, got {self.max_bytes}")


@dataclass(frozen=True, slots=True)
class LinkGraphPage(JsonRecord):
    """The pages' kept lists as `audit.link_graph.to_row` rows (what D1 stores, so the step
    writes them as they came), and the URL to pass as `after` next (None: no page follows)."""

    # Spelled out rather than `PageLinkLists`: the rows cross as they are, unchecked by
    # `from_json` (the generic conversion of every link cost more than the copy itself).
    rows: list[list[JsonValue]]
    next_after: str | None

    def to_dict(self) -> JsonObject:
        return {"rows": list(self.rows), "next_after": self.next_after}

    def pages(self) -> list[PageLinkLists]:
        return [from_row(row) for row in self.rows]


class LinkGraphQueries:
    """Mixin of `durable.scratchpad.ScratchpadMethods`, beside `ScratchpadCore` (whose helpers it
    uses)."""

    if TYPE_CHECKING:  # provided by ScratchpadCore (its `_sql` reopens a destroyed object)

        def _rows(self, sql: str, *bindings: SqlValue) -> list[SqlRow]: ...

        def _meta(self, key: str) -> str | None: ...

    def _link_graph(self, request: LinkGraphRequest) -> LinkGraphPage:
        """One page of crawled pages' kept links; pass `next_after` back as `after` until None."""
        self._rows(TARGET_INDEX)  # the inlinks' seeks; built by the first call (durable.links)
        complete = self._meta("links_truncated") != "1"
        found = self._rows(_PAGES, request.after, request.max_pages + 1)
        urls = [as_str(row["url"]) for row in found]
        rows: list[list[JsonValue]] = []
        size = 0
        for url in urls[: request.max_pages]:
            if rows and size >= request.max_bytes:
                return LinkGraphPage(rows, urls[len(rows) - 1])
            row = self._page_row(url, complete)
            rows.append(row)
            size += len(url) + len(as_str(row[4])) + len(as_str(row[5]))
        more = len(urls) > request.max_pages
        return LinkGraphPage(rows, urls[len(rows) - 1] if more else None)

    def _page_row(self, url: str, complete: bool) -> list[JsonValue]:
        """The page's lists as `audit.link_graph.to_row` spells them, each as its JSON text."""
        prefix = origin_prefix(url)
        (inlinks,) = self._rows(_INLINKS, url, prefix, INLINKS_KEPT)
        (outlinks,) = self._rows(_OUTLINKS, url, prefix, OUTLINKS_KEPT)
        return [
            url,
            self._total(_INLINKS_TOTAL, url, as_int(inlinks["n"]), INLINKS_KEPT),
            self._total(_OUTLINKS_TOTAL, url, as_int(outlinks["n"]), OUTLINKS_KEPT),
            int(complete),
            as_str(inlinks["links"]),
            as_str(outlinks["links"]),
        ]

    def _total(self, sql: str, url: str, listed: int, kept: int) -> int:
        """A list's total: what it listed, unless it is full and more may follow (most pages
        have fewer links than the cap, and skip the count)."""
        return listed if listed < kept else as_int(self._rows(sql, url)[0]["n"])
