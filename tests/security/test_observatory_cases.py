"""The Observatory's own cases (tests/security/observatory_cases.py), each run through the grade.

A row's response is built the way upstream's test/helpers.js builds it: `https://mozilla.org/`,
`Content-Type: text/html`, the header the case sets and the HTML fixture's meta tags; the whole
grade is computed and the row's test read back, so the cases exercise the path an audit takes.
"""

from __future__ import annotations

from collections import Counter

import pytest

from security.csp import parse_csp
from security.results import SCORE_MODIFIERS, TestName
from tests.security.cases import outcome_of
from tests.security.observatory_cases import (
    CSP_CASES,
    CSP_TEST,
    HEADER_CASES,
    PARSER_CASES,
    PARSER_TEST,
    CspCase,
    HeaderCase,
    ParserCase,
    csp_input,
    header_input,
)


def _ids(source: str, its: list[str]) -> list[str]:
    seen: Counter[str] = Counter()
    ids = []
    for it in its:
        seen[it] += 1
        ids.append(f"{source}: {it} #{seen[it]}")
    return ids


@pytest.mark.parametrize("case", CSP_CASES, ids=_ids(CSP_TEST, [c.it for c in CSP_CASES]))
def test_csp_case(case: CspCase) -> None:
    seen = outcome_of(csp_input(case), TestName.CONTENT_SECURITY_POLICY)
    if case.result is not None:
        assert seen.result == case.result
        assert seen.score_modifier == case.modifier == SCORE_MODIFIERS[case.result]
    if case.not_result is not None:
        assert seen.result != case.not_result
    if case.passed is not None:
        assert seen.passed is case.passed
    assert {key: seen.details.get(key) for key in case.expect} == case.expect


@pytest.mark.parametrize("case", PARSER_CASES, ids=_ids(PARSER_TEST, [c.it for c in PARSER_CASES]))
def test_csp_parser_case(case: ParserCase) -> None:
    parsed = parse_csp(case.policies)
    assert (parsed.invalid is not None) is case.invalid
    if case.directives is not None:
        assert parsed.directives == case.directives
    if not case.invalid:
        assert parsed.directives
    assert parsed.duplicates == case.duplicates


@pytest.mark.parametrize("case", HEADER_CASES, ids=[f"{c.source}: {c.it}" for c in HEADER_CASES])
def test_cross_origin_header_case(case: HeaderCase) -> None:
    seen = outcome_of(header_input(case), case.test)
    assert (seen.result, seen.passed, seen.score_modifier) == (
        case.result, case.passed, case.modifier,
    )  # fmt: skip
    assert case.modifier == SCORE_MODIFIERS[case.result]
