"""Owners' proofs of control of a host (`host_verifications`, migration 0023), and what an audit
made of `ignore_robots` (the audits row's `robots_override`).

Theory of operation
-------------------
An owner asks to verify a host (the URL authority: `example.com`, or `example.com:8443`) by one
method and receives a token, random and kept for the row's life. A check looks for the token
(crawl.host_proof) and ends one of three ways, each an event of the lifecycle below:

    pending  --PASSED-->  verified  --FAILED-->  failed  --PASSED-->  verified
       |                    |  ^                   |
       +------FAILED--------|--|-------------------+
    any state --UNCHECKED--> the same state (the check could not be made: nothing was learnt)
    any state --METHOD_CHANGED--> pending (the owner chose another way to show the token)

`UNCHECKED` (a DNS-over-HTTPS error, a site that did not answer) never demotes a verification and
never promotes one: "could not check" is not "failed". An audit that relies on a verification
checks it again first (workflow.robots_step) and obeys robots.txt unless that check PASSED now,
whatever the stored status says: it fails closed.

WARNING: the diagram is drawn by hand; keep it in step with `TRANSITIONS` (the tests walk the
table, not the picture).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from common.bindings import D1Database
from common.wire import JsonRecord

__all__ = [
    "TRANSITIONS",
    "VERIFIED_MAX_RATE",
    "CheckOutcome",
    "CheckResult",
    "HostVerification",
    "RobotsDecision",
    "VerificationEvent",
    "VerificationMethod",
    "VerificationStatus",
    "delete_owned",
    "find_for_host",
    "get_owned",
    "insert_verification",
    "list_owned",
    "max_rate_for",
    "next_status",
    "record_check",
    "set_method",
    "set_robots_override",
]


class VerificationMethod(StrEnum):
    """Where the token is shown (docs/manual/verify.md)."""

    FILE = "file"  # https://<host>/.well-known/siteaudit-verification.txt
    DNS = "dns"  # TXT siteaudit-verification=<token> at <host> or _siteaudit.<host>
    META = "meta"  # <meta name="siteaudit-verification" content="<token>"> on the start page


class VerificationStatus(StrEnum):
    PENDING = "pending"  # asked for, never checked with an answer
    VERIFIED = "verified"  # the last check with an answer found the token
    FAILED = "failed"  # the last check with an answer did not


class CheckOutcome(StrEnum):
    """What one check found."""

    PASSED = "passed"  # the token is there
    FAILED = "failed"  # an answer came back, and it does not hold the token
    UNCHECKED = "could-not-check"  # no usable answer: the resolver or the site failed


class VerificationEvent(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    UNCHECKED = "could-not-check"
    METHOD_CHANGED = "method-changed"


_S, _E = VerificationStatus, VerificationEvent
TRANSITIONS: Mapping[tuple[VerificationStatus, VerificationEvent], VerificationStatus] = {
    **{(state, _E.PASSED): _S.VERIFIED for state in _S},
    **{(state, _E.FAILED): _S.FAILED for state in _S},
    **{(state, _E.UNCHECKED): state for state in _S},
    **{(state, _E.METHOD_CHANGED): _S.PENDING for state in _S},
}


def next_status(status: VerificationStatus, event: VerificationEvent) -> VerificationStatus:
    """The status after `event`; every pair is in the table (a KeyError would be a bug here)."""
    return TRANSITIONS[(status, event)]


@dataclass(frozen=True, slots=True)
class CheckResult(JsonRecord):
    """One check's outcome and the sentence that says what was found (or could not be)."""

    outcome: CheckOutcome
    reason: str

    @property
    def event(self) -> VerificationEvent:
        return VerificationEvent(self.outcome.value)


@dataclass(frozen=True, slots=True)
class HostVerification(JsonRecord):
    """One row of `host_verifications`."""

    id: str
    owner: str
    host: str  # the URL authority, as `crawl.host_proof.verification_host` normalises it
    method: VerificationMethod
    token: str
    created_at: str
    status: VerificationStatus = VerificationStatus.PENDING
    reason: str | None = None
    checked_at: str | None = None
    verified_at: str | None = None

    def checked(self, result: CheckResult, now: str) -> HostVerification:
        """The row after `result`, checked at `now`."""
        passed = result.outcome is CheckOutcome.PASSED
        return replace(
            self,
            status=next_status(self.status, result.event),
            reason=result.reason,
            checked_at=now,
            verified_at=now if passed else self.verified_at,
        )


@dataclass(frozen=True, slots=True)
class RobotsDecision(JsonRecord):
    """What an audit asked to ignore robots.txt became, said once for every report.

    `ignored` is True only when the proof was checked again before the audit and found (or the
    host is a private one the platform lets its user audit without a proof); otherwise the audit
    obeyed robots.txt and `note` says why, never silently."""

    ignored: bool
    note: str  # "robots.txt was ignored (host verified by dns on 2026-12-05)", or why not
    host: str  # the authority the decision is about
    method: VerificationMethod | None = None
    verified_at: str | None = None
    # The owner's proof of `host` was checked again before this run and found: besides robots.txt,
    # the crawl rate may go up to VERIFIED_MAX_RATE (`rate_ceiling`).
    verified: bool = False

    def rate_ceiling(self, default_rate: float) -> float:
        """The highest crawl rate this run may use on `host` (`max_rate_for`)."""
        return max_rate_for(self.verified, default_rate)


# The crawl rate (requests per second to the audited host) a verified owner may ask for, at most:
# the owner vouches for the site's capacity, yet one audit still must not become a load test.
# Screaming Frog's "max URI/s" speed setting is the same kind of owner's choice. The scope
# options' rate (issue 28, item 3) holds an unverified owner to the default (and robots.txt's
# Crawl-delay).
VERIFIED_MAX_RATE = 20.0


def max_rate_for(verified: bool, default_rate: float) -> float:
    """The highest crawl rate an owner may ask for: the default unless verified."""
    return VERIFIED_MAX_RATE if verified else default_rate


# -- SQL ---------------------------------------------------------------------------------------

_COLUMNS = "id, owner, host, method, token, status, reason, created_at, checked_at, verified_at"


async def insert_verification(db: D1Database, row: HostVerification) -> HostVerification:
    """Insert `row`, unless the owner already has one for the host: then that one, untouched
    (its token stays the one the owner may already have published)."""
    await (
        db.prepare(
            f"INSERT INTO host_verifications ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (owner, host) DO NOTHING"
        )
        .bind(
            row.id,
            row.owner,
            row.host,
            str(row.method),
            row.token,
            str(row.status),
            row.reason,
            row.created_at,
            row.checked_at,
            row.verified_at,
        )
        .run()
    )
    stored = await find_for_host(db, row.owner, row.host)
    assert stored is not None  # just inserted, or there before
    return stored


async def set_method(
    db: D1Database, row: HostVerification, method: VerificationMethod
) -> HostVerification:
    """The row with its method changed (pending again); the same row when the method is the
    same."""
    if method is row.method:
        return row
    status = next_status(row.status, VerificationEvent.METHOD_CHANGED)
    await (
        db.prepare(
            "UPDATE host_verifications SET method = ?, status = ?, reason = NULL WHERE id = ?"
        )
        .bind(str(method), str(status), row.id)
        .run()
    )
    changed = await get_owned(db, row.owner, row.id)
    assert changed is not None
    return changed


async def record_check(db: D1Database, row: HostVerification) -> None:
    """Store a checked row (`HostVerification.checked`): its status, reason and times."""
    await (
        db.prepare(
            "UPDATE host_verifications SET status = ?, reason = ?, checked_at = ?, "
            "verified_at = ? WHERE id = ? AND owner = ?"
        )
        .bind(str(row.status), row.reason, row.checked_at, row.verified_at, row.id, row.owner)
        .run()
    )


async def find_for_host(db: D1Database, owner: str, host: str) -> HostVerification | None:
    """The owner's verification of `host`: another owner's never counts."""
    return await _one(db, "owner = ? AND host = ?", owner, host)


async def get_owned(db: D1Database, owner: str, verification_id: str) -> HostVerification | None:
    """The verification if `owner` owns it: another owner's id answers like an unknown one."""
    return await _one(db, "id = ? AND owner = ?", verification_id, owner)


async def _one(db: D1Database, where: str, *params: str) -> HostVerification | None:
    sql = f"SELECT {_COLUMNS} FROM host_verifications WHERE {where}"
    row = await db.prepare(sql).bind(*params).first()
    return None if row is None else HostVerification.from_dict(row)


async def list_owned(db: D1Database, owner: str) -> list[HostVerification]:
    result = await (
        db.prepare(f"SELECT {_COLUMNS} FROM host_verifications WHERE owner = ? ORDER BY host, id")
        .bind(owner)
        .all()
    )
    return [HostVerification.from_dict(row) for row in result["results"]]


async def delete_owned(db: D1Database, owner: str, verification_id: str) -> bool:
    result = await (
        db.prepare("DELETE FROM host_verifications WHERE id = ? AND owner = ?")
        .bind(verification_id, owner)
        .run()
    )
    return bool(result["meta"].get("changes", 0))


async def set_robots_override(db: D1Database, audit_id: str, decision: RobotsDecision) -> None:
    """What the audit made of `ignore_robots`, for its reports."""
    await (
        db.prepare("UPDATE audits SET robots_override = ? WHERE id = ?")
        .bind(decision.to_json_text(), audit_id)
        .run()
    )
