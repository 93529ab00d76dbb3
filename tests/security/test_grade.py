"""Score and grade: the grade chart's boundaries, extra credit, and whole responses."""

from __future__ import annotations

import pytest

from security.grade import GRADE_BANDS, Grade, SecurityGrade, grade_for_score, total_score
from security.observed import ObservedSite
from tests.security.cases import BEST_HEADERS, HTTP, graded, response, site

# Every band's edges (src/grader/charts.js GRADE_CHART; test/grader.test.js for 0, 100, 120, -10).
BOUNDARIES = [
    (-10, Grade.F), (0, Grade.F), (24, Grade.F), (25, Grade.D_MINUS), (29, Grade.D_MINUS),
    (30, Grade.D), (39, Grade.D), (40, Grade.D_PLUS), (44, Grade.D_PLUS), (45, Grade.C_MINUS),
    (49, Grade.C_MINUS), (50, Grade.C), (59, Grade.C), (60, Grade.C_PLUS), (64, Grade.C_PLUS),
    (65, Grade.B_MINUS), (69, Grade.B_MINUS), (70, Grade.B), (79, Grade.B), (80, Grade.B_PLUS),
    (84, Grade.B_PLUS), (85, Grade.A_MINUS), (89, Grade.A_MINUS), (90, Grade.A), (99, Grade.A),
    (100, Grade.A_PLUS), (120, Grade.A_PLUS), (165, Grade.A_PLUS),
]  # fmt: skip


@pytest.mark.parametrize(("score", "grade"), BOUNDARIES)
def test_grade_chart(score: int, grade: Grade) -> None:
    assert grade_for_score(score) is grade


def test_every_grade_has_a_band() -> None:
    assert [grade for _, grade in GRADE_BANDS] == list(Grade)


@pytest.mark.parametrize(
    ("modifiers", "score"),
    [
        ([], 100),
        ([10, 5, 5, 5, 5, 5, 10, 10, 10], 165),  # the best possible (algorithm version 6)
        ([-10, 10, 5], 105),  # penalties leave 90: bonuses count
        ([-15, 10, 5], 85),  # penalties leave 85: bonuses do not
        ([-5, -5, 5], 95),
        ([-25, -20, -20, -20, -20, -5, -20], 0),  # floored at 0
    ],
)
def test_extra_credit_only_from_90(modifiers: list[int], score: int) -> None:
    assert total_score(modifiers) == score


A_PLUS_HEADERS: dict[str, str | list[str]] = dict(BEST_HEADERS)


@pytest.mark.parametrize(
    ("raw", "score", "grade"),
    [
        # every bonus: 100 + 10 + 5 + 5 + 5 (XFO via CSP) + 10 + 10 + 10
        (response(A_PLUS_HEADERS), 155, Grade.A_PLUS),
        # plus SRI on a same-origin script: the maximum a non-preloaded host reaches (160)
        (response(A_PLUS_HEADERS, html="<script src=/a.js integrity=sha384-x></script>"), 160, Grade.A_PLUS),
        # nothing at all over https: CSP -25, HSTS -20, XCTO -5, XFO -20
        (response(), 30, Grade.D),
        # nothing at all over plain http: also redirection missing (-20)
        (response(url=HTTP), 10, Grade.F),
        # a session cookie without Secure, but HSTS: -10 leaves 90, so the bonuses still count
        (response({**A_PLUS_HEADERS, "set-cookie": "sessionid=1; HttpOnly; SameSite=Lax"}), 140, Grade.A_PLUS),
        # the same without nosniff (-5): 85 before bonuses, and they are lost
        (response({**A_PLUS_HEADERS, "set-cookie": "sessionid=1; HttpOnly", "x-content-type-options": ""}),
         85, Grade.A_MINUS),
    ],
)  # fmt: skip
def test_whole_responses(raw: dict[str, object], score: int, grade: Grade) -> None:
    result = graded(raw)
    assert (result.score, result.grade) == (score, grade)
    assert len(result.tests) == 12


def test_summary_is_the_security_check_json() -> None:
    summary = graded(response(A_PLUS_HEADERS)).summary()
    assert set(summary) == {"score", "grade", "tests"}
    tests = summary["tests"]
    assert isinstance(tests, dict) and len(tests) == 12
    assert tests["cross-origin-opener-policy"] == {
        "result": "coop-implemented-with-same-origin",
        "pass": True,
        "score_modifier": 10,
    }


def test_records_round_trip() -> None:
    observed = site(response(A_PLUS_HEADERS, html="<p>x</p>"))
    assert ObservedSite.from_dict(observed.to_dict()) == observed
    result = graded(response(A_PLUS_HEADERS))
    assert SecurityGrade.from_dict(result.to_dict()) == result
