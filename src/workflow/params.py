"""The parameters a SiteAuditWorkflow instance is created with (its event payload)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Self

from auditdb.records import AuditOptions
from common.wire import JsonObject, from_json, to_json


@dataclass(frozen=True, slots=True)
class AuditParams:
    audit_id: str
    start_url: str
    options: AuditOptions = field(default_factory=AuditOptions)
    # True when this instance finishes a failed audit from its retained scratchpad.
    resume: bool = False

    def to_dict(self) -> JsonObject:
        return to_json(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        return from_json(cls, data)
