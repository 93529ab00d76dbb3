"""The security grade's tests and results are worded for the site's owner (security.result_words):
every test and every result id has words, and a report's sentence uses them."""

from __future__ import annotations

import pytest

from common.wire import JsonValue
from security.result_words import RESULT_WORDS, TEST_WORDS, grade_result_words
from security.results import RESULTS_OF, HstsResult, TestName
from service.issue_locating import PHRASES

ALL_RESULTS = [result for results in RESULTS_OF.values() for result in results]


@pytest.mark.parametrize("result", ALL_RESULTS, ids=str)
def test_every_result_has_words_and_none_is_its_code(result: str) -> None:
    words = RESULT_WORDS[result]
    assert words and words != result.replace("-", " ") and not words.endswith(".")


def test_every_test_has_a_name_and_no_words_are_for_unknown_ids() -> None:
    assert set(TEST_WORDS) == set(TestName)
    assert set(RESULT_WORDS) == set(ALL_RESULTS)


def test_an_unknown_result_keeps_its_identifier_readable() -> None:
    assert grade_result_words("hsts-something-new") == "hsts something new"


def test_a_grade_tests_sentence_says_what_was_found_in_words() -> None:
    details: dict[str, JsonValue] = {
        "result": str(HstsResult.NOT_IMPLEMENTED_NO_HTTPS),
        "scoreModifier": -20,
    }
    sentence = PHRASES["test"]("strict-transport-security", details)
    assert sentence == (
        "the security grade's Strict-Transport-Security test found: no Strict-Transport-Security, "
        "because the site is not served over https, which costs 20 of the grade's 100 points"
    )
