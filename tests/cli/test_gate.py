"""`--fail-on`: how values parse, and which conditions fail an audit, as tables."""

from __future__ import annotations

import pytest

from audit.catalogue import Severity
from cli.gate import (
    GateFacts,
    GateSyntaxError,
    GradeBelow,
    NewIssuesSince,
    ScoreBelow,
    SeverityAtLeast,
    decide,
    failing_severities,
    parse_fail_on,
    summary_line,
)
from security.grade import Grade

CRIT, WARN, INFO = Severity.CRITICAL, Severity.WARNING, Severity.INFO


@pytest.mark.parametrize(
    ("values", "conditions"),
    [
        (["critical"], (SeverityAtLeast(CRIT),)),
        (["warning"], (SeverityAtLeast(WARN),)),
        (["score<90"], (ScoreBelow(90),)),
        (["score < 72.5"], (ScoreBelow(72.5),)),
        (["score<0"], (ScoreBelow(0),)),
        (["score<100"], (ScoreBelow(100),)),
        (["new-issues-since=a1"], (NewIssuesSince("a1"),)),
        (["grade<B"], (GradeBelow(Grade.B),)),
        (["grade < a+"], (GradeBelow(Grade.A_PLUS),)),
        (["critical,score<90"], (SeverityAtLeast(CRIT), ScoreBelow(90))),
        (["critical", "score<90", "critical"], (SeverityAtLeast(CRIT), ScoreBelow(90))),
        (["critical,", " warning "], (SeverityAtLeast(CRIT), SeverityAtLeast(WARN))),
        ([], ()),
    ],
)
def test_values_parse_into_conditions_in_order_each_once(values, conditions):
    assert parse_fail_on(values) == conditions


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("criticl", "unknown condition 'criticl'; expected critical, warning, score<N"),
        ("info", "unknown condition 'info'"),
        ("score<", "unknown condition 'score<'"),
        ("score<abc", "score<N needs a number N, not 'abc'"),
        ("score<=90", "score<N needs a number N, not '=90'"),
        ("score<101", "score<N needs N from 0 to 100"),
        ("score<-1", "score<N needs N from 0 to 100"),
        ("score<nan", "score<N needs N from 0 to 100"),
        ("new-issues-since", "name the earlier audit, as new-issues-since=ID"),
        ("new-issues-since ab", "name the earlier audit, as new-issues-since=ID"),
        ("grade<", "unknown condition 'grade<'"),
        ("grade<Z", "grade<G needs a grade G among A+ A A- B+ B B- C+ C C- D+ D D- F, not 'Z'"),
    ],
)
def test_a_value_that_names_no_condition_says_what_was_expected(value, message):
    with pytest.raises(GateSyntaxError) as refused:
        parse_fail_on(["critical", value])
    assert message in str(refused.value)


def facts(
    critical: int = 0,
    warning: int = 0,
    info: int = 0,
    score: float | None = 100.0,
    new: dict[str, dict[str, int]] | None = None,
    grade: str | None = "A",
) -> GateFacts:
    counts = {"critical": critical, "warning": warning, "info": info}
    return GateFacts(counts, score, new or {}, grade)


@pytest.mark.parametrize(
    ("condition", "seen", "reason"),
    [
        (SeverityAtLeast(CRIT), facts(), None),
        (SeverityAtLeast(CRIT), facts(warning=5, info=9), None),
        (SeverityAtLeast(CRIT), facts(critical=1), "1 issue (1 critical)"),
        (SeverityAtLeast(CRIT), facts(critical=3, warning=2), "3 issues (3 critical)"),
        (SeverityAtLeast(WARN), facts(info=9), None),
        (SeverityAtLeast(WARN), facts(warning=2), "2 issues (2 warning)"),
        (
            SeverityAtLeast(WARN),
            facts(critical=1, warning=2, info=4),
            "3 issues (1 critical, 2 warning)",
        ),
        (ScoreBelow(90), facts(score=90), None),
        (ScoreBelow(90), facts(score=89.9), "health score 89.9 is below 90"),
        (ScoreBelow(0), facts(score=0), None),
        (
            ScoreBelow(90),
            facts(score=None),
            "the audit has no health score (no page could be scored)",
        ),
        (GradeBelow(Grade.B), facts(grade="B"), None),
        (GradeBelow(Grade.B), facts(grade="A+"), None),
        (GradeBelow(Grade.B), facts(grade="B-"), "security grade B- is below B"),
        (GradeBelow(Grade.A_PLUS), facts(grade="A"), "security grade A is below A+"),
        (GradeBelow(Grade.F), facts(grade="F"), None),
        (
            GradeBelow(Grade.B),
            facts(grade=None),
            "the audit has no security grade (its start URL could not be graded)",
        ),
        (NewIssuesSince("a1"), facts(new={"a1": {}}), None),
        (NewIssuesSince("a1"), facts(critical=4, new={"a1": {"critical": 0}}), None),
        (
            NewIssuesSince("a1"),
            facts(new={"a1": {"critical": 1, "info": 2}}),
            "3 new issues (1 critical, 2 info) since a1",
        ),
    ],
)
def test_each_condition_fails_only_on_what_it_names(condition, seen, reason):
    (verdict,) = decide([condition], seen)

    assert verdict.condition == condition
    assert (verdict.reason, verdict.failed) == (reason, reason is not None)


def test_the_summary_line_names_every_failed_condition_or_what_passed():
    conditions = parse_fail_on(["critical,score<90,warning"])

    failed = decide(conditions, facts(critical=2, score=95))
    passed = decide(conditions, facts(info=3, score=95))

    assert summary_line(failed) == (
        "gate failed: critical: 2 issues (2 critical); warning: 2 issues (2 critical)"
    )
    assert summary_line(passed) == "gate passed: critical, score<90, warning"
    assert "\n" not in summary_line(failed)


@pytest.mark.parametrize(
    ("values", "severities"),
    [
        ([], {CRIT, WARN}),
        (["score<90"], {CRIT, WARN}),
        (["critical"], {CRIT}),
        (["warning"], {CRIT, WARN}),
        (["critical,new-issues-since=a1"], {CRIT}),
    ],
)
def test_findings_fail_at_the_gates_severity_or_at_warning_without_one(values, severities):
    assert failing_severities(parse_fail_on(values)) == severities
    assert INFO not in failing_severities(parse_fail_on(values))


SITE_DOWN = "http://127.0.0.1:9/ refused the connection: nothing answered on port 9. Check it."


def test_an_audit_the_site_made_fail_fails_every_condition_said_once():
    conditions = parse_fail_on(["critical,score<90,new-issues-since=a1"])

    verdicts = decide(conditions, GateFacts.of_failed_audit(SITE_DOWN))

    assert [v.reason for v in verdicts] == [f"the audit failed: {SITE_DOWN}"] * 3
    assert all(v.failed and v.audit_failed for v in verdicts)
    assert summary_line(verdicts) == f"gate failed: the audit failed: {SITE_DOWN}"
