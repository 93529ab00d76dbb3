"""Microdata read from a page's element tree, as HTML defines it, in the shape extruct gives.

HTML Living Standard §5.2 (https://html.spec.whatwg.org/multipage/microdata.html):
- an item is an element with `itemscope`; its types are `itemtype`'s tokens, its global id
  `itemid` resolved against the document's base (only with a type), §5.2.2;
- its properties are found by "crawl the properties" (§5.2.5): the item's children and the
  elements its `itemref` ids name, walked down to (not into) nested items, each element visited
  once (the memory that ends an `itemref` loop), in tree order; an element with `itemprop` gives
  a value to each of its property names;
- a property's value (§5.2.4, "values"): a nested item for an `itemscope` element; `content` for
  `meta`; `src` for audio, embed, iframe, img, source, track and video, `href` for a, area and link,
  `data` for object, each resolved against the base ("" if it does not resolve); `value` for data
  and meter; a time element's datetime value (`datetime`, else its text); else textContent.
  One addition, as schema.org's own examples, Google's Microdata examples and extruct read it: a
  non-empty `content` on any other element (a time without `datetime` too) is its value;
- the top-level items are those whose element has no `itemprop` (§5.2.5), in tree order.

The result is extruct's microdata shape (https://github.com/scrapinghub/extruct, its
`w3cmicrodata.py`, which follows the standard's JSON conversion, §5.2.6): per item `{"type": IRI or
[IRI], "id": itemid, "properties": {name: value or [value]}}`, one value bare and several in a
list, so `structured.nodes.from_microdata` reads it and the agreement test compares it with
extruct's own. Where extruct reads otherwise on purpose, the standard is followed
(tests/structured/extruct_agreement.py lists each difference): textContent is trimmed but not
reflowed and keeps script text, a `<time>` without `datetime` is its `content` or text (extruct
gives ""), `itemid` is resolved, and items with `itemprop` are never
top-level. An item met again inside itself (an `itemref` cycle through a nested item) is the
string "ERROR", as the standard's JSON conversion writes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from parse.tree import Element
from structured.iri import resolve_iri
from structured.markup import MAX_NESTING, WHITESPACE, Budget, tokens, tree_order

__all__ = ["CYCLE", "MicrodataItems", "extract_microdata"]

# The standard's JSON conversion writes an item that contains itself as this string.
CYCLE: Final = "ERROR"

# §5.2.4: the elements whose value is a URL attribute, resolved against the base.
_URL_ATTRIBUTE: Final = {
    "audio": "src",
    "embed": "src",
    "iframe": "src",
    "img": "src",
    "source": "src",
    "track": "src",
    "video": "src",
    "a": "href",
    "area": "href",
    "link": "href",
    "object": "data",
}
_VALUE_ATTRIBUTE: Final = {"meta": "content", "data": "value", "meter": "value"}
type Item = dict[str, object]


@dataclass(frozen=True, slots=True)
class MicrodataItems:
    items: tuple[Item, ...]
    truncated: bool  # markup.MAX_WORK reached: the items read within it


def extract_microdata(root: Element, base: str) -> MicrodataItems:
    """The top-level items of the document under `root` (the `<html>` element), with URLs
    resolved against `base` (the document's base URL)."""
    document = _Document.index(root, base)
    items = tuple(
        document.item(element, frozenset())
        for element in document.order
        if element.is_html and element.has("itemscope") and not element.has("itemprop")
    )
    return MicrodataItems(items, document.budget.exceeded)


@dataclass(frozen=True, slots=True)
class _Document:
    base: str
    order: Mapping[Element, int]  # every element, in tree order
    ids: Mapping[str, Element]  # the first element with each id
    budget: Budget = field(default_factory=Budget)

    @staticmethod
    def index(root: Element, base: str) -> _Document:
        order: dict[Element, int] = {}
        ids: dict[str, Element] = {}
        for element in tree_order(root):
            order[element] = len(order)
            element_id = element.get("id")
            if element_id:
                ids.setdefault(element_id, element)
        return _Document(base, order, ids)

    def item(self, element: Element, enclosing: frozenset[Element]) -> Item:
        """§5.2.6's "get the object": `enclosing` holds the items being written around it."""
        item: Item = {}
        types = tokens(element.get("itemtype"))
        if types:
            item["type"] = types[0] if len(types) == 1 else types
            itemid = element.get("itemid")
            resolved = None if itemid is None else self.url(itemid)
            if resolved:
                item["id"] = resolved
        properties: dict[str, list[object]] = {}
        inside = enclosing | {element}
        for prop in self.properties(element):
            value = self.value(prop, inside)
            for name in tokens(prop.get("itemprop")):
                properties.setdefault(name, []).append(value)
        if properties:
            item["properties"] = {
                name: values[0] if len(values) == 1 else values
                for name, values in properties.items()
            }
        return item

    def properties(self, root: Element) -> list[Element]:
        """§5.2.5's "crawl the properties" of the item `root`, in tree order."""
        memory = {root}
        pending = list(root.elements)
        pending += [self.ids[i] for i in tokens(root.get("itemref")) if i in self.ids]
        results: list[Element] = []
        while pending and self.budget.spend():
            current = pending.pop()
            if current in memory:
                continue  # a microdata error (an itemref loop): visited once
            memory.add(current)
            if not current.has("itemscope"):
                pending.extend(current.elements)
            if tokens(current.get("itemprop")):
                results.append(current)
        return sorted(results, key=self.order.__getitem__)

    def value(self, element: Element, enclosing: frozenset[Element]) -> object:
        if element.has("itemscope"):
            if element in enclosing:
                return CYCLE
            if len(enclosing) >= MAX_NESTING:
                self.budget.exceeded = True  # cut: the result says it is truncated
                return ""
            return self.item(element, enclosing)
        tag = element.tag if element.is_html else ""
        if tag in _URL_ATTRIBUTE:
            return self.url(element.get(_URL_ATTRIBUTE[tag]) or "")
        if tag in _VALUE_ATTRIBUTE:
            return element.get(_VALUE_ATTRIBUTE[tag]) or ""
        if tag == "time" and element.has("datetime"):
            return element.get("datetime") or ""
        if element.get("content"):
            # Not HTML's (it reads `content` on meta only) but what schema.org's own examples,
            # Google's Microdata examples and extruct do: `<span itemprop=price content="10">`.
            return element.get("content") or ""
        return self.budget.text(element).strip(WHITESPACE)

    def url(self, raw: str) -> str:
        # §5.2.4: "if parsing the URL fails, the value is the empty string".
        return resolve_iri(raw, self.base) or ""
