"""The streamed tree hands over its `<style>` sheets whole (ParsedTree.style_sheets), though the
tree itself keeps only their start (parse.tree_construction.RAW_KEEP): in document order, with
`media` and `type`, none from a template, the same under every chunking."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parse import tree_construction
from parse.tree import StyleSheet, text_content
from tests.parse.tree_compare import streamed

LONG = ".a { display: none } " * 40  # longer than the tree keeps
PAGE = (
    "<!DOCTYPE html><html><head><style>" + LONG + "</style>"
    '<style media="print" type="text/css">.p { display: none }</style></head><body>'
    "<template><style>.t { display: none }</style></template>"
    "<p>x</p><style>.b { visibility: hidden } /* </p> */</style><svg><style>.s{}</style></svg>"
    "</body></html>"
)
EXPECTED = (
    StyleSheet(LONG),
    StyleSheet(".p { display: none }", "print", "text/css"),
    StyleSheet(".b { visibility: hidden } /* </p> */"),
)


def test_sheets_whole_in_order_with_their_attributes() -> None:
    tree = streamed(PAGE)
    assert tree.style_sheets == EXPECTED
    head = next(tree.root.elements)
    assert len(text_content(next(head.elements))) == tree_construction.RAW_KEEP


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=len(PAGE)), max_size=12))
def test_the_same_under_every_chunking(cuts: list[int]) -> None:
    assert streamed(PAGE, tuple(cuts)).style_sheets == EXPECTED


def test_a_sheet_the_input_ends_in() -> None:
    assert streamed("<style>.a { display: none }").style_sheets == (
        StyleSheet(".a { display: none }"),
    )


def test_past_the_bound_a_sheet_is_cut_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tree_construction, "STYLE_KEEP", 10)
    sheets = streamed(
        "<style>.a{display:none}</style><style>.bb{display:block}</style>"
    ).style_sheets
    assert sheets == (
        StyleSheet(".a{display", complete=False),
        StyleSheet("", complete=False),
    )
