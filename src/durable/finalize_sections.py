"""The cross-page checks as SQL over the scratchpad's `page_mirror` and `links` tables.

Each check is a *section*: an ordered, restartable stream of issues with the same order and
content as its function in `audit.cross_page` (the executable specification). Finalize pages
through the sections in a fixed order, so a section must be able to start at any offset.

Theory of operation
-------------------
* Set-based checks (duplicates, orphans, canonical targets, hreflang, sitemap entries) are one
  ordered SELECT each, read with LIMIT/OFFSET. The SELECT also yields a `kind` column, the index
  of the issue type in the section's `types`, so totals per type are one GROUP BY over it.
* Link checks (broken links, links to redirects, broken fragments and resources) list every
  referring page, one issue each, uncapped: they are ordered SELECTs read with LIMIT/OFFSET like
  the set-based checks. The link join is pinned to start from the few crawled error/redirect
  targets and seek `links_target_idx` per target, instead of scanning every stored edge.
* Broken fragments are the exception: their query scans every stored link fragment, and a
  link-heavy site has tens of broken ones a page, so the section numbers them into a scratch table
  once (`NumberedSection`) and reads each page by number instead of by OFFSET.
* The redirect walk loads the redirect rows with one scan and walks them in Python with the
  specification's own walk; see `redirect_section` for why neither a recursive CTE nor per-hop
  lookups.
* SQLite's BINARY collation orders UTF-8 bytes, which is code point order, so `ORDER BY url`
  agrees with Python's `sorted()` on every URL a page row can hold.

Rows come from `Query`, i.e. `ctx.storage.sql.exec(...).toArray()` as plain dicts, so everything
here runs unchanged on the local platform and in the Workers runtime. Each row is read into typed
values as it arrives: a small frozen row record through `wire.from_json`, or `as_int`/`as_str` for
a column or two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from audit.catalogue import DUPLICATE_GROUP_SAMPLE, IssueType
from audit.cross_page import CrawledPage, redirect_issues
from audit.external_links import (
    ISSUE_OF,
    DnsTally,
    ExternalAnswer,
    ExternalOutcome,
    ExternalStop,
    Unchecked,
    external_issue,
    unchecked_issue,
)
from audit.issue_ids import page_id
from audit.issues import DetectedIssue
from audit.rules_social import SHARE_IMAGE_TAGS
from common.bindings import SqlRow, SqlValue
from common.wire import JsonObject, as_int, as_str, from_json
from durable import external_links as ext
from durable import fragments

__all__ = [
    "ListSection",
    "NumberedSection",
    "Query",
    "Section",
    "SqlSection",
    "canonical_section",
    "dns_tally",
    "duplicate_section",
    "external_section",
    "fragment_section",
    "hreflang_section",
    "link_section",
    "orphan_section",
    "redirect_section",
    "resource_section",
    "share_image_section",
    "sitemap_blocked_section",
    "sitemap_section",
    "unchecked_external_section",
]

Row = SqlRow


class Query(Protocol):
    """`ctx.storage.sql.exec(sql, *bindings)` with its rows read as dicts."""

    def __call__(self, sql: str, *bindings: SqlValue) -> list[Row]: ...


class Section(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def types(self) -> tuple[IssueType, ...]: ...

    def fetch(self, offset: int, limit: int) -> list[DetectedIssue]: ...

    def counts(self) -> Counter[IssueType]: ...


# Fragments shared by several sections; in the queries `p` is the page an issue lands on and
# `t` the page it points at.
_OK_2XX = "{t}.fetch_class = 'ok' AND {t}.status_code BETWEEN 200 AND 299"
# cross_page._unfit_target_type: an ok error, an ok redirect, or an ok 2xx noindex page.
_UNFIT = (
    "{t}.fetch_class = 'ok' AND ({t}.status_code >= 300 "
    "OR ({t}.status_code >= 200 AND {t}.is_indexable = 0))"
)
_UNFIT_KIND = (
    "CASE WHEN {t}.status_code >= 400 THEN 0 WHEN {t}.status_code >= 300 THEN 1 ELSE 2 END"
)


def _ok_2xx(table: str) -> str:
    return _OK_2XX.format(t=table)


@dataclass(frozen=True, slots=True)
class SqlSection:
    """An ordered SELECT read in pages; it must yield a `kind` column indexing `types`."""

    name: str
    types: tuple[IssueType, ...]
    sql: str
    to_issue: Callable[[Row], DetectedIssue]
    query: Query
    params: tuple[SqlValue, ...] = ()

    def fetch(self, offset: int, limit: int) -> list[DetectedIssue]:
        rows = self.query(f"{self.sql} LIMIT ? OFFSET ?", *self.params, limit, offset)
        return [self.to_issue(row) for row in rows]

    def counts(self) -> Counter[IssueType]:
        rows = self.query(
            f"SELECT kind, COUNT(*) AS n FROM ({self.sql}) GROUP BY kind", *self.params
        )
        return Counter({self.types[as_int(row["kind"])]: as_int(row["n"]) for row in rows})


@dataclass(slots=True)
class ListSection:
    """A section computed whole on first use (bounded: capped links, or the redirect rows)."""

    name: str
    types: tuple[IssueType, ...]
    compute: Callable[[], list[DetectedIssue]]
    _issues: list[DetectedIssue] | None = field(default=None, init=False)

    def _all(self) -> list[DetectedIssue]:
        if self._issues is None:
            self._issues = self.compute()
        return self._issues

    def fetch(self, offset: int, limit: int) -> list[DetectedIssue]:
        return self._all()[offset : offset + limit]

    def counts(self) -> Counter[IssueType]:
        return Counter(issue.issue_type for issue in self._all())


@dataclass(frozen=True, slots=True)
class NumberedSection:
    """An ordered SELECT numbered once into a scratch table, then read a page at a time by number.

    For a section whose rows grow with the site's links (one per broken link fragment: tens of
    thousands on a large API-docs site), where reading with OFFSET would rescan and re-sort every
    stored link on every page, so a finalize costs pages x links. The table (created with the
    schema, columns `n` then `columns`) is rebuilt when the section is read from its start, and
    whenever the row before `offset` is not where a previous page left it (a scratchpad
    finalized afresh after a resume starts from offset 0, so stale numbers are never read).
    """

    name: str
    types: tuple[IssueType, ...]
    sql: str  # the unordered SELECT of `columns`, its `kind` among them
    order: str  # its ORDER BY terms, over `columns`
    table: str
    columns: tuple[str, ...]
    to_issue: Callable[[Row], DetectedIssue]
    query: Query

    def fetch(self, offset: int, limit: int) -> list[DetectedIssue]:
        rows = [] if offset == 0 else self._read(offset - 1, limit + 1)
        if not rows or as_int(rows[0]["n"]) != offset - 1:
            self._number()
            rows = self._read(offset, limit)
        else:
            rows = rows[1:]
        return [self.to_issue(row) for row in rows]

    def _read(self, first: int, limit: int) -> list[Row]:
        return self.query(
            f"SELECT * FROM {self.table} WHERE n >= ? ORDER BY n LIMIT ?", first, limit
        )

    def _number(self) -> None:
        listed = ", ".join(self.columns)
        self.query(f"DELETE FROM {self.table}")
        self.query(
            f"INSERT INTO {self.table} (n, {listed}) "
            f"SELECT row_number() OVER (ORDER BY {self.order}) - 1, {listed} FROM ({self.sql})"
        )

    def counts(self) -> Counter[IssueType]:
        rows = self.query(f"SELECT kind, COUNT(*) AS n FROM ({self.sql}) GROUP BY kind")
        return Counter({self.types[as_int(row["kind"])]: as_int(row["n"]) for row in rows})


# --------------------------------------------------------------------------- duplicates

# cross_page.duplicate_candidates: 2xx ok, indexable, canonical absent or self, not a JS shell.
_CANDIDATE = (
    f"{_ok_2xx('page_mirror')} AND is_indexable <> 0 "
    "AND (canonical_url IS NULL OR canonical_url = url) AND javascript_shell = 0"
)
# One window sorts the candidates by (key, url): COUNT(*) over it is the group size and the first
# SAMPLE + 1 URLs of the group are enough to name SAMPLE others for every member (a member among
# them skips itself). Groups of any size cost the same sort; nothing is quadratic.
_DUPLICATES = """
WITH member AS (
    SELECT url, COUNT(*) OVER whole AS group_size, {sample}
    FROM page_mirror
    WHERE {candidate} AND {key} IS NOT NULL AND {key} <> '' {extra}
    WINDOW whole AS (PARTITION BY {key} ORDER BY url
                     ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
)
SELECT *, 0 AS kind FROM member WHERE group_size >= 2 ORDER BY url"""
_SAMPLE_COLUMNS = [f"sample_{n}" for n in range(1, DUPLICATE_GROUP_SAMPLE + 2)]
_SAMPLE = ", ".join(
    f"nth_value(url, {n}) OVER whole AS {column}" for n, column in enumerate(_SAMPLE_COLUMNS, 1)
)

_DUPLICATE_KEYS = {
    IssueType.DUPLICATE_TITLE: ("title", ""),
    IssueType.DUPLICATE_META_DESCRIPTION: ("meta_description", ""),
    # An empty body hashes alike everywhere; the original requires words before grouping.
    IssueType.DUPLICATE_CONTENT: ("content_hash", "AND word_count > 0"),
}


def _duplicate_issue(issue_type: IssueType, row: Row) -> DetectedIssue:
    url = as_str(row["url"])
    sample = [as_str(row[column]) for column in _SAMPLE_COLUMNS if row[column] is not None]
    others = [other for other in sample if other != url]
    details: JsonObject = {
        "groupSize": as_int(row["group_size"]),
        "otherUrls": others[:DUPLICATE_GROUP_SAMPLE],
    }
    return DetectedIssue(issue_type, url, details)


def duplicate_section(issue_type: IssueType, query: Query) -> SqlSection:
    key, extra = _DUPLICATE_KEYS[issue_type]
    sql = _DUPLICATES.format(key=key, extra=extra, candidate=_CANDIDATE, sample=_SAMPLE)
    return SqlSection(
        issue_type.value, (issue_type,), sql, lambda row: _duplicate_issue(issue_type, row), query
    )


# --------------------------------------------------------------------------- redirects

_REDIRECT_ROWS = (
    "SELECT url, status_code, redirect_url FROM page_mirror "
    "WHERE status_code BETWEEN 300 AND 399 AND redirect_url IS NOT NULL AND redirect_url <> ''"
)


def redirect_section(query: Query) -> ListSection:
    """redirect-chain / redirect-loop.

    One scan loads every redirect row (url -> redirect_url, ~200 bytes each: a few MB even at
    50,000 rows) and the specification's walk follows them in memory. Rejected alternatives:
    a recursive CTE cannot stop at a revisited URL without carrying the path as a delimited
    string (quadratic `instr` checks, and URLs may contain any delimiter); a Python loop of
    single-row lookups costs one `exec` (a JS boundary crossing in Pyodide) per hop, and hops
    exceed rows when chains converge, since every head walks its whole chain.
    """

    def compute() -> list[DetectedIssue]:
        pages = [from_json(CrawledPage, row) for row in query(_REDIRECT_ROWS)]
        return redirect_issues(pages)

    return ListSection("redirects", (IssueType.REDIRECT_CHAIN, IssueType.REDIRECT_LOOP), compute)


# --------------------------------------------------------------------------- links

# CROSS JOIN pins the join order: scan page rows for the (few) ok error/redirect targets, then
# seek `links_target_idx` per target and the source's row by its url key.
_LINK_HITS = """
SELECT {source_id} AS source_id, l.source_url, l.target_url, t.status_code, t.redirect_url
FROM page_mirror AS t
CROSS JOIN links AS l ON l.target_url = t.url
{source_join}
WHERE t.fetch_class = 'ok' AND {target_filter}"""
_MIRRORED_SOURCE = "CROSS JOIN page_mirror AS s ON s.url = l.source_url"
_UNMIRRORED_SOURCE = "AND NOT EXISTS (SELECT 1 FROM page_mirror AS s WHERE s.url = l.source_url)"

_LINK_TARGETS = {
    IssueType.BROKEN_INTERNAL_LINK: "t.status_code >= 400",
    IssueType.LINK_TO_REDIRECT: "t.status_code BETWEEN 300 AND 399",
}


@dataclass(frozen=True, slots=True)
class LinkHit:
    """A `_LINK_HITS` row: a stored edge to a crawled error or redirect target."""

    source_id: str | None  # the source's page_mirror.page_id; None where it has no mirror row
    source_url: str
    target_url: str
    status_code: int
    redirect_url: str | None


def _unmirrored_hits(query: Query, target_filter: str, audit_id: str) -> list[LinkHit]:
    """Hits whose source has no mirror row, with the id the specification derives for it
    (page_id(audit_id, source)). Normally none: a page's mirror row is written with its
    sub-batch, and links it streamed earlier are rewritten when a killed chunk is retried; only
    an audit finalized while such a page never got recorded leaves some."""
    unmirrored_sql = _LINK_HITS.format(
        source_id="NULL", source_join="", target_filter=f"{target_filter} {_UNMIRRORED_SOURCE}"
    )
    return [
        replace(hit, source_id=page_id(audit_id, hit.source_url))
        for hit in (from_json(LinkHit, row) for row in query(unmirrored_sql))
    ]


def _hit_key(hit: LinkHit) -> tuple[str, str, str]:
    return hit.source_id or "", hit.source_url, hit.target_url


def _link_issue(issue_type: IssueType, hit: LinkHit) -> DetectedIssue:
    details: JsonObject = {"targetUrl": hit.target_url, "targetStatus": hit.status_code}
    if issue_type is IssueType.LINK_TO_REDIRECT:
        details["redirectUrl"] = hit.redirect_url
    return DetectedIssue(issue_type, hit.source_url, details, dedupe_key=hit.target_url)


def link_section(issue_type: IssueType, query: Query, audit_id: str) -> Section:
    """broken-internal-link or link-to-redirect: one issue per (source, crawled ok target),
    every one, ordered by the source's page id (the audit_pages id, page_mirror.page_id)."""
    target_filter = _LINK_TARGETS[issue_type]
    mirrored_sql = _LINK_HITS.format(
        source_id="s.page_id", source_join=_MIRRORED_SOURCE, target_filter=target_filter
    )
    ordered = (
        f"SELECT *, 0 AS kind FROM ({mirrored_sql}) ORDER BY source_id, source_url, target_url"
    )
    unmirrored = _unmirrored_hits(query, target_filter, audit_id)
    if unmirrored:  # the rare case: merge in memory, in the same order

        def merged() -> list[DetectedIssue]:
            hits = [from_json(LinkHit, row) for row in query(ordered)] + unmirrored
            return [_link_issue(issue_type, hit) for hit in sorted(hits, key=_hit_key)]

        return ListSection(issue_type.value, (issue_type,), merged)
    return SqlSection(
        issue_type.value,
        (issue_type,),
        ordered,
        lambda row: _link_issue(issue_type, from_json(LinkHit, row)),
        query,
    )


# --------------------------------------------------------------------------- fragments

# Every stored link fragment whose target has a complete target set (a `fragment_pages` row),
# neither of whose keys the set holds: a scan of `link_fragments`, a seek of the target's page
# id and two primary-key probes each. The source's mirror row gives its page id; record_batch
# writes a page's link fragments with its mirror row, so every source has one.
_BROKEN_FRAGMENTS = """
SELECT s.page_id AS source_id, f.source_url, f.target_url, f.fragment, 0 AS kind
FROM link_fragments AS f
CROSS JOIN fragment_pages AS t ON t.url = f.target_url
CROSS JOIN page_mirror AS s ON s.url = f.source_url
WHERE NOT EXISTS (
    SELECT 1 FROM fragment_targets AS k WHERE k.page = t.id AND k.key IN (f.key, f.decoded_key)
)"""
_FRAGMENT_ORDER = "source_id, source_url, target_url, fragment"


def _fragment_issue(row: Row) -> DetectedIssue:
    # Read by hand (one row per broken fragment, tens of thousands on a link-heavy site).
    target_url, fragment = as_str(row["target_url"]), as_str(row["fragment"])
    details: JsonObject = {"targetUrl": target_url, "fragment": fragment}
    dedupe_key = f"{target_url}#{fragment}"
    source_url = as_str(row["source_url"])
    return DetectedIssue(IssueType.BROKEN_FRAGMENT, source_url, details, dedupe_key=dedupe_key)


def fragment_section(query: Query) -> Section:
    """broken-fragment (cross_page.broken_fragments): every broken link fragment."""
    return NumberedSection(
        IssueType.BROKEN_FRAGMENT.value,
        (IssueType.BROKEN_FRAGMENT,),
        _BROKEN_FRAGMENTS,
        _FRAGMENT_ORDER,
        fragments.BROKEN_TABLE,
        fragments.BROKEN_COLUMNS,
        _fragment_issue,
        query,
    )


# --------------------------------------------------------------------------- resources

# The kinds of the share images' references (audit.rules_social), as an SQL list of literals.
_SHARE_TAGS = ", ".join(f"'{tag}'" for tag in SHARE_IMAGE_TAGS)
# Every reference to a resource that answered fetch ok with status >= 400: a checked resource
# row, or the page row of a URL the frontier crawled (state 'page'). Starts from the (few)
# failed answers and seeks the references per resource through resource_refs_target_idx. Share
# images are broken_share_section's.
_BROKEN_RESOURCES = f"""
WITH answer AS (
    SELECT url, status_code FROM resources
    WHERE state = 'checked' AND fetch_class = 'ok' AND status_code >= 400
    UNION ALL
    SELECT r.url, p.status_code FROM resources AS r JOIN page_mirror AS p ON p.url = r.url
    WHERE r.state = 'page' AND p.fetch_class = 'ok' AND p.status_code >= 400
)
SELECT s.page_id AS source_id, u.source_url, u.resource_url, u.kind AS ref_kind, u.rel,
    a.status_code, NULL AS content_type, 0 AS kind
FROM answer AS a
CROSS JOIN resource_refs AS u ON u.resource_url = a.url
CROSS JOIN page_mirror AS s ON s.url = u.source_url
WHERE u.kind NOT IN ({_SHARE_TAGS})
ORDER BY s.page_id, u.source_url, u.resource_url"""


@dataclass(frozen=True, slots=True)
class ResourceHit:
    """A `_BROKEN_RESOURCES` or `_BROKEN_SHARE_IMAGES` row (`kind`: the reference's)."""

    source_id: str
    source_url: str
    resource_url: str
    kind: str
    rel: str | None
    status_code: int
    content_type: str | None


def _resource_details(hit: ResourceHit) -> JsonObject:
    return {
        "resourceUrl": hit.resource_url,
        "kind": hit.kind,
        "rel": hit.rel,
        "targetStatus": hit.status_code,
    }


def _referrers_section(
    issue_type: IssueType, sql: str, details_of: Callable[[ResourceHit], JsonObject], query: Query
) -> Section:
    """Every referring page of each resource `sql` finds (a `ResourceHit` a row), keyed by it."""

    def issue_of(row: SqlRow) -> DetectedIssue:
        hit = from_json(ResourceHit, {**row, "kind": row["ref_kind"]})
        details = details_of(hit)
        return DetectedIssue(issue_type, hit.source_url, details, dedupe_key=hit.resource_url)

    return SqlSection(issue_type.value, (issue_type,), sql, issue_of, query)


def resource_section(query: Query) -> Section:
    """broken-resource (cross_page.broken_resources): every referring page of each."""
    return _referrers_section(
        IssueType.BROKEN_RESOURCE, _BROKEN_RESOURCES, _resource_details, query
    )


# Every reference by a share image tag to a resource that answered fetch ok with status >= 400,
# or 2xx with a content type that is no image (cross_page.is_broken_share_image): a checked
# resource row, or the page row of a URL crawled as a page ("text/html" when it was HTML).
_BROKEN_SHARE_IMAGES = f"""
WITH answer AS (
    SELECT url, status_code, content_type FROM resources
    WHERE state = 'checked' AND fetch_class = 'ok'
    UNION ALL
    SELECT r.url, p.status_code, CASE WHEN p.is_html THEN 'text/html' END
    FROM resources AS r JOIN page_mirror AS p ON p.url = r.url
    WHERE r.state = 'page' AND p.fetch_class = 'ok'
), typed AS (
    SELECT url, status_code, content_type,
        trim(substr(content_type, 1, instr(content_type || ';', ';') - 1), ' ' || char(9)) AS media
    FROM answer
), failed AS (
    SELECT url, status_code, content_type FROM typed
    WHERE status_code >= 400
        OR (status_code BETWEEN 200 AND 299 AND media <> '' AND media NOT LIKE 'image/%')
)
SELECT s.page_id AS source_id, u.source_url, u.resource_url, u.kind AS ref_kind, u.rel,
    a.status_code, a.content_type, 0 AS kind
FROM failed AS a
CROSS JOIN resource_refs AS u ON u.resource_url = a.url
CROSS JOIN page_mirror AS s ON s.url = u.source_url
WHERE u.kind IN ({_SHARE_TAGS})
ORDER BY s.page_id, u.source_url, u.resource_url"""


def _share_image_details(hit: ResourceHit) -> JsonObject:
    return {
        "imageUrl": hit.resource_url,
        "tag": hit.kind,
        "targetStatus": hit.status_code,
        "contentType": hit.content_type,
    }


def share_image_section(query: Query) -> Section:
    """broken-share-image (cross_page.broken_share_images): every referring page of each."""
    return _referrers_section(
        IssueType.BROKEN_SHARE_IMAGE, _BROKEN_SHARE_IMAGES, _share_image_details, query
    )


# --------------------------------------------------------------------------- external links

# Every referrer of a checked external URL whose outcome raises an issue (audit.external_links),
# every one, in the specification's order: by issue type (`kind`, the index in
# `_EXTERNAL_TYPES`), then source page id, source and URL. Starts from the (few) such answers
# and seeks the referrers through external_refs_target_idx. Its one parameter is 1 when DNS is
# unavailable where the audit ran: names that did not resolve then raise no issue.
_EXTERNAL_TYPES = tuple(dict.fromkeys(ISSUE_OF.values()))
_EXTERNAL_KIND = "CASE e.outcome {} END".format(
    " ".join(
        f"WHEN '{outcome.value}' THEN {_EXTERNAL_TYPES.index(issue_type)}"
        for outcome, issue_type in ISSUE_OF.items()
    )
)
_EXTERNAL_HITS = f"""
SELECT s.page_id AS source_id, r.source_url, e.url, e.outcome, e.status_code, e.final_url,
       e.reason, {_EXTERNAL_KIND} AS kind
FROM external_links AS e
CROSS JOIN external_refs AS r ON r.url = e.url
CROSS JOIN page_mirror AS s ON s.url = r.source_url
WHERE e.state = 'checked' AND e.outcome IN ({", ".join(f"'{o.value}'" for o in ISSUE_OF)})
  AND NOT (e.outcome = '{ExternalOutcome.UNRESOLVED.value}' AND ? = 1)
ORDER BY kind, s.page_id, r.source_url, e.url"""
_EXTERNAL_COUNTS = (
    "SELECT COUNT(*) AS n, COALESCE(SUM(state = 'checked'), 0) AS checked FROM external_links"
)


@dataclass(frozen=True, slots=True)
class ExternalHit:
    """An `_EXTERNAL_HITS` row."""

    source_id: str
    source_url: str
    url: str
    outcome: ExternalOutcome
    status_code: int | None
    final_url: str | None
    reason: str | None


def _external_issue(row: Row) -> DetectedIssue:
    hit = from_json(ExternalHit, row)
    answer = ExternalAnswer(hit.url, hit.outcome, hit.status_code or 0, hit.final_url, hit.reason)
    issue = external_issue(hit.source_url, answer)
    if issue is None:  # the query selects only outcomes that raise one
        raise ValueError(f"no external issue for outcome {hit.outcome}")
    return issue


def dns_tally(query: Query) -> DnsTally:
    """What the external checks learnt of DNS where the audit ran (durable.external_links)."""
    row = query(ext.DNS_TALLY)[0]
    return DnsTally(as_int(row["resolved"]), as_int(row["unresolved"]))


def external_section(query: Query) -> Section:
    """broken-external-link, external-redirect, external-link-unreachable
    (audit.external_links.external_link_issues): every referring page, like the link checks."""
    dns_down = int(dns_tally(query).unavailable)
    return SqlSection(
        "external", _EXTERNAL_TYPES, _EXTERNAL_HITS, _external_issue, query, (dns_down,)
    )


def unchecked_external_section(
    query: Query, start_url: str, budget: int, time_budget_s: float
) -> ListSection:
    """external-links-unchecked on the start URL when some external URLs have no verdict:
    never checked, or (when DNS is unavailable) checked only to find their name unresolved."""

    def compute() -> list[DetectedIssue]:
        row = query(_EXTERNAL_COUNTS)[0]
        total, checked = as_int(row["n"]), as_int(row["checked"])
        dns = dns_tally(query)
        if dns.unavailable:
            checked -= as_int(query(ext.CHECKED_UNRESOLVED)[0]["n"])
        if total == checked:
            return []
        reason = _unchecked_reason(query, dns, budget)
        note = Unchecked(reason, total - checked, checked, budget, time_budget_s, dns)
        return [unchecked_issue(start_url, note)]

    issue_type = IssueType.EXTERNAL_LINKS_UNCHECKED
    return ListSection(issue_type.value, (issue_type,), compute)


def _unchecked_reason(query: Query, dns: DnsTally, budget: int) -> ExternalStop:
    """DNS first (nothing else matters without it), then what a step noted, then the budget of
    URLs; without any of them a step failed and ended the checks."""
    if dns.unavailable:
        return ExternalStop.DNS_UNAVAILABLE
    rows = query("SELECT value FROM scratchpad_meta WHERE key = ?", ext.STOP_KEY)
    if rows:
        return ExternalStop(as_str(rows[0]["value"]))
    spent = as_int(query(ext.SPENT)[0]["n"])
    return ExternalStop.URL_BUDGET if spent >= budget else ExternalStop.STOPPED


# --------------------------------------------------------------------------- orphans

# The inbound set (edges from another page, and every row's redirect target) is built once and
# anti-joined; a non-correlated IN subquery is materialised as one ephemeral index. The set
# holds no NULL, which would turn NOT IN into "unknown" for every page.
_ORPHANS = f"""
SELECT p.url, 0 AS kind FROM page_mirror AS p
WHERE {_ok_2xx("p")} AND p.url <> ?
  AND p.url NOT IN (
    SELECT target_url FROM links WHERE source_url <> target_url
    UNION
    SELECT redirect_url FROM page_mirror WHERE redirect_url IS NOT NULL AND redirect_url <> ''
  )
ORDER BY p.url"""


def orphan_section(query: Query, start_url: str, *, evaluate: bool) -> Section:
    """orphan-page; `evaluate` is false unless the crawl completed with a complete link graph,
    where a missing inbound link may just be an uncrawled or unstored one."""
    if not evaluate:
        nothing: Callable[[], list[DetectedIssue]] = list
        return ListSection(IssueType.ORPHAN_PAGE.value, (IssueType.ORPHAN_PAGE,), nothing)
    return SqlSection(
        IssueType.ORPHAN_PAGE.value,
        (IssueType.ORPHAN_PAGE,),
        _ORPHANS,
        lambda row: DetectedIssue(IssueType.ORPHAN_PAGE, as_str(row["url"])),
        query,
        (start_url,),
    )


# --------------------------------------------------------------------------- canonical, sitemap

_CANONICAL_TYPES = (
    IssueType.CANONICAL_TO_BROKEN,
    IssueType.CANONICAL_TO_REDIRECT,
    IssueType.CANONICAL_TO_NOINDEX,
)
_SITEMAP_TYPES = (
    IssueType.SITEMAP_URL_BROKEN,
    IssueType.SITEMAP_URL_REDIRECT,
    IssueType.SITEMAP_URL_NOINDEX,
)
_CANONICALS = f"""
SELECT p.url, t.url AS target_url, t.status_code, t.redirect_url,
       {_UNFIT_KIND.format(t="t")} AS kind
FROM page_mirror AS p JOIN page_mirror AS t ON t.url = p.canonical_url
WHERE {_ok_2xx("p")} AND p.canonical_url <> '' AND p.canonical_url <> p.url
  AND {_UNFIT.format(t="t")}
ORDER BY p.url"""
_SITEMAP_PAGES = f"""
SELECT p.url, p.status_code, p.redirect_url, {_UNFIT_KIND.format(t="p")} AS kind
FROM page_mirror AS p
WHERE p.in_sitemap <> 0 AND {_UNFIT.format(t="p")}
ORDER BY p.url"""


@dataclass(frozen=True, slots=True)
class UnfitRow:
    """A `_CANONICALS` or `_SITEMAP_PAGES` row; `kind` indexes the section's types."""

    url: str
    status_code: int
    redirect_url: str | None
    kind: int
    target_url: str = ""  # the canonical target (canonical rows only)


def _unfit_issue(types: Sequence[IssueType], row: UnfitRow, details: JsonObject) -> DetectedIssue:
    if row.kind == 1:  # the target redirects: say where to
        details = {**details, "redirectUrl": row.redirect_url}
    return DetectedIssue(types[row.kind], row.url, details)


def canonical_section(query: Query) -> SqlSection:
    """canonical-to-broken / -redirect / -noindex, judged only for crawled canonical targets."""

    def to_issue(data: Row) -> DetectedIssue:
        row = from_json(UnfitRow, data)
        details: JsonObject = {"canonicalUrl": row.target_url, "targetStatus": row.status_code}
        return _unfit_issue(_CANONICAL_TYPES, row, details)

    return SqlSection("canonical", _CANONICAL_TYPES, _CANONICALS, to_issue, query)


def sitemap_section(query: Query) -> SqlSection:
    """sitemap-url-broken / -redirect / -noindex for crawled sitemap entries."""

    def to_issue(data: Row) -> DetectedIssue:
        row = from_json(UnfitRow, data)
        return _unfit_issue(_SITEMAP_TYPES, row, {"statusCode": row.status_code})

    return SqlSection("sitemap", _SITEMAP_TYPES, _SITEMAP_PAGES, to_issue, query)


def sitemap_blocked_section(urls: Iterable[str]) -> ListSection:
    """sitemap-url-blocked: robots-disallowed sitemap URLs are never fetched, so the caller
    names them; they follow the crawled entries, as in the specification."""
    blocked = sorted(set(urls))

    def compute() -> list[DetectedIssue]:
        return [DetectedIssue(IssueType.SITEMAP_URL_BLOCKED, url) for url in blocked]

    return ListSection("sitemap-blocked", (IssueType.SITEMAP_URL_BLOCKED,), compute)


# --------------------------------------------------------------------------- hreflang

# The first occurrence of each alternate URL on a page decides (its lang is reported); later
# repeats never add an issue, because every skip condition depends on the URL alone.
_HREFLANG = f"""
WITH alternate AS (
    SELECT p.url AS page_url, json_extract(h.value, '$.url') AS target_url,
           json_extract(h.value, '$.lang') AS lang, h.key AS position
    FROM page_mirror AS p, json_each(p.hreflang_json) AS h
    WHERE {_ok_2xx("p")}
), first_seen AS (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY page_url, target_url ORDER BY position) AS nth
    FROM alternate
)
SELECT f.page_url, f.target_url, f.lang, 0 AS kind
FROM first_seen AS f JOIN page_mirror AS t ON t.url = f.target_url
WHERE f.nth = 1 AND f.target_url <> f.page_url AND {_ok_2xx("t")}
  AND NOT EXISTS (
    SELECT 1 FROM json_each(t.hreflang_json) AS back
    WHERE json_extract(back.value, '$.url') = f.page_url
  )
ORDER BY f.page_url, f.position"""


@dataclass(frozen=True, slots=True)
class HreflangRow:
    """A `_HREFLANG` row: `page_url` lists `target_url` as `lang`; the target does not list back."""

    page_url: str
    target_url: str
    lang: str


def _hreflang_issue(data: Row) -> DetectedIssue:
    row = from_json(HreflangRow, data)
    details: JsonObject = {"hreflang": row.lang, "targetUrl": row.target_url}
    return DetectedIssue(
        IssueType.HREFLANG_MISSING_RETURN_LINK, row.page_url, details, dedupe_key=row.target_url
    )


def hreflang_section(query: Query) -> SqlSection:
    """hreflang-missing-return-link: A lists B, B crawled 2xx ok, B does not list A."""
    return SqlSection(
        IssueType.HREFLANG_MISSING_RETURN_LINK.value,
        (IssueType.HREFLANG_MISSING_RETURN_LINK,),
        _HREFLANG,
        _hreflang_issue,
        query,
    )
