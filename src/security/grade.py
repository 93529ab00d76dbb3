"""The score and the letter grade (mdn/mdn-http-observatory `src/scanner/index.js`,
`src/grader/grader.js` and `src/grader/charts.js`).

Start at 100. Penalties (negative modifiers) always count; bonuses count only when the score
with penalties alone is at least 90 (MINIMUM_SCORE_FOR_EXTRA_CREDIT). The score is floored at
0 and not capped; the grade is GRADE_CHART's letter for the score rounded down to a multiple of
5, every score from 100 up being A+.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from common.wire import JsonRecord
from security.checks_cookies import cookies
from security.checks_csp import content_security_policy
from security.checks_headers import (
    cross_origin_embedder_policy,
    cross_origin_opener_policy,
    cross_origin_resource_policy,
    cross_origin_resource_sharing,
    referrer_policy,
    x_content_type_options,
    x_frame_options,
)
from security.checks_sri import subresource_integrity
from security.checks_transport import redirection, strict_transport_security
from security.html_scan import HtmlFacts, declared_html, scan_html
from security.observed import ObservedResponse, ObservedSite, site_of_response
from security.results import ALGORITHM_VERSION, TestName, TestOutcome

BASE_SCORE = 100
MINIMUM_SCORE_FOR_EXTRA_CREDIT = 90


class Grade(StrEnum):
    A_PLUS = "A+"
    A = "A"
    A_MINUS = "A-"
    B_PLUS = "B+"
    B = "B"
    B_MINUS = "B-"
    C_PLUS = "C+"
    C = "C"
    C_MINUS = "C-"
    D_PLUS = "D+"
    D = "D"
    D_MINUS = "D-"
    F = "F"


# GRADE_CHART: the lowest score of each band, best first.
GRADE_BANDS: tuple[tuple[int, Grade], ...] = (
    (100, Grade.A_PLUS),
    (90, Grade.A),
    (85, Grade.A_MINUS),
    (80, Grade.B_PLUS),
    (70, Grade.B),
    (65, Grade.B_MINUS),
    (60, Grade.C_PLUS),
    (50, Grade.C),
    (45, Grade.C_MINUS),
    (40, Grade.D_PLUS),
    (30, Grade.D),
    (25, Grade.D_MINUS),
    (0, Grade.F),
)


def grade_for_score(score: int) -> Grade:
    rounded = min(max(score, 0) // 5 * 5, 100)
    return next(grade for floor, grade in GRADE_BANDS if rounded >= floor)


def total_score(modifiers: list[int]) -> int:
    """100 plus penalties, plus bonuses when the penalties leave at least 90; never below 0."""
    penalised = BASE_SCORE + sum(m for m in modifiers if m < 0)
    with_bonus = BASE_SCORE + sum(modifiers)
    score = with_bonus if penalised >= MINIMUM_SCORE_FOR_EXTRA_CREDIT else penalised
    return max(score, 0)


@dataclass(frozen=True, slots=True)
class SecurityGrade(JsonRecord):
    """A scan's grade: score, letter, and the 12 tests' outcomes in the Observatory's order."""

    score: int
    grade: Grade
    tests: list[TestOutcome] = field(default_factory=list)
    algorithm_version: int = ALGORITHM_VERSION

    def summary(self) -> dict[str, object]:
        """`{"score", "grade", "tests": {name: {"result", "pass", "score_modifier"}}}`."""
        tests = {
            str(t.test): {"result": t.result, "pass": t.passed, "score_modifier": t.score_modifier}
            for t in self.tests
        }
        return {"score": self.score, "grade": str(self.grade), "tests": tests}


def run_tests(site: ObservedSite) -> list[TestOutcome]:
    """The 12 tests on one scan."""
    auto = site.auto
    html = scan_html(auto.html if auto else None)
    if auto is None or not declared_html(auto.first("content-type")):
        html = HtmlFacts(scripts=html.scripts)  # meta policies count only in declared HTML
    csp = content_security_policy(auto, html)
    hsts = strict_transport_security(site)
    return [
        csp.outcome,
        cookies(site, hsts.passed),
        cross_origin_resource_sharing(site),
        redirection(site),
        referrer_policy(auto, html),
        hsts,
        subresource_integrity(auto, html, site.host),
        x_content_type_options(auto),
        x_frame_options(auto, csp),
        cross_origin_resource_policy(auto),
        cross_origin_opener_policy(auto),
        cross_origin_embedder_policy(auto),
    ]


def grade_site(site: ObservedSite) -> SecurityGrade:
    tests = run_tests(site)
    score = total_score([test.score_modifier for test in tests])
    return SecurityGrade(score, grade_for_score(score), tests)


def grade_response(response: ObservedResponse) -> SecurityGrade:
    """`security-check`: the grade of one response and the redirects that led to it."""
    return grade_site(site_of_response(response))


assert [t.value for t in TestName] == [  # the order the tests run in
    "content-security-policy", "cookies", "cross-origin-resource-sharing", "redirection",
    "referrer-policy", "strict-transport-security", "subresource-integrity",
    "x-content-type-options", "x-frame-options", "cross-origin-resource-policy",
    "cross-origin-opener-policy", "cross-origin-embedder-policy",
]  # fmt: skip
