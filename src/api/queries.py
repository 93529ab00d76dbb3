"""Query strings of the list routes, parsed into the service's filter and paging records.

    GET /api/audits                  status, url, cursor, limit
    GET /api/audits/{id}/pages       status (404 or 4xx), indexable, has_issue, url,
                                     structured_type, eligible_feature, structured_finding,
                                     cursor, limit
    GET /api/audits/{id}/issues      type (repeatable, up to 20), severity, page_url,
                                     structured_type, eligible_feature, structured_finding,
                                     cursor, limit
    GET /api/audits/{id}/pages/links url (required), direction (required: in or out), cursor, limit
    GET /api/audits/{id}/pages.csv (and .ndjson), issues.csv (and .ndjson): the list's filters,
                                     no cursor or limit (an export is every matching row)

Every refusal is a `BadRequest` with code `invalid_request` whose message names the parameter:
an unknown parameter, a repeated one that is not repeatable, an empty value, or a value outside
the closed vocabularies (`AuditStatus`, `IssueType`, `Severity`, structured data's
`RichResultFeature` and `FindingKind`) or an integer range.

`PARAMETERS` describes what each list accepts; the route table (`api.routes`) declares them on
each operation, `api.app` refuses any other name on every route (`Query.check_names`) and the
OpenAPI document (`api.openapi`) lists exactly these, so the three cannot disagree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import parse_qsl, urlencode, urlsplit

from api.errors import BadRequest
from audit.catalogue import IssueType, Severity
from audit.link_graph import LinkDirection
from auditdb.listing import (
    AuditFilter,
    InvalidCursor,
    IssueFilter,
    ListKind,
    PageFilter,
    SortKey,
    StructuredFilter,
    decode_cursor,
    encode_cursor,
)
from auditdb.records import AuditStatus
from service.lists import DEFAULT_LIMIT, MAX_LIMIT, Paging
from structured.findings import FindingKind, RichResultFeature

MAX_TEXT_PARAMETER = 2048  # as long as the longest start URL the API accepts
# An issue list reads one index group per (severity, type): three per type without `severity`.
MAX_TYPES = 20
_STATUS_CODE = re.compile(r"[1-5][0-9]{2}")
_STATUS_CLASS = re.compile(r"([1-5])[xX]{2}")
_BOOLEANS = {"true": True, "false": False}


@dataclass(frozen=True, slots=True)
class Parameter:
    """One query parameter a list accepts: a non-empty text of at most `MAX_TEXT_PARAMETER`
    characters, narrowed by `choices` (a closed vocabulary), `pattern` (a full match) or
    `integers` (an inclusive range)."""

    name: str
    description: str
    choices: tuple[str, ...] = ()
    pattern: str | None = None
    integers: tuple[int, int] | None = None
    repeatable: bool = False
    required: bool = False


def _vocabulary(values: Iterable[object]) -> tuple[str, ...]:
    return tuple(str(value) for value in values)


PAGING = (
    Parameter("cursor", "where the page starts: `next_cursor` of the previous page"),
    Parameter("limit", f"rows per page (default {DEFAULT_LIMIT})", integers=(1, MAX_LIMIT)),
)
# Both lists filter by what a page's structured data holds (auditdb.listing.StructuredFilter).
STRUCTURED = (
    Parameter(
        "structured_type",
        "pages whose structured data has a top-level item of this schema.org type (exact: Product)",
    ),
    Parameter(
        "eligible_feature",
        "pages eligible for this Google rich-result feature",
        _vocabulary(RichResultFeature),
    ),
    Parameter(
        "structured_finding",
        "pages whose structured data has a finding of this kind (issues: the issue type holding it)",
        _vocabulary(FindingKind),
    ),
)
PARAMETERS: dict[ListKind, tuple[Parameter, ...]] = {
    ListKind.AUDITS: (
        Parameter("status", "audits in this status", _vocabulary(AuditStatus)),
        Parameter("url", "start URL contains this text"),
    ),
    ListKind.PAGES: (
        Parameter(
            "status",
            "HTTP status code (404) or class (4xx)",
            pattern=f"{_STATUS_CODE.pattern}|{_STATUS_CLASS.pattern}",
        ),
        Parameter("indexable", "indexable or not", _vocabulary(_BOOLEANS)),
        Parameter("has_issue", "pages with an issue of this type", _vocabulary(IssueType)),
        Parameter("url", "page URL contains this text"),
        *STRUCTURED,
    ),
    ListKind.ISSUES: (
        Parameter(
            "type",
            f"issue type; repeat for several (at most {MAX_TYPES})",
            _vocabulary(IssueType),
            repeatable=True,
        ),
        Parameter("severity", "issues of this severity", _vocabulary(Severity)),
        Parameter("page_url", "page URL starts with this text"),
        *STRUCTURED,
    ),
    ListKind.MONITORS: (),
    ListKind.RUNS: (),
    ListKind.LIGHTHOUSE: (),
    ListKind.LINKS: (
        Parameter("url", "the page's URL, exactly as the pages list gives it", required=True),
        Parameter(
            "direction",
            "in: the pages linking to it; out: what it links to",
            _vocabulary(LinkDirection),
            required=True,
        ),
    ),
}


@dataclass(frozen=True, slots=True)
class Query:
    """A request's query string as ordered (name, value) pairs, blank values kept."""

    items: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, url: str) -> Query:
        return cls(tuple(parse_qsl(urlsplit(url).query, keep_blank_values=True)))

    def check_names(self, accepted: Iterable[Parameter]) -> None:
        """Refuse a name not among `accepted` (a route's `Operation.query`; `api.app` checks
        every request so, before its handler runs)."""
        known = sorted({parameter.name for parameter in accepted})
        expected = f"expected one of {known}" if known else "this route takes none"
        for name, _ in self.items:
            if name not in known:
                raise _bad(f"unknown query parameter {name!r}; {expected}")

    def all(self, name: str) -> list[str]:
        values = [value for key, value in self.items if key == name]
        for value in values:
            if not value:
                raise _bad(f"query parameter {name!r} must not be empty")
            if len(value) > MAX_TEXT_PARAMETER:
                raise _bad(f"query parameter {name!r} is longer than {MAX_TEXT_PARAMETER}")
        return values

    def one(self, name: str) -> str | None:
        values = self.all(name)
        if len(values) > 1:
            raise _bad(f"query parameter {name!r} may appear only once")
        return values[0] if values else None

    def next_link(self, path: str, cursor: str) -> str:
        """RFC 8288 `Link` value for the next page: same path and filters, the new cursor."""
        kept = [(name, value) for name, value in self.items if name != "cursor"]
        return f'<{path}?{urlencode([*kept, ("cursor", cursor)])}>; rel="next"'


def parse_paging(query: Query, kind: ListKind) -> Paging:
    limit = integer(query, "limit", DEFAULT_LIMIT, (1, MAX_LIMIT))
    cursor = query.one("cursor")
    try:
        after: SortKey | None = None if cursor is None else decode_cursor(kind, cursor)
    except InvalidCursor as exc:
        raise _bad(f"query parameter 'cursor' is invalid: {exc}") from exc
    return Paging(after, limit)


def next_cursor(kind: ListKind, after: SortKey | None) -> str | None:
    return None if after is None else encode_cursor(kind, after)


def integer(query: Query, name: str, default: int, bounds: tuple[int, int]) -> int:
    """A parameter given at most once, as ASCII digits, within `bounds` (inclusive)."""
    raw = query.one(name)
    if raw is None:
        return default
    low, high = bounds
    # Digits only: int() would also take "+5", " 5", "5_0" and fullwidth digits.
    if not raw.isascii() or not raw.isdigit() or not low <= int(raw) <= high:
        raise _bad(f"query parameter {name!r} must be an integer from {low} to {high}")
    return int(raw)


def parse_audit_filter(query: Query) -> AuditFilter:
    status = _maybe(query.one("status"), "status", AuditStatus)
    return AuditFilter(status=status, url_contains=query.one("url"))


def parse_page_filter(query: Query) -> PageFilter:
    code, status_class = _status(query.one("status"))
    indexable = _maybe(query.one("indexable"), "indexable", _boolean)
    has_issue = _maybe(query.one("has_issue"), "has_issue", IssueType)
    url = query.one("url")
    return PageFilter(code, status_class, indexable, has_issue, url, parse_structured(query))


def parse_issue_filter(query: Query) -> IssueFilter:
    types = tuple(dict.fromkeys(_value("type", IssueType, raw) for raw in query.all("type")))
    if len(types) > MAX_TYPES:
        raise _bad(f"query parameter 'type' may name at most {MAX_TYPES} issue types")
    severity = _maybe(query.one("severity"), "severity", Severity)
    return IssueFilter(types, severity, query.one("page_url"), parse_structured(query))


def parse_structured(query: Query) -> StructuredFilter:
    return StructuredFilter(
        type_name=query.one("structured_type"),
        eligible=_maybe(query.one("eligible_feature"), "eligible_feature", RichResultFeature),
        finding=_maybe(query.one("structured_finding"), "structured_finding", FindingKind),
    )


def parse_page_links(query: Query) -> tuple[str, LinkDirection]:
    """A page's URL and which of its links to list."""
    url, direction = _required(query, "url"), _required(query, "direction")
    return url, _value("direction", LinkDirection, direction)


def _required(query: Query, name: str) -> str:
    value = query.one(name)
    if value is None:
        raise _bad(f"query parameter {name!r} is required")
    return value


def _status(raw: str | None) -> tuple[int | None, int | None]:
    """`404` → (404, None); `4xx` → (None, 4)."""
    if raw is None:
        return None, None
    if _STATUS_CODE.fullmatch(raw):
        return int(raw), None
    if match := _STATUS_CLASS.fullmatch(raw):
        return None, int(match.group(1))
    raise _bad(f"query parameter 'status' must be a status code (404) or class (4xx), not {raw!r}")


def _boolean(raw: str) -> bool:
    return _BOOLEANS[raw]


def _maybe[T](raw: str | None, name: str, parse: Callable[[str], T]) -> T | None:
    return None if raw is None else _value(name, parse, raw)


def _value[T](name: str, parse: Callable[[str], T], raw: str) -> T:
    try:
        return parse(raw)
    except (KeyError, ValueError):
        message = f"query parameter {name!r} has an unknown value {raw!r}{_choices(parse)}"
        raise _bad(message) from None


def _choices(parse: object) -> str:
    if isinstance(parse, type) and issubclass(parse, StrEnum):
        return f"; expected one of {[str(m) for m in parse]}" if len(parse) <= 12 else ""
    if parse is _boolean:
        return "; expected true or false"
    return ""


def _bad(message: str) -> BadRequest:
    return BadRequest(message)
