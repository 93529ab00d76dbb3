"""RDFa Lite 1.1 read from the element tree: its five attributes, RDFa Core's processing of them."""

from __future__ import annotations

import pytest

from structured.nodes import Literal, Reference, from_rdfa
from structured.rdfa import USES_VOCABULARY, extract_rdfa
from tests.a11y.html_tree import parse

BASE = "https://shop.example/dir/page.html"
S = "https://schema.org/"
OG = "http://ogp.me/ns#"


def _nodes(html: str) -> list[dict[str, object]]:
    return list(extract_rdfa(parse(html), BASE).nodes)


def _items(html: str) -> list[dict[str, object]]:
    """The nodes without the `rdfa:usesVocabulary` statement a `vocab` makes of the page."""
    nodes = [{k: v for k, v in n.items() if k != USES_VOCABULARY} for n in _nodes(html)]
    return [node for node in nodes if len(node) > 1]


def _value(markup: str) -> object:
    """The value of `S:p` that an element `markup` states of a typed item."""
    nodes = _nodes(f'<body vocab="{S}"><div typeof=Thing>{markup}</div>')
    (item,) = [n for n in nodes if str(n["@id"]).startswith("_:")]
    return item[S + "p"]


# RDFa Core §7.5 step 11 (Lite's part) and HTML+RDFa §3.1: what a property's value is.
@pytest.mark.parametrize(
    ("markup", "value"),
    [
        ('<span property=p content="42">forty-two</span>', [{"@value": "42"}]),
        ('<a property=p href="../x">t</a>', [{"@id": "https://shop.example/x"}]),
        ('<img property=p src="i.png">', [{"@id": "https://shop.example/dir/i.png"}]),
        ('<span property=p resource="#me">Jo</span>', [{"@id": BASE + "#me"}]),
        ('<span property=p resource="[og:x]">Jo</span>', [{"@id": OG + "x"}]),
        ('<time property=p datetime="2024-05-01">May 1st</time>', [{"@value": "2024-05-01"}]),
        ("<span property=p> Blue <b>suede</b> </span>", [{"@value": " Blue suede "}]),
        ("<span property=p></span>", [{"@value": ""}]),
    ],
)
def test_property_values(markup: str, value: object) -> None:
    assert _value(markup) == value


# §7.4.3: a property or type token as an IRI; None where it names nothing.
@pytest.mark.parametrize(
    ("attributes", "iri"),
    [
        (f'vocab="{S}" property=name', S + "name"),
        ('property="og:title"', OG + "title"),  # RDFa's initial context
        ('property="OG:title"', OG + "title"),  # prefixes are case-insensitive
        ('prefix="ex: https://ex.org/ns#" property="ex:a"', "https://ex.org/ns#a"),
        ('xmlns:ex="https://ex.org/ns#" property="ex:a"', "https://ex.org/ns#a"),
        ('property="https://ex.org/full"', "https://ex.org/full"),
        ('property="twitter:card"', "twitter:card"),  # no such prefix: an absolute IRI
        ('property="license"', "http://www.w3.org/1999/xhtml/vocab#license"),  # a term
        ('property=":next"', "http://www.w3.org/1999/xhtml/vocab#next"),
        ("property=name", None),  # a term without a vocabulary names nothing
        ('property="_:b"', None),
    ],
)
def test_terms(attributes: str, iri: str | None) -> None:
    nodes = _items(f'<head><meta {attributes} content="v"></head>')
    stated = [key for node in nodes for key in node if not key.startswith("@")]
    assert stated == ([iri] if iri else [])


def test_a_page_with_open_graph_and_a_schema_org_item() -> None:
    nodes = _nodes(
        '<html prefix="fb: http://ogp.me/ns/fb#"><head><meta property="og:title" content="T">'
        '<meta property="fb:app_id" content="1"></head>'
        f'<body vocab="{S}"><div typeof="Product" resource="#p">'
        '<span property="name">Anvil</span>'
        '<div property="offers" typeof="Offer"><span property="price">3</span></div>'
        "</div></body></html>"
    )
    assert nodes == [
        {
            "@id": BASE,
            OG + "title": [{"@value": "T"}],
            "http://ogp.me/ns/fb#app_id": [{"@value": "1"}],
            USES_VOCABULARY: [{"@id": S}],
        },
        {
            "@id": BASE + "#p",
            "@type": [S + "Product"],
            S + "name": [{"@value": "Anvil"}],
            S + "offers": [{"@id": "_:b0"}],
        },
        {"@id": "_:b0", "@type": [S + "Offer"], S + "price": [{"@value": "3"}]},
    ]


def test_property_without_typeof_does_not_change_the_subject() -> None:
    """`<div property=author resource=#jo>` states the author; its children still describe the
    item above (RDFa 1.1: only a typeof starts a new subject for a property's children)."""
    nodes = _items(
        f'<body vocab="{S}"><div typeof=Book>'
        '<div property=author resource="#jo"><span property=name>Title</span></div></div>'
    )
    (book,) = nodes
    assert book[S + "author"] == [{"@id": BASE + "#jo"}]
    assert book[S + "name"] == [{"@value": "Title"}]


def test_typeof_with_content_types_a_new_subject() -> None:
    (node,) = _items(f'<body vocab="{S}"><span typeof=Thing property=name content=x></span>')
    assert node["@type"] == [S + "Thing"] and node[S + "name"] == [{"@value": "x"}]


def test_content_with_href_describes_the_link() -> None:
    """With `content`, an `href` names the subject (RDFa Core §7.5 step 5.2), not the value."""
    nodes = _nodes('<body><a property="og:p" href="/x" content="c">t</a>')
    assert nodes == [{"@id": "https://shop.example/x", OG + "p": [{"@value": "c"}]}]


def test_statements_are_a_set_and_vocab_can_be_reset() -> None:
    nodes = _nodes(
        f'<body vocab="{S}"><div typeof=Thing><b property=name>a</b><b property=name>a</b>'
        '<div vocab=""><b property=name>ignored</b></div></div>'
    )
    (thing,) = [n for n in nodes if n["@id"] == "_:b0"]
    assert thing[S + "name"] == [{"@value": "a"}]


def test_not_lite_attributes_are_not_read() -> None:
    assert _nodes('<link rel="license" href="/l"><div about="/x" property="og:a">v</div>') == [
        {"@id": BASE, OG + "a": [{"@value": "v"}]}
    ]


def test_work_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("structured.markup.MAX_WORK", 30)
    body = "".join(f'<b property="og:n{i}" content="{i}"></b>' for i in range(100))
    found = extract_rdfa(parse(body), BASE)
    assert found.truncated
    (node,) = found.nodes
    assert 0 < len(node) - 1 < 30


def test_read_as_nested_nodes() -> None:
    nodes = _items(
        f'<body vocab="{S}"><div typeof=Offer><link property=availability '
        'href="https://schema.org/InStock"><span property=price>3</span></div>'
    )
    (node,) = from_rdfa(nodes).roots
    assert node.types == (S + "Offer",)
    assert {p.name: p.values for p in node.properties} == {
        S + "availability": (Reference(S + "InStock"),),
        S + "price": (Literal("3"),),
    }
