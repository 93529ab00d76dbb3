"""The watchdog's decision as a table: (audit row, what the binding said, now) -> verdict."""

from __future__ import annotations

import pytest

from auditdb.records import AuditRecord, AuditStatus
from common.failures import ErrorCode
from maintenance.watchdog import (
    INSTANCE_LOST_GRACE_MS,
    InstanceProbe,
    Verdict,
    audit_age_ms,
    decide,
    parse_iso_ms,
)

STARTED = "2026-11-01T10:00:00.000Z"
T0 = parse_iso_ms(STARTED)
assert T0 is not None
YOUNG = T0 + INSTANCE_LOST_GRACE_MS - 1
OLD = T0 + INSTANCE_LOST_GRACE_MS + 1


def audit(
    status: AuditStatus = AuditStatus.RUNNING, started_at: str | None = STARTED
) -> AuditRecord:
    return AuditRecord(
        id="a1",
        start_url="https://a.test/",
        created_at=STARTED,
        started_at=started_at,
        status=status,
    )


@pytest.mark.parametrize(
    ("probe", "now", "verdict", "code"),
    [
        (InstanceProbe(status="running"), OLD, Verdict.LEAVE, None),
        (InstanceProbe(status="queued"), OLD, Verdict.LEAVE, None),
        (InstanceProbe(status="waiting"), OLD, Verdict.LEAVE, None),
        (InstanceProbe(status="paused"), OLD, Verdict.LEAVE, None),
        (
            InstanceProbe(status="errored", error_message="Worker exceeded memory limit."),
            YOUNG,
            Verdict.FAIL,
            ErrorCode.OOM,
        ),
        (
            InstanceProbe(status="errored", error_message="Python Worker exceeded CPU time limit"),
            OLD,
            Verdict.FAIL,
            ErrorCode.CPU_LIMIT,
        ),
        (
            InstanceProbe(
                status="errored", error_message="WorkflowTimeoutError: Execution timed out"
            ),
            OLD,
            Verdict.FAIL,
            ErrorCode.STEP_TIMEOUT,
        ),
        (InstanceProbe(status="errored"), OLD, Verdict.FAIL, ErrorCode.UNKNOWN),
        (InstanceProbe(status="terminated"), OLD, Verdict.FAIL, ErrorCode.UNKNOWN),
        (InstanceProbe(status="complete"), OLD, Verdict.FAIL, ErrorCode.UNKNOWN),
        (
            InstanceProbe(lookup_error="Error: (instance.not_found) Instance not found"),
            OLD,
            Verdict.FAIL,
            ErrorCode.INSTANCE_LOST,
        ),
        (
            InstanceProbe(lookup_error="Error: instance.not_found"),
            OLD,
            Verdict.FAIL,
            ErrorCode.INSTANCE_LOST,
        ),
        (
            InstanceProbe(lookup_error="Error: (instance.not_found) Instance not found"),
            YOUNG,
            Verdict.LEAVE,
            None,
        ),
        (
            InstanceProbe(lookup_error="Error: internal error; reference = 1234"),
            OLD,
            Verdict.LEAVE,
            None,
        ),
        (InstanceProbe(lookup_error="TypeError: fetch failed"), OLD, Verdict.LEAVE, None),
    ],
)
def test_decisions_for_a_running_audit(
    probe: InstanceProbe, now: float, verdict: Verdict, code: ErrorCode | None
) -> None:
    decision = decide(audit(), probe, now)
    assert (decision.verdict, decision.error_code) == (verdict, code)


@pytest.mark.parametrize("status", [s for s in AuditStatus if s is not AuditStatus.RUNNING])
def test_finished_audits_are_never_touched(status: AuditStatus) -> None:
    probe = InstanceProbe(status="errored", error_message="Worker exceeded memory limit.")
    assert decide(audit(status), probe, OLD).verdict is Verdict.LEAVE


def test_the_instance_error_is_kept_as_detail() -> None:
    probe = InstanceProbe(status="errored", error_message="x" * 900)
    assert decide(audit(), probe, OLD).error_detail == "x" * 500


@pytest.mark.parametrize("started_at", [None, "not a time", "2026-13-45T99:00:00Z"])
def test_an_unparseable_start_counts_as_old(started_at: str | None) -> None:
    record = AuditRecord(
        id="a", start_url="https://a.test/", created_at="garbage", started_at=started_at
    )
    assert audit_age_ms(record, OLD) == float("inf")


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("2026-11-01T10:00:00.000Z", T0),
        ("2026-11-01T10:00:00Z", T0),
        ("2026-11-01 10:00:00", T0),
        ("2026-11-01T10:00:00.25Z", T0 + 250),
    ],
)
def test_timestamp_formats(text: str, ms: float) -> None:
    assert parse_iso_ms(text) == ms
