"""The three syntaxes, in the shape extruct gives, read as one node model."""

from __future__ import annotations

from structured.nodes import (
    Graph,
    Literal,
    Node,
    Reference,
    Syntax,
    from_extruct,
    from_json_ld,
    from_microdata,
    from_rdfa,
)

S = "https://schema.org/"


def _props(node: Node) -> dict[str, tuple[object, ...]]:
    return {p.name: p.values for p in node.properties}


def test_json_ld_terms_expand_against_the_context() -> None:
    graph = from_json_ld([{"@context": "https://schema.org", "@type": "Product", "name": "Anvil"}])
    (node,) = graph.roots
    assert node.types == (S + "Product",)
    assert _props(node) == {S + "name": (Literal("Anvil"),)}


def test_json_ld_context_forms() -> None:
    """A context URL with or without the slash, `@vocab`, prefixes, and schema.org's own aliases
    (`type`, `id`) and prefix (`schema:`)."""
    cases = [
        ({"@context": "http://schema.org/", "@type": "Offer"}, "http://schema.org/Offer"),
        ({"@context": {"@vocab": S}, "@type": "Offer"}, S + "Offer"),
        ({"@context": {"s": S}, "@type": "s:Offer"}, S + "Offer"),
        ({"@context": [S, {"ex": "https://example.com/ns#"}], "type": "Offer"}, S + "Offer"),
        ({"@context": S, "@type": "schema:Offer"}, S + "Offer"),
        ({"@type": "Offer"}, "Offer"),  # no context: left as written
    ]
    for document, expected in cases:
        (node,) = from_json_ld([document]).roots
        assert node.types == (expected,), document


def test_json_ld_graph_nested_nodes_and_references() -> None:
    graph = from_json_ld(
        [
            {
                "@context": "https://schema.org",
                "@graph": [
                    {"@type": "Organization", "@id": "#org", "name": "ACME"},
                    {
                        "@type": "Article",
                        "publisher": {"@id": "#org"},
                        "author": {"@type": "Person", "name": "Jo"},
                        "keywords": {"@list": ["a", "b"]},
                        "inLanguage": {"@value": "en", "@language": "en"},
                    },
                ],
            }
        ]
    )
    org, article = graph.roots
    props = _props(article)
    assert props[S + "publisher"] == (Reference("#org"),)
    assert graph.resolve(Reference("#org")) is org
    (author,) = props[S + "author"]
    assert isinstance(author, Node) and author.types == (S + "Person",)
    assert props[S + "keywords"] == (Literal("a"), Literal("b"))
    assert props[S + "inLanguage"] == (Literal("en"),)


def test_the_fullest_node_of_an_id_is_the_one_references_reach() -> None:
    graph = from_json_ld(
        [
            {
                "@context": S,
                "@type": "Article",
                "publisher": {"@id": "#o", "@type": "Organization"},
            },
            {"@context": S, "@type": "Organization", "@id": "#o", "name": "ACME", "url": "/"},
        ]
    )
    assert _props(graph.by_id["#o"]) == {S + "name": (Literal("ACME"),), S + "url": (Literal("/"),)}


def test_json_ld_blocks_that_hold_lists() -> None:
    graph = from_json_ld([[{"@context": S, "@type": "Thing"}, {"@context": S, "@type": "Place"}]])
    assert [n.types for n in graph.roots] == [(S + "Thing",), (S + "Place",)]


def test_microdata_items_and_property_names_relative_to_the_type() -> None:
    graph = from_microdata(
        [
            {
                "type": S + "Product",
                "id": "#p",
                "properties": {
                    "name": "Anvil",
                    "image": "https://example.com/anvil.jpg",
                    "offers": {"type": S + "Offer", "properties": {"price": "9.99"}},
                    "review": [
                        {"type": S + "Review", "properties": {}},
                        {"type": S + "Review", "properties": {}},
                    ],
                },
            }
        ]
    )
    (product,) = graph.roots
    props = _props(product)
    assert product.syntax is Syntax.MICRODATA and product.id == "#p"
    assert props[S + "name"] == (Literal("Anvil"),)
    # An absolute URL is a URL property's value (href, src): a link.
    assert props[S + "image"] == (Reference("https://example.com/anvil.jpg"),)
    (offer,) = props[S + "offers"]
    assert isinstance(offer, Node) and _props(offer) == {S + "price": (Literal("9.99"),)}
    assert len(props[S + "review"]) == 2
    assert graph.by_id["#p"] is product


def test_untyped_microdata_keeps_its_names() -> None:
    (node,) = from_microdata([{"properties": {"name": "x"}}]).roots
    assert node.types == () and _props(node) == {"name": (Literal("x"),)}


def test_rdfa_flattened_graph_is_nested_again() -> None:
    graph = from_rdfa(
        [
            {
                "@id": "https://example.com/#cafe",
                "@type": [S + "Restaurant"],
                S + "name": [{"@value": "Cath's Cafe"}],
                S + "address": [{"@id": "_:b0"}],
                S + "hasMenu": [{"@id": "https://example.com/menu"}],
            },
            {"@id": "_:b0", "@type": [S + "PostalAddress"], S + "postalCode": [{"@value": "1"}]},
            {
                "@id": "https://example.com/",
                "http://www.w3.org/ns/rdfa#usesVocabulary": [{"@id": S}],
            },
        ]
    )
    (cafe,) = graph.roots  # the page's rdfa:usesVocabulary is no item
    props = _props(cafe)
    (address,) = props[S + "address"]
    assert isinstance(address, Node) and address.types == (S + "PostalAddress",)
    assert props[S + "hasMenu"] == (Reference("https://example.com/menu"),)
    assert graph.by_id["_:b0"] is address


def test_rdfa_untyped_nodes_are_items_only_with_schema_org_terms() -> None:
    """The document's Open Graph statements are no item; an untyped node stating schema.org
    terms is one (validation then says what it lacks)."""
    graph = from_rdfa(
        [
            {"@id": "https://example.com/", "http://ogp.me/ns#title": [{"@value": "T"}]},
            {"@id": "_:n", "http://www.schema.org/name": [{"@value": "N"}]},
        ]
    )
    assert [node.id for node in graph.roots] == ["_:n"]


def test_rdfa_cycles_end_in_references() -> None:
    graph = from_rdfa(
        [
            {"@id": "_:a", "@type": [S + "Person"], S + "knows": [{"@id": "_:b"}]},
            {"@id": "_:b", "@type": [S + "Person"], S + "knows": [{"@id": "_:a"}]},
        ]
    )
    (a,) = graph.roots
    (b,) = _props(a)[S + "knows"]
    assert isinstance(b, Node) and _props(b)[S + "knows"] == (Reference("_:a"),)


def test_from_extruct_gathers_every_syntax() -> None:
    graph = from_extruct(
        {
            "json-ld": [{"@context": S, "@type": "Thing", "@id": "#t"}],
            "microdata": [{"type": S + "Place", "properties": {}}],
            "rdfa": [{"@id": "_:x", "@type": [S + "Event"]}],
            "opengraph": [],
        }
    )
    assert [n.syntax for n in graph.roots] == [Syntax.JSON_LD, Syntax.MICRODATA, Syntax.RDFA]
    assert isinstance(graph, Graph) and set(graph.by_id) == {"#t", "_:x"}
