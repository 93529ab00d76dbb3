"""Issue 31 item 3: the static rules agree with real axe-core on every element where axe-core
is definite, on the rule fixtures (tests/a11y/cases.py) and a fixed sample of the vendored
corpus pages; every disagreement has a cause (tests/browser/a11y_agreement.py, KNOWN and
`cause`). One browser for the whole run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.a11y.cases import CASES
from tests.browser.a11y_agreement import Tally, cause, corpus_document, corpus_sample, run, table

pytestmark = pytest.mark.slow
CORPUS_PAGES = 8


def _documents() -> Iterator[tuple[str, str]]:
    for case in CASES:
        yield case.id, case.html
    for path in corpus_sample(CORPUS_PAGES):
        yield corpus_document(path)


@pytest.fixture(scope="module")
def tally(browser: Browser) -> Tally:
    return run(browser, _documents())


def test_every_disagreement_has_a_known_cause(tally: Tally) -> None:
    unexplained = [d for d in tally.disagreements if cause(d) is None]
    assert unexplained == [], "\n".join(map(str, unexplained))


def test_static_rules_match_axe_on_every_definite_element(tally: Tally) -> None:
    assert sum(tally.decided.values()) > 0, table(tally)
    assert tally.matched == tally.decided, table(tally)
