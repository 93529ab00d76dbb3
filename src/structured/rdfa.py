"""RDFa Lite read from a page's element tree, in the shape extruct gives: expanded JSON-LD, flat.

RDFa Lite 1.1 (https://www.w3.org/TR/rdfa-lite/) is five attributes: `vocab`, `prefix`,
`typeof`, `property` and `resource`. Their meaning is RDFa Core 1.1's processing sequence
(https://www.w3.org/TR/rdfa-core/ §7.5) restricted to them, with HTML+RDFa 1.1's rules
(https://www.w3.org/TR/html-rdfa/ §3.1):
- the root element is about the document's base (and so, through it, is every statement not
  inside a `typeof` or a `resource`);
- `vocab` sets the vocabulary of bare terms (and states `rdfa:usesVocabulary`, step 2); `prefix`
  declares CURIE prefixes, as the older `xmlns:` attributes do, over RDFa's initial context
  (structured.rdfa_context: `og:` works undeclared);
- `typeof` makes a typed resource: `resource` (or `href`, `src`) if given, else a new blank node;
  it is the subject of the element's children, and the value of the element's own `property`;
- `property` without `typeof` states, of the subject in effect, each of its terms with a value:
  `content` if present, else the element's `resource`, `href` or `src`, else a time element's
  `datetime` (HTML+RDFa §3.1), else the element's text. A text's language (`lang`) is not kept:
  validation does not read it.

`about`, `rel`, `rev`, `datatype` and `inlist` are RDFa Core, not Lite, and are not read (pyRdfa,
extruct's reader, implements all of Core: the agreement test leaves out what only Core states).

The output is extruct's `rdfa` shape (pyRdfa's graph serialised as expanded JSON-LD): one node
per subject, `{"@id": IRI or "_:bN", "@type": [IRI], IRI: [{"@id": IRI} or {"@value": text,
}]}`, statements once each (an RDF graph is a set), subjects in the order first
stated. `structured.nodes.from_rdfa` nests it for validation.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from parse.tree import Element
from structured.iri import resolve_iri
from structured.markup import Budget, split, tokens
from structured.rdfa_context import DEFAULT_PREFIX, PREFIXES, TERMS

__all__ = ["RdfaGraph", "extract_rdfa"]

RDF_TYPE: Final = "@type"
USES_VOCABULARY: Final = "http://www.w3.org/ns/rdfa#usesVocabulary"

type Statement = dict[str, str]  # {"@id": IRI} or {"@value": text}
type RdfaNode = dict[str, object]


@dataclass(frozen=True, slots=True)
class RdfaGraph:
    nodes: tuple[RdfaNode, ...]
    truncated: bool  # markup.MAX_WORK reached: the statements read within it


def extract_rdfa(root: Element, base: str) -> RdfaGraph:
    """The statements of the document under `root` (the `<html>` element), IRIs resolved against
    `base` (the document's base URL)."""
    reader = _Reader(base)
    stack = [(root, _Context(base, base))]
    while stack and reader.budget.spend():
        element, context = stack.pop()
        children_context = reader.element(element, context, is_root=element is root)
        stack.extend((child, children_context) for child in reversed(tuple(element.elements)))
    return RdfaGraph(reader.nodes(), reader.budget.exceeded)


@dataclass(frozen=True, slots=True)
class _Context:
    """RDFa Core §7.1's evaluation context, in Lite's part of it."""

    base: str
    parent_object: str
    vocab: str | None = None
    prefixes: Mapping[str, str] = field(default_factory=lambda: PREFIXES)

    def local(self, element: Element) -> _Context:
        """The context the element's own attributes set (steps 2-3)."""
        context = self
        if element.has("vocab"):
            raw = (element.get("vocab") or "").strip()
            context = replace(context, vocab=resolve_iri(raw, self.base) if raw else None)
        declared = dict(_prefix_declarations(element))
        if declared:
            context = replace(context, prefixes={**self.prefixes, **declared})
        return context

    def term(self, text: str) -> str | None:
        """A `property` or `typeof` token as an IRI (§7.4.3: a term, a CURIE or an absolute
        IRI); None for what names nothing (a bare term without a vocabulary)."""
        prefix, colon, reference = text.partition(":")
        if not colon:
            return self.vocab + text if self.vocab else TERMS.get(text.casefold())
        if prefix == "_":
            return None  # a blank node is no property or type
        if not prefix:
            return DEFAULT_PREFIX + reference
        namespace = self.prefixes.get(prefix.casefold())
        return namespace + reference if namespace is not None else text

    def resource(self, element: Element) -> str | None:
        """The element's `resource` (an IRI, or a [safe CURIE]), else its `href` or `src`."""
        raw = element.get("resource")
        if raw is not None:
            raw = raw.strip()
            if raw.startswith("[") and raw.endswith("]"):
                return self.term(raw[1:-1]) if ":" in raw else None
            if raw.startswith("_:"):
                return raw
            prefix = raw.partition(":")[0].casefold()
            if ":" in raw and prefix in self.prefixes and "//" not in raw:
                return self.term(raw)
            return resolve_iri(raw, self.base)
        for name in ("href", "src"):
            value = element.get(name)
            if value is not None:
                return resolve_iri(value, self.base)
        return None


class _Reader:
    def __init__(self, base: str) -> None:
        self.base = base
        self.budget = Budget()
        self._graph: dict[str, dict[str, list[Statement]]] = {}
        self._blank_nodes = 0

    def element(self, element: Element, outer: _Context, *, is_root: bool) -> _Context:
        """One element's statements (§7.5 steps 5-11); the context of its children (step 13)."""
        if not is_root and _states_nothing(element):
            # Most elements: the subject their children inherit is the one in effect, or the
            # link they make (`<a href>` is a new subject in RDFa Core §7.5 step 5.2).
            if element.has("href") or element.has("src"):
                link = outer.resource(element)
                return replace(outer, parent_object=link) if link else outer
            return outer
        context = outer.local(element)
        if element.has("vocab") and context.vocab:
            self.state(self.base, USES_VOCABULARY, {"@id": context.vocab})
        types = [t for t in map(context.term, tokens(element.get("typeof"))) if t]
        properties = [p for p in map(context.term, tokens(element.get("property"))) if p]
        subject, typed, child_object = self._subjects(element, outer, context, is_root=is_root)
        if typed is not None:
            for type_iri in types:
                self.state(typed, RDF_TYPE, {"@id": type_iri})
        if properties:
            property_only = element.has("property") and not element.has("content")
            resource = typed or context.resource(element) if property_only else None
            value = self._value(element, resource)
            for prop in properties:
                self.state(subject, prop, value)
        return replace(context, parent_object=child_object)

    def _subjects(
        self, element: Element, outer: _Context, context: _Context, *, is_root: bool
    ) -> tuple[str, str | None, str]:
        """Steps 5-6: the subject of the element's properties, its typed resource (None without
        `typeof`), and the subject its children inherit."""
        has_typeof = element.has("typeof")
        resource = context.resource(element)
        if element.has("property") and not element.has("content"):
            # Step 5.1: the subject stays; a typeof types a new resource, the property's value.
            subject = self.base if is_root else outer.parent_object
            typed = (resource or self.blank_node()) if has_typeof else None
            return subject, typed, typed or subject
        # Step 5.2: a resource named here, or a typeof's new one, is the new subject.
        new_subject = resource or (self.base if is_root else None)
        if new_subject is None and has_typeof:
            new_subject = self.blank_node()
        subject = new_subject or outer.parent_object
        return subject, subject if has_typeof else None, subject

    def _value(self, element: Element, resource: str | None) -> Statement:
        """Step 11's object: `content`, else a resource, else a time's datetime, else text."""
        content = element.get("content")
        if content is None and resource is not None:
            return {"@id": resource}
        if content is None and element.tag == "time" and element.has("datetime"):
            content = element.get("datetime")
        text = content if content is not None else self.budget.text(element)
        return {"@value": text or ""}

    def blank_node(self) -> str:
        self._blank_nodes += 1
        return f"_:b{self._blank_nodes - 1}"

    def state(self, subject: str, predicate: str, value: Statement) -> None:
        statements = self._graph.setdefault(subject, {}).setdefault(predicate, [])
        if value not in statements:
            statements.append(value)

    def nodes(self) -> tuple[RdfaNode, ...]:
        return tuple(_node(subject, body) for subject, body in self._graph.items())


def _node(subject: str, body: Mapping[str, list[Statement]]) -> RdfaNode:
    node: RdfaNode = {"@id": subject}
    for predicate, values in body.items():
        node[predicate] = [v["@id"] for v in values] if predicate == RDF_TYPE else list(values)
    return node


# The attributes that make an element more than a link for RDFa Lite (besides `xmlns:` ones).
_LITE_ATTRIBUTES: Final = frozenset({"vocab", "prefix", "typeof", "property", "resource"})


def _states_nothing(element: Element) -> bool:
    names = element.attributes.keys()
    return names.isdisjoint(_LITE_ATTRIBUTES) and not any(n.startswith("xmlns:") for n in names)


def _prefix_declarations(element: Element) -> Iterator[tuple[str, str]]:
    """`prefix="og: http://ogp.me/ns# fb: ..."` (§7.5 step 3), and the `xmlns:og=...` of RDFa
    1.0 pages, which RDFa 1.1 processors still read (RDFa Core 1.1 §7.5 step 3's note). Prefixes
    are lower-cased."""
    for name, value in element.attributes.items():
        if name.startswith("xmlns:") and value.strip():
            yield name[len("xmlns:") :].casefold(), value.strip()
    words = split(element.get("prefix"))
    for word, iri in itertools.pairwise(words):
        if word.endswith(":") and len(word) > 1 and not iri.endswith(":"):
            yield word[:-1].casefold(), iri
