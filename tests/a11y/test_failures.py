"""The rules' failures-only path (`a11y.rules.failures`, what the crawl keeps) finds exactly the
failed outcomes of `a11y.rules.outcomes` (what the agreement harness and the rule tests read),
rule by rule in the same order: on every rule fixture, every vendored corpus page (the streamed
tree with its document order, as the crawl builds it) and generated documents."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a11y.page import Page
from a11y.rule_ids import RuleId
from a11y.rules import FAILURES, RULES, failures, outcomes
from parse.parity import PARITY_URL, page_files, read_page
from parse.tree import DocumentOrder, Element, StyleSheet
from parse.tree_builder import page_tree
from tests.a11y.cases import CASES, Case
from tests.a11y.html_tree import parse
from tests.parse.tree_compare import streamed

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "pages"
PAGES = page_files(CORPUS)

Failed = list[tuple[RuleId, int]]


def _both(
    root: Element,
    order: DocumentOrder | None = None,
    style_sheets: tuple[StyleSheet, ...] | None = None,
) -> tuple[Failed, Failed]:
    """(the failed outcomes, the failures-only path's), each on a page of its own (a page's
    memoised names and roles must not carry from one path to the other); a streamed tree's
    style sheets passed as the crawl passes them."""
    everything = outcomes(Page(root, order=order, style_sheets=style_sheets))
    expected = [(o.rule, id(o.element)) for o in everything if not o.passed]
    found = failures(Page(root, order=order, style_sheets=style_sheets))
    assert all(not o.passed for o in found)
    return expected, [(o.rule, id(o.element)) for o in found]


def test_every_failures_only_path_is_a_rule() -> None:
    assert FAILURES and set(FAILURES) <= set(RULES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture(case: Case) -> None:
    expected, found = _both(parse(case.html))
    assert found == expected
    tree = streamed(case.html)
    expected, found = _both(tree.root, tree.order, tree.style_sheets)
    assert found == expected


def test_the_fixtures_fail_every_rule_with_a_failures_only_path() -> None:
    """Each such path is checked on failures, not only on pages where nothing fails."""
    failed = {o.rule for case in CASES for o in failures(Page(parse(case.html)))}
    assert set(FAILURES) <= failed


@pytest.mark.parametrize("path", PAGES, ids=[p.name[:12] for p in PAGES])
def test_corpus_page(path: Path) -> None:
    tree = page_tree(read_page(path), PARITY_URL)[1]
    expected, found = _both(tree.root, tree.order, tree.style_sheets)
    assert found == expected


# Fragments whose mixes decide the failures-only paths differently from the full rules when
# one of them is wrong: names from text, hidden text, images, labels, roles, focus.
_MARKUP = st.sampled_from(
    [
        "<a href=x>", "<a>", "<a href=x role=button>", "<a href=x aria-label=' '>",
        "<a href=x aria-labelledby=l>", "<a href=x title=t>", "<a href=x tabindex=-1>", "</a>",
        "<span>", "<span aria-hidden=true>", "<span hidden>", "<span title=t>", "</span>",
        "<code>", "</code>", "<div>", "</div>", "<img alt=''>", "<img alt=i>", "<img>",
        "<svg>", "<svg role=img>", "<title>t</title>", "</svg>", "<p id=l>", "</p>", "x",
        " ", "\u00a0", "<button>", "</button>", "<label for=i>", "</label>", "<input id=i>",
        "<ul>", "<li>", "</ul>", "<h2>", "</h2>", "<div role=heading>", "<i class=icon></i>",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_MARKUP, max_size=30).map("".join))
def test_generated_documents(html: str) -> None:
    tree = streamed(html)
    expected, found = _both(tree.root, tree.order, tree.style_sheets)
    assert found == expected


def test_a_link_with_only_whitespace_or_hidden_text_still_fails() -> None:
    """The shortcut reads text, not whitespace nor hidden content."""
    html = (
        '<html lang="en"><body><a href="a"> \u00a0 </a><a href="b"><span aria-hidden="true">'
        'x</span></a><a href="c"><code> </code></a><a href="d">named</a></body></html>'
    )
    found = failures(Page(parse(html)), (RuleId.LINK_NAME,))
    assert [o.element.get("href") for o in found] == ["a", "b", "c"]


def test_a_list_by_its_tag_alone_has_the_role_list() -> None:
    """listitem's failures-only path passes an item of such a parent without asking its role."""
    from a11y.roles import role
    from a11y.rules_structure import _LIST_TAGS

    for tag in _LIST_TAGS:
        built = Page(parse(f'<html><body><{tag} id="p"><li>x</li></{tag}></body></html>'))
        parent = built.document.by_id("p")
        assert parent is not None and role(built, parent) == "list"
