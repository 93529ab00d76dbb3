"""What the rules stand on: hidden content, roles, tables and selectors, on small documents.
The element examined is the one with id="target"."""

from __future__ import annotations

from pathlib import Path

import pytest

from a11y.findings import selector
from a11y.hidden import _hidden_from_at, _hidden_self
from a11y.page import Page
from a11y.roles import PRESENTATIONAL, implicit_role, is_focusable, role, tags_of_roles
from a11y.rule_ids import RuleId
from a11y.rules import outcomes
from a11y.stylesheet import hidden_by_style_sheets
from a11y.tables import grid, is_data_table
from a11y.tree import Element, StyleSheet
from parse.parity import PARITY_URL, page_files, read_page
from parse.tree_builder import page_tree
from tests.a11y.cases import CASES, Case
from tests.a11y.html_tree import page


def _target(body: str, head: str = "") -> tuple[Page, Element]:
    built = page(f"<!DOCTYPE html><html><head>{head}</head><body>{body}</body></html>")
    target = built.document.by_id("target")
    assert target is not None
    return built, target


HIDDEN = [
    ('<p id="target" hidden>x</p>', True, True),
    ('<div hidden><p id="target">x</p></div>', True, True),
    ('<p id="target" aria-hidden="true">x</p>', False, True),
    ('<div inert><p id="target">x</p></div>', False, True),
    ('<p id="target" style="color: red; display:none">x</p>', True, True),
    ('<p id="target" style="visibility: hidden !important">x</p>', True, True),
    ('<p id="target" style="display: block">x</p>', False, False),
    # within the attribute the last declaration wins, an important one over any later
    ('<p id="target" style="display: none; display: block">x</p>', False, False),
    ('<p id="target" style="display: block; display: none">x</p>', True, True),
    ('<p id="target" style="display: none !important; display: block">x</p>', True, True),
    ('<p id="target" style="visibility: hidden; all: initial">x</p>', False, False),
    ('<p id="target" style="display:NONE">x</p>', True, True),
    ('<details><summary id="target">More</summary><p>x</p></details>', False, False),
    ("<details><summary>More</summary><p id=target>x</p></details>", True, True),
    ("<details open><summary>More</summary><p id=target>x</p></details>", False, False),
    ('<input id="target" type="hidden">', True, True),
    ('<p aria-hidden="false"><b id="target">x</b></p>', False, False),
]


@pytest.mark.parametrize(("body", "everyone", "assistive"), HIDDEN)
def test_hidden_as_the_markup_decides(body: str, everyone: bool, assistive: bool) -> None:
    built, target = _target(body)
    assert built.hidden.to_everyone(target) is everyone
    assert built.hidden.to_assistive_tech(target) is assistive


def test_what_the_head_holds_is_hidden() -> None:
    built, target = _target("", head='<meta id="target" name="x" content="y">')
    assert built.hidden.to_everyone(target)


def test_an_element_a_renderer_found_hidden_hides_its_subtree() -> None:
    built, target = _target('<div id="target"><p><b>x</b></p></div><p>y</p>')
    styled = Page(built.document.root, styled_hidden=[target])
    inside = list(styled.document.descendants(target))
    assert all(styled.hidden.to_everyone(e) for e in [target, *inside])
    assert not any(styled.hidden.to_everyone(e) for e in styled.document.by_tag("body"))
    assert [e.tag for e in styled.document.by_tag("p") if not styled.hidden.to_everyone(e)] == ["p"]


def test_a_table_is_made_into_a_grid_once_for_all_its_cells() -> None:
    rows = "".join(f"<tr><th>h{i}</th><td>d{i}</td><td>e{i}</td></tr>" for i in range(5))
    built, target = _target(
        f'<table id="target"><tr><th>a</th><th>b</th><th>c</th></tr>{rows}</table>'
    )
    decided = outcomes(built, (RuleId.TH_HAS_DATA_CELLS,))
    assert [(o.element, o.passed) for o in decided] == [(target, True)]
    assert list(built.grids) == [id(target)]
    assert len(built.scopes) > 5  # every header cell's scope asked, each made once


def _hidden_by_definition(
    built: Page, style_sheets: tuple[StyleSheet, ...] | None = None
) -> tuple[set[int], set[int]]:
    """What a11y.hidden says, from its definition, element by element: hidden for everyone when
    the element or an ancestor hides itself (`_hidden_self`, with its own parent) or the page's
    style sheets hide it (a11y.stylesheet); from assistive technology when also one hides
    itself from it (`_hidden_from_at`)."""
    document, everyone, from_at = built.document, set(), set()
    styled = {id(e) for e in hidden_by_style_sheets(document, style_sheets)}
    for element in document.order:
        line = [element, *document.ancestors(element)]
        if any(_hidden_self(e, document.parent(e)) or id(e) in styled for e in line):
            everyone.add(id(element))
            from_at.add(id(element))
        elif any(_hidden_from_at(e) for e in line):
            from_at.add(id(element))
    return everyone, from_at


CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "pages"


@pytest.mark.parametrize("path", page_files(CORPUS)[::4], ids=lambda p: p.name[:12])
def test_hidden_marks_what_the_definition_marks_on_a_corpus_page(path: Path) -> None:
    tree = page_tree(read_page(path), PARITY_URL)[1]
    built = Page(tree.root, style_sheets=tree.style_sheets)
    everyone, from_at = _hidden_by_definition(built, tree.style_sheets)
    assert built.hidden.for_everyone == everyone
    assert built.hidden.from_at == from_at


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_hidden_marks_what_the_definition_marks_on_a_rule_fixture(case: Case) -> None:
    built = page(case.html)
    assert (built.hidden.for_everyone, built.hidden.from_at) == _hidden_by_definition(built)


ROLES = [
    ('<a id="target" href="/">x</a>', "link"),
    ('<a id="target">x</a>', None),
    ('<img id="target" src="a.png" alt="">', "presentation"),
    ('<img id="target" src="a.png" alt="" aria-label="x">', "img"),
    ('<img id="target" src="a.png" alt="" tabindex="0">', "img"),
    ('<input id="target" type="checkbox">', "checkbox"),
    ('<input id="target" list="d"><datalist id="d"></datalist>', "combobox"),
    ('<input id="target" type="bogus">', "textbox"),
    ('<select id="target" size="4"></select>', "listbox"),
    ('<section id="target">x</section>', None),
    ('<section id="target" aria-label="News">x</section>', "region"),
    ('<header id="target">x</header>', "banner"),
    ('<article><header id="target">x</header></article>', None),
    ('<ul role="presentation"><li id="target">x</li></ul>', "presentation"),
    ('<div id="target" role="button">x</div>', "button"),
    ('<div id="target" role="doc-noteref">x</div>', None),
    ('<div id="target" role="none" tabindex="0">x</div>', None),
    ('<button id="target" role="presentation">x</button>', "button"),
    ('<table><tr><th id="target">H</th><td>1</td></tr></table>', "rowheader"),
    ('<table><tr><th id="target">H</th></tr><tr><th>K</th></tr></table>', "columnheader"),
    ('<table><tr><td>1</td></tr><tr><th id="target" scope="row">H</th></tr></table>', "rowheader"),
]


@pytest.mark.parametrize(("body", "expected"), ROLES)
def test_role_as_axe_core_resolves_it(body: str, expected: str | None) -> None:
    built, target = _target(body)
    assert role(built, target) == expected


_INPUTS = "".join(
    f'<input type="{kind}"><input type="{kind}" list="d">'
    for kind in "button checkbox email hidden image number radio range reset search submit tel "
    "text url password bogus".split()
)
_ROLE_DOCUMENTS = [
    *(f"<!DOCTYPE html><html><body>{body}</body></html>" for body, _ in ROLES),
    f"<!DOCTYPE html><html><body>{_INPUTS}<datalist id=d></datalist></body></html>",
    *(case.html for case in CASES),
]


@pytest.mark.parametrize("html", _ROLE_DOCUMENTS)
def test_an_element_without_a_role_attribute_has_a_role_only_from_its_tag(html: str) -> None:
    """What lets a rule judging some roles read only the elements with a role attribute and
    those of `tags_of_roles` (a11y.rules_aria.nested_interactive, heading-order...)."""
    built = page(html)
    for element in built.document.order:
        found = role(built, element)
        if element.has("role") or found is None or found in PRESENTATIONAL:
            continue
        assert element.tag in tags_of_roles(frozenset({found})), (element.tag, found)


def test_implicit_role_ignores_the_role_attribute() -> None:
    built, target = _target('<nav id="target" role="button">x</nav>')
    assert implicit_role(built, target) == "navigation"


@pytest.mark.parametrize(
    ("body", "focusable"),
    [
        ('<a id="target" href="/">x</a>', True),
        ('<button id="target" disabled>x</button>', False),
        ('<fieldset disabled><input id="target"></fieldset>', False),
        ('<fieldset disabled><legend><input id="target"></legend></fieldset>', True),
        ('<span id="target" tabindex="-1">x</span>', True),
        ('<span id="target" tabindex="x">x</span>', False),
        ('<a id="target" href="/" hidden>x</a>', False),
    ],
)
def test_focusable(body: str, focusable: bool) -> None:
    built, target = _target(body)
    assert is_focusable(built, target) is focusable


def test_grid_places_spanning_cells() -> None:
    _built, target = _target(
        '<table id="target"><tr><td rowspan="2" id="a">A</td><td colspan="2" id="b">B</td></tr>'
        '<tr><td id="c">C</td><td id="d">D</td></tr></table>'
    )
    ids = [[cell.get("id") if cell else None for cell in row] for row in grid(target)]
    assert ids == [["a", "b", "b"], ["a", "c", "d"]]


@pytest.mark.parametrize(
    ("body", "data"),
    [
        ('<table id="target"><tr><th>H</th></tr><tr><td>1</td></tr></table>', True),
        ('<table id="target" role="presentation"><tr><th>H</th></tr></table>', False),
        ('<table id="target"><caption>C</caption><tr><td>1</td></tr></table>', True),
        ('<table id="target"><tr><td>1</td></tr></table>', False),
        (
            '<table id="target"><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>',
            None,
        ),
    ],
)
def test_data_table_where_the_markup_decides(body: str, data: bool | None) -> None:
    built, target = _target(body)
    assert is_data_table(built, target) is data


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('<img id="target" src="a.png">', "#target"),
        ('<main id="m"><p>a</p><p><img id="target" src="a.png"></p></main>', "#target"),
        ('<main id="m"><p>a</p><p><img src="a.png"></p></main>', "#m > p:nth-child(2) > img"),
        ('<i id="d"></i><i id="d"><b></b></i>', "html > body > i:nth-child(2) > b"),
    ],
)
def test_selector_is_short_and_finds_only_the_element(body: str, expected: str) -> None:
    built = page(f"<!DOCTYPE html><html><head></head><body>{body}</body></html>")
    img_or_b = next(e for e in built.document.order if e.tag in ("img", "b"))
    assert selector(built.document, img_or_b) == expected
