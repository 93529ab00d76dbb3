"""The `Document` index the accessibility rules read over one element tree (parse.tree): parents,
ids, document order, the elements by tag and by the few attributes rules select on, built once
per page."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice

from parse.tree import DocumentOrder, Element, Namespace, StyleSheet, text_content

__all__ = ["Document", "DocumentOrder", "Element", "Namespace", "StyleSheet", "text_content"]

# The attributes rules select their elements by (a role, a language, ...): most elements carry
# none, so a rule that reads them iterates these lists instead of every element.
# `hidden`, `style`, `inert` and `popover` are what a11y.hidden asks.
INDEXED_ATTRIBUTES = frozenset(
    {
        "role", "lang", "xml:lang", "tabindex", "accesskey", "for", "alt",
        "hidden", "style", "inert", "popover",
    }
)  # fmt: skip


_UNSEEN: list[Element] = []  # an attribute name `Document._index` has not met yet


class Document:
    """An index over a tree rooted at `<html>`: each element's parent, the elements in document
    order (and by tag, for the HTML elements), the first element of each id and how many carry
    it, the elements carrying each of INDEXED_ATTRIBUTES and those with an `aria-*` attribute,
    and the elements outside the HTML namespace. The order and the parents come from the tree's
    construction where it kept them (`order`, parse.tree.DocumentOrder), else from one walk;
    the rest from one pass over that order. The rules then look elements up instead of walking
    the tree again. Positions in document order are numbered on the first `position` asked (a
    page whose rules sort nothing needs none)."""

    def __init__(self, root: Element, order: DocumentOrder | None = None) -> None:
        self.root = root
        self._position: dict[int, int] | None = None
        self._tags: dict[str, list[Element]] = {}
        self.ids: dict[str, Element] = {}
        self.id_counts: dict[str, int] = {}
        self._owners: dict[str, Element] | None = None
        self._labels: dict[str, list[Element]] | None = None
        self._attributed: dict[str, list[Element]] = {name: [] for name in INDEXED_ATTRIBUTES}
        self.with_aria: list[Element] = []  # every element with an aria-* attribute, in order
        self.foreign: list[Element] = []  # SVG and MathML elements, in order
        if order is None:
            self.order, self._parent = _walk(root)
        else:
            # The construction's lists, as the walk would give them (tests/parse/
            # test_document_order.py): no second walk of the tree.
            self.order = order.elements
            elements = islice(order.elements, 1, None)
            self._parent = dict(zip(map(id, elements), order.parents, strict=True))
        self._index()

    def _index(self) -> None:
        tags, attributed = self._tags, self._attributed
        with_aria, foreign, ids, id_counts = self.with_aria, self.foreign, self.ids, self.id_counts
        html = Namespace.HTML
        # What each attribute name met means, decided once a name (a page repeats a few names,
        # `class` and `href` most): the list it indexes, `with_aria` for an ARIA attribute (an
        # element goes there once), or None for nothing.
        kinds: dict[str, list[Element] | None] = {}
        unseen = _UNSEEN
        for element in self.order:
            attributes = element.attributes
            if attributes:
                aria = False
                for name in attributes:
                    kind = kinds.get(name, unseen)
                    if kind is None:
                        continue
                    if kind is unseen:
                        kind = attributed.get(name)
                        if kind is None and name.startswith("aria-"):
                            kind = with_aria
                        kinds[name] = kind
                        if kind is None:
                            continue
                    if kind is with_aria:
                        if not aria:
                            aria = True
                            with_aria.append(element)
                    else:
                        kind.append(element)
                element_id = attributes.get("id")
                if element_id is not None:
                    ids.setdefault(element_id, element)
                    id_counts[element_id] = id_counts.get(element_id, 0) + 1
            if element.namespace is not html:
                foreign.append(element)
            else:
                found = tags.get(element.tag)
                if found is None:
                    tags[element.tag] = [element]
                else:
                    found.append(element)

    def parent(self, element: Element) -> Element | None:
        return self._parent.get(id(element))

    def step(self, count: int = 1) -> None:
        """A walk of the tree counts its steps here (a11y.selectors.Tree): a document bounds
        nothing, a wrapper may (a11y.stylesheet's)."""

    @property
    def parents(self) -> dict[int, Element]:
        """Each element's parent by the element's `id()` (the root has none): `parent` for a
        loop over every element."""
        return self._parent

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
        if self._position is None:
            self._position = dict(zip(map(id, self.order), range(len(self.order)), strict=True))
        return self._position[id(element)]

    def by_tag(self, *tags: str) -> Iterator[Element]:
        """The HTML elements of those tags, in document order."""
        if len(tags) == 1:
            return iter(self._tags.get(tags[0], ()))
        lists = [found for found in map(self._tags.get, set(tags)) if found]
        if len(lists) <= 1:  # no sort (nor positions numbered) for one tag present
            return iter(lists[0] if lists else ())
        return iter(sorted((e for found in lists for e in found), key=self.position))

    def having(self, attributes: Iterable[str] = (), tags: Iterable[str] = ()) -> list[Element]:
        """The elements carrying one of the `attributes` (of INDEXED_ATTRIBUTES, or `aria-*` for
        any ARIA attribute) or, in any namespace, of one of the `tags`, in document order: the
        few elements a rule can judge, which it then filters as it filters every element."""
        tags = set(tags)
        lists: list[Sequence[Element]] = [
            self.with_aria if a == "aria-*" else self._attributed[a] for a in attributes
        ]
        lists += [self._tags.get(tag, ()) for tag in tags]
        if tags:
            lists.append([e for e in self.foreign if e.tag in tags])
        found = [found for found in lists if found]
        if len(found) == 1:
            return list(found[0])
        unique = {id(e): e for elements in found for e in elements}
        return sorted(unique.values(), key=self.position)

    def carrying(self, attribute: str) -> Sequence[Element]:
        """The elements carrying `attribute` (of INDEXED_ATTRIBUTES), in document order."""
        return self._attributed[attribute]

    def first(self, tag: str) -> Element | None:
        return next(self.by_tag(tag), None)

    def owner(self, element_id: str) -> Element | None:
        """The first element, in document order, whose aria-owns names `element_id`."""
        if self._owners is None:
            self._owners = {}
            for element in self.order:
                for token in (element.attributes.get("aria-owns") or "").split():
                    self._owners.setdefault(token, element)
        return self._owners.get(element_id)

    def labels_for(self, element_id: str) -> list[Element]:
        """The HTML `label` elements whose `for` is `element_id`, in document order (a form
        control's explicit labels: four checks ask for each control, read once a page)."""
        if self._labels is None:
            self._labels = {}
            for label in self._tags.get("label", ()):
                target = label.attributes.get("for")
                if target is not None:
                    self._labels.setdefault(target, []).append(label)
        return self._labels.get(element_id, [])

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


def _walk(root: Element) -> tuple[list[Element], dict[int, Element]]:
    """The elements under `root` in document order, and each one's parent by its `id()`; a
    template's content is left out (a separate, inert document fragment, HTML § 4.12.3)."""
    order: list[Element] = []
    parents: dict[int, Element] = {}
    html = Namespace.HTML
    stack: list[Element] = [root]
    while stack:
        element = stack.pop()
        order.append(element)
        if element.tag == "template" and element.namespace is html:
            continue
        if element.children:  # not a void element's, nor an empty one's
            children = [child for child in element.children if type(child) is not str]
            for child in children:
                parents[id(child)] = element
            stack.extend(reversed(children))  # type: ignore[arg-type]  # no str is left
    return order, parents
