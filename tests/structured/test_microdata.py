"""Microdata read from the element tree as the HTML Living Standard §5.2 reads it."""

from __future__ import annotations

import pytest

from parse.tree import Element
from structured.microdata import CYCLE, extract_microdata
from structured.nodes import Literal, Node, Reference, from_microdata
from tests.a11y.html_tree import parse

BASE = "https://shop.example/dir/page.html"
S = "https://schema.org/"


def _items(body: str) -> list[dict[str, object]]:
    return list(extract_microdata(parse(f"<!doctype html><body>{body}"), BASE).items)


def _value(markup: str) -> object:
    """The value of the one property `p` of an item holding `markup`."""
    (item,) = _items(f"<div itemscope>{markup}</div>")
    properties = item["properties"]
    assert isinstance(properties, dict)
    return properties["p"]


# §5.2.4 "values": which attribute, resolved or not, gives each element's value.
@pytest.mark.parametrize(
    ("markup", "value"),
    [
        ('<meta itemprop=p content="42">', "42"),
        ("<meta itemprop=p>", ""),
        ('<a itemprop=p href="../x">t</a>', "https://shop.example/x"),
        ('<area itemprop=p href="#f">', BASE + "#f"),
        ('<link itemprop=p href="https://schema.org/InStock">', "https://schema.org/InStock"),
        ('<img itemprop=p src="i.png">', "https://shop.example/dir/i.png"),
        ('<audio itemprop=p src="a.mp3"></audio>', "https://shop.example/dir/a.mp3"),
        ('<video itemprop=p src="v.mp4"></video>', "https://shop.example/dir/v.mp4"),
        ('<iframe itemprop=p src="f.html"></iframe>', "https://shop.example/dir/f.html"),
        ('<embed itemprop=p src="e.swf">', "https://shop.example/dir/e.swf"),
        ('<object itemprop=p data="o.pdf"></object>', "https://shop.example/dir/o.pdf"),
        ("<a itemprop=p>no href</a>", BASE),  # the empty string resolved: the page
        ('<a itemprop=p href="http://[bad">t</a>', ""),  # a URL that does not parse
        ('<data itemprop=p value="7">seven</data>', "7"),
        ('<meter itemprop=p value="0.5">half</meter>', "0.5"),
        ('<time itemprop=p datetime="2024-05-01">May 1st</time>', "2024-05-01"),
        ("<time itemprop=p>2024-05-01</time>", "2024-05-01"),  # no datetime: the text
        ("<span itemprop=p>\n  Blue <b>suede</b> shoes \t</span>", "Blue suede shoes"),
        # `content` on any element, as schema.org's examples and Google read it (not HTML's).
        ('<span itemprop=p content="x">text</span>', "x"),
        ('<span itemprop=p content="">text</span>', "text"),
        ('<time itemprop=p content="16:00">4 PM</time>', "16:00"),
        ('<a itemprop=p href="/u" content="x">t</a>', "https://shop.example/u"),
    ],
)
def test_property_values(markup: str, value: object) -> None:
    assert _value(markup) == value


def test_item_type_id_nesting_and_property_names() -> None:
    (item,) = _items(
        '<div itemscope itemtype="https://schema.org/Product https://schema.org/Thing"'
        ' itemid="#p"><span itemprop="name alternateName name">Anvil</span>'
        '<div itemprop=offers itemscope itemtype="https://schema.org/Offer">'
        '<meta itemprop=price content="10"></div>'
        "<span itemprop=name>Anvil 2</span></div>"
    )
    assert item == {
        "type": [S + "Product", S + "Thing"],
        "id": BASE + "#p",
        "properties": {
            "name": ["Anvil", "Anvil 2"],
            "alternateName": "Anvil",
            "offers": {"type": S + "Offer", "properties": {"price": "10"}},
        },
    }


def test_itemid_without_itemtype_is_ignored() -> None:
    assert _items('<div itemscope itemid="#x"><b itemprop=a>1</b></div>') == [
        {"properties": {"a": "1"}}
    ]


def test_top_level_items_are_those_without_itemprop_in_tree_order() -> None:
    items = _items(
        "<div itemscope itemtype=https://schema.org/A><b itemprop=n>1</b></div>"
        "<p itemprop=orphan itemscope itemtype=https://schema.org/B></p>"
        "<div itemscope itemtype=https://schema.org/C></div>"
    )
    assert [item["type"] for item in items] == [S + "A", S + "C"]


def test_itemref_adds_properties_in_tree_order() -> None:
    (item,) = _items(
        "<p id=before itemprop=a>first</p>"
        '<div itemscope itemref="after before missing"><b itemprop=b>inside</b></div>'
        "<p id=after itemprop=c>last</p>"
    )
    assert item == {"properties": {"a": "first", "b": "inside", "c": "last"}}


def test_itemref_loops_end() -> None:
    """An item referring to its own ancestor visits each element once; an item met inside
    itself is the JSON conversion's "ERROR"."""
    (item,) = _items("<div id=top itemscope itemref=top><b itemprop=a>x</b></div>")
    assert item == {"properties": {"a": "x"}}
    (outer,) = _items(
        "<div itemscope><div id=inner itemprop=child itemscope itemref=outer></div></div>"
        "<div id=outer itemprop=parent itemscope itemref=inner></div>"
    )
    child = outer["properties"]["child"]  # type: ignore[index]
    assert child == {"properties": {"parent": {"properties": {"child": CYCLE}}}}


def test_properties_inside_nested_items_belong_to_them() -> None:
    (item,) = _items(
        "<div itemscope><div itemprop=author itemscope><span itemprop=name>Jo</span></div>"
        "<span itemprop=name>Book</span></div>"
    )
    assert item == {"properties": {"author": {"properties": {"name": "Jo"}}, "name": "Book"}}


def test_deep_trees_do_not_recurse() -> None:
    leaf: Element = Element("span", {"itemprop": "name"}, ("deep",))
    for _ in range(5_000):
        leaf = Element("div", {}, (leaf,))
    root = Element(
        "html", {}, (Element("body", {}, (Element("div", {"itemscope": ""}, (leaf,)),)),)
    )
    (item,) = extract_microdata(root, BASE).items
    assert item == {"properties": {"name": "deep"}}


def test_work_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("structured.markup.MAX_WORK", 50)
    body = "".join(f"<div itemscope><b itemprop=n>{i}</b></div>" for i in range(100))
    found = extract_microdata(parse(body), BASE)
    assert found.truncated
    assert len(found.items) == 100  # every item listed, the later ones without properties
    assert found.items[-1] == {}


def test_read_as_nodes_with_urls_as_references() -> None:
    items = _items(
        '<div itemscope itemtype="https://schema.org/Offer">'
        '<link itemprop=availability href="https://schema.org/InStock">'
        "<span itemprop=price>3</span></div>"
    )
    (node,) = from_microdata(items).roots
    assert isinstance(node, Node)
    assert {p.name: p.values for p in node.properties} == {
        S + "availability": (Reference(S + "InStock"),),
        S + "price": (Literal("3"),),
    }
