"""What a page's own `<style>` elements hide (a11y.stylesheet): only what certainly wins the
cascade on a 1280x720 screen; anything undecided leaves the element shown, as the markup alone
would."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a11y import stylesheet
from a11y.page import Page
from a11y.rule_ids import RuleId
from a11y.rules import RULES
from a11y.stylesheet import _sheet, hidden_by_style_sheets, media_matches
from a11y.tree import Document, StyleSheet
from tests.a11y.html_tree import parse


def hidden_ids(css: str, body: str, style_attributes: str = "") -> list[str]:
    html = (
        f"<!DOCTYPE html><html><head><title>t</title><style {style_attributes}>{css}</style>"
        f"</head><body>{body}</body></html>"
    )
    document = Document(parse(html))
    return [e.attributes.get("id", e.tag) for e in hidden_by_style_sheets(document)]


TWO = '<div id="x" class="a b"><p id="in"></p></div><div id="y" class="b"></div>'


@pytest.mark.parametrize(
    ("css", "hidden"),
    [
        (".a { display: none }", ["x"]),
        (".a { visibility: hidden }", ["x"]),
        (".a { visibility: collapse }", ["x"]),
        (".a { display: block }", []),
        (".b { display: none }", ["x", "y"]),
        # specificity, order and importance
        (".a { display: none } #x { display: block }", []),
        ("#x { display: block } .a { display: none }", []),
        ("#x { display: block } .a { display: none !important }", ["x"]),
        (".a { display: none } .a { display: flex }", []),
        (".a { display: flex } .a { display: none }", ["x"]),
        (".a { display: none; display: block }", []),
        (".a.b { display: none } .a { display: block }", ["x"]),
        ("div.b { display: none } .b { display: block }", ["x", "y"]),
        # `all` resets display and visibility
        (".a { display: none } .a { all: unset }", []),
        # comments and strings do not end blocks, a string's `;` does not end a prelude
        ('/* .b { display: none } */ .a { content: "}"; display: none }', ["x"]),
        ('.a { display: none } [src*="gif;base64"] + .b { display: block }', ["x"]),
        ('@import url("x.css"); @charset "utf-8"; .a { display: none }', ["x"]),
        # pseudo-elements hide no element
        (".a::before { display: none } .a:after { display: none }", []),
        # states nobody is in at load
        (".a:hover { display: none } .b:focus-within { display: none }", []),
        (".a { display: none } .a:hover { display: block }", ["x"]),
        # an undecided selector that might show the element keeps it shown
        (".a { display: none } .a:has(p) { display: block }", []),
        (".b { display: none } .a:has(p) { display: block }", ["y"]),
        # ... unless it cannot win
        (".a { display: none !important } .a:has(p) { display: block }", ["x"]),
        # an undecided selector never hides
        (".a:has(p) { display: none }", []),
        # at-rules: media decided for a 1280x720 screen, others undecided
        ("@media screen { .a { display: none } }", ["x"]),
        ("@media print { .a { display: none } }", []),
        ("@media (max-width: 767px) { .a { display: none } }", []),
        ("@media (min-width: 768px) { .a { display: none } }", ["x"]),
        ("@media (min-width: 100em) { .a { display: none } }", []),
        ("@media (min-resolution: 2dppx) { .a { display: none } }", []),
        (".a { display: none } @media (min-resolution: 2dppx) { .a { display: block } }", []),
        (".a { display: none } @media print { .a { display: block } }", ["x"]),
        ("@supports (display: grid) { .a { display: none } }", []),
        ("@font-face { font-family: x; display: none } .a { display: none }", ["x"]),
        ("@media screen { @media (min-width: 1px) { .a { display: none } } }", ["x"]),
        # CSS nesting is undecided: its declarations might show anything
        (".a { display: none } .c { .d { display: block } }", []),
    ],
)
def test_what_the_cascade_hides(css: str, hidden: list[str]) -> None:
    assert hidden_ids(css, TWO) == hidden


@pytest.mark.parametrize(
    ("body", "hidden"),
    [
        # the style attribute beats every sheet declaration but an important one
        ('<div id="x" class="a" style="display: block"></div>', []),
        ('<div id="x" class="a" style="display: block !important"></div>', []),
        ('<div id="x" class="a" style="display: none; display: block"></div>', []),
        ('<div id="x" class="i" style="display: block"></div>', ["x"]),
        # visibility is inherited and an element under can be made visible again
        ('<div id="x" class="v"><span class="w"></span></div>', []),
        ('<div id="x" class="v"><span style="visibility: visible"></span></div>', []),
        ('<div id="x" class="v"><span></span></div>', ["x"]),
    ],
)
def test_the_element_itself_and_what_is_under_it(body: str, hidden: list[str]) -> None:
    css = (
        ".a { display: none } .i { display: none !important } .v { visibility: hidden } "
        ".w { visibility: visible }"
    )
    assert hidden_ids(css, body) == hidden


@pytest.mark.parametrize(
    ("attributes", "hidden"),
    [("", ["x"]), ('media="screen"', ["x"]), ('media="print"', []), ('type="text/less"', [])],
)
def test_a_style_element_for_another_medium_or_language_hides_nothing(
    attributes: str, hidden: list[str]
) -> None:
    assert hidden_ids(".a { display: none }", TWO, attributes) == hidden


@pytest.mark.parametrize(
    ("query", "result"),
    [
        ("", True),
        ("all", True),
        ("screen", True),
        ("print", False),
        ("not print", True),
        ("not screen", False),
        ("screen, print", True),
        ("only screen and (min-width: 1024px) and (max-width: 1400px)", True),
        ("(max-width: 1279px)", False),
        ("(width: 1280px)", True),
        ("(min-height: 800px)", False),
        ("(orientation: landscape)", True),
        ("(prefers-reduced-motion: reduce)", False),
        ("(prefers-color-scheme: dark)", False),
        ("(hover: hover) and (pointer: fine)", True),
        ("(min-resolution: 2dppx)", None),
        ("(min-resolution: 2dppx), print", None),
        ("(min-resolution: 2dppx), screen", True),
        ("(min-width: calc(10px + 2em))", None),
        ("weird-medium", None),
    ],
)
def test_media_queries_on_a_1280_by_720_screen(query: str, result: bool | None) -> None:
    assert media_matches(query) is result


def test_a_sheet_without_a_hiding_word_is_not_scanned() -> None:
    _sheet.cache_clear()
    assert hidden_ids(".a { display: block; color: red }", TWO) == []
    assert _sheet.cache_info().currsize == 0


def test_a_label_the_sheet_hides_does_not_name_its_control() -> None:
    html = (
        '<!DOCTYPE html><html lang="en"><head><title>t</title><style>.sr { display: none }'
        '</style></head><body><main><h1>Form</h1><label for="c" class="sr">Colour</label>'
        '<select id="c"><option>Red</option></select></main></body></html>'
    )
    outcomes = list(RULES[RuleId.SELECT_NAME](Page(parse(html))))
    assert [(o.element.tag, o.passed) for o in outcomes] == [("select", False)]


def test_a_heading_the_sheet_hides_does_not_count_in_the_order() -> None:
    html = (
        '<!DOCTYPE html><html lang="en"><head><title>t</title><style>.off { display: none }'
        "</style></head><body><main><h1>A</h1><h2 class='off'>B</h2><h3>C</h3></main></body>"
        "</html>"
    )
    outcomes = list(RULES[RuleId.HEADING_ORDER](Page(parse(html))))
    assert [(o.element.tag, o.passed) for o in outcomes] == [("h1", True), ("h3", False)]


def test_a_page_too_costly_to_match_decides_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deep tree and descendant selectors that fail at the top cost a power of the depth:
    past stylesheet.MAX_STEPS the cascade gives up and hides nothing (what the markup hides
    stands). 300 levels would take about 10^9 steps; the bound stops them."""
    css = ".z .x .x .y { display: none } .y { display: none }"

    def nested(depth: int) -> str:
        return '<div class="x y">' * depth + "</div>" * depth

    assert len(hidden_ids(css, nested(20))) == 20  # `.y` alone hides them all
    assert hidden_ids(css, nested(300)) == []
    monkeypatch.setattr(stylesheet, "MAX_STEPS", 1000)
    assert hidden_ids(css, nested(20)) == []


def _opened(stack: list[list[Any]], css: str, last: int, position: int) -> list[Any]:
    """The block a `{` opens, its context worked out at once (the scan reads at-rule preludes
    only when asked)."""
    outer: list[Any] = stack[-1] if stack else ["at", True]
    if outer[0] != "at":
        outer[4] = outer[4] or outer[0] == "rule"
        return ["inner", None, position, last, False]
    prelude = stylesheet._prelude(css, last, position)
    at_rule = prelude.startswith("@")
    own = stylesheet._at_rule(prelude) if at_rule else True
    return ["at" if at_rule else "rule", stylesheet._both(outer[1], own), position, last, False]


def _brace_by_brace(css: str) -> list[stylesheet.Declaration]:
    """The scan as it was before `_TOKEN` (e3cbc3f): one step per brace or string, every
    property name found by the case-blind pattern. The oracle of the token scan, which must
    find the same declarations."""
    wanted = [found.start() for found in stylesheet._WANTED.finditer(css)]
    if not wanted:
        return []
    wanted.append(len(css) + 1)
    found: list[stylesheet.Declaration] = []
    stack: list[list] = []
    last = 0

    def read(opened: int, start: int, closed: int, applies: bool | None, nested: bool) -> None:
        order = found[-1].order + 1 if found else 0
        found.extend(stylesheet._read(css, opened, start, closed, applies, nested, order))

    for token in re.finditer(r"\"(?:[^\"\\\n]|\\.)*\"?|'(?:[^'\\\n]|\\.)*'?|[{}]", css, re.S):
        position = token.start()
        if token.group() == "{":
            stack.append(_opened(stack, css, last, position))
        elif token.group() == "}":
            order = found[-1].order + 1 if found else 0
            found += stylesheet._close(stack, css, wanted, position, order)
        else:
            continue  # a string: its braces are not the sheet's
        last = position + 1
    for kind, applies, opened, start, nested in reversed(stack):
        if kind == "rule" and applies is not False:
            read(opened, start, len(css), applies, nested)
    return found


# Pieces of style sheets, joined at random: braces that nest, close early or stay open; strings
# holding braces, left open, or across a line; at-rules that apply, do not, or cannot be told;
# property names in any case, inside words, and the characters a case-blind match takes for
# ASCII letters (`ſ` for `s`, `ı` for `i`) or that change length when lowered (`İ`).
# fmt: off
_PIECES = [
    ".a", "#x", "div", " ", "\n", ",", ">", "{", "}", ";", ":", "display:none", "DISPLAY : none",
    "display:block", "visibility:hidden", "Visibility:collapse", "visibility:visible",
    "all:unset", "ball:none", "-display:none", "xdisplay:none", "!important", '"}"', "'{'",
    '"', "'", '"a\nb', "@media screen", "@media print", "@media (min-resolution: 2dppx)",
    "@font-face", "@supports (x:y)", '@import "x.css";', "@charset 'u';", "diſplay:none",
    "vısıbılıty:hidden", "İ", "é", "[data-x=\"}\"]", ":has(p)", "::before", "\\{",
]
# fmt: on


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_the_token_scan_finds_what_a_scan_brace_by_brace_finds(pieces: list[str]) -> None:
    css = "".join(pieces)
    assert list(stylesheet._scan(css)) == _brace_by_brace(css)


@pytest.mark.parametrize(
    "css",
    [
        ".a { display: none } .b { color: red } .c { DISPLAY: none }",
        "@media screen { .a { display: none } .b { display: none } } .c { display: none }",
        "@media print { .a { display: none } } .b { display: none }",
        ".a { .b { display: block } display: none }",
        '.a { content: "}"; display: none } .b { display: none }',
        ".a { display: none } .b { display: none",  # the sheet ends inside a rule
        "ſ .a { diſplay: none } .b { display: none }",
        "İ .a { display: none }",
    ],
)
def test_the_token_scan_on_known_sheets(css: str) -> None:
    assert list(stylesheet._scan(css)) == _brace_by_brace(css)


def _page(body: str, *sheets: str) -> tuple[Document, list[StyleSheet]]:
    document = Document(parse(f"<!DOCTYPE html><html><head><title>t</title></head><body>{body}"))
    return document, [StyleSheet(sheet, None, None) for sheet in sheets]


_HIDE, _SHOW = ".a { display: none }", ".a { display: block }"


@pytest.mark.parametrize(
    ("sheets", "hidden"),
    [
        ((_HIDE, _SHOW), []),
        ((_SHOW, _HIDE), ["x"]),
        ((_HIDE, _SHOW, _HIDE), ["x"]),
        ((_SHOW, ".b { color: red }", _HIDE), ["x"]),
        (("#x { display: block }", _HIDE), []),
        ((_HIDE, "@media print { .a { display: block } }"), ["x"]),
    ],
)
def test_a_page_s_sheets_cascade_in_their_order_whatever_the_cache_holds(
    sheets: tuple[str, ...], hidden: list[str]
) -> None:
    """The same sheet texts, cached from other pages in another order, rank by this page's
    order; a cleared cache gives the same answer."""
    body = '<div id="x" class="a"></div>'
    for order in (sheets, sheets[::-1], sheets):
        document, style_sheets = _page(body, *order)
        hidden_by_style_sheets(document, style_sheets)  # the cache filled in another order
    document, style_sheets = _page(body, *sheets)
    assert [e.get("id") for e in hidden_by_style_sheets(document, style_sheets)] == hidden
    _sheet.cache_clear()
    assert [e.get("id") for e in hidden_by_style_sheets(document, style_sheets)] == hidden


_RULES = [
    ".a { display: none }", ".a { display: block }", "#x { display: flex }", "div { display: none }",
    ".a { visibility: hidden }", ".b { visibility: visible }", ".a { display: none !important }",
    "@media print { .a { display: block } }", "@media screen { div { display: block } }",
    ".a:has(p) { display: block }", "#x.a { display: none }",
]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_RULES), max_size=4), min_size=1, max_size=4))
def test_sheets_combined_cascade_as_one_sheet_of_their_texts(sheets: list[list[str]]) -> None:
    """A page's sheets rank as one sheet of their texts in their order would (every rule here
    closes, so no sheet's context reaches the next)."""
    body = '<div id="x" class="a b"><span class="b"></span></div><div class="a"></div>'
    texts = [" ".join(rules) for rules in sheets]
    document, apart = _page(body, *texts)
    _, together = _page(body, " ".join(texts))
    expected = hidden_by_style_sheets(document, together)
    assert hidden_by_style_sheets(document, apart) == expected
