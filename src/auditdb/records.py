"""Rows of the D1 tables the product reads, as frozen dataclasses.

Each record converts losslessly to and from the plain dicts that cross a workflow step, a Durable
Object RPC or a D1 row, so nothing depends on which side of the JS boundary it was built on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Self

from audit.issues import DetectedIssue
from auditdb.scope import ScopeOptions
from auditdb.verifications import RobotsDecision
from common.failures import start_failure_code
from common.settings import CRAWL, EXTERNAL
from common.wire import JsonMapping, JsonObject, JsonRecord, JsonValue
from lighthouse.records import LighthouseMode, LighthouseStatus
from lighthouse.sample import DEFAULT_SAMPLE_PAGES
from render.records import RenderMode
from urls.credentials import RedactedCredentials
from urls.private_hosts import PrivateHosts

# An audit's `lighthouse_pages`: how many pages it may sample (each costs two provider calls).
MAX_LIGHTHOUSE_PAGES = 50


class AuditStatus(StrEnum):
    """An audit's lifecycle; every status but `running` is final until a resume.

    running -> completed | failed | cancelled      (the workflow, the watchdog, the owner)
    failed | cancelled -> running                  (resume, from the retained scratchpad)
    """

    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"  # stopped by its owner; distinct from failed (no error code)


class AuditPhase(StrEnum):
    DISCOVERY = "discovery"
    CRAWLING = "crawling"
    EXTERNAL_LINKS = "external-links"  # only with check_external: other sites' links checked
    LIGHTHOUSE = "lighthouse"  # only when the audit samples pages and a provider is configured
    FINALIZING = "finalizing"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class AuditOptions(JsonRecord):
    max_pages: int = CRAWL.default_max_pages
    max_depth: int | None = None
    include_patterns: list[str] = field(default_factory=list)
    exclude_patterns: list[str] = field(default_factory=list)
    private_hosts: PrivateHosts = PrivateHosts.DENY
    fetch_timeout_s: float = CRAWL.fetch_timeout_s
    lighthouse: LighthouseMode = LighthouseMode.AUTO
    lighthouse_pages: int = DEFAULT_SAMPLE_PAGES
    # Check links to other sites (docs/external-links.md); off unless the caller asks.
    check_external: bool = False
    # Seconds the external checks may take in all; what is left is reported unchecked.
    external_budget_s: float = EXTERNAL.default_budget_s
    # Which pages a browser renders (issue 30, docs/rendering.md); options stored before the
    # option existed read back as `auto`.
    render: RenderMode = RenderMode.AUTO
    # -- scope and speed, list mode (issue 28, items 3 and 4; auditdb.scope) --
    scope: ScopeOptions = field(default_factory=ScopeOptions)
    # -- robots.txt override (issue 28, item 2; auditdb.verifications) --
    # Ignore robots.txt disallows: accepted only for an owner who verified the start URL's host
    # (service.verification), checked again before the crawl (workflow.robots_step).
    ignore_robots: bool = False
    # -- credentials (issue 28): what the audit sends to a closed site, as every view shows it
    # (names, the basic-auth user, "[redacted]" values); the sealed form is the audits row's
    # `credentials_sealed` column and the workflow's `AuditParams.credentials_sealed`.
    credentials: RedactedCredentials | None = None

    def __post_init__(self) -> None:
        low_s, high_s = EXTERNAL.min_budget_s, EXTERNAL.max_budget_s
        if not low_s <= self.external_budget_s <= high_s:
            raise ValueError(f"external_budget_s must be between {low_s:g} and {high_s:g}")
        if not 1 <= self.lighthouse_pages <= MAX_LIGHTHOUSE_PAGES:
            raise ValueError(f"lighthouse_pages must be between 1 and {MAX_LIGHTHOUSE_PAGES}")
        low, high = CRAWL.min_fetch_timeout_s, CRAWL.max_fetch_timeout_s
        if not low <= self.fetch_timeout_s <= high:
            raise ValueError(f"fetch_timeout_s must be between {low:g} and {high:g}")
        if not CRAWL.min_max_pages <= self.max_pages <= CRAWL.max_max_pages:
            raise ValueError(
                f"max_pages must be between {CRAWL.min_max_pages} and {CRAWL.max_max_pages}"
            )
        if self.max_depth is not None and self.max_depth < 0:
            raise ValueError("max_depth must not be negative")


@dataclass(frozen=True, slots=True)
class AuditRecord(JsonRecord):
    id: str
    start_url: str
    created_at: str
    owner: str = "local"
    final_url: str | None = None
    # No scheme was typed: `start_url` is https, and discovery fell back to http if https could
    # not connect (crawl.start_verdict); `scheme_note` says which scheme was used (migration 0017).
    scheme_assumed: bool = False
    scheme_note: str | None = None
    options: AuditOptions = field(default_factory=AuditOptions)
    status: AuditStatus = AuditStatus.RUNNING
    current_phase: AuditPhase | None = AuditPhase.DISCOVERY
    workflow_instance_id: str | None = None
    pages_crawled: int = 0
    pages_total: int = 0
    issues_total: int = 0
    critical_count: int = 0
    warning_count: int = 0
    info_count: int = 0
    health_score: float | None = None
    issues_checked: bool = False
    error_code: str | None = None
    error_detail: str | None = None
    failed_phase: str | None = None
    resume_count: int = 0
    started_at: str | None = None
    finished_at: str | None = None
    # The start URL's security grade (workflow.security_step): the letter and score once graded;
    # `security_error` says why the site could not be graded. All None before the step ran.
    security_grade: str | None = None
    security_score: int | None = None
    security_error: str | None = None
    # The Lighthouse phase (workflow.lighthouse_step): runs planned (2 per sampled page), stored
    # without and with an error, and what became of the phase (None: not reached yet).
    lighthouse_total: int = 0
    lighthouse_completed: int = 0
    lighthouse_failed: int = 0
    lighthouse_status: LighthouseStatus | None = None
    # What became of `options.ignore_robots` (workflow.robots_step); None when not asked for.
    robots_override: RobotsDecision | None = None

    @property
    def robots_note(self) -> str | None:
        """What became of `ignore_robots`, for every report: "robots.txt was ignored (host
        verified by dns on 2026-12-05)", or why it was obeyed; None when not asked for (an audit
        whose proof was checked only for its crawl rate has an empty note)."""
        return None if self.robots_override is None else self.robots_override.note or None

    @property
    def site_failure(self) -> str | None:
        """The sentence for the site's owner when the start URL could not be audited: the site
        made the audit fail (its start URL got no answer, an HTTP error, or is not an HTML page:
        crawl.start_verdict), or our network did (crawl.network_probe); None otherwise."""
        code = start_failure_code(self.error_code)
        if self.status is not AuditStatus.FAILED or code is None:
            return None
        return self.error_detail or code.meaning

    @property
    def site_failure_line(self) -> str | None:
        """`the site could not be connected to (site_connection_failed): <the sentence>`."""
        code = start_failure_code(self.error_code)
        sentence = self.site_failure
        return None if code is None or sentence is None else f"{code.meaning} ({code}): {sentence}"

    @classmethod
    def from_row(cls, row: Mapping[str, object]) -> Self:
        data = dict(row)
        data["options"] = _json_column(data.pop("options_json", None), {})
        data["robots_override"] = _json_column(data.pop("robots_override", None), None)
        data.pop("security_tests", None)  # the per-test results: the report reads them
        data.pop("exposure_summary", None)  # the exposure checks' summary: the report reads it
        data.pop("credentials_sealed", None)  # never leaves auditdb.repository in a record
        return cls.from_dict(data)


_FLAGS = (
    "is_html",
    "truncated",
    "is_indexable",
    "has_structured_data",
    "in_sitemap",
    "a11y_checked",
    "a11y_rendered",
)
# The page fields stored as JSON text in a `<field>_json` column, with what NULL reads as.
_JSON_COLUMNS: Mapping[str, JsonValue] = MappingProxyType(
    {
        "heading_order": [],
        "hreflang": [],
        "structured_types": [],
        "eligible_features": [],
        "structured_findings": {},
    }
)


@dataclass(frozen=True, slots=True)
class PageRecord(JsonRecord):
    """One row of `audit_pages`: every crawled URL, including redirects and failures."""

    id: str
    audit_id: str
    url: str
    crawled_at: str
    status_code: int = 0
    fetch_class: str = "ok"
    final_url: str | None = None
    redirect_url: str | None = None
    content_type: str | None = None
    is_html: bool = False
    response_time_ms: int | None = None
    html_bytes: int = 0
    truncated: bool = False
    title: str | None = None
    meta_description: str | None = None
    canonical_url: str | None = None
    header_canonical_url: str | None = None
    robots_meta: str | None = None
    x_robots_tag: str | None = None
    is_indexable: bool = True
    html_lang: str | None = None
    og_title: str | None = None
    og_description: str | None = None
    og_image: str | None = None
    h1_count: int = 0
    h2_count: int = 0
    h3_count: int = 0
    h4_count: int = 0
    h5_count: int = 0
    h6_count: int = 0
    heading_order: list[int] = field(default_factory=list)
    word_count: int = 0
    content_hash: str | None = None
    images_total: int = 0
    images_missing_alt: int = 0
    internal_link_count: int = 0
    external_link_count: int = 0
    has_structured_data: bool = False
    hreflang: list[str] = field(default_factory=list)
    crawl_depth: int | None = None
    in_sitemap: bool = False
    # What the check of the page's structured data found (structured.page, migration 0028;
    # auditdb.structured_data.page_structured): the top-level items' schema.org types, the
    # rich-result features the page is eligible for, its findings per kind, and how many of them
    # are errors and warnings (of the findings the page keeps, structured.page.MAX_FINDINGS).
    structured_types: list[str] = field(default_factory=list)
    eligible_features: list[str] = field(default_factory=list)
    structured_findings: dict[str, int] = field(default_factory=dict)
    structured_errors: int = 0
    structured_warnings: int = 0
    # Whether the static accessibility rules ran on the page (migration 0029): the verdict scores
    # the accessibility category only when some page was checked.
    a11y_checked: bool = False
    # Whether axe-core ran on the page a browser rendered (migration 0030): the rules only it
    # decides (color-contrast...) were checked on such pages only.
    a11y_rendered: bool = False

    def to_row(self) -> JsonObject:
        row = self.to_dict()
        for name in _JSON_COLUMNS:
            row[f"{name}_json"] = json.dumps(row.pop(name))
        for flag in _FLAGS:
            row[flag] = int(bool(row[flag]))
        return row

    @classmethod
    def from_row(cls, row: Mapping[str, object]) -> Self:
        data = dict(row)
        for name, empty in _JSON_COLUMNS.items():
            data[name] = _json_column(data.pop(f"{name}_json", None), empty)
        return cls.from_dict(data)


@dataclass(frozen=True, slots=True)
class IssueRecord(JsonRecord):
    """One row of `audit_issues`; `id` is deterministic so re-inserts are idempotent.

    (issue_type, page_url, dedupe_key) is the issue's identity across audits (migration 0008):
    `dedupe_key` tells apart several issues of one type on one page, and is '' when one suffices.
    """

    id: str
    audit_id: str
    page_url: str
    issue_type: str
    severity: str
    page_id: str | None = None
    details: JsonObject = field(default_factory=dict)
    dedupe_key: str = ""

    @classmethod
    def from_detected(cls, audit_id: str, issue: DetectedIssue, page_id: str | None) -> Self:
        """The row of a rule's finding; its id is deterministic, so re-inserts are idempotent."""
        return cls(
            id=issue.id(audit_id),
            audit_id=audit_id,
            page_url=issue.page_url,
            issue_type=issue.issue_type.value,
            severity=issue.severity.value,
            page_id=page_id,
            details=dict(issue.details),
            dedupe_key=issue.dedupe_key or "",
        )

    def to_row(self) -> JsonObject:
        # Spelled out (finalize writes tens of thousands a page): to_dict()'s columns in its
        # order, `details` as JSON text last; `details` holds JSON values only (DetectedIssue).
        return {
            "id": self.id,
            "audit_id": self.audit_id,
            "page_url": self.page_url,
            "issue_type": self.issue_type,
            "severity": self.severity,
            "page_id": self.page_id,
            "dedupe_key": self.dedupe_key,
            "details_json": _details_json(self.details),
        }

    @classmethod
    def from_row(cls, row: Mapping[str, object]) -> Self:
        data = dict(row)
        data["details"] = _json_column(data.pop("details_json", None), {})
        return cls.from_dict(data)


# An issue's details as `json.dumps(details, sort_keys=True)` writes them. The encoder is made once
# (`dumps` builds one on every call that passes an option), and empty details, most issues of a
# page without findings in them, skip it (`encode` sets up its C encoder on every call).
_DETAILS_JSON = json.JSONEncoder(sort_keys=True)


def _details_json(details: JsonMapping) -> str:
    return _DETAILS_JSON.encode(details) if details else "{}"


def _json_column(text: object, empty: JsonValue) -> JsonValue:
    """A TEXT column holding JSON; NULL or '' reads as `empty`."""
    if not text:
        return empty
    if not isinstance(text, str):
        raise TypeError(f"a JSON column holds text, not {type(text).__name__}")
    value: JsonValue = json.loads(text)
    return value
