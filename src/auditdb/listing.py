"""Filtered lists of audits, pages and issues, read in keyset pages.

Theory of operation. Every list has a total order ending in `id`, and an index that is
`<equality filters>, <sort key>, id` (migrations/d1/0004_list_indexes.sql). A page is

    SELECT ... WHERE <equality filters> AND (<sort key>) > (<cursor>) ORDER BY <sort key> LIMIT n

so the planner seeks to the cursor and reads rows in index order: each page costs its own rows,
whatever its position, and a row written while a client pages never shifts the rows it has not
reached yet (it appears in a later page if it sorts after the cursor, and never duplicates one).

A *group* is one equality prefix of an index. Issues sort by (severity_rank, issue_type,
page_url, id); a `severity` filter fixes the rank, a `type` filter the rank and the type, so a
filtered issue list reads its groups in sort order, (rank, type) by (rank, type), each one a seek
on audit_issues_list_idx, until the page is full. A group holds the leading sort columns it fixes;
the cursor is compared against those in Python and in SQL only on the columns that remain, because
SQLite uses a row-value comparison as an index range only when it follows the equality prefix.

Filters that no index can seek (a `url` substring, an issue `page_url` prefix without a type,
`has_issue` on pages) stay residual terms over the ordered walk of one audit's (or one owner's)
rows, which the audit_id (owner) seek bounds; tests/auditdb/test_query_plans.py asserts both.
Values are always bound parameters; SQL text comes only from the constants here.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from audit.catalogue import IssueType, Severity
from audit.rules_structured import ISSUE_OF_KIND
from auditdb.records import AuditRecord, AuditStatus, IssueRecord, PageRecord
from common.bindings import D1Database, D1PreparedStatement, SqlValue
from common.wire import JsonObject, as_int, as_str
from structured.findings import FindingKind, RichResultFeature

type SortKey = tuple[str | int, ...]
type Keyed[T] = tuple[SortKey, T]  # a row with its position in its list


class ListKind(StrEnum):
    AUDITS = "audits"
    PAGES = "pages"
    ISSUES = "issues"
    MONITORS = "monitors"  # auditdb.monitors.owned_page_statement
    RUNS = "runs"  # auditdb.monitors.runs_page_statement
    LIGHTHOUSE = "lighthouse"  # auditdb.lighthouse.list_results
    LINKS = "links"  # a page's kept inlinks or outlinks (service.page_links), by position


# The sort key of each list, in SQL column names and the Python types a cursor must carry.
_SORT_COLUMNS: dict[ListKind, tuple[str, ...]] = {
    ListKind.AUDITS: ("created_at", "id"),
    ListKind.PAGES: ("url", "id"),
    ListKind.ISSUES: ("severity_rank", "issue_type", "page_url", "id"),
    ListKind.MONITORS: ("created_at", "id"),
    ListKind.RUNS: ("started_at", "id"),
    ListKind.LIGHTHOUSE: ("id",),
    ListKind.LINKS: ("position",),
}
_SORT_TYPES: dict[ListKind, tuple[type, ...]] = {
    ListKind.AUDITS: (str, str),
    ListKind.PAGES: (str, str),
    ListKind.ISSUES: (int, str, str, str),
    ListKind.MONITORS: (str, str),
    ListKind.RUNS: (str, str),
    ListKind.LIGHTHOUSE: (str,),
    ListKind.LINKS: (int,),
}


# JavaScript's Number.MAX_SAFE_INTEGER (ECMA-262 §21.1.2.6): D1 passes numbers through JavaScript,
# so an integer beyond it cannot be bound exactly.
MAX_SAFE_INTEGER = 2**53 - 1
# A bound on the text a forged cursor can have bound to SQL; real sort keys (ids, timestamps,
# page URLs) are shorter.
MAX_CURSOR_TEXT = 16 * 1024


class InvalidCursor(ValueError):
    """A cursor this list did not hand out (edited, truncated, or from another list)."""


# -- filters -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuditFilter:
    status: AuditStatus | None = None
    url_contains: str | None = None  # a substring of start_url


@dataclass(frozen=True, slots=True)
class StructuredFilter:
    """Pages by what their structured data holds (auditdb.structured_data): a top-level item's
    type (exact, as the page row names it), a rich-result feature the page is eligible for, a
    kind of finding it has. An issue list keeps the issues of such pages (for a finding kind,
    only those of the issue type that holds the kind's findings: `issue_groups`)."""

    type_name: str | None = None
    eligible: RichResultFeature | None = None
    finding: FindingKind | None = None


@dataclass(frozen=True, slots=True)
class PageFilter:
    status_code: int | None = None  # exact: 404
    status_class: int | None = None  # the hundreds digit: 4 for "4xx"
    indexable: bool | None = None
    has_issue: IssueType | None = None
    url_contains: str | None = None
    structured: StructuredFilter = StructuredFilter()


@dataclass(frozen=True, slots=True)
class IssueFilter:
    types: tuple[IssueType, ...] = ()
    severity: Severity | None = None
    page_url_prefix: str | None = None
    structured: StructuredFilter = StructuredFilter()


# -- cursors -------------------------------------------------------------------------------------


def encode_cursor(kind: ListKind, key: SortKey) -> str:
    """An opaque cursor: urlsafe base64 (unpadded) of `[kind, *sort key]` as JSON."""
    text = json.dumps([str(kind), *key], separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode()).rstrip(b"=").decode("ascii")


def decode_cursor(kind: ListKind, cursor: str) -> SortKey:
    """The sort key a cursor of this list holds; raises `InvalidCursor` for anything else."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = json.loads(raw.decode())
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise InvalidCursor("cursor is not one this API handed out") from exc
    types = _SORT_TYPES[kind]
    if (
        not isinstance(value, list)
        or value[:1] != [str(kind)]
        or len(value) != len(types) + 1
        or not all(type(v) is t for v, t in zip(value[1:], types, strict=True))
    ):
        raise InvalidCursor(f"cursor is not one of the {kind} list's")
    for field in value[1:]:
        _check_in_range(field)
    return tuple(value[1:])


def _check_in_range(field: str | int) -> None:
    """A cursor's field as D1 can bind it: an integer D1 holds exactly (it refuses a bigint,
    `D1_TYPE_ERROR`), a string that encodes as UTF-8 and no longer than any sort key can be."""
    if isinstance(field, int):
        if not -MAX_SAFE_INTEGER <= field <= MAX_SAFE_INTEGER:
            raise InvalidCursor(f"cursor holds an integer outside ±{MAX_SAFE_INTEGER}")
        return
    if len(field) > MAX_CURSOR_TEXT:
        raise InvalidCursor(f"cursor holds a text longer than {MAX_CURSOR_TEXT}")
    try:
        field.encode()
    except UnicodeEncodeError:
        raise InvalidCursor("cursor holds a text that is not Unicode (a lone surrogate)") from None


# -- statements ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Statement:
    """SQL text built from this module's constants and the values it binds."""

    sql: str
    params: tuple[SqlValue, ...]

    def prepare(self, db: D1Database) -> D1PreparedStatement:
        return db.prepare(self.sql).bind(*self.params)


@dataclass(frozen=True, slots=True)
class Group:
    """An equality prefix: `fixed` holds the values of the sort key's leading columns it fixes."""

    terms: tuple[tuple[str, SqlValue], ...]  # (SQL term with one "?", value)
    fixed: SortKey = ()


class _Skip:
    """The group lies entirely at or before the cursor."""


_SKIP = _Skip()


def _after(group: Group, after: SortKey | None, descending: bool) -> SortKey | _Skip | None:
    """The part of the cursor to compare in SQL for this group (None: the whole group follows)."""
    if after is None:
        return None
    n = len(group.fixed)
    head = after[:n]
    if head == group.fixed:
        return after[n:]
    before = (head > group.fixed) if not descending else (head < group.fixed)
    return _SKIP if before else None


def _select(
    columns: str,
    table: str,
    kind: ListKind,
    group: Group,
    residual: Sequence[tuple[str, SqlValue]],
    after: SortKey | None,
    limit: int,
    *,
    descending: bool = False,
) -> Statement | None:
    position = _after(group, after, descending)
    if isinstance(position, _Skip):
        return None
    terms = [*group.terms, *residual]
    sql_terms = [term for term, _ in terms]
    params: list[SqlValue] = [value for _, value in terms]
    sort = _SORT_COLUMNS[kind]
    if position:
        rest = sort[len(group.fixed) :]
        op = "<" if descending else ">"
        holes = ", ".join("?" for _ in rest)
        sql_terms.append(f"({', '.join(rest)}) {op} ({holes})")
        params.extend(position)
    order = ", ".join(f"{c} DESC" if descending else c for c in sort)
    sql = f"SELECT {columns} FROM {table} WHERE {' AND '.join(sql_terms)} ORDER BY {order} LIMIT ?"
    return Statement(sql, (*params, limit))


# -- audits --------------------------------------------------------------------------------------


def audits_statement(
    owner: str, filter_: AuditFilter, after: SortKey | None, limit: int
) -> Statement:
    terms: list[tuple[str, SqlValue]] = [("owner = ?", owner)]
    if filter_.status is not None:
        terms.append(("status = ?", str(filter_.status)))
    residual = _contains("start_url", filter_.url_contains)
    statement = _select(
        "*", "audits", ListKind.AUDITS, Group(tuple(terms)), residual, after, limit,
        descending=True,
    )  # fmt: skip
    assert statement is not None  # a group that fixes no sort column is never skipped
    return statement


async def read_audits(
    db: D1Database, owner: str, filter_: AuditFilter, after: SortKey | None, limit: int
) -> list[Keyed[AuditRecord]]:
    """Up to `limit` audits after the cursor, each with its sort key."""
    result = await audits_statement(owner, filter_, after, limit).prepare(db).all()
    return [
        ((as_str(row["created_at"]), as_str(row["id"])), AuditRecord.from_row(row))
        for row in result["results"]
    ]


# -- pages ---------------------------------------------------------------------------------------

# Probes audit_issues_identity_idx once per page of the walk (an exact seek on its prefix).
_HAS_ISSUE = (
    "EXISTS (SELECT 1 FROM audit_issues i WHERE i.audit_id = audit_pages.audit_id "
    "AND i.issue_type = ? AND i.page_url = audit_pages.url)"
)


def pages_statement(
    audit_id: str, filter_: PageFilter, after: SortKey | None, limit: int
) -> Statement:
    terms, residual = _page_terms(audit_id, filter_)
    statement = _select("*", "audit_pages", ListKind.PAGES, Group(terms), residual, after, limit)
    assert statement is not None
    return statement


def page_count_statement(audit_id: str, filter_: PageFilter) -> Statement:
    """How many pages the filter keeps: the list's own terms, so the same index serves it."""
    terms, residual = _page_terms(audit_id, filter_)
    where = " AND ".join(term for term, _ in (*terms, *residual))
    params = tuple(value for _, value in (*terms, *residual))
    return Statement(f"SELECT COUNT(*) AS n FROM audit_pages WHERE {where}", params)


def _page_terms(
    audit_id: str, filter_: PageFilter
) -> tuple[tuple[tuple[str, SqlValue], ...], list[tuple[str, SqlValue]]]:
    """The equality terms an index seeks, and the residual ones checked on the rows it reads."""
    terms: list[tuple[str, SqlValue]] = [("audit_id = ?", audit_id)]
    if filter_.status_code is not None:
        terms.append(("status_code = ?", filter_.status_code))
    if filter_.status_class is not None:
        # Repeats the indexed expression of audit_pages_audit_class_idx verbatim.
        terms.append(("status_code / 100 = ?", filter_.status_class))
    if filter_.indexable is not None:
        terms.append(("is_indexable = ?", int(filter_.indexable)))
    residual = _contains("url", filter_.url_contains)
    if filter_.has_issue is not None:
        residual.append((_HAS_ISSUE, str(filter_.has_issue)))
    residual.extend(_structured_terms(filter_.structured, ListKind.PAGES))
    return tuple(terms), residual


async def read_pages(
    db: D1Database, audit_id: str, filter_: PageFilter, after: SortKey | None, limit: int
) -> list[Keyed[PageRecord]]:
    """Up to `limit` pages after the cursor, each with its sort key."""
    result = await pages_statement(audit_id, filter_, after, limit).prepare(db).all()
    return [
        ((as_str(row["url"]), as_str(row["id"])), PageRecord.from_row(row))
        for row in result["results"]
    ]


async def count_pages(db: D1Database, audit_id: str, filter_: PageFilter) -> int:
    row = await page_count_statement(audit_id, filter_).prepare(db).first()
    return 0 if row is None else as_int(row["n"])


# -- issues --------------------------------------------------------------------------------------

_ISSUE_COLUMNS = (
    "id, audit_id, page_id, page_url, issue_type, severity, details_json, dedupe_key, severity_rank"
)


def issue_groups(audit_id: str, filter_: IssueFilter) -> list[Group]:
    """The equality prefixes an issue list reads, in sort order (none: no issue can match)."""
    base = ("audit_id = ?", audit_id)
    types = _issue_types(filter_)
    if filter_.severity is None and types is None:
        return [Group((base,))]
    # Every rank, not only the catalogue's severity of a type: rows keep the severity they were
    # written with, and an empty group costs one index seek.
    ranks = [filter_.severity.order] if filter_.severity is not None else [0, 1, 2]
    if types is None:
        return [Group((base, ("severity_rank = ?", r)), (r,)) for r in ranks]
    return [
        Group((base, ("severity_rank = ?", r), ("issue_type = ?", str(t))), (r, str(t)))
        for r in ranks
        for t in sorted(set(types))
    ]


def _issue_types(filter_: IssueFilter) -> tuple[IssueType, ...] | None:
    """The issue types the list keeps (None: every type). A structured-data finding kind keeps
    the one type whose issues hold its findings (audit.rules_structured), within `types`."""
    finding = filter_.structured.finding
    if finding is None:
        return filter_.types or None
    held = ISSUE_OF_KIND[finding]
    return (held,) if not filter_.types or held in filter_.types else ()


def issue_statement(
    group: Group, filter_: IssueFilter, after: SortKey | None, limit: int
) -> Statement | None:
    """One group's rows after the cursor; None when the whole group lies before it."""
    residual = _prefix("page_url", filter_.page_url_prefix)
    residual.extend(_structured_terms(filter_.structured, ListKind.ISSUES))
    return _select(_ISSUE_COLUMNS, "audit_issues", ListKind.ISSUES, group, residual, after, limit)


async def read_issues(
    db: D1Database, audit_id: str, filter_: IssueFilter, after: SortKey | None, limit: int
) -> list[Keyed[IssueRecord]]:
    """Up to `limit` issues after the cursor, each with its sort key."""
    found: list[Keyed[IssueRecord]] = []
    for group in issue_groups(audit_id, filter_):
        statement = issue_statement(group, filter_, after, limit - len(found))
        if statement is None:
            continue
        result = await statement.prepare(db).all()
        found.extend((_issue_key(row), IssueRecord.from_row(row)) for row in result["results"])
        if len(found) >= limit:
            break
    return found


def _issue_key(row: JsonObject) -> SortKey:
    return (
        as_int(row["severity_rank"]),
        as_str(row["issue_type"]),
        as_str(row["page_url"]),
        as_str(row["id"]),
    )


# -- residual terms ------------------------------------------------------------------------------

# The structured-data filters: a value among one of the page row's JSON columns (migration 0028),
# an array's element or an object's key. A page list reads its own row; an issue list looks its
# issue's page up by id (the primary key).
_STRUCTURED_COLUMNS = (
    ("structured_types_json", "value"),
    ("eligible_features_json", "value"),
    ("structured_findings_json", "key"),
)
_ON_PAGE = {
    ListKind.PAGES: "EXISTS (SELECT 1 FROM json_each(audit_pages.{0}) j WHERE j.{1} = ?)",
    ListKind.ISSUES: (
        "EXISTS (SELECT 1 FROM audit_pages p, json_each(p.{0}) j "
        "WHERE p.id = audit_issues.page_id AND j.{1} = ?)"
    ),
}


def _structured_terms(filter_: StructuredFilter, kind: ListKind) -> list[tuple[str, SqlValue]]:
    values = (
        filter_.type_name,
        None if filter_.eligible is None else str(filter_.eligible),
        None if filter_.finding is None else str(filter_.finding),
    )
    terms: list[tuple[str, SqlValue]] = [
        (_ON_PAGE[kind].format(*column), value)
        for column, value in zip(_STRUCTURED_COLUMNS, values, strict=True)
        if value is not None
    ]
    return terms


def _contains(column: str, needle: str | None) -> list[tuple[str, SqlValue]]:
    # instr, not LIKE: D1 caps LIKE patterns at 50 bytes, and instr needs no wildcard escaping
    # and matches case-sensitively, as URL paths are compared.
    if not needle:
        return []
    return [(f"instr({column}, ?) > 0", needle)]


def _prefix(column: str, prefix: str | None) -> list[tuple[str, SqlValue]]:
    """`column` starts with `prefix`, as a range an index can seek: [prefix, successor)."""
    if not prefix:
        return []
    terms: list[tuple[str, SqlValue]] = [(f"{column} >= ?", prefix)]
    upper = prefix_successor(prefix)
    if upper is not None:
        terms.append((f"{column} < ?", upper))
    return terms


def prefix_successor(prefix: str) -> str | None:
    """The least string greater than every string that starts with `prefix` (None: no such
    string). SQLite's BINARY collation compares UTF-8 bytes, which order as code points do."""
    while prefix:
        last = ord(prefix[-1]) + 1
        if 0xD800 <= last <= 0xDFFF:  # surrogates cannot be encoded; the next code point is E000
            last = 0xE000
        if last <= 0x10FFFF:
            return prefix[:-1] + chr(last)
        prefix = prefix[:-1]
    return None
