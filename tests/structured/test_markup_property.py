"""Any element tree, however its Microdata and RDFa attributes are tangled (itemref loops, ids
shared, nested scopes, odd CURIEs), reads to extruct's shapes, which read as nodes and validate:
never an exception, never a value outside the shapes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from parse.tree import Element
from structured.microdata import extract_microdata
from structured.nodes import from_microdata, from_rdfa
from structured.rdfa import extract_rdfa
from structured.validate import validate

BASE = "https://shop.example/p"
_TAGS = ["div", "span", "a", "meta", "time", "img", "link", "data", "html", "body"]
_WORDS = ["a", "b", "name", "schema:name", "og:title", "_:x", ":next", "http://x.org/y", "[s:z]"]
_ATTRIBUTES = {
    "itemscope": st.just(""),
    "itemtype": st.sampled_from(["https://schema.org/Thing", "https://schema.org/Offer x", ""]),
    "itemprop": st.sampled_from(_WORDS),
    "itemref": st.sampled_from(["i0", "i1 i2", "i0 i0", "nope"]),
    "itemid": st.sampled_from(["#a", "http://[bad", ""]),
    "id": st.sampled_from(["i0", "i1", "i2"]),
    "vocab": st.sampled_from(["https://schema.org/", ""]),
    "prefix": st.sampled_from(["s: https://schema.org/", "s:", "x: y: z"]),
    "typeof": st.sampled_from(_WORDS),
    "property": st.sampled_from(_WORDS),
    "resource": st.sampled_from(["#r", "[og:x]", "_:b", ""]),
    "content": st.sampled_from(["2024-01-01", ""]),
    "href": st.sampled_from(["/x", "#f", "http://[bad", ""]),
    "datetime": st.just("2024-01-01"),
}


def _attributes() -> st.SearchStrategy[dict[str, str]]:
    return st.fixed_dictionaries({}, optional=_ATTRIBUTES)


_trees = st.recursive(
    st.builds(Element, st.sampled_from(_TAGS), _attributes()),
    lambda children: st.builds(
        Element,
        st.sampled_from(_TAGS),
        _attributes(),
        st.lists(st.one_of(children, st.sampled_from(["t", " 1 "])), max_size=4).map(tuple),
    ),
    max_leaves=25,
)


def _values_in_shape(value: object) -> bool:
    if isinstance(value, list):
        return len(value) > 1 and all(_values_in_shape(v) for v in value)
    if isinstance(value, dict):
        return _item_in_shape(value)
    return isinstance(value, str)


def _item_in_shape(item: dict[str, object]) -> bool:
    properties = item.get("properties", {})
    return (
        set(item) <= {"type", "id", "properties"}
        and isinstance(properties, dict)
        and all(_values_in_shape(v) for v in properties.values())
    )


@settings(max_examples=150, deadline=None)
@given(_trees)
def test_any_tree_reads_to_the_shapes_and_validates(tree: Element) -> None:
    root = Element("html", {}, (tree,))
    items = extract_microdata(root, BASE).items
    assert all(_item_in_shape(item) for item in items)
    nodes = extract_rdfa(root, BASE).nodes
    for node in nodes:
        assert isinstance(node["@id"], str)
        for key, values in node.items():
            if key == "@id":
                continue
            assert isinstance(values, list)
            if key == "@type":
                assert all(isinstance(v, str) for v in values)
            else:
                assert all(set(v) in ({"@id"}, {"@value"}) for v in values)
    validate(from_microdata(items))
    validate(from_rdfa(nodes))
