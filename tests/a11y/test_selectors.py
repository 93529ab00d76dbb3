"""CSS selectors as a11y.selectors decides them: which elements match, with which specificity,
and which selectors it refuses to decide (Selectors Level 4)."""

from __future__ import annotations

import pytest

from a11y import selectors
from a11y.tree import Document
from tests.a11y.html_tree import parse

# Each element of interest carries an id; a selector's matches are listed by id.
PAGE = (
    "<!DOCTYPE html><html><head><title>t</title></head><body>"
    '<div id="d1" class="menu open" data-x="alpha-beta">'
    '<ul id="u1"><li id="l1" class="item">a</li><li id="l2">b</li><li id="l3" lang="en-GB">'
    '<a id="a1" href="/x">x</a></li></ul>'
    '<p id="p1"></p><p id="p2">text</p><span id="s1"></span><p id="p3"> </p></div>'
    '<form id="f1"><input id="c1" type="checkbox" checked><input id="c2" type="radio">'
    '<select id="sel"><option id="o1" selected>1</option><option id="o2">2</option></select>'
    '<a id="a2">no href</a></form></body></html>'
)


def matches(selector: str) -> list[str]:
    document = Document(parse(PAGE))
    parsed = selectors.parse(selector)
    assert parsed is not None, selector
    return [
        e.attributes["id"]
        for e in document.order
        if "id" in e.attributes and parsed.matches(e, document)
    ]


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("li", ["l1", "l2", "l3"]),
        ("#d1", ["d1"]),
        (".menu.open", ["d1"]),
        (".menu.shut", []),
        ("div.menu#d1", ["d1"]),
        ("ul > li", ["l1", "l2", "l3"]),
        ("div > li", []),
        ("div li", ["l1", "l2", "l3"]),
        ("li + li", ["l2", "l3"]),
        ("#l1 ~ li", ["l2", "l3"]),
        ("p + span", ["s1"]),
        ("li:first-child", ["l1"]),
        ("li:last-child", ["l3"]),
        ("a:only-child", ["a1"]),
        ("p:first-of-type", ["p1"]),
        ("p:last-of-type", ["p3"]),
        ("p:nth-of-type(2)", ["p2"]),
        ("li:nth-child(odd)", ["l1", "l3"]),
        ("li:nth-child(even)", ["l2"]),
        ("li:nth-child(-n+2)", ["l1", "l2"]),
        ("li:nth-last-child(1)", ["l3"]),
        ("p:empty", ["p1"]),
        ("span:empty", ["s1"]),
        ("html:root", []),  # `html` has no id: checked below
        ("[data-x]", ["d1"]),
        ('[data-x="alpha-beta"]', ["d1"]),
        ("[data-x|=alpha]", ["d1"]),
        ("[data-x^=alp]", ["d1"]),
        ("[data-x$=beta]", ["d1"]),
        ("[data-x*=ha-b]", ["d1"]),
        ("[class~=open]", ["d1"]),
        ('[data-x="ALPHA-BETA" i]', ["d1"]),
        ('[data-x="ALPHA-BETA"]', []),
        ("[data-x^='']", []),
        ("[lang|=en]", ["l3"]),
        ("li:not(.item)", ["l2", "l3"]),
        ("li:not(.item, #l2)", ["l3"]),
        (":is(#l1, #p1)", ["l1", "p1"]),
        (":where(ul) > li.item", ["l1"]),
        ("a:link", ["a1"]),
        ("a:any-link", ["a1"]),
        (":checked", ["c1", "o1"]),
        ("li:hover", []),
        ("a:focus", []),
        ("div:focus-within li", []),
        ("ul li:hover > a", []),
        (
            "*",
            [
                "d1",
                "u1",
                "l1",
                "l2",
                "l3",
                "a1",
                "p1",
                "p2",
                "s1",
                "p3",
                "f1",
                "c1",
                "c2",
                "sel",
                "o1",
                "o2",
                "a2",
            ],
        ),
    ],
)
def test_selector_matches(selector: str, expected: list[str]) -> None:
    assert matches(selector) == expected


def test_root_is_the_document_element() -> None:
    document = Document(parse(PAGE))
    parsed = selectors.parse(":root")
    assert parsed is not None
    assert [e.tag for e in document.order if parsed.matches(e, document)] == ["html"]


@pytest.mark.parametrize(
    ("selector", "specificity"),
    [
        ("li", (0, 0, 1)),
        ("ul li", (0, 0, 2)),
        ("#d1 .menu", (1, 1, 0)),
        ("div.menu#d1[data-x]", (1, 2, 1)),
        ("li:not(.item, #l2)", (1, 0, 1)),
        (":is(#l1, p)", (1, 0, 0)),
        (":where(#l1) p", (0, 0, 1)),
        ("li:nth-child(2n+1)", (0, 1, 1)),
        ("*", (0, 0, 0)),
    ],
)
def test_specificity(selector: str, specificity: tuple[int, int, int]) -> None:
    parsed = selectors.parse(selector)
    assert parsed is not None
    assert parsed.specificity == specificity


@pytest.mark.parametrize(
    "selector",
    [
        "a:has(b)",
        "li:nth-child(2 of .x)",
        "svg|rect",
        ":-moz-focusring",
        "a >",
        "> a",
        "a[",
        ":is(",
        "a >> b",
    ],
)
def test_undecided_selectors_are_refused(selector: str) -> None:
    assert selectors.parse(selector) is None
    assert selectors.selects_elements(selector)


@pytest.mark.parametrize(
    "selector", ["p::before", "p:after", "::selection", "a:first-letter", "input::placeholder"]
)
def test_pseudo_element_selectors_select_no_element(selector: str) -> None:
    assert selectors.parse(selector) is None
    assert not selectors.selects_elements(selector)


@pytest.mark.parametrize(
    ("selector", "keys"),
    [
        ("div .menu > a.x.y#z:has(b)", ("z", "a", ("x", "y"))),
        ("ul li:nth-child(2 of .q)", (None, "li", ())),
        (".a .b", (None, None, ("b",))),
        ("[data-x] span", (None, "span", ())),
        ("*", (None, None, ())),
    ],
)
def test_subject_keys_are_what_the_rightmost_compound_requires(
    selector: str, keys: tuple[str | None, str | None, tuple[str, ...]]
) -> None:
    assert selectors.subject_keys(selector) == keys


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("a, b", ["a", "b"]),
        ('[x="a,b"], c', ['[x="a,b"]', "c"]),
        (":is(a, b) c, d", [":is(a, b) c", "d"]),
    ],
)
def test_a_list_splits_at_its_own_commas(text: str, parts: list[str]) -> None:
    assert selectors.split_list(text) == parts


def test_escapes_in_classes_and_ids() -> None:
    html = '<div id="a:b" class="md:hidden 2col"></div>'
    document = Document(parse(html))
    for text in ("#a\\:b", ".md\\:hidden", ".\\32 col"):
        parsed = selectors.parse(text)
        assert parsed is not None, text
        assert [e.tag for e in document.order if parsed.matches(e, document)] == ["div"], text
