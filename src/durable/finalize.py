"""Finalize: every cross-page check as SQL inside the AuditScratchpad, read in pages.

`FinalizeQueries._run_finalize_checks(options)` serves the RPC method `run_finalize_checks`
(durable.rpc). It returns the issues of
`audit.cross_page` (same issues, same order) computed from `page_mirror` and `links`.

Result order: duplicate-title, duplicate-meta-description, duplicate-content, redirects,
broken-internal-link, link-to-redirect, broken-fragment, broken-resource, broken-share-image,
the external links (broken, redirected, unreachable; then the unchecked count), orphan-page,
canonical targets, hreflang return links, crawled sitemap entries, robots-blocked sitemap URLs;
within each, the specification's order.

Paging: the result can be far larger than one RPC message may carry (the cap is 32 MiB; a 50k-page
site with shared titles alone yields 50k issues), so each call returns at most `limit` issues and
at most about `max_bytes` of issue JSON, and a `next_cursor` ("<section>:<offset>") to pass back.
The scratchpad is frozen once the crawl ends, so each page recomputes only the sections it
touches, from a known offset, and pages concatenate to exactly the full result. The exception is
broken-fragment, whose query scans every stored link fragment: it is numbered into a scratch table
when read from its start, then read by number (finalize_sections.NumberedSection), since
recomputing it for every page made a link-heavy finalize cost pages x link fragments. Totals per
issue type cost a pass over every section, so only the first page (no cursor) carries them.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from audit.catalogue import IssueType
from common import settings
from common.bindings import SqlRow, SqlValue
from common.wire import JsonObject, JsonRecord, JsonValue, as_str
from durable import finalize_sections as sections
from durable import links, page_mirror
from durable.finalize_sections import Query, Section

__all__ = [
    "DEFAULT_PAGE_BYTES",
    "DEFAULT_PAGE_LIMIT",
    "FinalizeOptions",
    "FinalizePage",
    "FinalizeQueries",
]

# Each page recomputes the section it reads (nothing is stored between calls), yet a page is what
# the finalize step holds at once several times over (the RPC's JSON, the issues, their rows and
# SQL), whatever the site's size. 2,000 issues (~600 KB at ~300 bytes an issue) read a 10,000-page
# crawl's finalize result in the same time as 10,000 did, at a quarter of the traced peak
# (bench/README.md, "scale_bench.py" figures); the byte budget caps the outliers.
DEFAULT_PAGE_LIMIT = 2_000
MAX_PAGE_LIMIT = 50_000
# Far under the 32 MiB RPC cap: room for envelope overhead and for the one issue that is always
# returned even when it alone exceeds the budget (a very long redirect chain).
DEFAULT_PAGE_BYTES = 1024 * 1024

# The links' target index is built after the crawl, by its first reader (durable.links); the
# redirect index comes with the schema and is repeated so finalize does not depend on its history.
_INDEXES = (links.TARGET_INDEX, page_mirror.REDIRECT_INDEX)


@dataclass(frozen=True, slots=True)
class FinalizeOptions(JsonRecord):
    audit_id: str
    start_url: str
    crawl_completed: bool
    robots_blocked_sitemap_urls: tuple[str, ...] = ()
    cursor: str | None = None
    limit: int = DEFAULT_PAGE_LIMIT
    max_bytes: int = DEFAULT_PAGE_BYTES
    external_budget_s: float = settings.EXTERNAL.default_budget_s  # for the unchecked note
    # A list audit (auditdb.scope) follows no link: a page nothing in the list links to is not
    # an orphan of the site, so orphan pages are not checked.
    list_mode: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.limit <= MAX_PAGE_LIMIT:
            raise ValueError(f"limit must be within 1..{MAX_PAGE_LIMIT}, got {self.limit}")
        if self.max_bytes < 1:
            raise ValueError(f"max_bytes must be positive, got {self.max_bytes}")


@dataclass(frozen=True, slots=True)
class FinalizePage(JsonRecord):
    """One page of finalize issues (`DetectedIssue.to_dict()` dicts) and the cursor to the next."""

    # Spelled out rather than `JsonObject`, which `from_json` passes through unchecked.
    issues: list[dict[str, JsonValue]]
    next_cursor: str | None
    links_truncated: bool
    orphans_checked: bool
    counts: dict[str, int] | None = None  # totals per issue type; first page only
    page_counts: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> JsonObject:
        # The issues are `DetectedIssue.to_dict()` objects already: only the envelope is built.
        return {
            "issues": list(self.issues),
            "next_cursor": self.next_cursor,
            "links_truncated": self.links_truncated,
            "orphans_checked": self.orphans_checked,
            "counts": None if self.counts is None else dict(self.counts),
            "page_counts": dict(self.page_counts),
        }


def build_sections(query: Query, options: FinalizeOptions, orphans_checked: bool) -> list[Section]:
    """The sections in result order (see the module docstring)."""
    return [
        sections.duplicate_section(IssueType.DUPLICATE_TITLE, query),
        sections.duplicate_section(IssueType.DUPLICATE_META_DESCRIPTION, query),
        sections.duplicate_section(IssueType.DUPLICATE_CONTENT, query),
        sections.redirect_section(query),
        sections.link_section(IssueType.BROKEN_INTERNAL_LINK, query, options.audit_id),
        sections.link_section(IssueType.LINK_TO_REDIRECT, query, options.audit_id),
        sections.fragment_section(query),
        sections.resource_section(query),
        sections.share_image_section(query),
        sections.external_section(query),
        sections.unchecked_external_section(
            query, options.start_url, settings.EXTERNAL.budget_urls, options.external_budget_s
        ),
        sections.orphan_section(query, options.start_url, evaluate=orphans_checked),
        sections.canonical_section(query),
        sections.hreflang_section(query),
        sections.sitemap_section(query),
        sections.sitemap_blocked_section(options.robots_blocked_sitemap_urls),
    ]


def _parse_cursor(cursor: str | None, ordered: list[Section]) -> tuple[int, int]:
    if cursor is None:
        return 0, 0
    name, _, offset = cursor.rpartition(":")
    names = [section.name for section in ordered]
    if name not in names or not offset.isdigit():
        raise ValueError(f"not a finalize cursor: {cursor!r}")
    return names.index(name), int(offset)


# json.dumps(..., ensure_ascii=False) would build an encoder per call, a third of what measuring
# an issue costs.
_ENCODER = json.JSONEncoder(ensure_ascii=False)


def _json_bytes(issue: JsonObject) -> int:
    return len(_ENCODER.encode(issue).encode("utf-8", "surrogatepass"))


def read_page(
    ordered: list[Section], cursor: str | None, limit: int, max_bytes: int
) -> tuple[list[JsonObject], str | None]:
    """Up to `limit` issues (and about `max_bytes`, never fewer than one) from `cursor` on."""
    index, offset = _parse_cursor(cursor, ordered)
    issues: list[JsonObject] = []
    size = 0
    while index < len(ordered) and len(issues) < limit:
        wanted = limit - len(issues)
        chunk = ordered[index].fetch(offset, wanted)
        for issue in chunk:
            row = issue.to_dict()
            row_bytes = _json_bytes(row)
            if issues and size + row_bytes > max_bytes:
                return issues, f"{ordered[index].name}:{offset}"
            issues.append(row)
            size += row_bytes
            offset += 1
        if len(chunk) < wanted:  # the section is exhausted
            index, offset = index + 1, 0
    return issues, None if index >= len(ordered) else f"{ordered[index].name}:{offset}"


def total_counts(ordered: list[Section]) -> dict[str, int]:
    """Every issue type the sections can report, with its total (zero included)."""
    totals: Counter[IssueType] = Counter()
    for section in ordered:
        totals.update(section.counts())
    return {t.value: totals[t] for section in ordered for t in section.types}


def _page_counts(issues: list[JsonObject]) -> dict[str, int]:
    return dict(Counter(as_str(issue["issue_type"]) for issue in issues))


class FinalizeQueries:
    """Mixin of `durable.scratchpad.ScratchpadMethods`, beside `ScratchpadCore` (whose helpers it
    uses)."""

    if TYPE_CHECKING:  # provided by ScratchpadCore (its `_sql` reopens a destroyed object)

        def _rows(self, sql: str, *bindings: SqlValue) -> list[SqlRow]: ...

        def _meta(self, key: str) -> str | None: ...

    def _ensure_finalize_indexes(self) -> None:
        """Idempotent; runs at the start of every finalize call."""
        for statement in _INDEXES:
            self._rows(statement)

    def _run_finalize_checks(self, parsed: FinalizeOptions) -> FinalizePage:
        """One page of cross-page issues; pass `next_cursor` back as `cursor` until it is None."""
        self._ensure_finalize_indexes()
        links_truncated = self._meta("links_truncated") == "1"
        # A missing inbound link proves nothing while the frontier or the link graph is partial.
        orphans_checked = parsed.crawl_completed and not links_truncated and not parsed.list_mode
        ordered = build_sections(self._rows, parsed, orphans_checked)
        issues, next_cursor = read_page(ordered, parsed.cursor, parsed.limit, parsed.max_bytes)
        return FinalizePage(
            issues=issues,
            next_cursor=next_cursor,
            links_truncated=links_truncated,
            orphans_checked=orphans_checked,
            counts=total_counts(ordered) if parsed.cursor is None else None,
            page_counts=_page_counts(issues),
        )
