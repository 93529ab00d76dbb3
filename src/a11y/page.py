"""One document as the rules read it: the tree's index, what is hidden, and memoised roles."""

from __future__ import annotations

from a11y.hidden import Hidden
from a11y.tree import Document, Element


class Page:
    def __init__(self, root: Element) -> None:
        self.document = Document(root)
        self.hidden = Hidden(self.document)
        self.roles: dict[int, str | None] = {}
        self.names: dict[int, str] = {}
