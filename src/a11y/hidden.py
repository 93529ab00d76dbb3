"""What is hidden from assistive technology, as far as the markup alone decides.

Decided here: the `hidden` attribute, `aria-hidden="true"`, `inert`, an inline `style` with
`display: none` or `visibility: hidden|collapse`, elements a browser never renders (`<head>` and
what it holds, `script`, `style`, `template`, `noscript`; axe-core's `nativelyHidden`), a closed
`<details>` element's content but its summary, and `<input type=hidden>`.
Not decidable without layout and the cascade: a stylesheet's `display: none` or `visibility`,
`content-visibility`, a `hidden` attribute a stylesheet overrides, off-screen positioning, zero
size and clipping. A rule whose outcome depends on those says so (docs/accessibility.md).
"""

from __future__ import annotations

import re

from a11y.tree import Document, Element

# Never rendered: axe-core's nativelyHidden, and what the HTML rendering section's user-agent
# style sheet gives `display: none` (HTML § 15.3.1; `area` excepted, as axe-core excepts it).
_NATIVELY_HIDDEN = frozenset(
    "head script style template noscript title base basefont datalist link meta noembed "
    "noframes param rp".split()
)
_DISPLAY_NONE = re.compile(r"(?:^|;)\s*display\s*:\s*none\s*(?:!important\s*)?(?:;|$)", re.I)
_VISIBILITY_HIDDEN = re.compile(
    r"(?:^|;)\s*visibility\s*:\s*(?:hidden|collapse)\s*(?:!important\s*)?(?:;|$)", re.I
)


def _hidden_self(element: Element, parent: Element | None) -> bool:
    """Hidden for everyone by the element's own markup (display:none and its equivalents)."""
    tag, attributes = element.tag, element.attributes
    if tag in _NATIVELY_HIDDEN and element.is_html:
        return True
    if "hidden" in attributes and element.is_html and tag != "area":
        return True
    style = attributes.get("style")
    if style and (_DISPLAY_NONE.search(style) or _VISIBILITY_HIDDEN.search(style)):
        return True
    if tag == "input" and (attributes.get("type") or "").strip().lower() == "hidden":
        return True
    return (
        parent is not None
        and parent.tag == "details"
        and not parent.has("open")
        and not (element.tag == "summary" and next(parent.elements, None) is element)
    )


def _hidden_from_at(element: Element) -> bool:
    """Hidden from assistive technology by the element's own markup, not from everyone."""
    attributes = element.attributes
    return attributes.get("aria-hidden") == "true" or "inert" in attributes


class Hidden:
    """Per document: the elements hidden for everyone and those hidden from the accessibility
    tree (the former, plus `aria-hidden="true"` and `inert` subtrees). `styled` names elements
    a renderer found hidden by the cascade, where one is at hand; without it, only the markup
    decides."""

    def __init__(self, document: Document, styled: frozenset[int] = frozenset()) -> None:
        self.for_everyone: set[int] = set()
        self.from_at: set[int] = set()
        everyone, from_at, parents = self.for_everyone, self.from_at, document.parents
        for element in document.order:
            key = id(element)
            parent = parents.get(key)
            parent_key = id(parent)  # the root's parent is None, whose id no element has
            if parent_key in everyone or key in styled or _hidden_self(element, parent):
                everyone.add(key)
                from_at.add(key)
            elif parent_key in from_at or _hidden_from_at(element):
                from_at.add(key)

    def to_everyone(self, element: Element) -> bool:
        return id(element) in self.for_everyone

    def to_assistive_tech(self, element: Element) -> bool:
        """Not in the accessibility tree: axe-core's `!isVisibleToScreenReaders`."""
        return id(element) in self.from_at
