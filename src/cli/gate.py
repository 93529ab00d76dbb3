"""The CI gate (`--fail-on`): which conditions fail a finished audit, and why, in one line.

Conditions, given as `--fail-on` values (repeatable, each a comma-separated list):

    critical                any critical issue
    warning                 any issue of severity warning or worse (critical included)
    score<N                 a health score below N (0-100); an audit without a score fails,
                            since a gate that cannot be checked must not pass
    new-issues-since=ID     any issue that audit ID (an earlier audit of yours) did not have
    grade<G                 a security grade below G (A+ ... F, security.grade.Grade); an audit
                            that could not be graded fails, like a missing score

The decision is a pure function of the audit's counts, score, grade and comparisons
(`GateFacts`), so its table tests need no audit; the CLI gathers the facts and maps the outcome
to exit codes (cli/main.py). An audit that failed because of the site (its start URL got no
answer, an HTTP error or no HTML page: `GateFacts.site_failure`) fails every condition, with
that sentence as the reason: a site that cannot be audited never passes a gate.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from audit.severity import Severity

if TYPE_CHECKING:
    from security.grade import Grade

_SCORE = re.compile(r"score\s*<\s*(?P<n>\S+)")
_SINCE = re.compile(r"new-issues-since\s*=\s*(?P<id>\S+)")
_GRADE = re.compile(r"grade\s*<\s*(?P<g>\S+)")
CONDITIONS_HELP = "critical, warning, score<N (0-100), grade<G (A+ to F) or new-issues-since=ID"


class GateSyntaxError(ValueError):
    """A `--fail-on` value that names no condition; the message says what was expected."""


def _grades() -> list[Grade]:
    """The grades best first (A+ ranks 0, F last). security.grade brings every Observatory test
    with it, so it is imported by a gate that names a grade, not by the CLI's start-up."""
    from security.grade import Grade

    return list(Grade)


@dataclass(frozen=True, slots=True)
class SeverityAtLeast:
    """Fails on any issue of `severity` or a more severe one."""

    severity: Severity

    def __str__(self) -> str:
        return str(self.severity)

    @property
    def covered(self) -> frozenset[Severity]:
        return frozenset(s for s in Severity if s.order <= self.severity.order)


@dataclass(frozen=True, slots=True)
class ScoreBelow:
    threshold: float

    def __str__(self) -> str:
        return f"score<{self.threshold:g}"


@dataclass(frozen=True, slots=True)
class NewIssuesSince:
    audit_id: str

    def __str__(self) -> str:
        return f"new-issues-since={self.audit_id}"


@dataclass(frozen=True, slots=True)
class GradeBelow:
    grade: Grade

    def __str__(self) -> str:
        return f"grade<{self.grade}"


type Condition = SeverityAtLeast | ScoreBelow | NewIssuesSince | GradeBelow


def parse_condition(text: str) -> Condition:
    word = text.strip()
    if word in (Severity.CRITICAL, Severity.WARNING):
        return SeverityAtLeast(Severity(word))
    if score := _SCORE.fullmatch(word):
        return ScoreBelow(_threshold(score["n"]))
    if since := _SINCE.fullmatch(word):
        return NewIssuesSince(since["id"])
    if word.startswith("new-issues-since"):
        raise GateSyntaxError(f"{word!r}: name the earlier audit, as new-issues-since=ID")
    if grade := _GRADE.fullmatch(word):
        named = [g for g in _grades() if g == grade["g"].upper()]
        if not named:
            letters = " ".join(_grades())
            raise GateSyntaxError(f"grade<G needs a grade G among {letters}, not {grade['g']!r}")
        return GradeBelow(named[0])
    raise GateSyntaxError(f"unknown condition {word!r}; expected {CONDITIONS_HELP}")


def _threshold(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise GateSyntaxError(f"score<N needs a number N, not {text!r}") from None
    if not (math.isfinite(value) and 0 <= value <= 100):
        raise GateSyntaxError(
            f"score<N needs N from 0 to 100 (health scores are 0-100), not {text}"
        )
    return value


def parse_fail_on(values: Iterable[str]) -> tuple[Condition, ...]:
    """Every condition of the `--fail-on` values, in order, each once."""
    found: dict[Condition, None] = {}
    for value in values:
        for part in value.split(","):
            if part.strip():
                found[parse_condition(part)] = None
    return tuple(found)


def failing_severities(conditions: Iterable[Condition]) -> frozenset[Severity]:
    """The severities whose findings fail the gate; critical and warning when no severity
    condition is given (what JUnit reports as failures; cli/main.py documents it)."""
    covered = [c.covered for c in conditions if isinstance(c, SeverityAtLeast)]
    if not covered:
        return SeverityAtLeast(Severity.WARNING).covered
    return frozenset().union(*covered)


@dataclass(frozen=True, slots=True)
class GateFacts:
    """What the conditions are decided on: one finished audit and its comparisons."""

    issues_by_severity: Mapping[str, int]
    health_score: float | None
    new_issues_since: Mapping[str, Mapping[str, int]]  # baseline audit id -> new issues by severity
    security_grade: str | None = None  # None: the audit could not be graded
    site_failure: str | None = None  # the sentence of an audit the site made fail

    @classmethod
    def of_failed_audit(cls, site_failure: str) -> GateFacts:
        return cls({}, None, {}, site_failure=site_failure)


@dataclass(frozen=True, slots=True)
class Verdict:
    condition: Condition
    reason: str | None  # why the condition failed; None when it passed
    audit_failed: bool = False  # failed because the site made the audit fail

    @property
    def failed(self) -> bool:
        return self.reason is not None


def decide(conditions: Iterable[Condition], facts: GateFacts) -> list[Verdict]:
    if facts.site_failure is not None:
        reason = f"the audit failed: {facts.site_failure}"
        return [Verdict(condition, reason, audit_failed=True) for condition in conditions]
    return [Verdict(condition, _reason(condition, facts)) for condition in conditions]


def _reason(condition: Condition, facts: GateFacts) -> str | None:
    match condition:
        case SeverityAtLeast():
            counts = {s: facts.issues_by_severity.get(s, 0) for s in Severity}
            return _counted(counts, condition.covered, "issue")
        case ScoreBelow(threshold):
            if facts.health_score is None:
                return "the audit has no health score (no page could be scored)"
            if facts.health_score < threshold:
                return f"health score {facts.health_score:g} is below {threshold:g}"
            return None
        case GradeBelow(grade):
            letters = [str(g) for g in _grades()]
            if facts.security_grade not in letters:
                return "the audit has no security grade (its start URL could not be graded)"
            if letters.index(facts.security_grade) > letters.index(grade):
                return f"security grade {facts.security_grade} is below {grade}"
            return None
        case NewIssuesSince(audit_id):
            new = {s: facts.new_issues_since[audit_id].get(s, 0) for s in Severity}
            found = _counted(new, frozenset(Severity), "new issue")
            return None if found is None else f"{found} since {audit_id}"


def _counted(
    counts: Mapping[Severity, int], severities: frozenset[Severity], noun: str
) -> str | None:
    """`3 issues (2 critical, 1 warning)` over the given severities; None when there are none."""
    kept = [(s, counts[s]) for s in Severity if s in severities and counts[s]]
    total = sum(n for _, n in kept)
    if not total:
        return None
    breakdown = ", ".join(f"{n} {s}" for s, n in kept)
    return f"{total} {noun}{'' if total == 1 else 's'} ({breakdown})"


def summary_line(verdicts: Iterable[Verdict]) -> str:
    """One line for stderr: every failed condition with its reason, or what passed."""
    checked = list(verdicts)
    if checked and all(v.audit_failed for v in checked):
        return f"gate failed: {checked[0].reason}"  # one reason for every condition, said once
    failed = [f"{v.condition}: {v.reason}" for v in checked if v.failed]
    if failed:
        return "gate failed: " + "; ".join(failed)
    return "gate passed: " + ", ".join(str(v.condition) for v in checked)
