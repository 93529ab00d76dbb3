"""The element tree the accessibility rules read: elements with their attributes, children and
text, and a `Document` index over it (parents, ids, document order) built once per page.

The records are what any HTML parser can produce (html5lib in the tests; the streaming parser
once it feeds them): the rules need no DOM, no layout and no script.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum


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


class Document:
    """An index over a tree rooted at `<html>`: each element's parent, the elements in document
    order, the first element of each id and how many carry it."""

    def __init__(self, root: Element) -> None:
        self.root = root
        self.order: list[Element] = []
        self._parent: dict[int, Element] = {}
        self._position: dict[int, int] = {}
        self.ids: dict[str, Element] = {}
        self.id_counts: dict[str, int] = {}
        self._index(root)

    def _index(self, root: Element) -> None:
        stack: list[Element] = [root]
        while stack:
            element = stack.pop()
            self._position[id(element)] = len(self.order)
            self.order.append(element)
            element_id = element.get("id")
            if element_id is not None:
                self.ids.setdefault(element_id, element)
                self.id_counts[element_id] = self.id_counts.get(element_id, 0) + 1
            # A template's content is a separate, inert document fragment (HTML § 4.12.3).
            children = (
                [] if element.tag == "template" and element.is_html else list(element.elements)
            )
            for child in children:
                self._parent[id(child)] = element
            stack.extend(reversed(children))

    def parent(self, element: Element) -> Element | None:
        return self._parent.get(id(element))

    def ancestors(self, element: Element) -> Iterator[Element]:
        """The parent, its parent, ... up to the root."""
        parent = self.parent(element)
        while parent is not None:
            yield parent
            parent = self.parent(parent)

    def descendants(self, element: Element) -> Iterator[Element]:
        """Every element under `element`, in document order (not a template's content)."""
        if element.tag == "template" and element.is_html:
            return
        for child in element.elements:
            yield child
            yield from self.descendants(child)

    def position(self, element: Element) -> int:
        return self._position[id(element)]

    def by_tag(self, *tags: str) -> Iterator[Element]:
        return (element for element in self.order if element.tag in tags and element.is_html)

    def first(self, tag: str) -> Element | None:
        return next(self.by_tag(tag), None)

    def by_id(self, element_id: str) -> Element | None:
        return self.ids.get(element_id)

    def idrefs(self, element: Element, attribute: str) -> list[Element]:
        """The elements an ID reference list names, in its order, the missing ones left out."""
        value = element.get(attribute) or ""
        found = (self.ids.get(token) for token in value.split())
        return [target for target in found if target is not None]

    def path(self, element: Element) -> tuple[int, ...]:
        """The element's place: the index among its parent's element children, from the root
        down. The agreement harness computes the same in the browser to match nodes."""
        steps: list[int] = []
        node = element
        parent = self.parent(node)
        while parent is not None:
            steps.append(next(i for i, c in enumerate(parent.elements) if c is node))
            node, parent = parent, self.parent(parent)
        return tuple(reversed(steps))


def text_content(element: Element) -> str:
    """All the text under `element`, as the DOM's textContent."""
    return "".join(
        child if isinstance(child, str) else text_content(child) for child in element.children
    )
