"""The streamed element tree (parse.tree_builder) is the tree html5lib builds (the WHATWG
tree-construction algorithm), whole or cut into any chunks, and bounded."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from parse.tree import Element, Namespace
from parse.tree_builder import TreeBuilder, page_tree
from parse.tree_construction import MIN_ELEMENTS, TreeConstruction, _freeze
from tests.a11y.html_tree import parse
from tests.parse.tree_compare import lines, streamed

# Each document exercises one part of tree construction; html5lib's tree is the expectation.
DOCUMENTS = {
    "empty": "",
    "text only": "Hello",
    "implied head and body": "<title>T</title><p>x",
    "head after text": "<!DOCTYPE html>x<title>T</title>",
    "meta after head": "<html><head></head><meta name=a><body>x",
    "p closed by block": "<p>one<div>two</div><p>three<p>four",
    "p end without p": "</p>x",
    "li and dd": "<ul><li>a<li>b<ol><li>c</ol></ul><dl><dt>x<dd>y<dt>z</dl>",
    "options": "<select><option>a<option>b<optgroup><option>c</select>",
    "select closed by input": "<select><option>a<input name=q>b",
    "void": "<br><img src=a><input><hr><br/><wbr>text</br>",
    "raw text": "<script>a</p><b>&amp;</script><style>p{}</style><title>&lt;x&gt;</title>",
    "textarea newline": "<textarea>\nline</textarea><pre>\n\nx</pre>",
    "script escapes": "<script><!--<script>x</script>--></script>y</script>z",
    "plaintext": "<p>a<plaintext>b</plaintext><i>",
    "comments": "<!-- a --><p>b<!-->c<!--->d<!x>e<?y>f</ >g",
    "character references": "<p title='&amp;&lt;'>&copy &notin; &#x41;&#65 &bogus;</p>",
    "headings": "<h1>a<h2>b</h1>c<h3><p>d</h3>",
    "nested formatting": "<p><b><i>x</p>y</i>z</b>",
    "adoption agency": "<a href=x>1<p>2</a>3</p>",
    "adoption with furthest block": "<b>1<div>2<i>3</b>4</i>5</div>",
    "a inside a": "<a href=1>x<a href=2>y</a>",
    "noah's ark": "<p><b><b><b><b>x</p><p>y",
    "nobr": "<nobr>a<nobr>b",
    "table implied parts": "<table><td>a<td>b<tr><th>c</table>",
    "table caption and colgroup": "<table><caption>c<col><tr><td>x</table>",
    "foster parenting": "<table>text<tr><td>a</td>b<div>c</div></tr></table>",
    "foster formatting": "<table><b>x<tr><td>y</b>z</table>",
    "table whitespace": "<table> \n <tr> <td>a</td> </tr> </table>",
    "nested tables": "<table><tr><td><table><tr><td>in</table>out</table>",
    "table in p": "<!DOCTYPE html><p>a<table><tr><td>b</table>",
    "table in p quirks": "<p>a<table><tr><td>b</table>",
    "input hidden in table": "<table><input type=hidden name=a><input name=b></table>",
    "form in table": "<table><form><tr><td><input></form></table>",
    "nested forms": "<form id=a><form id=b><input></form><input>",
    "svg": '<svg viewbox="0 0 1 1" xlink:href=x><foreignobject><p>x</p></foreignobject>'
    "<title>t</title><lineargradient/><p>out",
    "math": "<math><mi>x</mi><annotation-xml encoding=text/html><div>d</div></annotation-xml>"
    "<mglyph/></math>",
    "svg breakout": "<svg><g><b>bold</b></g></svg><span>",
    "svg font breakout": "<svg><font color=red>x</font><font>y</font></svg>",
    "cdata": "<svg><![CDATA[a<b>]]></svg><![CDATA[c]]>",
    "frameset": "<frameset><frame src=a><noframes>x</noframes></frameset>",
    "html attributes merged": "<html lang=en><body class=a><html dir=rtl><body id=b>",
    "after body": "<body>a</body>b</html>c<p>d",
    "buttons": "<button>a<button>b</button>",
    "object marker": "<b><object><b>x</object>y",
    "image": "<image src=a>",
    "uppercase": '<DIV ID=A><SPAN Lang="EN">x</SPAN></DIV>',
    "unclosed tag at end": "<p>a<div class='x",
    "nul": "<p>a\0b</p><svg>c\0d</svg>",
    "crlf": "<pre>\r\nx\r\ny\rz</pre>",
}


# Where html5lib (1.1) follows an older spec than the one implemented: `rt` closing an open `rb`
# (HTML § 13.2.6.4.7, "rb, rtc"/"rp, rt" since 2016), and templates (html5lib's etree builder
# moves a template in the head to the body and drops table parts in one). No rule reads a
# template's content; these are checked against the spec's tree, written out.
SPEC_TREES = {
    "<ruby>a<rb>b<rt>c<rp>(</rp><rtc>d<rt>e</ruby>": (
        "<head></head><body><ruby>a<rb>b</rb><rt>c</rt><rp>(</rp><rtc>d<rt>e</rt></rtc></ruby>"
        "</body>"
    ),
    "<template><tr><td>x</td></tr></template><template><p>a</template><p>b": (
        "<head><template><tr><td>x</td></tr></template><template><p>a</p></template></head>"
        "<body><p>b</p></body>"
    ),
    "<head><template><meta name=a></template></head><body>": (
        "<head><template><meta name=a></template></head><body></body>"
    ),
    # The special category (§ 13.2.4.2) holds SVG's title and desc and MathML's mi, mo, mn, ms,
    # mtext and annotation-xml; html5lib's lacks them, so its "any other end tag" walks past them
    # and closes the foreign root. Chromium 156 builds these trees (checked by hand).
    "<svg><title><b></svg><p>": "<head></head><body><svg><title><b><p></p></b></title></svg></body>",
    "<svg><desc><i></svg>x": "<head></head><body><svg><desc><i>x</i></desc></svg></body>",
    "<math><mi><b></math><p>": "<head></head><body><math><mi><b><p></p></b></mi></math></body>",
    # An `option` start tag pops an open `option` (in body), and the next is still fostered:
    # html5lib puts it in the table once the pop cleared its flag (see _NESTED_END_TAGS).
    "<table><option><option>": (
        "<head></head><body><option></option><option></option><table></table></body>"
    ),
}
# Generated markup that could meet html5lib's smaller special category (SPEC_TREES above).
_FOREIGN_SPECIAL = (("<svg>", "<title>"), ("<math>", "<mi>"))


def _html(element: Element) -> str:
    """The tree written back as HTML, without `<html>`."""
    inner = "".join(c if isinstance(c, str) else _html(c) for c in element.children)
    if element.tag == "html":
        return inner
    attrs = "".join(f" {k}={v}" for k, v in element.attributes.items())
    return f"<{element.tag}{attrs}>{inner}" + ("" if element.tag == "meta" else f"</{element.tag}>")


@pytest.mark.parametrize(("html", "expected"), SPEC_TREES.items())
def test_where_html5lib_is_older_the_tree_is_the_specs(html: str, expected: str) -> None:
    assert _html(streamed(html).root) == expected


def _tree_lines(html: str, cuts: tuple[int, ...] = ()) -> list[str]:
    return lines(streamed(html, cuts).root)


@pytest.mark.parametrize("html", DOCUMENTS.values(), ids=DOCUMENTS.keys())
def test_the_tree_is_html5libs(html: str) -> None:
    assert _tree_lines(html) == lines(parse(html))


@pytest.mark.parametrize("html", DOCUMENTS.values(), ids=DOCUMENTS.keys())
def test_one_character_at_a_time(html: str) -> None:
    assert _tree_lines(html, tuple(range(len(html)))) == _tree_lines(html)


_ALL = "".join(DOCUMENTS.values())


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_chunking_gives_the_same_tree(data: st.DataObject) -> None:
    html = data.draw(st.sampled_from([*DOCUMENTS.values(), _ALL]))
    cuts = data.draw(st.lists(st.integers(0, len(html)), max_size=12))
    assert _tree_lines(html, tuple(cuts)) == _tree_lines(html)


_PIECES = st.sampled_from(
    [
        "<p>", "</p>", "<b>", "</b>", "<a href=x>", "</a>", "<table>", "<tr>", "<td>",
        "</table>", "<svg>", "</svg>", "<math>", "<mi>",
        "<select>", "<option>", "<li>", "<script>", "</script>", "<!--", "-->", "&amp;",
        "x", " ", "\n", "<div>", "</div>", "<h1>", "<form>",
        "<caption>", "<col>", "<title>", "</title>", "<![CDATA[", "]]>", "<",
        "<foreignObject>", "<i>", "</i>", "<nobr>", "<button>", "</body>", "<html>",
    ]
)  # fmt: skip
# No template (see SPEC_TREES) and no frameset: html5lib drops a whole run of text in a frameset
# where the spec keeps its whitespace characters; no textarea: html5lib reconstructs open
# formatting elements inside one (`<b></div><textarea>x` gives `<textarea><b>x`), which the
# spec's "text" insertion mode never does (DOCUMENTS has textareas without formatting).


_NESTED_END_TAGS = (
    "<p>", "<div>", "<h1>", "<form>", "<li>", "<button>", "<a ", "<nobr>", "<option>", "<dd>",
    "<dt>",
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_generated_markup_matches_html5lib(html: str) -> None:
    # html5lib 1.1 stops foster parenting once a start tag in a table has closed an element
    # through a nested end tag (which clears its `insertFromTable`): `<table><p><li>` puts the
    # `li` in the table, where the spec (and a browser) puts it before the table, as the
    # streamed tree does. Tables are checked with the tags that do not do that.
    assume("<table>" not in html or not any(tag in html for tag in _NESTED_END_TAGS))
    assume(not any(root in html and special in html for root, special in _FOREIGN_SPECIAL))
    try:
        expected = lines(parse(html))
    except AssertionError:  # html5lib's own assertion (`<select>` in a reset insertion mode)
        assume(False)
    assert _tree_lines(html) == expected


def test_the_element_cap_stops_the_tree() -> None:
    builder = TreeBuilder(max_elements=10)
    builder.feed("<p>" * 50)
    tree = builder.close()
    assert (tree.complete, tree.elements) == (False, 10)


def test_the_text_cap_stops_the_tree() -> None:
    builder = TreeBuilder(max_text=100)
    builder.feed("<p>" + "x" * 500 + "<p>after")
    tree = builder.close()
    assert not tree.complete
    assert len(lines(tree.root)[-1]) < 120


def test_script_text_is_kept_short() -> None:
    tree = streamed("<script>" + "a" * 10_000 + "</script><p>x")
    script = next(tree.root.elements).children[0]
    assert script.tag == "script" and script.children == ("a" * 64,)  # type: ignore[union-attr]
    assert tree.complete


@pytest.mark.parametrize(
    "markup", ["text", "<title>t</title>after", "</area><option>x", "<h2><strong>text </head>a"]
)
def test_the_smallest_element_cap_stops_construction_and_a_smaller_one_is_refused(
    markup: str,
) -> None:
    builder = TreeBuilder(max_elements=MIN_ELEMENTS)
    builder.feed(markup)
    tree = builder.close()
    assert not tree.complete and [e.tag for e in tree.root.elements] == ["head"]
    with pytest.raises(ValueError, match="max_elements must be at least 2"):
        TreeBuilder(max_elements=MIN_ELEMENTS - 1)


def test_deep_nesting_is_bounded() -> None:
    tree = streamed("<div>" * 2000)
    assert not tree.complete


def test_a_page_shares_the_extractors_decoding() -> None:
    # A late <meta charset> makes the extractor decode again; the tree restarts with it.
    page = b"<title>x</title><meta charset=utf-8><p>caf\xc3\xa9</p>"
    facts, tree = page_tree(page, "https://example.test/")
    body = next(e for e in tree.root.elements if e.tag == "body")
    assert [p.children for p in body.elements] == [("café",)]
    assert facts.encoding.name == "utf-8"


def test_a_truncated_page_is_incomplete() -> None:
    builder = TreeBuilder()
    builder.feed("<p>x")
    assert not builder.close(truncated=True).complete


def test_svg_names_keep_their_case() -> None:
    root = streamed("<svg viewbox=1><clippath/></svg>").root
    svg = next(iter(list(root.elements)[1].elements))
    assert (svg.namespace, svg.get("viewBox"), [c.tag for c in svg.elements]) == (
        Namespace.SVG,
        "1",
        ["clipPath"],
    )


# Misnested markup for the paths a page seldom takes: formatting elements alike and not (the
# adoption agency's outer loop, the Noah's Ark clause), table parts out of order, stray text in
# tables (foster parenting), list items and definitions, with end tags anywhere. html5lib's
# tree is the expectation, under the assumptions above.
_MISNESTED = st.sampled_from(
    [
        "<a href=x>", "<a href=y>", "</a>", "<b>", "</b>", "<i class=c>", "</i>", "<em>",
        "</em>", "<font size=2>", "</font>", "<nobr>", "</nobr>", "<p>", "</p>", "<div>",
        "</div>", "<table>", "</table>", "<tr>", "</tr>", "<td>", "</td>", "<th>", "<caption>",
        "</caption>", "<colgroup>", "<col>", "<tbody>", "</tbody>", "<li>", "</li>", "<ul>",
        "</ul>", "<dd>", "<dt>", "</dd>", "<dl>", "<h2>", "</h2>", "<span>", "</span>", "x",
        " ", "<br>", "<img>", "<blockquote>", "</blockquote>",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_MISNESTED, max_size=50).map("".join))
def test_misnested_markup_matches_html5lib(html: str) -> None:
    assume("<table>" not in html or not any(tag in html for tag in _NESTED_END_TAGS))
    assert _tree_lines(html) == lines(parse(html))


@settings(max_examples=300, deadline=None)
@given(st.lists(_MISNESTED, max_size=50).map("".join))
def test_the_tree_frozen_in_order_is_the_tree_walked(html: str) -> None:
    # `root` freezes the nodes in the order they were made unless the adoption agency moved
    # some (`moved`); the walk of the tree (`_freeze`) is the reference for both.
    tree = TreeConstruction()
    tree.start_tag("body", {})
    for piece in re.findall(r"<(/?)([a-z0-9]+)([^>]*)>|([^<]+)", html):
        slash, name, attrs, text = piece
        if text:
            tree.characters(text)
        elif slash:
            tree.end_tag(name)
        else:
            tree.start_tag(name, dict(a.split("=") for a in attrs.split()))
    tree.eof()
    assert tree.html is not None
    assert lines(tree.root()) == lines(_freeze(tree.html))
