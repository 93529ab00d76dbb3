"""Monitor alerts, sans-IO: when a run alerts, what the alert says, and how it is signed.

Nothing here sends anything: delivery (through the queue, with retries and the `alerts` table
that keeps it to one alert per run) is built on top of these values.

Deciding. `should_alert(previous, current, thresholds)` is a pure function of the two runs'
scores: the health score dropped by at least `thresholds.score_drop`, critical issues appeared
that the previous run did not have (`new_critical_issues`, counted by service.compare), or the
site's security grade got worse (`grade_drop`: a lower letter in the Observatory's order A+ > A >
A- > ... > F, `security.grade.Grade`; a run graded on one side only never counts as a drop). A
run without a previous run never alerts: there is nothing to get worse than.

Signing follows the Standard Webhooks specification (standardwebhooks.com, version 1): three
headers, `webhook-id` (the delivery id, the same on every retry so receivers can de-duplicate),
`webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`, several
separated by spaces during a secret rotation), over `<id>.<timestamp>.<body>`. The secret is
`whsec_` + base64 of 32 random bytes. Receivers can verify with the specification's reference
libraries (`pip install standardwebhooks`) or with `verify` below; docs/alerts.md shows both. The
timestamp inside the signed content is what stops a captured request from being replayed later:
`verify` refuses a timestamp outside its tolerance (5 minutes, the specification's default).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from audit.catalogue import Severity
from common.wire import JsonRecord
from security.grade import Grade
from service.compare import AuditComparison

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32  # RFC 2104 §3: a key no shorter than the hash's output (32 bytes for SHA-256)
SIGNATURE_VERSION = "v1"
DEFAULT_TOLERANCE_S = 5 * 60
ALERT_TYPE = "monitor.alert"
MAX_LISTED_ISSUES = 20  # the payload names the first few; the comparison link has them all
_SCORE_DECIMALS = 2  # as service.compare: scores differ by tenths, not by float noise


# -- deciding ----------------------------------------------------------------------------------


class AlertReason(StrEnum):
    SCORE_DROP = "score_drop"
    NEW_CRITICAL_ISSUES = "new_critical_issues"
    GRADE_DROP = "grade_drop"


@dataclass(frozen=True, slots=True)
class AlertThresholds(JsonRecord):
    """A monitor's alert settings: `score_drop` None never alerts on the score."""

    score_drop: float | None = 10.0
    new_critical_issues: bool = True
    grade_drop: bool = True

    def __post_init__(self) -> None:
        if self.score_drop is not None and self.score_drop <= 0:
            raise ValueError("score_drop must be positive (or None to ignore the score)")


@dataclass(frozen=True, slots=True)
class RunScore(JsonRecord):
    """What a decision needs of one finished run."""

    run_id: str
    audit_id: str
    health_score: float | None
    new_critical_issues: int = 0  # critical issues not in the previous run (service.compare)
    grade: str | None = None  # the security grade's letter; None: not graded


def score_drop(previous: RunScore, current: RunScore) -> float | None:
    """How far the score fell (negative: it rose); None when either run has no score."""
    if previous.health_score is None or current.health_score is None:
        return None
    return round(previous.health_score - current.health_score, _SCORE_DECIMALS)


def should_alert(
    previous: RunScore | None, current: RunScore, thresholds: AlertThresholds
) -> list[AlertReason]:
    """Why `current` alerts (empty: it does not). Without a previous run it never does."""
    if previous is None:
        return []
    reasons = []
    drop = score_drop(previous, current)
    if thresholds.score_drop is not None and drop is not None and drop >= thresholds.score_drop:
        reasons.append(AlertReason.SCORE_DROP)
    if thresholds.new_critical_issues and current.new_critical_issues > 0:
        reasons.append(AlertReason.NEW_CRITICAL_ISSUES)
    if thresholds.grade_drop and grade_dropped(previous.grade, current.grade):
        reasons.append(AlertReason.GRADE_DROP)
    return reasons


_GRADE_RANK = {str(grade): rank for rank, grade in enumerate(Grade)}  # A+ = 0, ..., F = 12


def grade_dropped(before: str | None, after: str | None) -> bool:
    """True when both runs were graded and `after` is a lower letter than `before`."""
    if before not in _GRADE_RANK or after not in _GRADE_RANK:
        return False
    return _GRADE_RANK[after] > _GRADE_RANK[before]


# -- the alert ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AlertIssue(JsonRecord):
    issue_type: str
    page_url: str
    dedupe_key: str = ""


@dataclass(frozen=True, slots=True)
class AlertPayload(JsonRecord):
    """The JSON body of one alert. Grows by fields; receivers should ignore the ones they do not
    know. `grade_before`/`grade_after` are the security grades (None: that run was not graded)."""

    delivery_id: str
    monitor_id: str
    site: str
    run_id: str
    audit_id: str
    previous_run_id: str
    previous_audit_id: str
    score_before: float | None
    score_after: float | None
    reasons: list[AlertReason]
    new_critical_total: int
    new_critical_issues: list[AlertIssue] = field(default_factory=list)  # the first few
    comparison: str = ""  # the API path of the full comparison
    type: str = ALERT_TYPE
    grade_before: str | None = None
    grade_after: str | None = None

    def body(self) -> bytes:
        """The bytes to send and sign: compact, keys sorted, UTF-8."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return text.encode("utf-8")


def count_new_critical(comparison: AuditComparison) -> int:
    """`RunScore.new_critical_issues` of the comparison of the previous run's audit with this one."""
    return comparison.new_issues.by_severity.get(str(Severity.CRITICAL), 0)


def alert_payload(
    monitor_id: str,
    previous: RunScore,
    current: RunScore,
    reasons: list[AlertReason],
    comparison: AuditComparison,
) -> AlertPayload:
    """The alert of `current`, naming the first new critical issues of `comparison` (the list is
    in severity order, so critical issues come first)."""
    critical = [
        AlertIssue(issue.issue_type, issue.page_url, issue.dedupe_key)
        for issue in comparison.new_issues.issues
        if issue.severity == Severity.CRITICAL
    ]
    return AlertPayload(
        delivery_id=delivery_id(monitor_id, current.run_id),
        monitor_id=monitor_id,
        site=comparison.after.start_url,
        run_id=current.run_id,
        audit_id=current.audit_id,
        previous_run_id=previous.run_id,
        previous_audit_id=previous.audit_id,
        score_before=previous.health_score,
        score_after=current.health_score,
        reasons=reasons,
        new_critical_total=count_new_critical(comparison),
        new_critical_issues=critical[:MAX_LISTED_ISSUES],
        comparison=comparison_path(previous.audit_id, current.audit_id),
        grade_before=previous.grade,
        grade_after=current.grade,
    )


def delivery_id(monitor_id: str, run_id: str) -> str:
    """One id per (monitor, run): every retry of a run's alert carries the same `webhook-id`."""
    digest = hashlib.sha256(f"{monitor_id}\n{run_id}".encode()).hexdigest()
    return f"alert_{digest[:32]}"


def comparison_path(previous_audit_id: str, audit_id: str) -> str:
    return f"/api/audits/{previous_audit_id}/compare/{audit_id}"


# -- signing -----------------------------------------------------------------------------------


class SignatureProblem(StrEnum):
    MISSING_HEADER = "missing_header"
    BAD_TIMESTAMP = "bad_timestamp"  # not an integer
    TOO_OLD = "too_old"  # before now - tolerance: a replay, or a very late retry
    TOO_NEW = "too_new"  # after now + tolerance: the clocks disagree
    NO_MATCH = "no_match"  # no v1 signature matches: wrong secret or altered body


class InvalidSignature(ValueError):
    def __init__(self, problem: SignatureProblem) -> None:
        super().__init__(f"webhook signature refused: {problem}")
        self.problem = problem


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def _key(secret: str) -> bytes:
    try:
        return base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    except binascii.Error:
        raise ValueError("a signing secret is whsec_ followed by base64") from None


def sign(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    """`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`."""
    return _signature(secret, msg_id, str(timestamp), body)


def _signature(secret: str, msg_id: str, stamp: str, body: bytes) -> str:
    # The timestamp is signed as its header spells it, as the specification's libraries do.
    content = f"{msg_id}.{stamp}.".encode() + body
    digest = hmac.new(_key(secret), content, hashlib.sha256).digest()
    return f"{SIGNATURE_VERSION},{base64.b64encode(digest).decode('ascii')}"


def signed_headers(secret: str, msg_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The request headers of one delivery attempt, signed at `timestamp` (Unix seconds)."""
    return {
        "content-type": "application/json",
        "webhook-id": msg_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(secret, msg_id, timestamp, body),
    }


def verify(
    secret: str,
    headers: Mapping[str, str],
    body: bytes,
    now: float,
    tolerance_s: int = DEFAULT_TOLERANCE_S,
) -> None:
    """Accept a delivery or raise `InvalidSignature` saying why (header names in any case)."""
    lower = {name.lower(): value for name, value in headers.items()}
    try:
        msg_id, stamp = lower["webhook-id"], lower["webhook-timestamp"]
        offered = lower["webhook-signature"].split()
    except KeyError:
        raise InvalidSignature(SignatureProblem.MISSING_HEADER) from None
    _check_timestamp(stamp, now, tolerance_s)
    expected = _signature(secret, msg_id, stamp, body)
    # Constant-time comparison (hmac.compare_digest) against each offered v1 signature.
    if not any(hmac.compare_digest(expected, candidate) for candidate in offered):
        raise InvalidSignature(SignatureProblem.NO_MATCH)


def _check_timestamp(stamp: str, now: float, tolerance_s: int) -> None:
    if not stamp.isascii() or not stamp.isdigit():
        raise InvalidSignature(SignatureProblem.BAD_TIMESTAMP)
    if int(stamp) < now - tolerance_s:
        raise InvalidSignature(SignatureProblem.TOO_OLD)
    if int(stamp) > now + tolerance_s:
        raise InvalidSignature(SignatureProblem.TOO_NEW)
