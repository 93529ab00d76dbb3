"""One node model for the three syntaxes, read from the shape extruct gives.

extruct (https://github.com/scrapinghub/extruct, its README's "Microdata", "JSON-LD" and "RDFa"
sections) returns, per page:
- `json-ld`: each `application/ld+json` block's JSON (a list block's items one by one), with its
  own `@context`, `@type`, `@id`, `@graph`, nested nodes and `{"@id": ...}` references;
- `microdata`: items `{"type": IRI or [IRI], "id": itemid, "properties": {name: value or
  [value]}}`, a value a string (URLs already resolved) or a nested item;
- `rdfa`: the graph as expanded JSON-LD, flattened: nodes `{"@id", "@type": [IRI], IRI:
  [{"@value"} or {"@id"}]}`, nested nodes referenced by `@id` (blank nodes `_:`).

Each becomes a `Graph` of `Node`s whose types and property names are absolute IRIs where the
markup declares its vocabulary, and left as written where it does not (validation says so).
Values are nested `Node`s, `Literal`s or `Reference`s (an IRI given as a link to a thing).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from structured.markup import MAX_NESTING

__all__ = [
    "Graph",
    "Literal",
    "Node",
    "Property",
    "Reference",
    "Syntax",
    "Value",
    "from_extruct",
    "from_json_ld",
    "from_microdata",
    "from_rdfa",
]


class Syntax(StrEnum):
    """extruct's names for the syntaxes (its `syntaxes` argument)."""

    JSON_LD = "json-ld"
    MICRODATA = "microdata"
    RDFA = "rdfa"


@dataclass(frozen=True, slots=True)
class Literal:
    value: str | int | float | bool


@dataclass(frozen=True, slots=True)
class Reference:
    """A link to a thing by IRI (`{"@id": ...}`, an RDFa `resource` or `href`)."""

    iri: str


@dataclass(frozen=True, slots=True)
class Property:
    name: str
    values: tuple[Value, ...]


@dataclass(frozen=True, slots=True)
class Node:
    syntax: Syntax
    types: tuple[str, ...]
    id: str | None
    properties: tuple[Property, ...]

    def values(self, name: str) -> Iterator[Value]:
        for prop in self.properties:
            if prop.name == name:
                yield from prop.values


type Value = Node | Literal | Reference


@dataclass(frozen=True, slots=True)
class Graph:
    """A page's top-level nodes, and every node with an `@id` for resolving references."""

    roots: tuple[Node, ...]
    by_id: Mapping[str, Node] = field(default_factory=dict)

    def resolve(self, value: Value) -> Value:
        """A reference to a node of the page as that node; anything else as it is."""
        if isinstance(value, Reference):
            return self.by_id.get(value.iri, value)
        return value


def from_extruct(data: Mapping[str, object]) -> Graph:
    """All three syntaxes of one page (extruct's `extract(..., uniform=False)` result)."""
    graphs = [
        from_json_ld(_list(data.get(Syntax.JSON_LD.value))),
        from_microdata(_list(data.get(Syntax.MICRODATA.value))),
        from_rdfa(_list(data.get(Syntax.RDFA.value))),
    ]
    by_id: dict[str, Node] = {}
    for graph in graphs:
        by_id.update(graph.by_id)
    return Graph(roots=tuple(n for g in graphs for n in g.roots), by_id=by_id)


# --- JSON-LD -----------------------------------------------------------------------------------


# schema.org's own context document (https://schema.org/docs/jsonldcontext.jsonld) aliases `id`
# and `type` to the keywords and declares the `schema` prefix, so `{"@context":
# "https://schema.org", "type": "schema:Person"}` is schema.org's Person.
_SCHEMA_CONTEXT_ALIASES: Final = {"id": "@id", "type": "@type"}
_SCHEMA_CONTEXT_PREFIXES: Final = {"schema": "https://schema.org/"}


def _is_schema_context(url: str) -> bool:
    return url.rstrip("/").casefold() in ("https://schema.org", "http://schema.org")


@dataclass(frozen=True, slots=True)
class _Context:
    """The slice of a JSON-LD context that names terms: `@vocab` (or a context URL, which for
    schema.org sets the vocabulary) and prefixes (`{"schema": "https://schema.org/"}`)."""

    vocab: str | None = None
    prefixes: Mapping[str, str] = field(default_factory=dict)
    # Terms that stand for keywords (`"type": "@type"`).
    aliases: Mapping[str, str] = field(default_factory=dict)

    def extended(self, context: object) -> _Context:
        vocab, prefixes, aliases = self.vocab, dict(self.prefixes), dict(self.aliases)
        for item in context if isinstance(context, list) else [context]:
            if isinstance(item, str):
                vocab = item if item.endswith(("/", "#")) else item + "/"
                if _is_schema_context(item):
                    prefixes.update(_SCHEMA_CONTEXT_PREFIXES)
                    aliases.update(_SCHEMA_CONTEXT_ALIASES)
            elif isinstance(item, dict):
                if isinstance(item.get("@vocab"), str):
                    vocab = item["@vocab"]
                for key, value in item.items():
                    if isinstance(value, str) and not key.startswith("@"):
                        (aliases if value.startswith("@") else prefixes)[key] = value
        return _Context(vocab, prefixes, aliases)

    def keyword(self, key: str) -> str:
        return self.aliases.get(key, key)

    def expand(self, term: str) -> str:
        prefix, colon, rest = term.partition(":")
        if colon and prefix in self.prefixes:
            return self.prefixes[prefix] + rest
        if colon or self.vocab is None:
            return term
        return self.vocab + term


def from_json_ld(documents: Sequence[object]) -> Graph:
    by_id: dict[str, Node] = {}
    roots: list[Node] = []
    for document in documents:
        for item in document if isinstance(document, list) else [document]:
            if isinstance(item, dict):
                roots.extend(_json_ld_roots(item, _Context(), by_id))
    return Graph(tuple(roots), by_id)


def _json_ld_roots(
    item: Mapping[str, object], context: _Context, by_id: dict[str, Node]
) -> list[Node]:
    context = context.extended(item["@context"]) if "@context" in item else context
    graph = item.get("@graph")
    if isinstance(graph, list):
        return [
            node
            for member in graph
            if isinstance(member, dict)
            for node in _json_ld_roots(member, context, by_id)
        ]
    node = _json_ld_node(item, context, by_id)
    return [node] if node.types or node.properties else []


def _json_ld_node(item: Mapping[str, object], context: _Context, by_id: dict[str, Node]) -> Node:
    context = context.extended(item["@context"]) if "@context" in item else context
    item = {context.keyword(key): value for key, value in item.items()}
    types = tuple(context.expand(t) for t in _strings(item.get("@type")))
    properties = tuple(
        Property(context.expand(key), tuple(_json_ld_values(value, context, by_id)))
        for key, value in item.items()
        if not key.startswith("@")
    )
    raw_id = item.get("@id")
    node = Node(Syntax.JSON_LD, types, raw_id if isinstance(raw_id, str) else None, properties)
    if node.id is not None and (types or properties):
        # The fullest description of an id wins: `{"@id": "#org", "@type": "Organization"}` as a
        # value must not hide the node that describes #org elsewhere on the page.
        known = by_id.get(node.id)
        if known is None or len(known.properties) < len(properties):
            by_id[node.id] = node
    return node


def _json_ld_values(value: object, context: _Context, by_id: dict[str, Node]) -> Iterator[Value]:
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, str | int | float):  # bool is an int
            yield Literal(item)
        elif isinstance(item, dict):
            yield from _json_ld_object(item, context, by_id)


def _json_ld_object(
    item: Mapping[str, object], context: _Context, by_id: dict[str, Node]
) -> Iterator[Value]:
    if "@value" in item:
        if isinstance(item["@value"], str | int | float):
            yield Literal(item["@value"])
    elif "@list" in item or "@set" in item:
        yield from _json_ld_values(item.get("@list", item.get("@set")), context, by_id)
    elif item and {context.keyword(k) for k in item} <= {"@id", "@context"}:
        ref = next(v for k, v in item.items() if context.keyword(k) == "@id")
        if isinstance(ref, str):
            yield Reference(ref)
    else:
        yield _json_ld_node(item, context, by_id)


# --- Microdata ---------------------------------------------------------------------------------


def from_microdata(items: Sequence[object]) -> Graph:
    by_id: dict[str, Node] = {}
    roots = [_microdata_node(item, by_id) for item in items if isinstance(item, dict)]
    return Graph(tuple(roots), by_id)


_ABSOLUTE_URL: Final = re.compile(r"https?://\S+\Z", re.IGNORECASE)


def _microdata_node(item: Mapping[str, object], by_id: dict[str, Node]) -> Node:
    types = tuple(_strings(item.get("type")))
    # A property name that is not an absolute URL is relative to the item's type's vocabulary
    # (HTML Living Standard, microdata, "names"): schema.org's types share one namespace.
    vocab = _namespace(types[0]) if types else None
    raw = item.get("properties")
    properties = tuple(
        Property(
            name if "://" in name or vocab is None else vocab + name,
            tuple(_microdata_values(value, by_id)),
        )
        for name, value in (raw.items() if isinstance(raw, dict) else ())
    )
    raw_id = item.get("id")
    node = Node(Syntax.MICRODATA, types, raw_id if isinstance(raw_id, str) else None, properties)
    if node.id is not None:
        by_id.setdefault(node.id, node)
    return node


def _namespace(type_iri: str) -> str | None:
    cut = max(type_iri.rfind("/"), type_iri.rfind("#"))
    return type_iri[: cut + 1] if cut > type_iri.find("://") + 2 else None


def _microdata_values(value: object, by_id: dict[str, Node]) -> Iterator[Value]:
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, str):
            # A URL property's value (`href`, `src`, ...) is an absolute URL (HTML, microdata,
            # "values"), which extruct hands over as a plain string: read as the link it is.
            yield Reference(item) if _ABSOLUTE_URL.match(item) else Literal(item)
        elif isinstance(item, dict):
            yield _microdata_node(item, by_id)


# --- RDFa --------------------------------------------------------------------------------------


def from_rdfa(nodes: Sequence[object]) -> Graph:
    """extruct's flattened graph turned back into trees: each referenced node nested where it is
    first referenced, the others left as roots (so each node is validated once)."""
    flat = {str(n["@id"]): n for n in nodes if isinstance(n, dict) and "@id" in n}
    referenced = {
        ref
        for body in flat.values()
        for key, values in body.items()
        if not key.startswith("@")
        for ref in _rdfa_refs(values)
    }
    placed: set[str] = set()
    roots = [_rdfa_node(node_id, flat, placed) for node_id in flat if node_id not in referenced]
    # Nodes only reachable through a cycle have no root above them: each becomes its own root.
    roots += [_rdfa_node(node_id, flat, placed) for node_id in flat if node_id not in placed]
    by_id = {node.id: node for node in _walk(roots) if node.id is not None}
    return Graph(tuple(n for n in roots if _is_rdfa_item(n)), by_id)


# RDFa Core §7.5 step 2: a `vocab` states that the document uses it, which is no item's property.
_USES_VOCABULARY: Final = "http://www.w3.org/ns/rdfa#usesVocabulary"


def _is_rdfa_item(node: Node) -> bool:
    """In RDFa every page is a subject: its Open Graph or Dublin Core `<meta property>` state
    things of the document, untyped. Such a node is no item unless it is typed or states a
    schema.org term (any spelling of the host, so that validation can name a wrong one)."""
    return bool(node.types) or any("schema.org/" in prop.name for prop in node.properties)


def _rdfa_refs(values: object) -> Iterator[str]:
    for value in values if isinstance(values, list) else []:
        if isinstance(value, dict) and isinstance(value.get("@id"), str):
            yield value["@id"]


def _rdfa_node(
    node_id: str, flat: Mapping[str, Mapping[str, object]], placed: set[str], depth: int = 0
) -> Node:
    placed.add(node_id)
    body = flat[node_id]
    properties = tuple(
        Property(key, tuple(_rdfa_values(values, flat, placed, depth + 1)))
        for key, values in body.items()
        if not key.startswith("@") and key != _USES_VOCABULARY
    )
    return Node(Syntax.RDFA, tuple(_strings(body.get("@type"))), node_id, properties)


def _rdfa_values(
    values: object, flat: Mapping[str, Mapping[str, object]], placed: set[str], depth: int
) -> Iterator[Value]:
    for value in values if isinstance(values, list) else []:
        if not isinstance(value, dict):
            continue
        ref = value.get("@id")
        if isinstance(ref, str):
            # Past MAX_NESTING a node stays a reference, and becomes a root of its own below.
            nest = ref in flat and ref not in placed and depth < MAX_NESTING
            yield _rdfa_node(ref, flat, placed, depth) if nest else Reference(ref)
        elif isinstance(value.get("@value"), str | int | float):
            yield Literal(value["@value"])


def _walk(nodes: Iterable[Node]) -> Iterator[Node]:
    for node in nodes:
        yield node
        yield from _walk(v for p in node.properties for v in p.values if isinstance(v, Node))


# --- shared ------------------------------------------------------------------------------------


def _strings(value: object) -> Iterator[str]:
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, str):
            yield item


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []
