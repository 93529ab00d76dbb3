"""badseo's accessibility pages (a11y_pages.py), judged as the crawl judges them: each served page
parsed by the crawl's streamed tree builder (parse.tree_builder.page_tree) and every static rule
run on it (a11y.rules.outcomes, which gives each judged element's pass or failure).

* Coverage: every static rule fails on a served page whose fixture expects its issue type, and
  passes on a served page (an element it judged and accepted), both as the rule engine itself
  says; the two rules axe-core only asks a review of when they would fail (PASS_ONLY) pass only,
  and server-side-image-map, which judges only what it fails (FAIL_ONLY), has a clean page it
  does not apply to instead of a pass.
* Each page's fixture expects exactly the accessibility types of the rules that fail on it.
* The marks of the rule fixture hold on the served page: the elements marked `fail` are exactly
  its rule's failures, the elements marked `pass` pass it.

Whether an audit then reports each page's `expected`, and nothing else, is the end-to-end test's
question (test_end_to_end.py against golden.json).
"""

from __future__ import annotations

import functools
from collections import Counter

import pytest

from a11y.findings import Outcome
from a11y.page import Page
from a11y.rule_ids import RuleId
from a11y.rules import outcomes
from audit.rules_a11y import ISSUE_OF_RULE
from parse.tree_builder import page_tree
from tests.a11y.cases import F, P
from tests.badseo.a11y_pages import A11Y_PAGES, FAIL_ONLY, PASS_ONLY, A11yPage
from tests.badseo.site import FIXTURES, Category
from tests.support.site_server import SiteRequest

ORIGIN = "http://127.0.0.1:8000"
STATIC_TYPES = frozenset(ISSUE_OF_RULE[rule] for rule in RuleId)


BY_PATH = {page.path: page for page in A11Y_PAGES}


def judged(page: A11yPage) -> list[Outcome]:
    """Every outcome of every rule on the page as the site serves it."""
    return _judged(page.path)


@functools.cache  # by path: a page's handler holds a dict, so the page cannot be a key
def _judged(path: str) -> list[Outcome]:
    page = BY_PATH[path]
    reply = page.handler(SiteRequest("GET", page.path, {"host": ORIGIN.removeprefix("http://")}))
    _, tree = page_tree(reply.body, ORIGIN + page.path, content_type=reply.headers["content-type"])
    return outcomes(Page(tree.root, style_sheets=tree.style_sheets))


def _ids(page: A11yPage) -> str:
    return page.path


def test_the_site_serves_every_page_in_the_accessibility_category() -> None:
    served = {(f.path, f.expected) for f in FIXTURES if f.category is Category.ACCESSIBILITY}
    assert served == {(page.path, page.expected) for page in A11Y_PAGES}


@pytest.mark.parametrize("rule", list(RuleId))
def test_every_static_rule_fails_on_an_expecting_page_and_passes_on_another(rule: RuleId) -> None:
    failing = [p for p in A11Y_PAGES if any(o.rule is rule and not o.passed for o in judged(p))]
    passing = [p for p in A11Y_PAGES if any(o.rule is rule and o.passed for o in judged(p))]
    if rule in FAIL_ONLY:
        # It judges only what it fails: its clean page is one it does not apply to.
        assert passing == []
        assert any(p.case.rule is rule and not p.expected for p in A11Y_PAGES)
    else:
        assert passing, f"no served page where {rule} judges an element and accepts it"
    if rule in PASS_ONLY:
        assert failing == []
        return
    assert failing, f"no served page where {rule} fails"
    assert all(ISSUE_OF_RULE[rule] in p.expected for p in failing)


@pytest.mark.parametrize("page", A11Y_PAGES, ids=_ids)
def test_a_page_expects_exactly_the_rules_that_fail_on_it(page: A11yPage) -> None:
    failed = {ISSUE_OF_RULE[o.rule] for o in judged(page) if not o.passed}
    assert STATIC_TYPES.intersection(page.expected) == failed


@pytest.mark.parametrize("page", A11Y_PAGES, ids=_ids)
def test_the_fixture_s_marks_hold_on_the_served_page(page: A11yPage) -> None:
    mine = [o for o in judged(page) if o.rule is page.case.rule]
    verdicts = Counter((o.element.get("data-expect"), o.passed) for o in mine)
    # The chrome's unmarked elements may pass the rule too (its nav links pass link-name), never
    # fail it.
    assert verdicts[("fail", True)] == verdicts[("pass", False)] == verdicts[(None, False)] == 0
    assert verdicts[("fail", False)] == page.case.html.count(F)
    assert verdicts[("pass", True)] == page.case.html.count(P)
