"""What is hidden from assistive technology, as far as the markup alone decides.

Decided here: the `hidden` attribute, `aria-hidden="true"`, `inert`, an inline `style` with
`display: none` or `visibility: hidden|collapse`, elements a browser never renders (`<head>` and
what it holds, `script`, `style`, `template`, `noscript`; axe-core's `nativelyHidden`), a closed
`<details>` element's content but its summary, `<input type=hidden>`, and what the user-agent
style sheet hides until a script or the user shows it: a `<dialog>` without `open` and an
element with the `popover` attribute (no script runs in a static audit to open either).
What the page's own `<style>` sheets certainly hide comes from a11y.stylesheet (through
`styled`, by a11y.page.Page). Not decidable without layout and linked style sheets: a linked
sheet's `display: none` or `visibility`,
`content-visibility`, a `hidden` attribute a stylesheet overrides, off-screen positioning, zero
size and clipping. A rule whose outcome depends on those says so (docs/accessibility.md).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from itertools import chain

from a11y.tree import Document, Element

# Never rendered: axe-core's nativelyHidden, and what the HTML rendering section's user-agent
# style sheet gives `display: none` (HTML § 15.3.1; `area` excepted, as axe-core excepts it).
_NATIVELY_HIDDEN = frozenset(
    "head script style template noscript title base basefont datalist link meta noembed "
    "noframes param rp".split()
)
# A `display`, `visibility` or `all` declaration of a style attribute: name, value, importance.
STYLE_DECLARATION = re.compile(
    r"(?:^|;)\s*(display|visibility|all)\s*:\s*([^;!]*?)\s*(!\s*important)?\s*(?=;|$)", re.I
)


def style_hides(style: str) -> bool:
    """Whether a style attribute hides its element: the declaration that wins within it (the
    last important one, else the last one; CSS Cascading 4 § 6.1) is `display: none` or
    `visibility: hidden|collapse`. `all` resets both to their initial values, which show."""
    winners: dict[str, tuple[bool, str]] = {}
    for name, value, important in STYLE_DECLARATION.findall(style):
        name = name.lower()
        if name == "all":
            effects = [("display", ""), ("visibility", "")]
        else:
            effects = [(name, value.strip().lower())]
        for prop, effect in effects:
            earlier = winners.get(prop)
            if earlier is None or important or not earlier[0]:
                winners[prop] = (bool(important), effect)
    display = winners.get("display", (False, ""))[1]
    visibility = winners.get("visibility", (False, ""))[1]
    return display == "none" or visibility in ("hidden", "collapse")


def _hidden_self(element: Element, parent: Element | None) -> bool:
    """Hidden for everyone by the element's own markup (display:none and its equivalents)."""
    tag, attributes = element.tag, element.attributes
    if tag in _NATIVELY_HIDDEN and element.is_html:
        return True
    if "hidden" in attributes and element.is_html and tag != "area":
        return True
    style = attributes.get("style")
    if style and style_hides(style):
        return True
    if tag == "input" and (attributes.get("type") or "").strip().lower() == "hidden":
        return True
    # The user-agent style sheet of the HTML standard's rendering section gives `display: none`
    # to `dialog:not([open])` and `[popover]:not(:popover-open):not(dialog[open])`.
    if tag == "dialog" and element.is_html and "open" not in attributes:
        return True
    if (
        "popover" in attributes
        and element.is_html
        and not (tag == "dialog" and "open" in attributes)
    ):
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
    decides.

    Hiding is inherited, so an element is hidden for everyone when it or an ancestor hides
    itself. Only the few elements that can (`_hiding_candidates`, from the document's index)
    are asked, and the subtrees of those that do are marked: most elements of a page are never
    looked at (a walk of every element with a test each cost a third of building the index)."""

    def __init__(self, document: Document, styled: Collection[Element] = ()) -> None:
        self.for_everyone: set[int] = set()
        self.from_at: set[int] = set()
        for element, parent in _hiding_candidates(document):
            if id(element) not in self.for_everyone and _hidden_self(element, parent):
                _mark(element, self.for_everyone)
        for element in styled:
            _mark(element, self.for_everyone)
        self.from_at |= self.for_everyone
        for element in chain(document.with_aria, document.carrying("inert")):
            if id(element) not in self.from_at and _hidden_from_at(element):
                _mark(element, self.from_at)

    def to_everyone(self, element: Element) -> bool:
        return id(element) in self.for_everyone

    def to_assistive_tech(self, element: Element) -> bool:
        """Not in the accessibility tree: axe-core's `!isVisibleToScreenReaders`."""
        return id(element) in self.from_at


def _hiding_candidates(document: Document) -> Iterator[tuple[Element, Element | None]]:
    """Every element `_hidden_self` can find hidden, with its parent where that decides (a
    closed `<details>` element's children); the others, with None."""
    for tag in _NATIVELY_HIDDEN:
        for element in document.by_tag(tag):
            yield element, None
    for element in chain(
        document.carrying("hidden"), document.carrying("style"), document.carrying("popover")
    ):
        yield element, None
    for element in chain(document.by_tag("input"), document.by_tag("dialog")):
        yield element, None
    details = list(document.by_tag("details"))
    details += [
        e for e in document.foreign if e.tag == "details"
    ]  # `_hidden_self` asks no namespace
    for parent in details:
        for child in parent.elements:
            yield child, parent


def _mark(root: Element, hidden: set[int]) -> None:
    """`root` and every element under it as `Document` indexes them (not a template's content),
    skipping subtrees marked already (marking one always marks all of it)."""
    hidden.add(id(root))
    pending = [root]
    while pending:
        element = pending.pop()
        if element.tag == "template" and element.is_html:
            continue
        for child in element.children:
            if type(child) is not str and id(child) not in hidden:
                hidden.add(id(child))
                pending.append(child)  # type: ignore[arg-type]  # no str is left
