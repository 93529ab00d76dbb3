"""The parameters a SiteAuditWorkflow instance is created with (its event payload)."""

from __future__ import annotations

from dataclasses import dataclass, field

from auditdb.records import AuditOptions
from common.wire import JsonRecord


@dataclass(frozen=True, slots=True)
class AuditParams(JsonRecord):
    audit_id: str
    start_url: str
    options: AuditOptions = field(default_factory=AuditOptions)
    # True when this instance finishes a failed audit from its retained scratchpad.
    resume: bool = False
    # No scheme was typed: discovery tries https, then http (crawl.start_verdict).
    scheme_assumed: bool = False
    # The audit's credentials sealed (crawl.credentials): the instance store keeps the params,
    # so they never hold them in clear; each step that fetches opens them (`AuditRun.http`).
    credentials_sealed: str | None = None
