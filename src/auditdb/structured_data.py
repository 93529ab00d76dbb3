"""An audit's structured data in the product (issue 32 item 5; docs/structured-data.md "In the
product"): what each page row keeps of its check, and the audit's summary.

Per page. The crawl checked the page's structured data where it observed it
(structured.page.PageStructuredData); `page_structured` turns that into the page row's columns
(migration 0028): its types, its eligible rich-result features, its findings per kind, its error
and warning counts. The list filters (auditdb.listing) and the exports read those columns.

Per audit. `StructuredSummary` is added up in D1's SQL at finalize (`record_summary`), from those
columns and the issue rows, once every page and issue is written, and stored in the audits row's
`structured_summary`; every report reads it from there (`read_summary`). Why at finalize, from the
page rows, rather than counted chunk by chunk as the render summary is: a rendered page's row
replaces its raw one (workflow.render_step), so a running count would hold both; the rows hold the
page once, and they are what the lists and filters read, so the summary and a filtered list always
agree. The cost is one walk of the audit's page rows and one of its structured-data issue rows.

Bounded: at most `MAX_LISTED` types and features (most pages first), each with its pages; the
counts of finding kinds and issue types are bounded by their vocabularies.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from audit.catalogue import IssueType, Severity
from audit.rules_structured import ISSUE_OF_KIND
from common.bindings import D1Database
from common.wire import JsonObject, JsonRecord, WireError, as_int, as_object, as_str
from structured.findings import FindingKind, RichResultFeature
from structured.findings import Severity as FindingSeverity
from structured.page import PageStructuredData

__all__ = [
    "MAX_LISTED",
    "STRUCTURED_ISSUE_TYPES",
    "FeaturePages",
    "IssueTypeFindings",
    "KindFindings",
    "PageStructured",
    "StructuredSummary",
    "TypePages",
    "counted",
    "page_structured",
    "read_summary",
    "record_summary",
    "summary_of",
]

MAX_LISTED: Final = 20  # types (and features) listed, most pages first; the rest are counted
# The issue types the page rules raise for structured data: the checked findings' types, and
# JSON-LD that does not parse at all.
STRUCTURED_ISSUE_TYPES: Final = (
    IssueType.INVALID_STRUCTURED_DATA,
    *dict.fromkeys(ISSUE_OF_KIND.values()),
)


# -- per page --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PageStructured:
    """A page row's structured-data columns (auditdb.records.PageRecord)."""

    types: list[str]
    features: list[str]
    findings: dict[str, int]  # kind -> findings of that kind
    errors: int
    warnings: int


def page_structured(checked: PageStructuredData | None) -> PageStructured:
    """The page's check as its row keeps it; a page without structured data keeps nothing."""
    if checked is None:
        return PageStructured([], [], {}, 0, 0)
    kinds: dict[str, int] = {}
    for finding in checked.findings:
        kinds[finding.kind.value] = kinds.get(finding.kind.value, 0) + 1
    severities = [finding.severity for finding in checked.findings]
    return PageStructured(
        types=list(checked.types),
        features=[feature.value for feature in checked.eligible_features],
        findings=kinds,
        errors=severities.count(FindingSeverity.ERROR),
        warnings=severities.count(FindingSeverity.WARNING),
    )


# -- the audit's summary ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TypePages(JsonRecord):
    name: str  # a top-level item's type, as structured.validate.root_label names it
    pages: int


@dataclass(frozen=True, slots=True)
class FeaturePages(JsonRecord):
    feature: RichResultFeature
    pages: int  # pages eligible for it


@dataclass(frozen=True, slots=True)
class KindFindings(JsonRecord):
    kind: FindingKind
    pages: int  # pages with at least one finding of the kind
    findings: int


@dataclass(frozen=True, slots=True)
class IssueTypeFindings(JsonRecord):
    issue_type: str  # one of STRUCTURED_ISSUE_TYPES (text: a row may come from another catalogue)
    severity: Severity
    pages: int
    findings: int  # the findings its issues hold (an issue per page and type lists several)


@dataclass(frozen=True, slots=True)
class StructuredSummary(JsonRecord):
    """What the audit's pages carry as structured data: pages with any, the types found and the
    rich-result features they are eligible for (most pages first, at most `MAX_LISTED` each, with
    how many distinct ones there are), and what is wrong: errors and warnings, the pages with
    them, per finding kind and per catalogue issue type."""

    pages: int = 0  # pages with structured data
    pages_with_errors: int = 0
    pages_with_warnings: int = 0
    errors: int = 0
    warnings: int = 0
    types: tuple[TypePages, ...] = ()
    types_total: int = 0  # distinct types; `types` lists the first MAX_LISTED
    features: tuple[FeaturePages, ...] = ()
    features_total: int = 0
    kinds: tuple[KindFindings, ...] = ()
    issue_types: tuple[IssueTypeFindings, ...] = ()

    @property
    def note(self) -> str:
        """One line for the text report."""
        if self.pages == 0:
            return "no page has structured data"
        types = ", ".join(f"{t.name} {t.pages}" for t in self.types[:5])
        more = self.types_total - min(len(self.types), 5)
        types += f" and {more} more" if more > 0 else ""
        eligible = ", ".join(f"{f.feature} {f.pages}" for f in self.features)
        # Markup whose items have no type (or JSON-LD that does not parse) still counts as a
        # page with structured data: the line says no type was read rather than "types: none".
        read = f"types: {types}" if types else "no typed item read"
        return (
            f"{counted(self.pages, 'page')} with structured data ({read}); "
            f"eligible for {eligible or 'no rich result'}; {self.problems}"
        )

    @property
    def problems(self) -> str:
        """`2 errors on 1 page, 1 warning on 1 page`; only what there is (`2 errors on 1 page`),
        or `no errors or warnings`: a count of nothing on 0 pages says nothing to the owner."""
        parts = [
            f"{counted(count, noun)} on {counted(pages, 'page')}"
            for count, noun, pages in (
                (self.errors, "error", self.pages_with_errors),
                (self.warnings, "warning", self.pages_with_warnings),
            )
            if count
        ]
        return ", ".join(parts) or "no errors or warnings"


def counted(n: int, noun: str) -> str:
    """`1 page`, `2,000 pages`."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


# Pages with structured data: markup found (the parser's flag), or a check that found types or
# findings (what the flag does not cover once other syntaxes are checked).
_HAS = (
    "(p.has_structured_data = 1 OR p.structured_types_json != '[]' "
    "OR p.structured_findings_json != '{}')"
)
SITE_SQL: Final = (
    f"SELECT COALESCE(SUM({_HAS}), 0) AS pages, "
    "COALESCE(SUM(p.structured_errors > 0), 0) AS pages_with_errors, "
    "COALESCE(SUM(p.structured_warnings > 0), 0) AS pages_with_warnings, "
    "COALESCE(SUM(p.structured_errors), 0) AS errors, "
    "COALESCE(SUM(p.structured_warnings), 0) AS warnings "
    "FROM audit_pages p WHERE p.audit_id = ?"
)


def _listed_sql(column: str) -> str:
    """A JSON array column's values with their distinct pages, most pages first, the first `?`
    of them, each row carrying how many distinct values there are (a window over the groups)."""
    return (
        "SELECT j.value AS name, COUNT(DISTINCT p.id) AS pages, COUNT(*) OVER () AS total "
        f"FROM audit_pages p, json_each(p.{column}) j WHERE p.audit_id = ? "
        "GROUP BY j.value ORDER BY pages DESC, name LIMIT ?"
    )


TYPES_SQL: Final = _listed_sql("structured_types_json")
FEATURES_SQL: Final = _listed_sql("eligible_features_json")
KINDS_SQL: Final = (
    "SELECT j.key AS kind, COUNT(DISTINCT p.id) AS pages, SUM(j.value) AS findings "
    "FROM audit_pages p, json_each(p.structured_findings_json) j WHERE p.audit_id = ? "
    "GROUP BY j.key ORDER BY j.key"
)
# An issue row without a `findingCount` (invalid-structured-data) is one finding.
ISSUE_TYPES_SQL: Final = (
    "SELECT issue_type, MIN(severity_rank) AS severity_rank, COUNT(DISTINCT page_url) AS pages, "
    "SUM(COALESCE(json_extract(details_json, '$.findingCount'), 1)) AS findings "
    "FROM audit_issues WHERE audit_id = ? AND issue_type IN (SELECT value FROM json_each(?)) "
    "GROUP BY issue_type ORDER BY severity_rank, issue_type"
)
_WRITE_SQL = "UPDATE audits SET structured_summary = ? WHERE id = ? AND status = 'running'"
_READ_SQL = "SELECT structured_summary FROM audits WHERE id = ?"
_SEVERITY_BY_RANK = {severity.order: severity for severity in Severity}


async def summary_of(db: D1Database, audit_id: str) -> StructuredSummary:
    """Add up the audit's page and issue rows as they are now."""
    site = await db.prepare(SITE_SQL).bind(audit_id).first() or {}
    types = (await db.prepare(TYPES_SQL).bind(audit_id, MAX_LISTED).all())["results"]
    features = (await db.prepare(FEATURES_SQL).bind(audit_id, MAX_LISTED).all())["results"]
    kinds = (await db.prepare(KINDS_SQL).bind(audit_id).all())["results"]
    wanted = json.dumps([str(t) for t in STRUCTURED_ISSUE_TYPES])
    issues = (await db.prepare(ISSUE_TYPES_SQL).bind(audit_id, wanted).all())["results"]
    return StructuredSummary(
        pages=as_int(site.get("pages", 0)),
        pages_with_errors=as_int(site.get("pages_with_errors", 0)),
        pages_with_warnings=as_int(site.get("pages_with_warnings", 0)),
        errors=as_int(site.get("errors", 0)),
        warnings=as_int(site.get("warnings", 0)),
        types=tuple(TypePages(as_str(r["name"]), as_int(r["pages"])) for r in types),
        types_total=_total(types),
        features=tuple(_features(features)),
        features_total=_total(features),
        kinds=tuple(_kinds(kinds)),
        issue_types=tuple(_issue_type(row) for row in issues),
    )


def _total(rows: list[JsonObject]) -> int:
    return as_int(rows[0]["total"]) if rows else 0


def _features(rows: Iterable[JsonObject]) -> Iterable[FeaturePages]:
    # A value this version does not know (a newer writer's) is left out rather than failing.
    known = {str(feature) for feature in RichResultFeature}
    for row in rows:
        if row["name"] in known:
            yield FeaturePages(RichResultFeature(as_str(row["name"])), as_int(row["pages"]))


def _kinds(rows: Iterable[JsonObject]) -> Iterable[KindFindings]:
    known = {str(kind) for kind in FindingKind}
    for row in rows:
        if row["kind"] in known:
            kind = FindingKind(as_str(row["kind"]))
            yield KindFindings(kind, as_int(row["pages"]), as_int(row["findings"]))


def _issue_type(row: Mapping[str, object]) -> IssueTypeFindings:
    return IssueTypeFindings(
        issue_type=as_str(row["issue_type"]),
        severity=_SEVERITY_BY_RANK[as_int(row["severity_rank"])],
        pages=as_int(row["pages"]),
        findings=as_int(row["findings"]),
    )


async def record_summary(db: D1Database, audit_id: str) -> StructuredSummary:
    """Add up and store the summary while the audit runs (a cancelled audit is left alone);
    finalize calls it once every page and issue row is written."""
    summary = await summary_of(db, audit_id)
    text = json.dumps(summary.to_dict(), sort_keys=True, separators=(",", ":"))
    await db.prepare(_WRITE_SQL).bind(text, audit_id).run()
    return summary


async def read_summary(db: D1Database, audit_id: str) -> StructuredSummary | None:
    """The stored summary; None before finalize and for audits finished before migration 0028."""
    row = await db.prepare(_READ_SQL).bind(audit_id).first()
    text = (row or {}).get("structured_summary")
    if not isinstance(text, str):
        return None
    try:
        return StructuredSummary.from_dict(as_object(json.loads(text)))
    except (ValueError, WireError):
        return None  # a column written by a newer or broken writer: no section rather than a 500
