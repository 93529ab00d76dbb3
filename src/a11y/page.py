"""One document as the rules read it: the tree's index, what is hidden, memoised roles and the
shown elements each rule selects."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from a11y.hidden import Hidden
from a11y.stylesheet import hidden_by_style_sheets
from a11y.tree import Document, DocumentOrder, Element, StyleSheet


class Page:
    """`styled_hidden`: elements a renderer found hidden by the cascade (the agreement harness
    passes Chromium's), besides those the page's own `<style>` elements certainly hide
    (a11y.stylesheet), which the markup alone cannot tell. `order`: the tree's elements in
    document order with their parents, where its construction kept them (parse.tree_builder.
    ParsedTree.order), so the index need not walk the tree. `style_sheets`: the page's
    `<style>` texts whole, where the tree keeps only their start (ParsedTree.style_sheets);
    None reads them from the tree."""

    def __init__(
        self,
        root: Element,
        styled_hidden: Collection[Element] = (),
        order: DocumentOrder | None = None,
        style_sheets: Sequence[StyleSheet] | None = None,
    ) -> None:
        self.document = Document(root, order)
        styled = [*styled_hidden, *hidden_by_style_sheets(self.document, style_sheets)]
        self.hidden = Hidden(self.document, styled)
        self.roles: dict[int, str | None] = {}
        self.names: dict[int, str] = {}
        self.contents: dict[int, str] = {}  # a11y.accname.subtree_name, where already known
        self.specs: dict[tuple[int, bool], dict[str, object]] = {}  # a11y.roles.element_spec
        self.grids: dict[int, list[list[Element | None]]] = {}  # a11y.tables.page_grid
        self.grid_places: dict[int, dict[int, tuple[int, int]]] = {}  # a11y.tables.position
        self.scopes: dict[int, str | None] = {}  # a11y.tables.scope
        self._having: dict[tuple[tuple[str, ...], frozenset[str]], list[Element]] = {}

    def with_aria(self) -> list[Element]:
        """The shown elements with an `aria-*` attribute, listed once (four ARIA rules read
        them; most elements have none)."""
        return self.shown_having(("aria-*",))

    def shown_having(
        self, attributes: tuple[str, ...] = (), tags: Iterable[str] = ()
    ) -> list[Element]:
        """The shown elements of `Document.having`, listed once per page: a rule that can judge
        only elements with some attribute or tag reads these instead of every shown element."""
        key = (attributes, frozenset(tags))
        found = self._having.get(key)
        if found is None:
            hidden = self.hidden
            having = self.document.having(*key)
            found = self._having[key] = [e for e in having if not hidden.to_assistive_tech(e)]
        return found
