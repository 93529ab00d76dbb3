"""The element tree of one HTML document: elements with their attributes, children and text.

The records are what any HTML parser can produce (html5lib in the tests, the streaming parser in
the crawl); the accessibility rules (a11y) and the Microdata/RDFa extraction (structured) read
them: no DOM, no layout, no script.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = ["DocumentOrder", "Element", "Namespace", "text_content"]


class Namespace(StrEnum):
    HTML = "html"
    SVG = "svg"
    MATHML = "math"


@dataclass(frozen=True, slots=True, eq=False)
class Element:
    """One element: its lower-case local name, attributes (names lower-case, as the HTML parser
    gives them), children in order (elements and text, a text node being a `str`)."""

    tag: str
    attributes: Mapping[str, str] = field(default_factory=dict)
    children: tuple[Element | str, ...] = ()
    namespace: Namespace = Namespace.HTML

    def get(self, name: str) -> str | None:
        return self.attributes.get(name)

    def has(self, name: str) -> bool:
        return name in self.attributes

    @property
    def elements(self) -> Iterator[Element]:
        """The element children, in order."""
        return (child for child in self.children if isinstance(child, Element))

    @property
    def is_html(self) -> bool:
        return self.namespace is Namespace.HTML


@dataclass(frozen=True, slots=True)
class StyleSheet:
    """The text of one of the page's `<style>` elements (HTML, outside a template), whole (the
    tree keeps only the start of it, parse.tree_construction.RAW_KEEP), with the element's
    `media` and `type` attributes: what a reader of the page's own cascade needs
    (a11y.stylesheet). `complete` is False when the page's style text passed the bound kept
    (parse.tree_construction.STYLE_KEEP) and this one was cut."""

    text: str
    media: str | None = None
    type: str | None = None
    complete: bool = True


@dataclass(frozen=True, slots=True)
class DocumentOrder:
    """A tree's elements in document order (the root first, each element before its children and
    its children in order), with each one's parent: `parents[i]` is the parent of
    `elements[i + 1]` (the root has none). Elements in a `<template>`'s content are not among
    them: that content is a separate document fragment, not the template's children (HTML
    § 4.12.3), and a tree that holds a template gives no `DocumentOrder`.

    What tree construction can hand over at no walk of the tree
    (parse.tree_construction.TreeConstruction.order); a reader that needs every element with
    its parent (the accessibility rules' index) takes these lists instead of walking the tree
    again."""

    elements: list[Element]
    parents: list[Element]


def text_content(element: Element) -> str:
    """All the text under `element`, as the DOM's textContent."""
    return "".join(
        child if isinstance(child, str) else text_content(child) for child in element.children
    )
