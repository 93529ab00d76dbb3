"""What the Microdata and RDFa readers share over the element tree: the walk in tree order, HTML's
token lists, and the per-page work bound."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from parse.tree import Element, text_content

__all__ = ["MAX_NESTING", "WHITESPACE", "Budget", "split", "tokens", "tree_order"]

# HTML's ASCII whitespace (Infra standard, https://infra.spec.whatwg.org/#ascii-whitespace): it
# splits token lists and is what "strip" means in HTML; Python's str.split() would also split on
# U+00A0 and the other Unicode spaces.
WHITESPACE: Final = " \t\n\f\r"
_SPACES: Final = str.maketrans(dict.fromkeys(WHITESPACE, " "))

# Work bound per page, in elements visited plus characters of text read: `itemref` lets many items
# crawl one subtree and nested `property` elements each read their text, so the cost is bounded
# here rather than by the page's size. Some 20 times what the corpus's largest page costs.
MAX_WORK: Final = 4_000_000


# How deep items may nest in the node model: reading, nesting and validating an item is recursive,
# and a page of thousands of nested items must not reach the interpreter's recursion limit (lower
# in Pyodide). Real markup nests a few levels (schema.org's examples: at most 7); deeper items are
# cut (Microdata) or left as references (RDFa).
MAX_NESTING: Final = 32


@dataclass(slots=True)
class Budget:
    left: int = field(default_factory=lambda: MAX_WORK)  # read per page: tests lower it
    exceeded: bool = False

    def spend(self, units: int = 1) -> bool:
        """Whether there was budget for `units` more work; once exceeded, stays exceeded."""
        self.left -= units
        self.exceeded = self.exceeded or self.left < 0
        return not self.exceeded

    def text(self, element: Element) -> str:
        """The element's textContent, paid for by its length ("" once the budget is spent)."""
        text = text_content(element) if not self.exceeded else ""
        return text if self.spend(len(text)) else ""


def tree_order(root: Element) -> Iterator[Element]:
    """`root` and its descendants in tree order. Iterative: a deep tree must not reach the
    interpreter's recursion limit (lower in Pyodide)."""
    stack = [root]
    while stack:
        element = stack.pop()
        yield element
        stack.extend(reversed(tuple(element.elements)))


def tokens(value: str | None) -> list[str]:
    """An attribute's set of space-separated tokens (HTML, "unordered set of unique
    space-separated tokens"), first occurrence first."""
    return list(dict.fromkeys(split(value)))


def split(value: str | None) -> list[str]:
    """An attribute's value split on ASCII whitespace, in order, repeats kept."""
    return [t for t in (value or "").translate(_SPACES).split(" ") if t]
