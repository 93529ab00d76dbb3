"""What a static rule decides about one element (`Outcome`) and what the audit keeps of a
failure (`Finding`: the axe-core rule id, WCAG success criteria, axe's impact, a short CSS
selector and an HTML snippet of the element, and where it was decided: `Source`)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from a11y.aria import aria
from a11y.rule_ids import AxeRuleId, RuleId
from a11y.tree import Document, Element
from common.fast_record import maker
from common.wire import JsonRecord

SNIPPET_CHARS = 250
_IDENT = re.compile(r"^-?[A-Za-z_][A-Za-z0-9_-]*$")


class Impact(StrEnum):
    """axe-core's impact levels, least to most severe."""

    MINOR = "minor"
    MODERATE = "moderate"
    SERIOUS = "serious"
    CRITICAL = "critical"


class Source(StrEnum):
    """Who decided a finding: the static rules on the markup (a11y.rules), or axe-core itself on
    the page a browser rendered (a11y.axe)."""

    STATIC = "static"
    RENDERED = "rendered"


@dataclass(frozen=True, slots=True)
class Outcome:
    """A rule's definite verdict on one element. An element a rule cannot decide without
    layout, the cascade or script gets no outcome."""

    rule: RuleId
    element: Element
    passed: bool


@dataclass(frozen=True, slots=True)
class Finding(JsonRecord):
    rule: AxeRuleId  # a static rule's, or on a rendered page any of axe-core's (a11y.rule_ids)
    impact: Impact
    wcag: tuple[str, ...]  # success criteria, e.g. ("1.1.1",); empty for best practices
    # Static: our selector (`selector` below). Rendered: axe-core's `target`, its own unique
    # selector for the element, its parts joined by " " as axe-core prints them.
    selector: str
    snippet: str
    # A record written before rendered findings existed has no `source`: it was static.
    source: Source = Source.STATIC


def finding(document: Document, outcome: Outcome) -> Finding:
    impact, wcag = _rule_meta(outcome.rule)
    element = outcome.element
    return _finding(
        outcome.rule, impact, wcag, selector(document, element), snippet(element), Source.STATIC
    )


# A finding for every failure of every page: built without the frozen dataclass's generated
# __init__ (common.fast_record says why that costs).
_finding = maker(Finding)


@cache
def _rule_meta(rule: RuleId) -> tuple[Impact, tuple[str, ...]]:
    """The rule's impact and success criteria, read once (an Enum lookup costs)."""
    meta = aria().rules[rule]
    return Impact(meta["impact"]), tuple(meta["wcag"])


def selector(document: Document, element: Element) -> str:
    """A short CSS selector that finds only this element: `#id` when the id is unique, else
    `tag:nth-child(n)` steps up to the nearest ancestor with a unique id (or `html`)."""
    steps: list[str] = []
    node: Element | None = element
    while node is not None:
        unique = _unique_id(document, node)
        if unique is not None:
            steps.append(unique)
            break
        parent = document.parent(node)
        if parent is None:
            steps.append(node.tag)
            break
        index, same = _place(parent, node)
        steps.append(node.tag if same == 1 else f"{node.tag}:nth-child({index})")
        node = parent
    return " > ".join(reversed(steps))


def _place(parent: Element, node: Element) -> tuple[int, int]:
    """The node's 1-based index among its parent's element children, and how many of those
    have its tag, in one pass."""
    index = same = 0
    found = False
    tag = node.tag
    for child in parent.children:
        if isinstance(child, str):
            continue
        if not found:
            index += 1
            found = child is node
        if child.tag == tag:
            same += 1
    return index, same


def _unique_id(document: Document, element: Element) -> str | None:
    value = element.get("id")
    if value and _IDENT.match(value) and document.id_counts.get(value) == 1:
        return f"#{value}"
    return None


def snippet(element: Element) -> str:
    """The element's start tag (and `…</tag>` when it has content), at most SNIPPET_CHARS."""
    attributes = "".join(
        f' {name}="{html.escape(value, quote=True)}"' if value else f" {name}"
        for name, value in element.attributes.items()
    )
    text = f"<{element.tag}{attributes}>"
    if element.children:
        text += f"…</{element.tag}>"
    if len(text) > SNIPPET_CHARS:
        text = text[: SNIPPET_CHARS - 1] + "…"
    return text
