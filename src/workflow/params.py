"""The parameters a SiteAuditWorkflow instance is created with (its event payload)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from auditdb.records import AuditOptions


@dataclass(frozen=True, slots=True)
class AuditParams:
    audit_id: str
    start_url: str
    options: AuditOptions = field(default_factory=AuditOptions)
    # True when this instance finishes a failed audit from its retained scratchpad.
    resume: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "audit_id": self.audit_id,
            "start_url": self.start_url,
            "options": self.options.to_dict(),
            "resume": self.resume,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return cls(
            audit_id=str(data["audit_id"]),
            start_url=str(data["start_url"]),
            options=AuditOptions.from_dict(dict(data.get("options") or {})),
            resume=bool(data.get("resume", False)),
        )
