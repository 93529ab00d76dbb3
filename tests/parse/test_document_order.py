"""`ParsedTree.order`: the elements in document order with their parents, as tree construction
hands them over where it kept that order, held equal to a walk of the frozen tree."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parse.parity import PARITY_URL, page_files, read_page
from parse.tree import Element, Namespace
from parse.tree_builder import ParsedTree, page_tree
from tests.parse.tree_compare import streamed

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "pages"


def _walked(root: Element) -> tuple[list[Element], list[Element]]:
    """The reference: the elements in preorder (a template's content left out) and the parent
    of each but the root, from a recursive walk of the frozen tree."""
    elements: list[Element] = []
    parents: list[Element] = []

    def visit(element: Element, parent: Element | None) -> None:
        elements.append(element)
        if parent is not None:
            parents.append(parent)
        if element.tag == "template" and element.namespace is Namespace.HTML:
            return
        for child in element.elements:
            visit(child, element)

    visit(root, None)
    return elements, parents


def _same_as_walked(tree: ParsedTree) -> bool:
    """Whether the order given is the walk's, element for element (identity, not equality)."""
    assert tree.order is not None
    elements, parents = _walked(tree.root)
    given_elements, given_parents = tree.order.elements, tree.order.parents
    return (
        len(given_elements) == len(elements)
        and len(given_parents) == len(parents)
        and all(a is b for a, b in zip(given_elements, elements, strict=True))
        and all(a is b for a, b in zip(given_parents, parents, strict=True))
    )


@pytest.mark.parametrize(
    "html",
    [
        "<p>one<p>two<ul><li>a<li>b</ul><h1>x</h1>",
        "<title>t</title><body><div><span>a</span><a href=x>b</a></div>",
        # head elements after </head> go back into the head: the head is pushed again
        "<head></head><meta charset=utf-8><link rel=x><body><p>x",
        # a form closed while a div in it is open: the form leaves the middle of the stack
        "<form><div>a</form>b<p>c</div><p>d",
        # formatting elements reconstructed, and the adoption agency without a furthest block
        "<b><i>x</b>y</i>z<p>w",
        "<a href=1>x<a href=2>y</a>",
        "<table><tr><td>x</td></tr></table><p>after",
        "<svg><g><rect/></g></svg><math><mi>x</mi></math><p>z",
        "<select><option>a<option>b</select><dl><dt>a<dd>b</dl>",
        "</p><br></br>x",
    ],
)
def test_the_order_handed_over_is_the_walks(html: str) -> None:
    tree = streamed(html)
    assert tree.order is not None  # none of these moves a node
    assert _same_as_walked(tree)


@pytest.mark.parametrize(
    "html",
    [
        "<table>x<tr><td>y</table>",  # foster parenting: text before the table
        "<table><div>x</div><tr><td>y</table>",  # an element fostered before the table
        "<template><p>x</p></template><p>y",  # a template's content is no part of the order
        "<body><frameset><frame></frameset>",  # the body leaves the tree for a frameset
        "<b>x<div>y</b>z</div>",  # the adoption agency moves nodes
    ],
)
def test_no_order_where_construction_moved_nodes(html: str) -> None:
    assert streamed(html).order is None


def test_every_corpus_page_gives_the_walks_order() -> None:
    given_order = 0
    for path in page_files(CORPUS):
        tree = page_tree(read_page(path), PARITY_URL)[1]
        if tree.order is not None:
            given_order += 1
            assert _same_as_walked(tree), path.name
    assert given_order > 100  # the common case: most pages move no node


_PIECES = st.sampled_from(
    [
        "<p>", "</p>", "<b>", "</b>", "<a href=x>", "</a>", "<i>", "</i>", "<table>", "<tr>",
        "<td>", "</td>", "</table>", "<caption>", "<svg>", "</svg>", "<math>", "<mi>",
        "<select>", "<option>", "<li>", "<ul>", "</ul>", "<dd>", "<dt>", "<script>",
        "</script>", "<div>", "</div>", "<form>", "</form>", "<h1>", "</h1>", "<nobr>",
        "<button>", "</body>", "<html>", "</html>", "<head>", "</head>", "<meta>", "<title>",
        "</title>", "<template>", "</template>", "<frameset>", "<frame>", "<br>", "</br>",
        "<textarea>", "</textarea>", "x", " ", "\n",
    ]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=50).map("".join))
def test_generated_markup_gives_the_walks_order_or_none(html: str) -> None:
    tree = streamed(html)
    assert tree.order is None or _same_as_walked(tree)
