"""One document as the rules read it: the tree's index, what is hidden, and memoised roles."""

from __future__ import annotations

from a11y.hidden import Hidden
from a11y.tree import Document, Element


class Page:
    """`styled_hidden`: elements a renderer found hidden by the cascade (their `id()`s; the
    agreement harness passes Chromium's), which the markup alone cannot tell."""

    def __init__(self, root: Element, styled_hidden: frozenset[int] = frozenset()) -> None:
        self.document = Document(root)
        self.hidden = Hidden(self.document, styled_hidden)
        self.roles: dict[int, str | None] = {}
        self.names: dict[int, str] = {}
        self._shown: list[Element] | None = None

    def shown(self) -> list[Element]:
        """The elements in the accessibility tree, in document order, listed once."""
        if self._shown is None:
            hidden = self.hidden
            self._shown = [e for e in self.document.order if not hidden.to_assistive_tech(e)]
        return self._shown
