"""The records as the API shows them: each record's `to_dict()`, with the fields a view adds
declared once, as a small record, and the fields it drops. The handlers render with these, and
the OpenAPI document (`api.openapi.record_model`) describes the same records, so a field added
here shows in both.
"""

from __future__ import annotations

from dataclasses import dataclass

from auditdb.keys import ApiKeyRecord
from auditdb.monitors import MonitorRecord, MonitorRunRecord
from auditdb.records import AuditRecord
from common.wire import JsonObject, to_json
from service import audits
from service.keys import CreatedKey
from service.monitors import CreatedMonitor
from service.run_reasons import run_reason


@dataclass(frozen=True, slots=True)
class KeyState:
    """Beside an API key's record: whether it was revoked."""

    revoked: bool


@dataclass(frozen=True, slots=True)
class KeySecret:
    """Beside a key just created: its secret, shown only then."""

    secret: str


@dataclass(frozen=True, slots=True)
class WebhookSecret:
    """Beside a monitor just created: its webhook secret, shown only then."""

    webhook_secret: str


@dataclass(frozen=True, slots=True)
class RunState:
    """Beside a monitor run's record: whether its full report was stored in R2, and a failed
    run's reason in a sentence (service.run_reasons), null for the other runs."""

    has_report: bool
    reason: str | None


# Never the claim of a monitor (the secret is not in the record).
MONITOR_DROPPED = frozenset({"lock_until"})


def audit_summary(audit: AuditRecord) -> JsonObject:
    return audits.audit_view(audit)


def key_summary(key: ApiKeyRecord) -> JsonObject:
    return {**key.to_dict(), **to_json(KeyState(key.revoked))}


def created_key(created: CreatedKey) -> JsonObject:
    return {**key_summary(created.key), **to_json(KeySecret(created.secret))}


def monitor_summary(monitor: MonitorRecord) -> JsonObject:
    summary = monitor.to_dict()
    for name in MONITOR_DROPPED:
        del summary[name]
    return summary


def created_monitor(created: CreatedMonitor) -> JsonObject:
    secret = WebhookSecret(created.webhook_secret)
    return {**monitor_summary(created.monitor), **to_json(secret)}


def run_summary(run: MonitorRunRecord) -> JsonObject:
    state = RunState(has_report=run.r2_key is not None, reason=run_reason(run))
    return {**run.to_dict(), **to_json(state)}
