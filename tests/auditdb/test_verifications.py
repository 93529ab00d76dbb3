"""auditdb.verifications: the lifecycle table, the records' round trips, and the owner-scoped SQL."""

from __future__ import annotations

import pytest

from auditdb import verifications
from auditdb.verifications import (
    TRANSITIONS,
    CheckOutcome,
    CheckResult,
    HostVerification,
    RobotsDecision,
    VerificationEvent,
    VerificationMethod,
    VerificationStatus,
    next_status,
)
from local_platform.d1 import LocalD1Database
from tests.support.local_d1 import as_d1

S = VerificationStatus
E = VerificationEvent


def test_the_table_answers_every_status_and_event() -> None:
    assert set(TRANSITIONS) == {(s, e) for s in S for e in E}


@pytest.mark.parametrize(
    ("status", "event", "after"),
    [
        (S.PENDING, E.PASSED, S.VERIFIED),
        (S.PENDING, E.FAILED, S.FAILED),
        (S.PENDING, E.UNCHECKED, S.PENDING),
        (S.VERIFIED, E.PASSED, S.VERIFIED),
        (S.VERIFIED, E.FAILED, S.FAILED),
        (S.VERIFIED, E.UNCHECKED, S.VERIFIED),  # could not check is not failed
        (S.FAILED, E.PASSED, S.VERIFIED),
        (S.FAILED, E.UNCHECKED, S.FAILED),  # ... nor passed
        (S.VERIFIED, E.METHOD_CHANGED, S.PENDING),
        (S.FAILED, E.METHOD_CHANGED, S.PENDING),
    ],
)
def test_each_move(
    status: VerificationStatus, event: VerificationEvent, after: VerificationStatus
) -> None:
    assert next_status(status, event) is after


def test_every_outcome_is_an_event() -> None:
    assert {CheckResult(outcome, "").event for outcome in CheckOutcome} <= set(E)


ROW = HostVerification(
    id="ver_1",
    owner="acme",
    host="a.test",
    method=VerificationMethod.DNS,
    token="tok",
    created_at="2026-12-01T00:00:00.000Z",
)


def test_a_check_moves_the_row_and_keeps_the_last_passing_time() -> None:
    passed = ROW.checked(CheckResult(CheckOutcome.PASSED, "found"), "2026-12-02T00:00:00.000Z")
    assert (passed.status, passed.verified_at) == (S.VERIFIED, "2026-12-02T00:00:00.000Z")
    unchecked = passed.checked(CheckResult(CheckOutcome.UNCHECKED, "could not check: x"), "t3")
    assert (unchecked.status, unchecked.verified_at, unchecked.checked_at) == (
        S.VERIFIED,
        "2026-12-02T00:00:00.000Z",
        "t3",
    )
    failed = unchecked.checked(CheckResult(CheckOutcome.FAILED, "gone"), "t4")
    assert (failed.status, failed.reason, failed.verified_at) == (
        S.FAILED,
        "gone",
        "2026-12-02T00:00:00.000Z",
    )


@pytest.mark.parametrize(
    "record",
    [
        ROW,
        ROW.checked(CheckResult(CheckOutcome.PASSED, "found"), "t"),
        RobotsDecision(
            True, "robots.txt was ignored (...)", "a.test", VerificationMethod.FILE, "t"
        ),
        RobotsDecision(False, "robots.txt was obeyed, not ignored as asked: ...", "a.test"),
    ],
)
def test_records_round_trip(record: HostVerification | RobotsDecision) -> None:
    assert type(record).from_dict(record.to_dict()) == record


async def test_one_row_per_owner_and_host_and_owners_never_see_each_other(
    migrated_d1: LocalD1Database,
) -> None:
    db = as_d1(migrated_d1)
    first = await verifications.insert_verification(db, ROW)
    again = await verifications.insert_verification(
        db, HostVerification("ver_2", "acme", "a.test", VerificationMethod.FILE, "other", "t")
    )
    assert again == first  # the same row, the same token: asking again changes nothing
    theirs = await verifications.insert_verification(
        db, HostVerification("ver_3", "rival", "a.test", VerificationMethod.FILE, "tok3", "t")
    )
    assert theirs.id == "ver_3"
    assert await verifications.get_owned(db, "acme", "ver_3") is None
    assert [row.id for row in await verifications.list_owned(db, "acme")] == ["ver_1"]
    assert not await verifications.delete_owned(db, "acme", "ver_3")
    changed = await verifications.set_method(db, first, VerificationMethod.META)
    assert (changed.method, changed.token, changed.status) == ("meta", "tok", S.PENDING)
    assert await verifications.delete_owned(db, "acme", "ver_1")
    assert await verifications.find_for_host(db, "acme", "a.test") is None
