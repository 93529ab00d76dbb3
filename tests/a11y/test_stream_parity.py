"""The accessibility rules decide the same on the streamed tree (parse.tree_builder, what the
crawl builds) as on html5lib's (tests/a11y/html_tree.py, what the rules were checked against):
every outcome, element by element, on every rule fixture and every vendored corpus page; and
the trees themselves are the same (text merged, script and style text cut as the streamed tree
keeps it, tests/parse/tree_compare.py).

No difference remains on these documents. Differences known elsewhere, each where html5lib 1.1
follows an older spec or has a bug and the streamed tree follows the current spec (so a browser,
and axe-core in it): ruby's `rt` closing `rb`, templates' content and place, foster parenting
lost after a nested end tag, formatting elements reconstructed inside a textarea, text runs in a
frameset (tests/parse/test_tree_builder.py lists them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a11y.page import Page
from a11y.rule_ids import RuleId
from a11y.rules import audit, outcomes
from parse.extractor import PageExtractor
from parse.parity import PARITY_URL, page_files, read_page
from parse.tree import Element, StyleSheet
from parse.tree_builder import page_tree
from tests.a11y.cases import CASES, Case
from tests.a11y.html_tree import parse
from tests.parse.tree_compare import DecodedText, lines, streamed

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "pages"
PAGES = page_files(CORPUS)


def _outcomes(
    root: Element, style_sheets: tuple[StyleSheet, ...] | None = None
) -> list[tuple[str, tuple[int, ...], bool]]:
    """The streamed tree keeps a `<style>` element's start only: its sheets come whole beside
    it (ParsedTree.style_sheets), as the crawl passes them; html5lib's tree keeps them."""
    page = Page(root, style_sheets=style_sheets)
    return [(o.rule, page.document.path(o.element), o.passed) for o in outcomes(page)]


def test_the_corpus_is_there() -> None:
    assert len(PAGES) >= 100


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture(case: Case) -> None:
    html = case.html
    ours, theirs = streamed(html), parse(html)
    assert lines(ours.root) == lines(theirs)
    assert _outcomes(ours.root, ours.style_sheets) == _outcomes(theirs)


@pytest.mark.parametrize("path", PAGES, ids=[p.name[:12] for p in PAGES])
def test_corpus_page(path: Path) -> None:
    data = read_page(path)
    _, tree = page_tree(data, PARITY_URL)
    text = DecodedText()
    extractor = PageExtractor(PARITY_URL, on_text=text)
    extractor.feed(data)
    extractor.close()
    theirs = parse("".join(text.pieces))
    assert tree.complete
    assert lines(tree.root) == lines(theirs)
    assert _outcomes(tree.root, tree.style_sheets) == _outcomes(theirs)
    found = audit(tree.root, tree.order, tree.style_sheets)
    assert [f.to_dict() for f in found] == [f.to_dict() for f in audit(theirs)]


_MARKUP = st.sampled_from(
    [
        "<p>", "</p>", "<a href=x>", "</a>", "<table>", "<tr>", "<td headers=h>", "<th id=h>",
        "</table>", "<svg role=img>", "<title>t</title>", "</svg>", "<math>", "<template>",
        "</template>", "<select>", "<option>", "<ul>", "<li>", "<dl>", "<dt>", "<dd>",
        "<label for=i>", "</label>", "<input id=i>", "<img>", "<img alt=''>", "<button>",
        "</button>", "<h1>", "<h3>", "<main>", "<div role=list>", "<div role=listitem>",
        "<span aria-hidden=true>", "<frameset>", "<iframe>", "<object>", "</object>",
        "<textarea>", "</textarea>", "<b>", "</b>", "x", " ", "<!--", "-->", "<html lang=en>",
        "<body aria-hidden=true>", "<meta http-equiv=refresh content=1>", "<marquee>",
    ]
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(_MARKUP, max_size=40).map("".join))
def test_the_rules_judge_any_streamed_tree(html: str) -> None:
    """The crawl runs the rules on whatever a page's markup builds: they never raise."""
    tree = streamed(html)
    for finding in audit(tree.root, tree.order, tree.style_sheets):
        assert finding.rule in {str(rule) for rule in RuleId}
