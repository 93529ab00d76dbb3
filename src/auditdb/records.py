"""Rows of the D1 tables the product reads, as frozen dataclasses.

Each record converts losslessly to and from the plain dicts that cross a workflow step, a Durable
Object RPC or a D1 row, so nothing depends on which side of the JS boundary it was built on.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any, Self

from audit.issues import DetectedIssue
from urls.private_hosts import PrivateHosts

DEFAULT_MAX_PAGES = 50
# Per-fetch response timeout: Screaming Frog waits 20 s, SEOnaut 10 s, the original system 15 s.
DEFAULT_FETCH_TIMEOUT_S = 15.0
MIN_FETCH_TIMEOUT_S = 1.0
MAX_FETCH_TIMEOUT_S = 60.0
MIN_MAX_PAGES = 1
MAX_MAX_PAGES = 10_000


class AuditStatus(StrEnum):
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"


class AuditPhase(StrEnum):
    DISCOVERY = "discovery"
    CRAWLING = "crawling"
    FINALIZING = "finalizing"
    COMPLETED = "completed"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class AuditOptions:
    max_pages: int = DEFAULT_MAX_PAGES
    max_depth: int | None = None
    include_patterns: list[str] = field(default_factory=list)
    exclude_patterns: list[str] = field(default_factory=list)
    private_hosts: PrivateHosts = PrivateHosts.DENY
    fetch_timeout_s: float = DEFAULT_FETCH_TIMEOUT_S

    def __post_init__(self) -> None:
        if not MIN_FETCH_TIMEOUT_S <= self.fetch_timeout_s <= MAX_FETCH_TIMEOUT_S:
            raise ValueError(
                f"fetch_timeout_s must be between {MIN_FETCH_TIMEOUT_S:g} and {MAX_FETCH_TIMEOUT_S:g}"
            )
        if not MIN_MAX_PAGES <= self.max_pages <= MAX_MAX_PAGES:
            raise ValueError(f"max_pages must be between {MIN_MAX_PAGES} and {MAX_MAX_PAGES}")
        if self.max_depth is not None and self.max_depth < 0:
            raise ValueError("max_depth must not be negative")

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_pages": self.max_pages,
            "max_depth": self.max_depth,
            "include_patterns": list(self.include_patterns),
            "exclude_patterns": list(self.exclude_patterns),
            "private_hosts": str(self.private_hosts),
            "fetch_timeout_s": self.fetch_timeout_s,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return cls(
            max_pages=int(data.get("max_pages", DEFAULT_MAX_PAGES)),
            max_depth=data.get("max_depth"),
            include_patterns=list(data.get("include_patterns") or []),
            exclude_patterns=list(data.get("exclude_patterns") or []),
            private_hosts=PrivateHosts(data.get("private_hosts", "deny")),
            fetch_timeout_s=float(data.get("fetch_timeout_s", DEFAULT_FETCH_TIMEOUT_S)),
        )


@dataclass(frozen=True, slots=True)
class AuditRecord:
    id: str
    start_url: str
    created_at: str
    owner: str = "local"
    final_url: str | None = None
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

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["options"] = self.options.to_dict()
        data["status"] = str(self.status)
        data["current_phase"] = None if self.current_phase is None else str(self.current_phase)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        values["options"] = AuditOptions.from_dict(dict(data.get("options") or {}))
        values["status"] = AuditStatus(data.get("status", "running"))
        phase = data.get("current_phase")
        values["current_phase"] = None if phase is None else AuditPhase(phase)
        values["issues_checked"] = bool(data.get("issues_checked", False))
        return cls(**values)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Self:
        data = dict(row)
        data["options"] = json.loads(data.pop("options_json") or "{}")
        return cls.from_dict(data)


_FLAGS = ("is_html", "truncated", "is_indexable", "has_structured_data", "in_sitemap")


@dataclass(frozen=True, slots=True)
class PageRecord:
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        values["heading_order"] = list(values.get("heading_order") or [])
        values["hreflang"] = list(values.get("hreflang") or [])
        for flag in _FLAGS:
            if flag in values:
                values[flag] = bool(values[flag])
        return cls(**values)

    def to_row(self) -> dict[str, Any]:
        row = self.to_dict()
        row["heading_order_json"] = json.dumps(row.pop("heading_order"))
        row["hreflang_json"] = json.dumps(row.pop("hreflang"))
        for flag in _FLAGS:
            row[flag] = int(row[flag])
        return row

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Self:
        data = dict(row)
        data["heading_order"] = json.loads(data.pop("heading_order_json", None) or "[]")
        data["hreflang"] = json.loads(data.pop("hreflang_json", None) or "[]")
        return cls.from_dict(data)


@dataclass(frozen=True, slots=True)
class IssueRecord:
    """One row of `audit_issues`; `id` is deterministic so re-inserts are idempotent."""

    id: str
    audit_id: str
    page_url: str
    issue_type: str
    severity: str
    page_id: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        values["details"] = dict(values.get("details") or {})
        return cls(**values)

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
        )

    def to_row(self) -> dict[str, Any]:
        row = self.to_dict()
        row["details_json"] = json.dumps(row.pop("details"), sort_keys=True)
        return row

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Self:
        data = dict(row)
        data["details"] = json.loads(data.pop("details_json", None) or "{}")
        return cls.from_dict(data)
