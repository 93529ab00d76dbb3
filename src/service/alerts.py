"""Monitor alerts, sans-IO: when a run alerts, what the alert says, and how it is signed.

Nothing here sends anything: delivery (through the queue, with retries and the `alerts` table
that keeps it to one alert per run) is built on top of these values.

Deciding. `decide(ending, earlier, previous, current, thresholds)` is a pure function of how
the run ended, the monitor's runs since its last completed one, and the two compared runs' scores:

    failed      `site_unreachable` when the audit failed because of the site (its error code
                is a site failure: no answer, an HTTP error, not HTML), with the outage so far;
                `audit_failed` when it failed on our side (out of memory, a lost instance...):
                blamed on siteaudit, it says nothing about the site. A failed run whose audit was
                deleted (no code: the owner's doing) does not alert.
    cancelled   never alerts: the owner stopped it.
    completed   `site_recovered` when runs since the last completed one failed because of the
                site (`outage_of`), and the comparison's reasons (`should_alert`).

`should_alert(previous, current, thresholds)` compares two completed runs: the health score
dropped by at least `thresholds.score_drop`, critical issues appeared that the previous run did
not have (`new_critical_issues`, counted by service.compare), or the site's security grade got
worse (`grade_drop`: a lower letter in the Observatory's order A+ > A > A- > ... > F,
`security.grade.Grade`; a run graded on one side only never counts as a drop). A run without a
previous completed run never alerts on these: there is nothing to get worse than.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from audit.catalogue import Severity
from auditdb.monitors import MonitorRunStatus
from common.failures import ErrorCode
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
    SITE_UNREACHABLE = "site_unreachable"  # the run failed because of the site
    AUDIT_FAILED = "audit_failed"  # the run failed on our side: nothing learned about the site
    SITE_RECOVERED = "site_recovered"  # the first completed run after the site's failures


class Blame(StrEnum):
    """Whose failure a failed run's alert reports."""

    SITE = "site"
    SITEAUDIT = "siteaudit"


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


@dataclass(frozen=True, slots=True)
class EndedRun(JsonRecord):
    """What the failure and recovery decisions need of one finished run."""

    status: MonitorRunStatus
    finished_at: str
    error_code: ErrorCode | None = None  # a failed audit's; None: no audit (deleted, refused)


@dataclass(frozen=True, slots=True)
class Outage(JsonRecord):
    """The runs that failed because of the site since the monitor's last completed run."""

    down_since: str  # when the first of them failed (its audit's end)
    failed_runs: int
    error_code: ErrorCode  # the latest one's


@dataclass(frozen=True, slots=True)
class AlertDecision(JsonRecord):
    reasons: list[AlertReason] = field(default_factory=list)  # empty: no alert
    blame: Blame | None = None  # a failed run's
    outage: Outage | None = None  # site_unreachable (so far) and site_recovered (it ended)


def failure_reason(run: EndedRun) -> AlertReason | None:
    """Why a failed run alerts: the site's failure or ours. None for a run that did not fail,
    and for one without an error code (its audit was deleted, or never started)."""
    if run.status is not MonitorRunStatus.FAILED or run.error_code is None:
        return None
    if run.error_code.is_site_failure:
        return AlertReason.SITE_UNREACHABLE
    return AlertReason.AUDIT_FAILED


def outage_of(runs: Sequence[EndedRun]) -> Outage | None:
    """The outage `runs` (a monitor's finished runs, oldest first) end with: the runs after the
    last completed one that failed because of the site. Our own failures and cancelled runs
    between them neither end an outage nor count in it. None: the site was not found down."""
    down: list[EndedRun] = []
    for run in runs:
        if run.status is MonitorRunStatus.COMPLETED:
            down = []
        elif failure_reason(run) is AlertReason.SITE_UNREACHABLE:
            down.append(run)
    if not down or down[-1].error_code is None:
        return None
    return Outage(down[0].finished_at, len(down), down[-1].error_code)


def decide(
    ending: EndedRun,
    earlier: Sequence[EndedRun],
    previous: RunScore | None,
    current: RunScore | None,
    thresholds: AlertThresholds,
) -> AlertDecision:
    """Whether the run that ended as `ending` alerts, and why (see the module docstring).
    `earlier`: the monitor's finished runs before it, oldest first (those since its last
    completed run are enough); `previous`/`current`: the two completed runs compared (`current`
    None: not compared)."""
    if ending.status is MonitorRunStatus.FAILED:
        reason = failure_reason(ending)
        if reason is None:
            return AlertDecision()
        if reason is AlertReason.SITE_UNREACHABLE:
            return AlertDecision([reason], Blame.SITE, outage_of([*earlier, ending]))
        return AlertDecision([reason], Blame.SITEAUDIT)
    if ending.status is not MonitorRunStatus.COMPLETED:
        return AlertDecision()
    outage = outage_of(earlier)
    reasons = [AlertReason.SITE_RECOVERED] if outage is not None else []
    if current is not None:
        reasons.extend(should_alert(previous, current, thresholds))
    return AlertDecision(reasons, None, outage)


# -- the alert ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AlertIssue(JsonRecord):
    issue_type: str
    page_url: str
    dedupe_key: str = ""


@dataclass(frozen=True, slots=True)
class RunFailure(JsonRecord):
    """Why a failed run's audit failed, for the site's owner: the code, a plain sentence
    (service.run_reasons.failure_sentence), the URL the audit started from, and when."""

    error_code: ErrorCode
    detail: str
    url: str
    failed_at: str


@dataclass(frozen=True, slots=True)
class AlertPayload(JsonRecord):
    """The JSON body of one alert. Grows by fields; receivers should ignore the ones they do not
    know. `grade_before`/`grade_after` are the security grades (None: that run was not graded).

    `previous_*` and `score_before` name the monitor's latest earlier completed run (None: there
    is none). `new_critical_total` is None when the run was not compared with it (a failed run, or
    nothing to compare with): "not compared", where 0 would claim "nothing new"."""

    delivery_id: str
    monitor_id: str
    site: str
    run_id: str
    audit_id: str
    previous_run_id: str | None
    previous_audit_id: str | None
    score_before: float | None
    score_after: float | None
    reasons: list[AlertReason]
    new_critical_total: int | None
    new_critical_issues: list[AlertIssue] = field(default_factory=list)  # the first few
    comparison: str = ""  # the API path of the full comparison
    type: str = ALERT_TYPE
    grade_before: str | None = None
    grade_after: str | None = None
    summary: str = ""  # what happened, in plain sentences (`summarize`)
    finished_at: str | None = None  # when the run ended
    blame: Blame | None = None  # a failed run's: the site's failure or ours
    failure: RunFailure | None = None  # a failed run's
    outage: Outage | None = None  # site_unreachable: so far; site_recovered: the one that ended

    def body(self) -> bytes:
        """The bytes to send and sign: compact, keys sorted, UTF-8."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return text.encode("utf-8")


def count_new_critical(comparison: AuditComparison) -> int:
    """`RunScore.new_critical_issues` of the comparison of the previous run's audit with this one."""
    return comparison.new_issues.by_severity.get(str(Severity.CRITICAL), 0)


def alert_payload(
    monitor_id: str,
    site: str,
    previous: RunScore | None,
    current: RunScore,
    decision: AlertDecision,
    comparison: AuditComparison | None = None,
    *,
    failure: RunFailure | None = None,
    finished_at: str | None = None,
) -> AlertPayload:
    """The alert of `current`. With the comparison of the two completed runs, it names the first
    new critical issues (the list is in severity order, so critical issues come first)."""
    critical = [] if comparison is None else _new_critical(comparison)
    payload = AlertPayload(
        delivery_id=delivery_id(monitor_id, current.run_id),
        monitor_id=monitor_id,
        site=site,
        run_id=current.run_id,
        audit_id=current.audit_id,
        previous_run_id=None if previous is None else previous.run_id,
        previous_audit_id=None if previous is None else previous.audit_id,
        score_before=None if previous is None else previous.health_score,
        score_after=current.health_score,
        reasons=decision.reasons,
        new_critical_total=None if comparison is None else count_new_critical(comparison),
        new_critical_issues=critical[:MAX_LISTED_ISSUES],
        comparison="" if comparison is None else comparison_path(comparison),
        grade_before=None if previous is None else previous.grade,
        grade_after=current.grade,
        finished_at=finished_at,
        blame=decision.blame,
        failure=failure,
        outage=decision.outage,
    )
    return replace(payload, summary=summarize(payload))


def _new_critical(comparison: AuditComparison) -> list[AlertIssue]:
    return [
        AlertIssue(issue.issue_type, issue.page_url, issue.dedupe_key)
        for issue in comparison.new_issues.issues
        if issue.severity == Severity.CRITICAL
    ]


def summarize(payload: AlertPayload) -> str:
    """What the alert says, in sentences a person reads: one or two per reason, in its order."""
    return " ".join(_SENTENCES[reason](payload) for reason in payload.reasons)


def plain_time(stamp: str | None) -> str:
    """An ISO-8601 UTC stamp as a person reads it, to the minute: `2026-12-07 10:00 UTC`."""
    return "an unknown time" if stamp is None else stamp[:16].replace("T", " ") + " UTC"


def _unreachable(p: AlertPayload) -> str:
    failure = p.failure
    detail = "" if failure is None else f" {failure.detail}"
    when = plain_time(p.finished_at if failure is None else failure.failed_at)
    text = f"{p.site} could not be audited ({when}).{detail}"
    if p.outage is not None and p.outage.failed_runs > 1:
        since = plain_time(p.outage.down_since)
        text += f" It has failed {p.outage.failed_runs} runs since {since}."
    return text


def _audit_failed(p: AlertPayload) -> str:
    detail = "" if p.failure is None else f" {p.failure.detail}"
    return (
        f"The audit of {p.site} ({plain_time(p.finished_at)}) failed on siteaudit's side, not "
        f"the site's.{detail}"
    )


def _recovered(p: AlertPayload) -> str:
    text = f"{p.site} can be audited again: this run completed ({plain_time(p.finished_at)})."
    if p.outage is None:
        return text
    runs = "1 run" if p.outage.failed_runs == 1 else f"{p.outage.failed_runs} runs"
    return f"{text} It was unreachable from {plain_time(p.outage.down_since)}; {runs} failed."


def _score_drop(p: AlertPayload) -> str:
    return f"The health score fell from {_score(p.score_before)} to {_score(p.score_after)}."


def _new_critical_sentence(p: AlertPayload) -> str:
    n = p.new_critical_total or 0
    return f"{n} new critical issue{'' if n == 1 else 's'} since the previous run."


def _grade_drop(p: AlertPayload) -> str:
    return f"The security grade fell from {p.grade_before} to {p.grade_after}."


def _score(value: float | None) -> str:
    return "no score" if value is None else f"{value:g}"


_SENTENCES = {
    AlertReason.SITE_UNREACHABLE: _unreachable,
    AlertReason.AUDIT_FAILED: _audit_failed,
    AlertReason.SITE_RECOVERED: _recovered,
    AlertReason.SCORE_DROP: _score_drop,
    AlertReason.NEW_CRITICAL_ISSUES: _new_critical_sentence,
    AlertReason.GRADE_DROP: _grade_drop,
}


def delivery_id(monitor_id: str, run_id: str) -> str:
    """One id per (monitor, run): every retry of a run's alert carries the same `webhook-id`."""
    digest = hashlib.sha256(f"{monitor_id}\n{run_id}".encode()).hexdigest()
    return f"alert_{digest[:32]}"


def comparison_path(comparison: AuditComparison) -> str:
    return f"/api/audits/{comparison.before.id}/compare/{comparison.after.id}"


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
